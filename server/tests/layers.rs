//! The server's source rules. Layers run one way (see `src/lib.rs`): each top-level module
//! may use only the modules listed for it here, so no import cycle can come back unnoticed.
//! Read from the sources: every `crate::<module>` path counts (`super::` never leaves a layer
//! here: top-level modules do not use it). No two files form a circle, in the server or in
//! `model/` (the reading is `layers/shape.rs`, which `scripts/shape` prints from too); no
//! `Result<_, String>` outside tests; no error type name twice. And routes take the
//! envelope's extractors (`http::extract`), never axum's `Path`, `Query`, `Form` or `Json`,
//! whose rejections are plain text.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

#[path = "layers/shape.rs"]
mod shape;

/// Who may use whom. `error` (the one error type) sits above `domain` and `store`.
const ALLOWED: &[(&str, &[&str])] = &[
    (
        "cli",
        &[
            "app", "metrics", "pay", "http", "proxy", "web", "workers", "bank", "domain", "store",
            "error",
        ],
    ),
    (
        "app",
        &[
            "metrics", "pay", "http", "proxy", "web", "workers", "bank", "domain", "store", "error",
        ],
    ),
    ("pay", &["http", "proxy", "web", "domain", "store", "error"]),
    // The metrics' recorder, request layer and /metrics listener: beside the app, reading
    // the outbox's depth and the pools from the store.
    ("metrics", &["store"]),
    ("http", &["bank", "domain", "store", "error"]),
    // The server-rendered payer pages take the widget pages' CSP rule from `web`.
    ("proxy", &["http", "web", "domain", "store", "error"]),
    ("web", &["http"]),
    ("workers", &["bank", "domain", "store"]),
    // The client of a bank's API Pix: the workers (charges), the callback receiver (confirming a
    // Pix) and the CLI (refunds) call the bank; it needs only the bodies of domain::pix_api.
    ("bank", &["domain"]),
    ("domain", &["store"]),
    ("store", &[]),
    // The one error type names the refusals of the layers below it, so `?` answers them.
    ("error", &["domain", "store"]),
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn layers_depend_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed: BTreeMap<&str, BTreeSet<&str>> = ALLOWED
        .iter()
        .map(|(m, deps)| (*m, deps.iter().copied().collect()))
        .collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap()
            .trim_end_matches(".rs");
        if matches!(top, "lib" | "main") {
            continue;
        }
        let deps = allowed
            .get(top)
            .unwrap_or_else(|| panic!("src/{top} is a new layer: add it to ALLOWED"));
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = rest.find("crate::") {
                rest = &rest[at + "crate::".len()..];
                let used: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let is_layer = allowed.contains_key(used.as_str());
                if is_layer && used != top && !deps.contains(used.as_str()) {
                    broken.push(format!(
                        "src/{}:{}: {top} uses {used}",
                        rel.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(
        files.len() > 40,
        "read only {} files: is src/ where this test thinks?",
        files.len()
    );
    assert!(
        broken.is_empty(),
        "layer rule broken:\n{}",
        broken.join("\n")
    );
}

/// Circles between files that this branch leaves to another: each entry is one circle's
/// files, and each must still be a circle (a stale entry fails, to be removed).
const KNOWN_CIRCLES: &[&[&str]] = &[];

/// The circles in the crate whose sources are `src`, minus `known`; fails on a known circle
/// that is gone.
fn circles(src: &Path, known: &[&[&str]]) -> Vec<String> {
    let files = shape::read_crate(src);
    assert!(
        files.len() > 20,
        "read only {} files under {}",
        files.len(),
        src.display()
    );
    let found = shape::graph(&files).circles();
    for k in known {
        let k: BTreeSet<String> = k.iter().map(|s| s.to_string()).collect();
        assert!(
            found.iter().any(|(members, _)| *members == k),
            "{k:?} is no longer a circle: remove it from KNOWN_CIRCLES"
        );
    }
    found
        .into_iter()
        .filter(|(members, _)| {
            !known
                .iter()
                .any(|k| k.len() == members.len() && k.iter().all(|m| members.contains(*m)))
        })
        .map(|(members, cycle)| {
            let names: Vec<&str> = members.iter().map(String::as_str).collect();
            format!("{}\n    {}", names.join(" ↔ "), cycle.join("\n    "))
        })
        .collect()
}

/// No two files of the server name each other, directly or around a longer loop, in one
/// layer or across layers (a `mod.rs` and its own children excepted: they are one module).
#[test]
fn no_circle_between_the_servers_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = circles(&src, KNOWN_CIRCLES);
    assert!(
        found.is_empty(),
        "circles between files:\n{}",
        found.join("\n")
    );
}

/// The model's files form no circle either: `errors` names no module that uses it.
#[test]
fn no_circle_between_the_models_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../model/src");
    let found = circles(&src, &[]);
    assert!(
        found.is_empty(),
        "circles between files:\n{}",
        found.join("\n")
    );
}

/// No function outside tests answers `Result<_, String>`: each failure is a type that says
/// which it is (`ConfigError`, `SettlementError`, `SmtpError`, …), its words in its Display.
#[test]
fn no_result_has_a_string_error_outside_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = shape::string_errors(&shape::read_crate(&root.join("src")));
    found.extend(
        shape::string_errors(&shape::read_crate(&root.join("../model/src")))
            .into_iter()
            .map(|at| format!("model/{at}")),
    );
    assert!(
        found.is_empty(),
        "Result<_, String> outside tests:\n{}",
        found.join("\n")
    );
}

/// Each error type has one name across the server and the model: two types called
/// `RetornoError` (reading a retorno, applying one) read as one in a log or a signature.
#[test]
fn no_error_type_name_is_defined_twice() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut types = shape::error_types(&shape::read_crate(&root.join("src")));
    for (name, at) in shape::error_types(&shape::read_crate(&root.join("../model/src"))) {
        types
            .entry(name)
            .or_default()
            .extend(at.into_iter().map(|a| format!("model/{a}")));
    }
    assert!(
        types.len() > 5,
        "read only {} error types: is the reading right?",
        types.len()
    );
    let twice = shape::twice(&types);
    assert!(
        twice.is_empty(),
        "error type names defined twice:\n{}",
        twice.join("\n")
    );
}

