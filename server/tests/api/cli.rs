//! The `paylink` binary as a person runs it: create a token, serve, use it.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use reqwest::StatusCode;
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_paylink");

#[tokio::test]
async fn token_create_then_serve_then_use_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cli.db");
    let out = Command::new(BIN)
        .args(["token", "create", "--db"])
        .arg(&db)
        .args(["--name", "loja"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let token = stdout.lines().last().unwrap().trim().to_string();
    assert!(
        paylink_server::auth::parse_token(&token).is_some(),
        "last line is the token: {stdout}"
    );

    // The same name twice is a clear error, not a crash.
    let again = Command::new(BIN)
        .args(["token", "create", "--db"])
        .arg(&db)
        .args(["--name", "loja"])
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));

    let mut child = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(&db)
        .args(["--public-url", "https://pay.loja.example"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("paylink listening on ")
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();

    let client = reqwest::Client::new();
    assert_eq!(
        client
            .get(format!("{addr}/healthz"))
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    let auth = format!("Basic {token}");
    let customer: serde_json::Value = client
        .post(format!("{addr}/invoices/applications/customers"))
        .header("Authorization", &auth)
        .json(&json!({ "fullName": "Maria" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let invoice: serde_json::Value = client
        .post(format!("{addr}/invoices/applications/invoices"))
        .header("Authorization", &auth)
        .json(&crate::helpers::invoice_body(
            customer["id"].as_str().unwrap(),
        ))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = invoice["id"].as_str().unwrap();
    assert_eq!(invoice["url"], format!("https://pay.loja.example/pay/{id}"));
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_database_path_that_cannot_be_opened_is_a_clear_error() {
    let out = Command::new(BIN)
        .args([
            "token",
            "create",
            "--db",
            "/nonexistent-dir/x.db",
            "--name",
            "a",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open database"));
}
