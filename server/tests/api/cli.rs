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
    let db = crate::helpers::migrated_database(dir.path(), "cli.db").await;
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

fn serve(db: &str) -> (crate::helpers::Running, String) {
    serve_binary(&["--allow-insecure-webhooks", "--db", db])
}

/// The README's merchant story: webhooks registered with the CLI while the
/// server runs, the receiver down for the first attempts, the server killed
/// (-9) in the middle of the retries and restarted, a payment simulated from
/// the CLI; every event still arrives, signed with the printed secret.
#[tokio::test]
async fn webhooks_survive_a_killed_server_and_a_receiver_that_was_down() {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::helpers::migrated_database(dir.path(), "events.db").await;
    let token = paylink(&["token", "create", "--name", "loja"], &db)
        .lines()
        .last()
        .unwrap()
        .to_string();
    let rx = crate::receiver::Receiver::start().await;
    let mut printed = Vec::new();
    for kind in ["INVOICE_CREATED", "PAYMENT_GENERATED", "PAYMENT_CONFIRMED"] {
        printed.push(paylink(
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
        ));
    }
    // The first webhook made the signing secret and printed it (last line);
    // the others do not show it again.
    let secret = printed[0].lines().last().unwrap().trim().to_string();
    assert!(secret.starts_with("whsec_"), "{}", printed[0]);
    assert!(printed[1..].iter().all(|p| !p.contains("whsec_")));
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

/// `paylink operator add` with the password on stdin (or in a file), never
/// echoed; `list`; `disable`, which ends the operator's sessions.
#[tokio::test]
async fn operator_add_list_disable() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = crate::helpers::migrated_database(dir.path(), "ops.db").await;
    let password = "uma senha longa o bastante";
    let add = |email: &str, stdin: &str, extra: &[&str]| {
        let mut child = Command::new(BIN)
            .args([
                "operator",
                "add",
                "--email",
                email,
                "--name",
                "Ana Souza",
                "--db",
            ])
            .arg(&db)
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let out = add("Ana@Loja.example", &format!("{password}\n"), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(printed.contains("ana@loja.example"), "{printed}");
    assert!(!printed.contains(password), "the password is never echoed");

    for (email, pw, words) in [
        ("not-an-email", password, "e-mail"),
        ("bia@loja.example", "curta", "at least 12"),
        ("ana@loja.example", password, "already exists"),
    ] {
        let out = add(email, &format!("{pw}\n"), &[]);
        assert_eq!(out.status.code(), Some(2), "{email}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{email}: {err}");
        assert!(!err.contains(pw), "{err}");
    }
    let file = dir.path().join("pw");
    std::fs::write(&file, format!("{password}\n")).unwrap();
    let out = add(
        "bia@loja.example",
        "",
        &["--password-file", file.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let list = paylink(&["operator", "list"], &db);
    assert_eq!(list.lines().count(), 2, "{list}");
    assert!(list.contains("ana@loja.example\tactive"), "{list}");
    assert!(!list.contains("argon2"), "{list}");

    const PUBLIC: &str = "https://paylink.loja.example";
    // The server logs Ana in, behind an HTTPS reverse proxy (a public address:
    // the cookie is Secure and __Host-; the pages' origin is --public-url's).
    let token = paylink(&["token", "create", "--name", "loja"], &db)
        .lines()
        .last()
        .unwrap()
        .to_string();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, &token).unwrap();
    let mut child = Command::new(BIN)
        .args([
            "serve",
            "--listen",
            "0.0.0.0:0",
            "--public-url",
            PUBLIC,
            "--db",
        ])
        .arg(&db)
        .args(crate::helpers::MERCHANT_SETTINGS)
        .arg("--token-file")
        .arg(&token_file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line.trim().rsplit(':').next().unwrap().to_string();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let res = client
        .post(format!("{base}/api/customers"))
        .header("origin", PUBLIC)
        .json(&json!({ "fullName": "Maria" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    // The address the request reached (its Host) is not a page's origin here.
    let res = client
        .post(format!("{base}/api/session"))
        .header("origin", &base)
        .json(&json!({ "email": "ana@loja.example", "password": password }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = client
        .post(format!("{base}/api/session"))
        .header("origin", PUBLIC)
        .json(&json!({ "email": "ana@loja.example", "password": password }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let set = res.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        set.starts_with("__Host-paylink_session=") && set.contains("; Secure"),
        "{set}"
    );
    let cookie = set.split(';').next().unwrap().to_string();
    let create = || {
        client
            .post(format!("{base}/api/customers"))
            .header("origin", PUBLIC)
            .header("cookie", &cookie)
            .json(&json!({ "fullName": "Maria" }))
            .send()
    };
    assert_eq!(create().await.unwrap().status(), StatusCode::CREATED);

    let out = paylink(&["operator", "disable", "--email", "ANA@loja.example"], &db);
    assert!(out.contains("disabled"), "{out}");
    assert_eq!(create().await.unwrap().status(), StatusCode::UNAUTHORIZED);
    let list = paylink(&["operator", "list"], &db);
    assert!(list.contains("ana@loja.example\tdisabled"), "{list}");
    let out = Command::new(BIN)
        .args([
            "operator",
            "disable",
            "--email",
            "ninguem@loja.example",
            "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    child.kill().unwrap();
    child.wait().unwrap();
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
    // The two that open no database: a release's compression and the image's health check.
    leaves.retain(|l| !matches!(l.as_slice(), [c] if c == "precompress" || c == "healthcheck"));
    let secret_url = "postgres://loja:s3nha@127.0.0.1:1/paylink";
    for leaf in &leaves {
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
    let migrated = Command::new(BIN)
        .arg("migrate")
        .env("PAYLINK_DB", &file)
        .output()
        .unwrap();
    assert!(migrated.status.success());
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

/// `paylink` with `args`, its exit code and stderr.
fn paylink_fails(args: &[&str], db: &str) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A token's whole life with a server running on the same database (SQLite,
/// or PostgreSQL under `PAYLINK_TEST_DATABASE_URL`): listed without its
/// secret and with its last use, rotated with a grace period during which
/// both work, revoked and refused by the running server at its very next
/// request, rotated with no grace; the last use is written once a minute,
/// not on every request.
#[tokio::test]
async fn token_list_revoke_and_rotate_reach_the_running_server_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::helpers::migrated_database(dir.path(), "tokens.db").await;
    let made = paylink(&["token", "create", "--name", "loja"], &db);
    let first = made.lines().last().unwrap().trim().to_string();
    let first_id = made
        .lines()
        .find_map(|l| l.strip_prefix("token id: "))
        .unwrap()
        .to_string();
    let (mut child, addr) = serve_binary(&["--db", &db]);
    let client = reqwest::Client::new();
    let status = |token: String| {
        let (client, addr) = (client.clone(), addr.clone());
        async move {
            client
                .get(format!("{addr}/invoices/applications/customers"))
                .header("Authorization", format!("Basic {token}"))
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    let last_used = || async {
        let pool = crate::helpers::raw_pool(&db).await;
        let at: Option<String> =
            sqlx::query_scalar("SELECT last_used_at FROM tokens WHERE id = $1")
                .bind(&first_id)
                .fetch_one(&pool)
                .await
                .unwrap();
        at
    };
    assert_eq!(last_used().await, None);
    assert_eq!(status(first.clone()).await, StatusCode::OK);
    let used = last_used().await.expect("the use is recorded");
    assert_eq!(status(first.clone()).await, StatusCode::OK);
    assert_eq!(
        last_used().await.as_ref(),
        Some(&used),
        "a write on every request"
    );

    let list = paylink(&["token", "list"], &db);
    let (_, secret) = paylink_server::http::auth::parse_token(&first).unwrap();
    assert!(!list.contains(&secret) && !list.contains(&first), "{list}");
    let line = list.lines().find(|l| l.starts_with(&first_id)).unwrap();
    assert!(
        line.contains("\tloja\tactive\t") && line.ends_with(&used),
        "{line}"
    );

    // Rotation with a grace period: both work meanwhile.
    let rotated = paylink(&["token", "rotate", "--name", "loja", "--grace", "1h"], &db);
    let second = rotated.lines().last().unwrap().trim().to_string();
    let second_id = rotated
        .lines()
        .find_map(|l| l.strip_prefix("new token id: "))
        .unwrap()
        .to_string();
    assert!(rotated.contains("keep working until"), "{rotated}");
    assert_eq!(status(second.clone()).await, StatusCode::OK);
    assert_eq!(status(first.clone()).await, StatusCode::OK);
    let list = paylink(&["token", "list"], &db);
    let line = list.lines().find(|l| l.starts_with(&first_id)).unwrap();
    assert!(line.contains("\texpires "), "{line}");

    // Revoked: the running server refuses it at its next request.
    let revoked = paylink(&["token", "revoke", &first_id], &db);
    assert!(revoked.contains("revoked"), "{revoked}");
    assert_eq!(status(first.clone()).await, StatusCode::UNAUTHORIZED);
    assert_eq!(status(second.clone()).await, StatusCode::OK);
    let again = paylink(&["token", "revoke", &first_id], &db);
    assert!(again.contains("already revoked"), "{again}");
    let list = paylink(&["token", "list"], &db);
    let line = list.lines().find(|l| l.starts_with(&first_id)).unwrap();
    assert!(line.contains("\trevoked "), "{line}");

    // No grace: the old one is refused at once.
    let third = paylink(&["token", "rotate", "--name", "loja", "--grace", "0"], &db);
    let third = third.lines().last().unwrap().trim().to_string();
    assert_eq!(status(second.clone()).await, StatusCode::UNAUTHORIZED);
    assert_eq!(status(third.clone()).await, StatusCode::OK);
    let list = paylink(&["token", "list"], &db);
    let line = list.lines().find(|l| l.starts_with(&second_id)).unwrap();
    assert!(line.contains("\texpired "), "{line}");

    // Bad input: clear usage errors (exit 2), nothing changed.
    let (code, err) = paylink_fails(&["token", "revoke", "no-such-token"], &db);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no token \"no-such-token\""), "{err}");
    let (code, err) = paylink_fails(&["token", "rotate", "--name", "loja", "--grace", "5x"], &db);
    assert_eq!(code, Some(2), "{err}");
    let (code, err) = paylink_fails(&["token", "rotate", "--name", "nenhuma"], &db);
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("no application named"), "{err}");
    assert_eq!(status(third).await, StatusCode::OK);

    child.kill().unwrap();
    child.wait().unwrap();
}

/// `webhook add | list | remove | rotate-secret`: the API's rules (the same
/// functions), its field errors named by flag, the secret printed once.
#[tokio::test]
async fn webhooks_are_managed_from_the_command_line_with_the_api_rules() {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::helpers::migrated_database(dir.path(), "hooks.db").await;
    paylink(&["token", "create", "--name", "loja"], &db);
    let add = |kind: &str, url: &str| {
        paylink_fails(
            &[
                "webhook",
                "add",
                "--token-name",
                "loja",
                "--hook-type",
                kind,
                "--url",
                url,
            ],
            &db,
        )
    };
    for (kind, url, says) in [
        ("PAID", "https://loja.example/h", "--hook-type: "),
        ("INVOICE_CREATED", "http://loja.example/h", "--url: "),
        ("INVOICE_CREATED", "https://10.1.2.3/h", "--url: "),
    ] {
        let (code, stderr) = add(kind, url);
        assert_eq!(code, Some(2), "{kind} {url}");
        assert!(stderr.contains(says), "{stderr}");
    }
    let out = paylink(
        &[
            "webhook",
            "add",
            "--token-name",
            "loja",
            "--hook-type",
            "INVOICE_CREATED",
            "--url",
            "https://loja.example/h",
        ],
        &db,
    );
    let secret = out.lines().last().unwrap();
    assert!(secret.starts_with("whsec_"), "{out}");
    let (code, stderr) = add("INVOICE_CREATED", "https://loja.example/h");
    assert_eq!(code, Some(2));
    assert!(stderr.contains("already receives"), "{stderr}");

    let list = paylink(&["webhook", "list", "--token-name", "loja"], &db);
    assert!(!list.contains("whsec_"), "{list}");
    let row = list.lines().nth(1).unwrap();
    assert!(
        row.contains("INVOICE_CREATED\thttps://loja.example/h"),
        "{row}"
    );
    let id = row.split('\t').next().unwrap();

    let rotated = paylink(&["webhook", "rotate-secret", "--token-name", "loja"], &db);
    let new = rotated.lines().last().unwrap();
    assert!(new.starts_with("whsec_") && new != secret, "{rotated}");
    assert!(
        rotated.contains("The previous secret also signs every delivery until 20"),
        "{rotated}"
    );

    paylink(&["webhook", "remove", id, "--token-name", "loja"], &db);
    let (code, stderr) = paylink_fails(&["webhook", "remove", id, "--token-name", "loja"], &db);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("no webhook"), "{stderr}");
    let list = paylink(&["webhook", "list", "--token-name", "loja"], &db);
    assert_eq!(list.lines().count(), 1, "the header only: {list}");
}
