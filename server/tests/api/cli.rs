//! The `paylink` binary as a person runs it: create a token, serve, use it.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::helpers::serve_binary;

use reqwest::StatusCode;
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_paylink");

#[tokio::test]
async fn token_create_then_serve_then_use_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::helpers::test_database(dir.path(), "cli.db").await;
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
        paylink_server::http::auth::parse_token(&token).is_some(),
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

    let (mut child, addr) =
        serve_binary(&["--db", &db, "--public-url", "https://pay.loja.example"]);

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

/// A PostgreSQL server that is not there: a clear error that names the
/// database without its password (given here through PAYLINK_DB, as the
/// README advises, to keep it out of `ps`).
#[test]
fn an_unreachable_postgres_is_a_clear_error_without_the_password() {
    let out = Command::new(BIN)
        .args(["token", "create", "--name", "a"])
        .env(
            "PAYLINK_DB",
            "postgres://loja:s3nha-secreta@127.0.0.1:1/paylink",
        )
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot open database postgres://loja:***@127.0.0.1:1/paylink"),
        "{stderr}"
    );
    assert!(!stderr.contains("s3nha"), "{stderr}");
}

fn paylink(args: &[&str], db: &str) -> String {
    let out = Command::new(BIN)
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "paylink {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn serve(db: &str) -> (std::process::Child, String) {
    serve_binary(&["--allow-insecure-webhooks", "--db", db])
}

