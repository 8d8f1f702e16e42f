//! Running paylink as an operations team does, on the real binary: one configuration from
//! flags, `PAYLINK_*` variables and a TOML file (and `config check`), no demo payment
//! settings outside the sandbox, migrations only when asked, and online backups.

use std::path::Path;
use std::process::{Command, Output};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

const BIN: &str = env!("CARGO_BIN_EXE_paylink");

/// `paylink ARGS` with only the variables in `vars` beside the test's own environment
/// (every `PAYLINK_*` of the caller removed, so a developer's shell cannot leak in).
fn paylink(args: &[&str], vars: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(BIN);
    for (k, _) in std::env::vars() {
        if k.starts_with("PAYLINK_") {
            cmd.env_remove(k);
        }
    }
    cmd.args(args).envs(vars.iter().copied()).output().unwrap()
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The line of `config check`'s output for `setting`, split in value and origin.
fn line<'a>(stdout: &'a str, setting: &str) -> (&'a str, &'a str) {
    let l = stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some(setting))
        .unwrap_or_else(|| panic!("no line for {setting}:\n{stdout}"));
    let rest = l[setting.len()..].trim();
    let (value, origin) = rest.rsplit_once("  (").unwrap();
    (value.trim(), origin.trim_end_matches(')'))
}

#[test]
fn a_setting_comes_from_the_flag_then_the_variable_then_the_file_then_its_default() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("paylink.toml");
    std::fs::write(
        &file,
        r#"
public-url = "https://pagar.loja.example"
payer-rate-limit = 10
merchant-name = "Loja do Arquivo"
merchant-city = "Recife"
merchant-document = "12.345.678/0001-95"
pix-key = "financeiro@loja.example"
payment-types = ["PIX", "BOLETO"]
allowed-origin = ["https://loja.example", "https://www.loja.example"]
sandbox = false

[boleto]
bank = "001"
agreement = "7654321"
beneficiary-code = "1234-5 / 123456-7"
"#,
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let db = "postgres://paylink:senha-do-banco@db.internal/paylink";
    let out = paylink(
        &[
            "config",
            "check",
            "--config",
            file,
            "--merchant-name",
            "Loja da Flag",
        ],
        &[
            ("PAYLINK_PAYER_RATE_LIMIT", "20"),
            ("PAYLINK_MERCHANT_NAME", "Loja da Variavel"),
            ("PAYLINK_TOKEN", "token-secreto-da-loja"),
            ("PAYLINK_DB", db),
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(line(&stdout, "merchant-name"), ("Loja da Flag", "flag"));
    assert_eq!(line(&stdout, "payer-rate-limit"), ("20", "variable"));
    assert_eq!(
        line(&stdout, "public-url"),
        ("https://pagar.loja.example", "file")
    );
    assert_eq!(line(&stdout, "merchant-city"), ("Recife", "file"));
    assert_eq!(line(&stdout, "boleto-agreement"), ("7654321", "file"));
    assert_eq!(
        line(&stdout, "allowed-origin"),
        ("https://loja.example,https://www.loja.example", "file")
    );
    assert_eq!(line(&stdout, "listen"), ("127.0.0.1:8080", "default"));
    assert_eq!(line(&stdout, "token"), ("********", "variable"));
    assert_eq!(line(&stdout, "pix-api-url"), ("-", "not set"));
    let (shown_db, origin) = line(&stdout, "db");
    assert_eq!(origin, "variable");
    assert!(
        shown_db.contains("db.internal") && !shown_db.contains("senha"),
        "{shown_db}"
    );
    assert!(stdout.ends_with("configuration ok\n"), "{stdout}");
    for secret in ["token-secreto-da-loja", "senha-do-banco"] {
        assert!(
            !stdout.contains(secret) && !stderr.contains(secret),
            "{secret} printed"
        );
    }

    // The same file through PAYLINK_CONFIG.
    let out = paylink(&["config", "check"], &[("PAYLINK_CONFIG", file)]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(line(&stdout, "merchant-name"), ("Loja do Arquivo", "file"));
}

#[test]
fn a_bad_configuration_is_refused_naming_the_setting_and_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, body: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, body).unwrap();
        p.to_str().unwrap().to_string()
    };
    let unknown = write("unknown.toml", "pubic-url = \"https://x.example\"\n");
    let malformed = write("malformed.toml", "payer-rate-limit = \"muitos\"\n");
    let not_toml = write("broken.toml", "public-url = \n");
    let secret = write("secret.toml", "token = \"abc\"\n");
    let missing_secret = write(
        "nosecret.toml",
        "sandbox = true\ntoken-file = \"/nonexistent/paylink-token\"\n",
    );
    // (arguments, variables, what stderr must say)
    type Case<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>, &'a str);
    let cases: Vec<Case<'_>> = vec![
        (
            vec!["config", "check", "--config", &unknown],
            vec![],
            "unknown setting `pubic-url`",
        ),
        (
            vec!["config", "check", "--config", &malformed],
            vec![],
            "payer-rate-limit",
        ),
        (
            vec!["config", "check", "--config", &not_toml],
            vec![],
            "broken.toml",
        ),
        (
            vec!["config", "check", "--config", &secret],
            vec![],
            "PAYLINK_TOKEN",
        ),
        (
            vec!["config", "check", "--config", "/nonexistent/p.toml"],
            vec![],
            "/nonexistent/p.toml",
        ),
        (
            vec!["config", "check", "--config", &missing_secret],
            vec![],
            "/nonexistent/paylink-token",
        ),
        (
            vec!["config", "check", "--sandbox", "--token", "abc"],
            vec![],
            "PAYLINK_TOKEN",
        ),
        (
            vec!["config", "check", "--sandbox"],
            vec![("PAYLINK_PAYER_RATE_LIMIT", "-3")],
            "payer-rate-limit",
        ),
        (
            vec!["config", "check", "--sandbox", "--header-timeout", "0"],
            vec![],
            "--header-timeout",
        ),
        (
            vec!["config", "check", "--sandbox"],
            vec![("PAYLINK_IDLE_TIMEOUT", "soon")],
            "idle-timeout",
        ),
        (
            vec!["config", "check", "--sandbox", "--max-connections", "0"],
            vec![],
            "--max-connections",
        ),
        (
            vec!["config", "check"],
            vec![("PAYLINK_SANDBOX", "talvez")],
            "sandbox",
        ),
        (
            vec!["config", "check", "--sandbox"],
            vec![("PAYLINK_LISTEN", "porta-80")],
            "listen",
        ),
        (
            vec!["config", "check", "--sandbox", "--payment-types", "CARTAO"],
            vec![],
            "--payment-types",
        ),
        (
            vec!["serve", "--config", &unknown],
            vec![],
            "unknown setting `pubic-url`",
        ),
    ];
    for (args, vars, says) in cases {
        let out = paylink(&args, &vars);
        let (stdout, stderr) = text(&out);
        assert!(
            !out.status.success(),
            "{args:?} {vars:?} was accepted:\n{stdout}"
        );
        assert!(stderr.contains(says), "{args:?} {vars:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("abc\n") && !stdout.contains("abc\n"),
            "the secret printed"
        );
    }
}

