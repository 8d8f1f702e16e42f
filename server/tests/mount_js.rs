//! `mount.js` (written by `payer/post-build.mjs`) hydrates a mounted page's islands with its own
//! copy of leptos's island traversal (`leptos/src/hydration/island_script.js`): leptos's script
//! hydrates a whole document from `<body>`, mount.js one element, when its content arrives. The
//! copy says which version of that script it follows by its SHA-256; this test fails when the
//! locked leptos's script is another, so whoever moves leptos reads the copy again.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The locked leptos's source folder, as cargo resolves it (a registry or a vendored copy).
fn leptos_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline", "--locked"])
        .current_dir(&root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON");
    let manifest = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == "leptos")
        .and_then(|p| p["manifest_path"].as_str())
        .expect("leptos among the packages");
    Path::new(manifest)
        .parent()
        .expect("its folder")
        .to_path_buf()
}

#[test]
fn mount_js_follows_the_locked_leptos_island_script() {
    let script = leptos_dir().join("src/hydration/island_script.js");
    let bytes = std::fs::read(&script).unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    let locked = format!("{:x}", Sha256::digest(&bytes));
    let post_build = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../payer/post-build.mjs"),
    )
    .expect("payer/post-build.mjs");
    let followed = post_build
        .lines()
        .find_map(|l| l.split("island_script.js sha256 ").nth(1))
        .map(|h| h.trim().trim_end_matches(')'))
        .expect(
            "post-build.mjs names the island_script.js it follows: `island_script.js sha256 <hex>`",
        );
    assert_eq!(
        followed,
        locked,
        "leptos's {} is not the one mount.js's traversal follows: read it, bring hydrateIslands \
         in payer/post-build.mjs in line, and write its sha256 there",
        script.display()
    );
}