/// The README's merchant story: webhooks registered with the CLI while the
/// server runs, the receiver down for the first attempts, the server killed
/// (-9) in the middle of the retries and restarted, a payment simulated from
/// the CLI; every event still arrives, signed with the printed secret.
#[tokio::test]
async fn webhooks_survive_a_killed_server_and_a_receiver_that_was_down() {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::helpers::test_database(dir.path(), "events.db").await;
    let token = paylink(&["token", "create", "--name", "loja"], &db)
        .lines()
        .last()
        .unwrap()
        .to_string();
    let rx = crate::receiver::Receiver::start().await;
    for kind in ["INVOICE_CREATED", "PAYMENT_GENERATED", "PAYMENT_CONFIRMED"] {
        paylink(
            &[
                "webhook",
                "add",
                "--token-name",
                "loja",
                "--hook-type",
                kind,
                "--url",
                &rx.url,
                "--allow-insecure",
            ],
            &db,
        );
    }
    let secret = paylink(&["webhook", "secret", "--token-name", "loja"], &db)
        .trim()
        .to_string();
    rx.fail_with(&[(500, None), (500, None)]);

    let (mut server, addr) = serve(&db);
    let client = reqwest::Client::new();
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
    let mut req = crate::helpers::invoice_body(customer["id"].as_str().unwrap());
    req["webhooks"] = json!([]);
    req["installmentCount"] = json!(2);
    let invoice: serde_json::Value = client
        .post(format!("{addr}/invoices/applications/invoices"))
        .header("Authorization", &auth)
        .json(&req)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = invoice["id"].as_str().unwrap().to_string();

    // Kill once every delivery has had its first attempt (two failed and wait
    // for their 5 s retry, the others succeeded): the retries are the new server's job.
    for _ in 0..200 {
        let list = paylink(&["webhook", "deliveries"], &db);
        if list.lines().count() == 3 && list.lines().all(|l| !l.contains("\"attempts\":0")) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        rx.received().len(),
        3,
        "two failures and one success, no retry yet"
    );
    server.kill().unwrap();
    server.wait().unwrap();
    let (mut server, _) = serve(&db);
    paylink(
        &[
            "simulate",
            "pay",
            &id,
            "--installment",
            "2",
            "--method",
            "PIX",
        ],
        &db,
    );

    let got = rx
        .wait_for(20, "every event answered 200", |g| {
            // The first two receipts were answered 500; the rest were accepted.
            let mut ids: Vec<&str> = g.iter().skip(2).map(|r| r.id.as_str()).collect();
            ids.sort();
            ids.dedup();
            ids.len() == 4
        })
        .await;
    // The receiver has answered 200 to everything; wait until the server has
    // recorded it too (it may answer before the row is written).
    for _ in 0..200 {
        let list = paylink(&["webhook", "deliveries"], &db);
        if list.lines().count() == 4 && list.lines().all(|l| l.contains("\"status\":\"succeeded\""))
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    server.kill().unwrap();
    server.wait().unwrap();
    let mut by_id = std::collections::BTreeMap::new();
    for r in &got {
        assert!(r.verify(&secret), "signed: {}", r.body);
        by_id
            .entry(r.id.clone())
            .or_insert_with(Vec::new)
            .push(r.json());
    }
    let mut types: Vec<String> = by_id
        .values()
        .map(|v| v[0]["type"].as_str().unwrap().to_string())
        .collect();
    types.sort();
    assert_eq!(
        types,
        [
            "INVOICE_CREATED",
            "PAYMENT_CONFIRMED",
            "PAYMENT_GENERATED",
            "PAYMENT_GENERATED"
        ]
    );
    for copies in by_id.values() {
        assert!(
            copies.windows(2).all(|w| w[0] == w[1]),
            "a duplicate is the same event"
        );
    }
    let deliveries = paylink(&["webhook", "deliveries"], &db);
    assert_eq!(deliveries.lines().count(), 4);
    assert!(
        deliveries
            .lines()
            .all(|l| l.contains("\"status\":\"succeeded\"")),
        "{deliveries}"
    );

    // Illegal transitions are clear errors from the CLI.
    let again = Command::new(BIN)
        .args(["simulate", "pay", &id, "--installment", "2", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already paid"));
}

/// On an address other than loopback the merchant's forms are off unless
/// `--operator-ui` says the operator put paylink behind their own login.
#[tokio::test]
async fn serve_on_a_public_address_needs_operator_ui_for_the_forms() {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::helpers::test_database(dir.path(), "public.db").await;
    let token = paylink(&["token", "create", "--name", "loja"], &db)
        .lines()
        .last()
        .unwrap()
        .to_string();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, &token).unwrap();
    for (extra, expected) in [
        (None, StatusCode::FORBIDDEN),
        (Some("--operator-ui"), StatusCode::CREATED),
    ] {
        let mut cmd = Command::new(BIN);
        cmd.args(["serve", "--listen", "0.0.0.0:0", "--db"])
            .arg(&db)
            .arg("--token-file")
            .arg(&token_file);
        if let Some(flag) = extra {
            cmd.arg(flag);
        }
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().rsplit(':').next().unwrap().to_string();
        let res = reqwest::Client::new()
            .post(format!("http://127.0.0.1:{port}/api/customers"))
            .json(&json!({ "fullName": "Maria" }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), expected, "{extra:?}");
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

/// The leaf commands of `paylink`, found from its help (so a new command is
/// covered without touching this test): `["token", "create"]`, ...
fn leaf_commands(path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let help = Command::new(BIN)
        .args(path.iter())
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8(help.stdout).unwrap();
    let subs: Vec<String> = text
        .split("Commands:\n")
        .nth(1)
        .map(|rest| {
            rest.lines()
                .take_while(|l| !l.trim().is_empty())
                .filter_map(|l| l.split_whitespace().next())
                .filter(|name| *name != "help")
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if subs.is_empty() {
        out.push(path.clone());
    }
    for s in subs {
        path.push(s);
        leaf_commands(path, out);
        path.pop();
    }
}

/// Every command takes its database from PAYLINK_DB too (a PostgreSQL
/// password stays off the command line and out of `ps`), and none prints it:
/// not in `--help`, not when the database cannot be reached.
#[test]
fn every_command_reads_paylink_db_and_never_prints_its_password() {
    let mut leaves = Vec::new();
    leaf_commands(&mut Vec::new(), &mut leaves);
    assert!(leaves.len() >= 10, "{leaves:?}");
    let secret_url = "postgres://loja:s3nha@127.0.0.1:1/paylink";
    // `bank-sim` is a stand-in for a bank, not paylink: it has no database.
    for leaf in leaves.iter().filter(|l| l[..] != ["bank-sim"]) {
        let help = Command::new(BIN)
            .args(leaf)
            .arg("--help")
            .env("PAYLINK_DB", secret_url)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&help.stdout);
        assert!(
            text.contains("[env: PAYLINK_DB]"),
            "{leaf:?} ignores PAYLINK_DB:\n{text}"
        );
        assert!(
            !text.contains("s3nha"),
            "{leaf:?} --help shows the password:\n{text}"
        );
    }
    // Reading commands need no other argument: they go to the database in
    // PAYLINK_DB, and the error names it without its password.
    for leaf in [
        &["notifications", "list"][..],
        &["webhook", "deliveries"],
        &["link", "list"],
    ] {
        let out = Command::new(BIN)
            .args(leaf)
            .env("PAYLINK_DB", secret_url)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{leaf:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("postgres://loja:***@127.0.0.1:1/paylink"),
            "{leaf:?}: {stderr}"
        );
        assert!(!stderr.contains("s3nha"), "{leaf:?}: {stderr}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("from-env.db");
    let out = Command::new(BIN)
        .args(["link", "list"])
        .env("PAYLINK_DB", &file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(file.is_file(), "link list did not open PAYLINK_DB");
}
