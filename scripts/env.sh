# Sourced (not executed) by scripts/setup, scripts/test, scripts/run and the bench scripts.
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

# Whether the release widget can be built on nightly: a nightly toolchain with rust-src.
widget_nightly() {
    rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src'
}

# The release widget into dist/ (trunk, offline). On nightly it rebuilds std with
# panic=immediate-abort and no panic locations, so no panic-formatting code is linked:
# -14 KB brotli of wasm (bench/widget-size). The widget never unwinds either way
# (profile.release has panic = "abort"). RUSTFLAGS replaces .cargo/config.toml's
# target rustflags, so it repeats `--cfg erase_components`. Stable builds the same app.
# Three trunk targets: index.html (the merchant's screens), payer/index.html, the islands of
# the server-rendered payer page (the `paylink-payer` crate with `hydrate` + `pay`;
# payer/Trunk.toml), and payer/link.html, the link page's (`hydrate` + `link`: the link's form;
# its mount.js names the payer page's bundle, so that one is built first). trunk empties its dist dir, so the islands are built under target/ and copied
# to dist/payer/ and dist/link/, where the server finds them.
build_widget() {
    local dist=dist prev=
    for a in "$@"; do
        [ "$prev" = "--dist" ] && dist="$a"
        case "$a" in --dist=*) dist="${a#--dist=}" ;; esac
        prev="$a"
    done
    if widget_nightly; then
        echo "build_widget: $(rustc +nightly --version), std rebuilt (-Zbuild-std, panic=immediate-abort)" >&2
    else
        echo "build_widget: no nightly with rust-src (scripts/setup); building on stable" >&2
    fi
    _trunk_release "$@" || return
    build_payer_bundles "$dist"
}

# The two payer bundles into DIST/payer/ and DIST/link/ (and DIST/mount.js), as build_widget
# builds them; alone, for the benches that measure only these (bench/widget-size --payer-only).
build_payer_bundles() {
    local dist="$1"
    (cd "$REPO/payer" && PAYLINK_ERASE=0 _trunk_release) || return
    rm -rf "$dist/payer" && mkdir -p "$dist/payer" &&
        cp "$REPO"/target/trunk-payer/paylink-payer-* "$dist/payer/" || return
    (cd "$REPO/payer" && PAYLINK_ERASE=0 _trunk_release link.html \
        --dist ../target/trunk-link --public-url /link/) || return
    # Its post_build hook also wrote mount.js (merchants import it from the root) and the
    # stylesheet mount.js loads.
    rm -rf "$dist/link" && mkdir -p "$dist/link" &&
        cp "$REPO"/target/trunk-link/paylink-payer-* "$REPO"/target/trunk-link/paylink-*.css "$dist/link/" &&
        cp "$REPO/target/trunk-link/mount.js" "$dist/mount.js"
}

# `trunk build "$@" --release --offline` (the target first: `--offline` takes an optional
# value), on nightly with std rebuilt when there is one. `PAYLINK_ERASE=0`: without
# `--cfg erase_components` (.cargo/config.toml's for wasm32), for the payer islands, which must
# hydrate the server's HTML: the server renders without it, and an erased island finds other
# hydration markers than the server wrote (an "Unrecoverable hydration error").
# Every bundle gets std built for size (`optimize_for_size`) and `{:?}` formatting compiled out
# (`-Zfmt-debug=none`; no screen or island shows a Debug string, only tests do): -3.6 KB brotli
# on the payer page's bundle, -4.9 on the merchant's (bench/README.md). `PAYLINK_STD_SIZE=0`
# builds without, for that bench lever; a `--before` build (bench/widget-size) gets the same.
# `PAYLINK_PANIC=abort`: std's and the crates' panic strategy, for a bench lever (immediate-abort
# by default: bench/README.md). Profile levers are cargo's own variables
# (`CARGO_PROFILE_RELEASE_OPT_LEVEL=s`, `CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16`).
_trunk_release() {
    local erase="--cfg erase_components" size="" panic="${PAYLINK_PANIC:-immediate-abort}"
    [ "${PAYLINK_ERASE:-1}" = 0 ] && erase=""
    [ "${PAYLINK_STD_SIZE:-1}" = 1 ] && size="-Zfmt-debug=none"
    if widget_nightly; then
        # `env`, so the build-std features are set only when asked (an empty list would drop
        # std's defaults).
        env ${size:+CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size} \
            RUSTUP_TOOLCHAIN=nightly CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
            RUSTFLAGS="$erase -Zunstable-options -Cpanic=$panic -Zlocation-detail=none $size" \
            trunk build "$@" --release --offline
    else
        RUSTFLAGS="$erase" trunk build "$@" --release --offline
    fi
}

# Prints a step header; every script uses the same format so CI logs are easy to scan.
step() { printf '\n==> %s\n' "$*"; }
skip() { printf 'SKIP: %s\n' "$*"; }
