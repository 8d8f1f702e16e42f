# Sourced (not executed) by scripts/setup, scripts/test, scripts/run and bench/widget-size/run.
# Sets up PATH so every tool resolves to the one setup installed, whatever the caller's shell had.

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export REPO

# npm's node_modules/.bin comes first: trunk runs the first `wasm-opt` on PATH, and Debian's
# binaryen (108) produces wasm that fails at run time (see /work/shared/TOOLCHAIN.md).
# ~/.cargo/bin holds trunk, wasm-bindgen and wasm-pack from `cargo install`.
export PATH="$REPO/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# One shared target/ for cargo, trunk and wasm-pack: a CARGO_TARGET_DIR left over in the
# caller's shell would make scripts/run look for target/server/paylink in the wrong place.
unset CARGO_TARGET_DIR

# wasm-pack test and wasm-bindgen-test-runner use this instead of downloading a chromedriver.
export CHROMEDRIVER=/usr/bin/chromedriver

# The version of the wasm-bindgen crate in Cargo.lock: the wasm-bindgen CLI must match it exactly.
wasm_bindgen_lock_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$REPO/Cargo.lock"
}

# Prints a step header; every script uses the same format so CI logs are easy to scan.
step() { printf '\n==> %s\n' "$*"; }
skip() { printf 'SKIP: %s\n' "$*"; }