/// The modules that answer requests take path, query and body through `http::extract`
/// (`ApiPath`, `ApiQuery`, `ApiJson`, `RawBody`): axum's own extractors reject in
/// `text/plain`, outside the envelope.
#[test]
fn routes_take_the_envelope_extractors() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["http", "proxy", "web"] {
        rust_files(&src.join(dir), &mut files);
    }
    files.push(src.join("app.rs"));
    let mut broken = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("http/extract.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let imports = code
                .split_once("axum::extract::")
                .map_or("", |(_, rest)| rest.trim_start_matches('{'));
            let imported = imports
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|name| matches!(name, "Path" | "Query" | "Form" | "Json"));
            let axum_json = code.contains("): Json<") || code.contains("): axum::Json<");
            if imported || axum_json {
                broken.push(format!(
                    "src/{}:{}: {}",
                    file.strip_prefix(&src).unwrap().display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "axum's own extractor (use http::extract's):\n{}",
        broken.join("\n")
    );
}

/// The production server carries no TLS server and makes no certificates: those are the local
/// bank's (the `banksim` crate), which the server's tests use as a dev-dependency only. (Its
/// TLS is a client's, reqwest's; its own connections are plain HTTP behind a reverse proxy.)
#[test]
fn the_server_carries_no_tls_server_or_certificate_making() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let normal: Vec<&str> = manifest
        .split("\n[")
        .filter(|table| table.starts_with("dependencies]") || table.contains(".dependencies]"))
        .flat_map(str::lines)
        .collect();
    assert!(
        normal.iter().any(|l| l.starts_with("reqwest ")),
        "{normal:?}"
    );
    for krate in ["rcgen", "tokio-rustls", "rustls", "paylink-banksim"] {
        assert!(
            !normal.iter().any(|l| l.starts_with(&format!("{krate} "))),
            "{krate} is a dependency of the production server"
        );
    }
}