/// Every setting a payer would see, missing at once outside the sandbox: one message
/// naming each flag and variable, and nothing served.
#[test]
fn without_the_sandbox_serve_refuses_to_start_with_demo_payment_settings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.db");
    let out = paylink(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--db",
            db.to_str().unwrap(),
        ],
        &[],
    );
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stdout.is_empty(), "it never listened: {stdout}");
    for (flag, var) in [
        ("--pix-key", "PAYLINK_PIX_KEY"),
        ("--merchant-name", "PAYLINK_MERCHANT_NAME"),
        ("--merchant-city", "PAYLINK_MERCHANT_CITY"),
        ("--merchant-document", "PAYLINK_MERCHANT_DOCUMENT"),
        ("--boleto-bank", "PAYLINK_BOLETO_BANK"),
        ("--boleto-agreement", "PAYLINK_BOLETO_AGREEMENT"),
        (
            "--boleto-beneficiary-code",
            "PAYLINK_BOLETO_BENEFICIARY_CODE",
        ),
    ] {
        assert!(
            stderr.contains(&format!("{flag} ({var})")),
            "{flag}: {stderr}"
        );
    }
    assert!(!db.exists(), "a refused configuration opens no database");

    // A merchant without boleto needs none of the boleto's settings.
    let pix_only = [
        "--payment-types",
        "PIX",
        "--pix-key",
        "financeiro@loja.example",
        "--merchant-name",
        "Loja",
        "--merchant-city",
        "Recife",
    ];
    let out = paylink(&[&["config", "check"][..], &pix_only[..]].concat(), &[]);
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("--merchant-document (PAYLINK_MERCHANT_DOCUMENT)"),
        "{stderr}"
    );
    assert!(!stderr.contains("boleto"), "{stderr}");

    // Beyond loopback, payers' links must be https.
    for (args, says) in [
        (
            vec!["--public-url", "http://pagar.loja.example"],
            "must be https://",
        ),
        (vec!["--listen", "0.0.0.0:8080"], "needs --public-url"),
    ] {
        let out = paylink(
            &[
                &["config", "check"][..],
                &pix_only[..],
                &["--merchant-document", "12.345.678/0001-95"],
                &args[..],
            ]
            .concat(),
            &[],
        );
        let (_, stderr) = text(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let out = paylink(
        &[
            &["config", "check"][..],
            &pix_only[..],
            &[
                "--merchant-document",
                "12.345.678/0001-95",
                "--public-url",
                "http://127.0.0.1:8080",
            ],
        ]
        .concat(),
        &[],
    );
    assert!(
        out.status.success(),
        "loopback may be http: {:?}",
        text(&out)
    );
}

async fn customer(client: &reqwest::Client, addr: &str, auth: &str) -> String {
    let res = client
        .post(format!("{addr}/invoices/applications/customers"))
        .header("Authorization", auth)
        .json(&json!({"fullName": "Maria da Silva", "email": "maria@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn plain_invoice(customer_id: &str, types: Value) -> Value {
    with(
        invoice_body(customer_id),
        json!({"paymentTypes": types, "webhooks": null, "notifications": null}),
    )
}

/// `--payment-types PIX`: the merchant offers no boleto, and an invoice or a link asking
/// for one is refused on `paymentTypes` with the error envelope.
#[tokio::test]
async fn a_merchant_without_boleto_refuses_invoices_and_links_asking_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = migrated_database(dir.path(), "pix.db").await;
    let auth = format!("Basic {}", cli_token(&db));
    let (child, addr) = serve_binary(&[
        "--db",
        &db,
        "--payment-types",
        "PIX",
        "--pix-key",
        "financeiro@loja.example",
        "--merchant-name",
        "Loja",
        "--merchant-city",
        "Recife",
        "--merchant-document",
        "12.345.678/0001-95",
    ]);
    let client = reqwest::Client::new();
    let cid = customer(&client, &addr, &auth).await;
    let post = |path: &'static str, body: Value| {
        let (client, addr, auth) = (client.clone(), addr.clone(), auth.clone());
        async move {
            let res = client
                .post(format!("{addr}{path}"))
                .header("Authorization", auth)
                .json(&body)
                .send()
                .await
                .unwrap();
            (res.status(), res.json::<Value>().await.unwrap())
        }
    };
    let (status, body) = post(
        "/invoices/applications/invoices",
        plain_invoice(&cid, json!(["PIX", "BOLETO"])),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["errors"]["paymentTypes"][0]
            .as_str()
            .is_some_and(|m| m.contains("não aceita")),
        "{body}"
    );
    let (status, body) = post(
        "/invoices/applications/invoices",
        plain_invoice(&cid, json!(["PIX"])),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = post(
        "/invoices/applications/payment-links",
        json!({"name": "Curso", "description": "Curso de violão", "price": 300.00,
               "paymentTypes": ["BOLETO"], "invoiceType": "SINGLE"}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["errors"]["paymentTypes"][0]
            .as_str()
            .is_some_and(|m| m.contains("não aceita")),
        "{body}"
    );
    drop(child);
}

/// Only `migrate` and `serve` change the schema: every other command, and `serve
/// --no-migrate`, refuses a database that needs a migration, naming `paylink migrate`.
#[tokio::test]
async fn migrations_run_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let db = test_database(dir.path(), "m.db").await;
    let out = paylink(&["token", "list", "--db", &db], &[]);
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("paylink migrate"), "{stderr}");
    if !on_postgres() {
        assert!(!Path::new(&db).exists(), "token list made no database");
    }
    let out = paylink(
        &[
            "serve",
            "--sandbox",
            "--no-migrate",
            "--listen",
            "127.0.0.1:0",
            "--db",
            &db,
        ],
        &[],
    );
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success() && stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("paylink migrate"), "{stderr}");

    let status = |db: &str| {
        let out = paylink(&["migrate", "--status", "--db", db], &[]);
        assert!(out.status.success(), "{:?}", text(&out));
        text(&out).0
    };
    if on_postgres() {
        // A new schema: the migrations table is not there yet.
        assert!(status(&db).contains("pending of"), "{}", status(&db));
    }
    let out = paylink(&["migrate", "--db", &db], &[]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("applied 0001"), "{stdout}");
    let after = status(&db);
    assert!(after.contains("\n0 pending of"), "{after}");
    assert!(!after.contains("\tpending\t"), "{after}");
    // Again: nothing to do.
    let out = paylink(&["migrate", "--db", &db], &[]);
    assert!(text(&out).0.contains("(0 applied now"), "{:?}", text(&out));
    let (child, addr) = serve_binary(&["--no-migrate", "--db", &db]);
    let health = reqwest::get(format!("{addr}/healthz")).await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    drop(child);
}

/// `paylink backup` while a server writes: the copy, served again, holds every invoice the
/// server had acknowledged before the backup began.
#[tokio::test]
async fn a_backup_taken_while_the_server_writes_restores_every_acknowledged_invoice() {
    if on_postgres() {
        // PostgreSQL's backups are pg_dump's; paylink says so.
        let out = paylink(
            &["backup", "--to", "/tmp/x.db", "--db", "postgres://h/db"],
            &[],
        );
        assert!(text(&out).1.contains("pg_dump"), "{:?}", text(&out));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = migrated_database(dir.path(), "live.db").await;
    let auth = format!("Basic {}", cli_token(&db));
    let (child, addr) = serve_binary(&["--db", &db]);
    let client = reqwest::Client::new();
    let cid = customer(&client, &addr, &auth).await;
    let acked = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (client, addr, auth, acked, stop) = (
            client.clone(),
            addr.clone(),
            auth.clone(),
            acked.clone(),
            stop.clone(),
        );
        let body = plain_invoice(&cid, json!(["PIX", "BOLETO"]));
        tokio::spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let res = client
                    .post(format!("{addr}/invoices/applications/invoices"))
                    .header("Authorization", &auth)
                    .json(&body)
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let status = res.status();
                let answer = res.json::<Value>().await.map_err(|e| e.to_string())?;
                if status != StatusCode::OK {
                    return Err(format!("{status}: {answer}"));
                }
                acked
                    .lock()
                    .unwrap()
                    .push(answer["id"].as_str().unwrap().to_string());
            }
            Ok::<(), String>(())
        })
    };
    // Writes under way before, during and after the backup.
    while acked.lock().unwrap().len() < 20 {
        assert!(
            !writer.is_finished(),
            "the writer stopped: {:?}",
            writer.await
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let before: Vec<String> = acked.lock().unwrap().clone();
    let copy = dir.path().join("copy.db");
    let copy_s = copy.to_str().unwrap().to_string();
    let out = tokio::task::spawn_blocking({
        let (db, copy_s) = (db.clone(), copy_s.clone());
        move || paylink(&["backup", "--to", &copy_s, "--db", &db], &[])
    })
    .await
    .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.await.unwrap().unwrap();
    let again = paylink(&["backup", "--to", &copy_s, "--db", &db], &[]);
    assert!(!again.status.success());
    assert!(
        text(&again).1.contains("never overwrites"),
        "{:?}",
        text(&again)
    );
    drop(child);

    // Restored: a server on the copy alone (the original's file set aside).
    std::fs::rename(&db, dir.path().join("live.db.gone")).unwrap();
    let (restored, addr) = serve_binary(&["--no-migrate", "--db", &copy_s]);
    for id in &before {
        let res = client
            .get(format!("{addr}/invoices/applications/invoices/{id}"))
            .header("Authorization", &auth)
            .send()
            .await
            .unwrap();
        assert_eq!(
            res.status(),
            StatusCode::OK,
            "invoice {id} acknowledged before the backup"
        );
    }
    drop(restored);
}

/// A sandbox's payer page and payment link page say they are a test environment; a
/// production server's do not.
#[tokio::test]
async fn the_sandbox_says_so_on_payer_pages_and_production_does_not() {
    for sandbox in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let db = migrated_database(dir.path(), "pages.db").await;
        let token = cli_token(&db);
        let token_file = dir.path().join("token");
        std::fs::write(&token_file, &token).unwrap();
        let token_file = token_file.to_str().unwrap().to_string();
        let mut args = vec!["--db", &db, "--token-file", &token_file];
        if sandbox {
            args.push("--sandbox");
        }
        let (child, addr) = serve_binary(&args);
        let client = reqwest::Client::new();
        let auth = format!("Basic {token}");
        let cid = customer(&client, &addr, &auth).await;
        let invoice: Value = client
            .post(format!("{addr}/invoices/applications/invoices"))
            .header("Authorization", &auth)
            .json(&plain_invoice(&cid, json!(["PIX", "BOLETO"])))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let link: Value = client
            .post(format!("{addr}/invoices/applications/payment-links"))
            .header("Authorization", &auth)
            .json(
                &json!({"name": "Curso", "description": "Curso de violão", "price": 300.00,
                          "paymentTypes": ["PIX"], "invoiceType": "SINGLE"}),
            )
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let pay_url = invoice["url"].as_str().unwrap().to_string();
        let link_url = link["url"].as_str().unwrap().to_string();
        for url in [pay_url, link_url] {
            let page = client.get(&url).send().await.unwrap();
            assert_eq!(page.status(), StatusCode::OK, "{url}");
            let html = page.text().await.unwrap();
            assert_eq!(
                html.contains("Ambiente de teste"),
                sandbox,
                "{url} (sandbox: {sandbox})"
            );
        }
        drop(child);
    }
}
