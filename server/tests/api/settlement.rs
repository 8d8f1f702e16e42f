//! Settlement (issue 24, items 2 and 3) through the real binary: a CNAB 240
//! remessa registers the open boletos once, fixed retorno files written by
//! hand from the FEBRABAN layout (`tests/fixtures/cnab240/`) confirm a
//! payment once, damaged ones change nothing; `installment mark-paid`.
//!
//! Its tests run `paylink` commands (a blocking child process) beside the server they spawn
//! in-process, so they run on two threads: on a test's single thread the server would stand
//! still, maybe inside a write transaction, while the command waits for that write lock (and
//! fails "database is locked" after the busy timeout).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

use crate::helpers::*;
use crate::receiver::Receiver;

const BIN: &str = env!("CARGO_BIN_EXE_paylink");

/// The installment ids the fixtures were written for (their segments carry
/// the first 25 characters as the company's reference). The nosso número is
/// the agreement + the number the database gave the installment, and a fresh
/// database numbers from 1: the fixtures' 12345670000000001 and …0002.
const ID1: &str = "00000000-0001-4000-8000-000000000001";
const ID2: &str = "00000000-0002-4000-8000-000000000002";

pub(crate) fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cnab240")
        .join(name)
}

fn run(args: &[&str], db: &str) -> Output {
    Command::new(BIN)
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap()
}

pub(crate) fn ok(args: &[&str], db: &str) -> String {
    let out = run(args, db);
    assert!(
        out.status.success(),
        "paylink {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Fails with exit code `code`; its stderr.
fn fails(args: &[&str], db: &str, code: i32) -> String {
    let out = run(args, db);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "paylink {args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

pub(crate) fn remessa_args(out: &str) -> Vec<&str> {
    vec![
        "boleto",
        "remessa",
        "--out",
        out,
        "--merchant-document",
        "12.345.678/0001-95",
        "--merchant-name",
        "Loja Exemplo Ltda",
        "--boleto-beneficiary-code",
        "1234-5 / 123456-7",
        "--boleto-bank",
        "001",
        "--boleto-agreement",
        "1234567",
    ]
}

/// An invoice of two boleto installments of R$ 50,00 for a customer with an
/// address, its PAYMENT_CONFIRMED webhook at `hook`; the installments get
/// the ids the fixtures were written for.
pub(crate) async fn boleto_invoice(app: &TestApp, hook: &str) -> String {
    let customer = body(
        app.post_customer(&json!({
            "fullName": "Maria da Silva", "document": "529.982.247-25",
            "email": "maria@example.com",
            "address": { "address": "Av. Paulista", "number": "1000", "neighborhood": "Bela Vista",
                         "zipcode": "01310-100", "state": "SP", "city": "São Paulo" }
        }))
        .await,
    )
    .await;
    let req = with(
        invoice_body(customer["id"].as_str().unwrap()),
        json!({
            "installmentCount": 2,
            "paymentTypes": ["BOLETO"],
            "notifications": [],
            "webhooks": [{ "hookType": "PAYMENT_CONFIRMED", "url": hook }],
            "fine": { "type": "PERCENTAGE", "value": 2.0 },
            "interest": { "value": 1.0 },
        }),
    );
    let res = app.post_invoice(&req).await;
    let created = body(res).await;
    let id = created["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{created}"))
        .to_string();
    let pool = app.raw_pool().await;
    let numbers: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT number, our_number FROM installments WHERE invoice_id = $1 ORDER BY number",
    )
    .bind(&id)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(numbers, [(1, 1), (2, 2)], "a fresh database numbers from 1");
    for (n, new) in [(1, ID1), (2, ID2)] {
        sqlx::query("UPDATE installments SET id = $1 WHERE invoice_id = $2 AND number = $3")
            .bind(new)
            .bind(&id)
            .bind(n as i64)
            .execute(&pool)
            .await
            .unwrap();
    }
    id
}

async fn states(app: &TestApp) -> Vec<(String, String)> {
    sqlx::query_as("SELECT our_number, state FROM boleto_registrations ORDER BY our_number")
        .fetch_all(&app.raw_pool().await)
        .await
        .unwrap()
}

async fn confirmed_events(app: &TestApp) -> Vec<String> {
    sqlx::query_scalar("SELECT payload FROM events WHERE type = 'PAYMENT_CONFIRMED'")
        .fetch_all(&app.raw_pool().await)
        .await
        .unwrap()
}

fn installment(detail: &Value, n: u64) -> &Value {
    detail["installments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["installment"] == n)
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remessa_then_retorno_confirms_the_installment_once() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    let id = boleto_invoice(&app, &rx.url).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("remessa-1.rem");
    let out_s = out.to_str().unwrap();

    let printed = ok(&remessa_args(out_s), &app.db_target);
    assert!(printed.contains("remessa 1 written"), "{printed}");
    assert!(printed.contains("2 boletos registered"), "{printed}");
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(
        lines.len(),
        11,
        "header, batch header, 2 × P Q R, 2 trailers, and the last CR LF"
    );
    assert!(lines[..10].iter().all(|l| l.len() == 240));
    // Segment P of installment 1: nosso número, vencimento, valor (positions of the layout).
    let p = lines[2];
    assert_eq!(&p[13..14], "P");
    assert_eq!(&p[37..57], "12345670000000001   ");
    let due = next_jan_31();
    assert_eq!(
        &p[77..85],
        format!("{:02}{:02}{}", due.day(), due.month(), due.year())
    );
    assert_eq!(&p[85..100], "000000000005000");
    // Juros: code 1, R$ 0,01 a day (1 % a month of R$ 50,00 ÷ 30 = 1,66 cents, truncated).
    assert_eq!(&p[117..118], "1");
    assert_eq!(&p[126..141], "000000000000001");
    // Segment Q: the payer; segment R: the 2 % fine.
    assert_eq!(&lines[3][33..47], "MARIA DA SILVA");
    assert_eq!(&lines[3][128..136], "01310100");
    assert_eq!(&lines[4][65..66], "2");
    assert_eq!(&lines[4][74..89], "000000000000200");
    // Trailer de arquivo: 1 batch, 10 records.
    assert_eq!(&lines[9][17..29], "000001000010");
    assert_eq!(
        states(&app).await,
        [
            ("12345670000000001".into(), "SENT".into()),
            ("12345670000000002".into(), "SENT".into())
        ]
    );

    // Nothing is registered twice: a second remessa has nothing to send.
    let again = dir.path().join("remessa-2.rem");
    let printed = ok(&remessa_args(again.to_str().unwrap()), &app.db_target);
    assert!(printed.contains("no boleto to register"), "{printed}");
    assert!(!again.exists());

    // The bank's retorno: both registered, installment 1 paid, installment 2 written off.
    let ret = fixture("retorno-ok.ret");
    let printed = ok(
        &["boleto", "retorno", ret.to_str().unwrap()],
        &app.db_target,
    );
    assert!(
        printed.contains("line 7: nosso número 12345670000000001"),
        "{printed}"
    );
    assert!(
        printed.contains("CONFIRMED, paid R$ 50,00 on 2027-01-29"),
        "{printed}"
    );
    assert!(
        printed.contains("line 9: nosso número 12345670000000002"),
        "{printed}"
    );
    assert_eq!(
        states(&app).await,
        [
            ("12345670000000001".into(), "PAID".into()),
            ("12345670000000002".into(), "WRITTEN_OFF".into())
        ]
    );
    let detail = body(app.get_invoice(&id).await).await;
    let first = installment(&detail, 1);
    assert_eq!(first["_status"], "CONFIRMED", "{detail}");
    assert_eq!(first["pricePaid"], 50.0);
    assert!(
        first["paidAt"].as_str().unwrap().starts_with("2027-01-29"),
        "{first}"
    );
    assert!(
        first["paymentReceivedAt"]
            .as_str()
            .unwrap()
            .starts_with("2027-02-01"),
        "{first}"
    );
    assert_eq!(installment(&detail, 2)["_status"], "WAITING_PAYMENT");
    assert_eq!(confirmed_events(&app).await.len(), 1);

    // The same file again changes nothing.
    let printed = ok(
        &["boleto", "retorno", ret.to_str().unwrap()],
        &app.db_target,
    );
    assert!(printed.contains("nothing changed"), "{printed}");
    assert_eq!(confirmed_events(&app).await.len(), 1);
    assert_eq!(body(app.get_invoice(&id).await).await, detail);

    // The merchant's webhook: PAYMENT_CONFIRMED, signed, with the paid amount.
    let got = rx
        .wait_for(15, "PAYMENT_CONFIRMED", |g| !g.is_empty())
        .await;
    let (app_id, _) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    let secret = paylink_server::store::applications::webhook_secrets(&app.db, &app_id)
        .await
        .unwrap()
        .current;
    assert!(got[0].verify(&secret), "{}", got[0].body);
    let event = got[0].json();
    assert_eq!(event["type"], "PAYMENT_CONFIRMED");
    assert!(got[0].body.contains("BOLETO"), "{}", got[0].body);
    assert!(got[0].body.contains(ID1), "{}", got[0].body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_retorno_names_its_line_and_applies_nothing() {
    let app = spawn_app().await;
    let id = boleto_invoice(&app, "https://loja.example.com/hooks/paylink").await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("remessa.rem");
    ok(&remessa_args(out.to_str().unwrap()), &app.db_target);

    // Line 6, segment U's valor pago, is not a number.
    let bad = fixture("retorno-malformed.ret");
    let err = fails(
        &["boleto", "retorno", bad.to_str().unwrap()],
        &app.db_target,
        1,
    );
    assert!(err.contains("line 6"), "{err}");
    assert!(err.contains("valor pago"), "{err}");
    assert!(err.contains("nothing was applied"), "{err}");
    // Line 5 pays a nosso número paylink never registered; line 3 before it
    // (an entrada confirmada) is not applied either.
    let unknown = fixture("retorno-unknown.ret");
    let err = fails(
        &["boleto", "retorno", unknown.to_str().unwrap()],
        &app.db_target,
        1,
    );
    assert!(err.contains("line 5"), "{err}");
    assert!(err.contains("12345670000000099"), "{err}");
    assert!(err.contains("nothing was applied"), "{err}");
    assert!(states(&app).await.iter().all(|(_, s)| s == "SENT"));
    assert!(confirmed_events(&app).await.is_empty());
    let detail = body(app.get_invoice(&id).await).await;
    assert_eq!(installment(&detail, 1)["_status"], "WAITING_PAYMENT");
    // A file that is not there is a usage error.
    let err = fails(
        &["boleto", "retorno", "/nonexistent.ret"],
        &app.db_target,
        2,
    );
    assert!(err.contains("cannot read"), "{err}");
}

/// Paid by hand, then the bank reports a liquidação of the same boleto: a
/// double payment, reported, and the installment keeps its first payment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_liquidacao_of_an_installment_paid_by_hand_is_a_warning() {
    let app = spawn_app().await;
    let id = boleto_invoice(&app, "https://loja.example.com/hooks/paylink").await;
    let dir = tempfile::tempdir().unwrap();
    ok(
        &remessa_args(dir.path().join("r.rem").to_str().unwrap()),
        &app.db_target,
    );
    let today = today().to_string();
    ok(
        &[
            "installment",
            "mark-paid",
            &id,
            "--installment",
            "1",
            "--amount",
            "50",
            "--date",
            &today,
        ],
        &app.db_target,
    );
    let ret = fixture("retorno-ok.ret");
    let printed = ok(
        &["boleto", "retorno", ret.to_str().unwrap()],
        &app.db_target,
    );
    assert!(
        printed.contains("line 7: nosso número 12345670000000001 (installment 1 of invoice")
            && printed.contains("WARNING the installment was already paid another way"),
        "{printed}"
    );
    assert_eq!(confirmed_events(&app).await.len(), 1);
    let detail = body(app.get_invoice(&id).await).await;
    assert!(installment(&detail, 1)["paidAt"]
        .as_str()
        .unwrap()
        .starts_with(&today));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remessa_needs_the_merchant_and_never_overwrites() {
    let app = spawn_app().await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.rem");
    let out_s = out.to_str().unwrap();
    let err = fails(&["boleto", "remessa", "--out", out_s], &app.db_target, 2);
    assert!(err.contains("--merchant-document"), "{err}");
    let mut args = remessa_args(out_s);
    args.extend(["--since", "31/02/2027"]);
    let err = fails(&args, &app.db_target, 2);
    assert!(err.contains("--since"), "{err}");
    std::fs::write(&out, "mine").unwrap();
    let err = fails(&remessa_args(out_s), &app.db_target, 2);
    assert!(err.contains("does not overwrite"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mark_paid_settles_by_hand_with_the_same_events() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let created = body(app.post_invoice(&invoice_body(&customer)).await).await;
    let id = created["id"].as_str().unwrap().to_string();
    let db = &app.db_target;
    let today = today();
    let date = format!("{:02}/{:02}/{}", today.day(), today.month(), today.year());

    for (args, needle) in [
        (
            vec!["--installment", "2", "--amount", "abc", "--date", &date],
            "--amount",
        ),
        (
            vec!["--installment", "2", "--amount", "0", "--date", &date],
            "--amount",
        ),
        (
            vec![
                "--installment",
                "2",
                "--amount",
                "33,33",
                "--date",
                "32/01/2027",
            ],
            "--date",
        ),
        (
            vec![
                "--installment",
                "2",
                "--amount",
                "33,33",
                "--date",
                "2999-01-01",
            ],
            "future",
        ),
        (
            vec!["--installment", "9", "--amount", "33,33", "--date", &date],
            "no installment 9",
        ),
        // The API's bounds (issue 38): at most what is due, not before the invoice.
        (
            vec![
                "--installment",
                "2",
                "--amount",
                "99.999.999,99",
                "--date",
                &date,
            ],
            "--amount: The amount cannot exceed what is due on this installment (R$ 33.33)",
        ),
        (
            vec![
                "--installment",
                "2",
                "--amount",
                "33,33",
                "--date",
                "01/01/2001",
            ],
            "--date: The date cannot be before the invoice was created",
        ),
    ] {
        let mut all = vec!["installment", "mark-paid", &id];
        all.extend(args);
        let err = fails(&all, db, 2);
        assert!(err.contains(needle), "{needle}: {err}");
    }
    let err = fails(
        &[
            "installment",
            "mark-paid",
            "nope",
            "--installment",
            "1",
            "--amount",
            "1",
            "--date",
            &date,
        ],
        db,
        2,
    );
    assert!(err.contains("invoice not found"), "{err}");

    let printed = ok(
        &[
            "installment",
            "mark-paid",
            &id,
            "--installment",
            "2",
            "--amount",
            "33,33",
            "--date",
            &date,
        ],
        db,
    );
    assert!(
        printed.contains("installment 2 is now CONFIRMED"),
        "{printed}"
    );
    let detail = body(app.get_invoice(&id).await).await;
    let second = installment(&detail, 2);
    assert_eq!(second["_status"], "CONFIRMED");
    assert_eq!(second["pricePaid"], 33.33);
    assert!(second["paidAt"]
        .as_str()
        .unwrap()
        .starts_with(&today.to_string()));
    let events = confirmed_events(&app).await;
    assert_eq!(events.len(), 1);
    assert!(events[0].contains("33.33"), "{}", events[0]);

    // Twice is an error that changes nothing.
    let err = fails(
        &[
            "installment",
            "mark-paid",
            &id,
            "--installment",
            "2",
            "--amount",
            "33.33",
            "--date",
            &date,
        ],
        db,
        2,
    );
    assert!(err.contains("already paid"), "{err}");
    assert_eq!(confirmed_events(&app).await.len(), 1);
}

/// The segments P of a remessa whose movement is 02 (pedido de baixa): their nossos números.
fn write_offs_in(text: &str) -> Vec<String> {
    text.split("\r\n")
        .filter(|l| l.len() == 240 && &l[13..14] == "P" && &l[15..17] == "02")
        .map(|l| l[37..57].trim_end().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_boleto_paid_another_way_or_cancelled_is_written_off_at_the_bank_once() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    let id = boleto_invoice(&app, &rx.url).await;
    let dir = tempfile::tempdir().unwrap();
    let path = |n: u32| dir.path().join(format!("remessa-{n}.rem"));
    ok(&remessa_args(path(1).to_str().unwrap()), &app.db_target);
    assert!(write_offs_in(&std::fs::read_to_string(path(1)).unwrap()).is_empty());

    // Installment 1 paid in cash: the bank must no longer take its boleto.
    let today = today();
    let date = format!("{:02}/{:02}/{}", today.day(), today.month(), today.year());
    let args = [
        "installment",
        "mark-paid",
        &id,
        "--installment",
        "1",
        "--amount",
        "50,00",
        "--date",
        &date,
    ];
    ok(&args, &app.db_target);
    let printed = ok(&remessa_args(path(2).to_str().unwrap()), &app.db_target);
    assert!(
        printed.contains("0 boletos registered, 1 written off"),
        "{printed}"
    );
    let text = std::fs::read_to_string(path(2)).unwrap();
    assert_eq!(write_offs_in(&text), ["12345670000000001"]);
    assert_eq!(
        text.split("\r\n").filter(|l| l.len() == 240).count(),
        5,
        "headers, one segment P, trailers: {text}"
    );

    // The invoice cancelled: its other boleto is written off, the first not again.
    let res = app.cancel_invoice(&id).await;
    assert!(res.status().is_success(), "{}", res.status());
    let printed = ok(&remessa_args(path(3).to_str().unwrap()), &app.db_target);
    assert!(printed.contains("1 written off"), "{printed}");
    let text = std::fs::read_to_string(path(3)).unwrap();
    assert_eq!(write_offs_in(&text), ["12345670000000002"]);

    // Nothing is asked twice.
    let printed = ok(&remessa_args(path(4).to_str().unwrap()), &app.db_target);
    assert!(
        printed.contains("no boleto to register or write off"),
        "{printed}"
    );
    assert!(!path(4).exists());
}
