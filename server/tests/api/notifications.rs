//! Payer notifications end to end: scheduled from the invoice's dates and
//! events, sent over real SMTP (STARTTLS or TLS, AUTH) to the fake provider of
//! `smtp.rs` and over HTTP to a
//! local provider, skipped when they no longer apply, listed by the CLI.
//!
//! Its tests run `paylink` commands (a blocking child process) beside the server they spawn
//! in-process, so they run on two threads: on a test's single thread the server would stand
//! still, maybe inside a write transaction, while the command waits for that write lock (and
//! fails "database is locked" after the busy timeout).

use std::time::Duration;

use paylink_model::Channel;
use paylink_server::store::notifications::{list_sends, SendRow};
use paylink_server::workers::notifications::{Notifier, NotifyConfig};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;
use crate::receiver::Receiver;
use crate::smtp::{Mode, SmtpServer};

/// A customer with the given contact fields; returns its id.
async fn customer(app: &TestApp, contact: Value) -> String {
    let res = app
        .post_customer(&with(json!({ "fullName": "Maria da Silva" }), contact))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    body(res).await["id"].as_str().unwrap().to_string()
}

async fn invoice(app: &TestApp, customer: &str, patch: Value) -> String {
    let req = with(
        with(invoice_body(customer), json!({ "webhooks": [] })),
        patch,
    );
    let res = app.post_invoice(&req).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

async fn sends(app: &TestApp, invoice_id: &str) -> Vec<SendRow> {
    list_sends(&app.db, None, Some(invoice_id)).await.unwrap()
}

/// Waits until every send of the invoice satisfies `pred`.
async fn wait_sends(
    app: &TestApp,
    invoice_id: &str,
    what: &str,
    pred: impl Fn(&[SendRow]) -> bool,
) -> Vec<SendRow> {
    for _ in 0..200 {
        let rows = sends(app, invoice_id).await;
        if pred(&rows) {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "timed out waiting for {what}: {:#?}",
        sends(app, invoice_id).await
    );
}

fn today() -> paylink_model::Date {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        / 86_400;
    paylink_model::Date::from_days_since_epoch(days).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoice_generated_email_reaches_the_smtp_sink() {
    let sink = SmtpServer::start(Mode::StartTls).await;
    let app = spawn_app_with_channels(Some(sink.config()), None).await;
    let c = customer(&app, json!({ "email": "maria@example.com" })).await;
    let id = invoice(
        &app,
        &c,
        json!({ "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }] }),
    )
    .await;

    let mails = sink.wait_for(10, 1).await;
    let mail = &mails[0];
    assert_eq!(mail.to, ["maria@example.com"]);
    assert_eq!(mail.from, "paylink@loja.example");
    let text = mail.text();
    assert!(text.starts_with("Olá, Maria!"), "{text}");
    assert!(
        text.contains(
            "Foi gerada a parcela 1 de 3, no valor de R$ 33,34, com vencimento em 31/01/2027."
        ),
        "{text}"
    );
    assert!(text.contains("Curso de violão"), "{text}");
    assert!(
        text.contains(&format!("{}/pay/{id}", app.addr)),
        "the payment url: {text}"
    );
    assert!(mail.header("Subject").is_some());
    let rows = sends(&app, &id).await;
    assert_eq!(
        mail.header("Message-ID"),
        Some(format!("<{}@loja.example>", rows[0].id)),
        "the send's id, the same on every attempt"
    );

    let rows = wait_sends(&app, &id, "sent", |r| r[0].status == "sent").await;
    assert_eq!(
        rows.len(),
        1,
        "one e-mail for the new invoice, not one per installment"
    );
    assert_eq!(rows[0].recipient.as_deref(), Some("maria@example.com"));
    assert_eq!(rows[0].attempts, 1);
    let detail = body(app.get_invoice(&id).await).await;
    let s = &detail["notificationSendTypes"][0]["sends"][0];
    assert_eq!(s["installment"], 1);
    assert_eq!(s["status"], "sent");
    assert!(s["sentAt"].is_string(), "{s}");
    assert!(s["dueAt"].is_string(), "{s}");
    // Sent once, never twice.
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(sink.mails().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payer_who_reads_english_gets_english_and_a_page_in_english() {
    let sink = SmtpServer::start(Mode::StartTls).await;
    let app = spawn_app_with_channels(Some(sink.config()), None).await;
    let c = customer(
        &app,
        json!({ "email": "mary@example.com", "language": "en" }),
    )
    .await;
    let id = invoice(
        &app,
        &c,
        json!({ "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }] }),
    )
    .await;
    let mail = &sink.wait_for(10, 1).await[0];
    let text = mail.text();
    let page = format!("{}/pay/{id}?lang=en", app.addr);
    assert!(text.starts_with("Hello, Maria!"), "{text}");
    assert!(
        text.contains("Installment 1 of 3, of R$ 33.34, was issued, due on 2027-01-31."),
        "{text}"
    );
    assert!(
        text.contains(&format!("To pay by PIX or boleto, open: {page}")),
        "{text}"
    );
    assert!(text.contains("PIX copy-and-paste code:"), "{text}");
    assert!(text.contains("The boleto is attached, as a PDF."), "{text}");
    assert!(!text.contains("Olá") && !text.contains("fatura"), "{text}");
    let html = mail.html();
    assert!(html.contains("<html lang=\"en\">"), "{html}");
    assert!(html.contains(&format!("<a href=\"{page}\">")), "{html}");
    // The page it links to answers in English.
    let res = app.client.get(&page).send().await.unwrap();
    let page_html = res.text().await.unwrap();
    assert!(
        page_html.contains("lang=\"en\""),
        "the payer page in English"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_sent_while_a_discount_lasts_states_the_discounted_amount() {
    let sink = SmtpServer::start(Mode::StartTls).await;
    let app = spawn_app_with_channels(Some(sink.config()), None).await;
    let c = customer(&app, json!({ "email": "maria@example.com" })).await;
    let due = next_jan_31();
    invoice(
        &app,
        &c,
        json!({
            "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }],
            "discount": { "type": "FIXED", "value": 3.34, "untilDate": due.to_string() },
        }),
    )
    .await;
    let text = sink.wait_for(10, 1).await[0].text();
    let until = due.format_br();
    assert!(
        text.contains(&format!(
            "no valor de R$ 33,34, com vencimento em {until}. Pagando até {until}, o valor é \
             R$ 30,00 (desconto de R$ 3,34)."
        )),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dated_sends_are_scheduled_at_noon_utc_and_wait_for_their_day() {
    let sink = SmtpServer::start(Mode::StartTls).await;
    let app = spawn_app_with_channels(Some(sink.config()), None).await;
    let c = customer(&app, json!({ "email": "maria@example.com" })).await;
    // 10 March two years ahead: every send is well in the future.
    let y = today().year() + 2;
    let id = invoice(
        &app,
        &c,
        json!({
            "dueDate": format!("{y}-03-10"), "installmentCount": 2,
            "notifications": [
                { "type": "SEND_INVOICE_REMINDER", "channel": "Email", "period": 5 },
                { "type": "SEND_INVOICE_AT_DAY", "channel": "Email" },
                { "type": "INVOICE_RESEND", "channel": "Email", "period": 7 },
                { "type": "INVOICE_FAIL", "channel": "Email" }
            ]
        }),
    )
    .await;
    let detail = body(app.get_invoice(&id).await).await;
    let dues = |v: &Value| -> Vec<(u64, String, String)> {
        v["sends"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                assert!(s["sentAt"].is_null());
                (
                    s["installment"].as_u64().unwrap(),
                    s["dueAt"].as_str().unwrap().to_string(),
                    s["status"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let p = |n: u64, at: &str| (n, format!("{y}-{at}"), "pending".to_string());
    assert_eq!(
        dues(&detail["notificationBeforeDueDate"][0]),
        [p(1, "03-05T12:00:00.000Z"), p(2, "04-05T12:00:00.000Z")]
    );
    assert_eq!(
        dues(&detail["notificationSendTypes"][0]),
        [p(1, "03-10T12:00:00.000Z"), p(2, "04-10T12:00:00.000Z")]
    );
    assert_eq!(
        dues(&detail["notificationAfterDueDate"][0]),
        [p(1, "03-17T12:00:00.000Z"), p(2, "04-17T12:00:00.000Z")]
    );
    assert_eq!(
        dues(&detail["notificationAfterDueDate"][1]),
        [p(1, "03-11T12:00:00.000Z"), p(2, "04-11T12:00:00.000Z")]
    );
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(sink.mails().is_empty());
    assert!(sends(&app, &id).await.iter().all(|s| s.status == "pending"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_of_a_paid_installment_is_skipped_and_an_overdue_one_is_caught_up_once() {
    // The server has no channel: everything waits, pending, until a notifier
    // with a relay runs (the same database, as another server would).
    let app = spawn_app_with_channels(None, None).await;
    let c = customer(&app, json!({ "email": "maria@example.com" })).await;
    // Due in 2 days: the 5-day reminder's instant has already passed.
    let due = today().add_days(2).unwrap().to_string();
    let single = json!({
        "dueDate": due, "invoiceType": "SINGLE", "installmentCount": 1,
        "notifications": [{ "type": "SEND_INVOICE_REMINDER", "channel": "Email", "period": 5 }]
    });
    let paid = invoice(&app, &c, single.clone()).await;
    let open = invoice(&app, &c, single.clone()).await;
    let deleted = invoice(&app, &c, single).await;
    paylink_server::store::payments::delete_invoice(&app.db, &deleted)
        .await
        .unwrap();
    paylink_server::store::payments::simulate_pay(&app.db, &paid, None, None)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sends(&app, &paid).await[0].status, "pending");

    let sink = SmtpServer::start(Mode::Implicit).await;
    let config = NotifyConfig::new(&app.addr, Some(sink.config()), None).unwrap();
    // Two workers at once (two servers on one database): each send is
    // claimed by one of them only.
    let notifier = Notifier::new(app.db.clone(), config);
    let other = notifier.clone();
    let (a, b) = tokio::join!(notifier.send_due(), other.send_due());
    assert_eq!(
        a.unwrap() + b.unwrap(),
        3,
        "three due sends, each taken once"
    );
    while notifier.send_due().await.unwrap() > 0 {}

    let skipped = &sends(&app, &paid).await[0];
    assert_eq!(skipped.status, "skipped");
    assert!(
        skipped.last_error.as_deref().unwrap().contains("CONFIRMED"),
        "{skipped:?}"
    );
    assert!(skipped.sent_at.is_none());
    let gone = &sends(&app, &deleted).await[0];
    assert_eq!(gone.status, "skipped");
    assert!(
        gone.last_error.as_deref().unwrap().contains("deleted"),
        "{gone:?}"
    );
    let sent = &sends(&app, &open).await[0];
    assert_eq!(sent.status, "sent", "{sent:?}");
    let mails = sink.mails();
    assert_eq!(mails.len(), 1, "only the open invoice's reminder");
    assert!(mails[0].text().contains(&format!("/pay/{open}")));
    assert!(mails[0].text().contains("Lembrete"), "{}", mails[0].text());
    // Another pass (or another server) never sends it again.
    assert_eq!(notifier.send_due().await.unwrap(), 0);
    assert_eq!(sink.mails().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_and_a_reversal_notify_the_payer() {
    let sink = SmtpServer::start(Mode::StartTls).await;
    let app = spawn_app_with_channels(Some(sink.config()), None).await;
    let c = customer(&app, json!({ "email": "maria@example.com" })).await;
    let id = invoice(
        &app,
        &c,
        json!({ "notifications": [
            { "type": "INVOICE_CONFIRM_PAYMENT", "channel": "Email" },
            { "type": "INVOICE_CHANGED", "channel": "Email" }
        ] }),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(sink.mails().is_empty(), "nothing before the payment");
    assert!(sends(&app, &id).await.is_empty());

    paylink_server::store::payments::simulate_pay(&app.db, &id, Some(2), None)
        .await
        .unwrap();
    let mails = sink.wait_for(10, 1).await;
    let text = mails[0].text();
    assert!(
        text.contains("Recebemos o pagamento de R$ 33,33 referente à parcela 2 de 3. Obrigado!"),
        "{text}"
    );
    assert!(text.contains(&format!("/pay/{id}")), "{text}");

    paylink_server::store::payments::simulate_reverse(&app.db, &id, 2)
        .await
        .unwrap();
    let mails = sink.wait_for(10, 2).await;
    let text = mails[1].text();
    assert!(text.contains("o pagamento foi estornado"), "{text}");
    assert!(text.contains(&format!("/pay/{id}")), "{text}");

    let detail = body(app.get_invoice(&id).await).await;
    let confirm = &detail["notificationAfterPayment"][0]["sends"];
    assert_eq!(confirm.as_array().unwrap().len(), 1);
    assert_eq!(confirm[0]["installment"], 2);
    let changed = &detail["notificationSendTypes"][0];
    assert_eq!(changed["type"], "INVOICE_CHANGED");
    assert_eq!(changed["sends"][0]["installment"], 2);
    wait_sends(&app, &id, "both sent", |r| {
        r.len() == 2 && r.iter().all(|s| s.status == "sent")
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_without_an_email_is_skipped_with_the_reason() {
    let sink = SmtpServer::start(Mode::StartTls).await;
    let app = spawn_app_with_channels(Some(sink.config()), None).await;
    let c = customer(&app, json!({})).await;
    let id = invoice(
        &app,
        &c,
        json!({ "notifications": [{ "type": "SEND_FIRST_INVOICE_BY", "channel": "Email" }] }),
    )
    .await;
    let rows = wait_sends(&app, &id, "skipped", |r| r[0].status == "skipped").await;
    assert!(rows[0].recipient.is_none());
    assert!(
        rows[0].last_error.as_deref().unwrap().contains("no e-mail"),
        "{rows:?}"
    );
    let detail = body(app.get_invoice(&id).await).await;
    assert_eq!(
        detail["notificationSendTypes"][0]["sends"][0]["status"],
        "skipped"
    );
    assert!(sink.mails().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whatsapp_goes_to_the_http_provider_and_email_without_a_relay_stays_pending() {
    let provider = Receiver::start().await;
    let app = spawn_app_with_channels(None, Some(&provider.url)).await;
    let c = customer(
        &app,
        json!({ "email": "maria@example.com", "phone": "+55 (11) 98765-4321" }),
    )
    .await;
    let id = invoice(
        &app,
        &c,
        json!({ "notifications": [
            { "type": "INVOICE_GENERATED", "channel": "WhatsApp" },
            { "type": "INVOICE_GENERATED", "channel": "Email" }
        ] }),
    )
    .await;
    let got = provider
        .wait_for(10, "the WhatsApp message", |g| !g.is_empty())
        .await;
    let m = got[0].json();
    assert_eq!(m["channel"], "WhatsApp");
    assert_eq!(m["to"], "+5511987654321");
    assert_eq!(m["invoiceId"], id.as_str());
    let detail = body(app.get_invoice(&id).await).await;
    assert_eq!(
        m["notificationId"],
        detail["notificationSendTypes"][0]["id"]
    );
    let message = m["message"].as_str().unwrap();
    assert!(message.starts_with("Olá, Maria!"), "{message}");
    assert!(
        message.contains(&format!("{}/pay/{id}", app.addr)),
        "{message}"
    );

    let rows = wait_sends(&app, &id, "the WhatsApp send recorded", |r| {
        r.iter()
            .any(|s| s.channel == Some(Channel::WhatsApp) && s.status == "sent")
    })
    .await;
    let email = rows
        .iter()
        .find(|s| s.channel == Some(Channel::Email))
        .unwrap();
    assert_eq!(email.status, "pending");
    assert_eq!(email.attempts, 0);

    // The CLI, on the same database while the server runs, lists it.
    let db = &app.db_target;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_paylink"))
        .args(["notifications", "list", "--status", "pending", "--db"])
        .arg(db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["type"], "INVOICE_GENERATED");
    assert_eq!(lines[0]["channel"], "Email");
    assert_eq!(lines[0]["status"], "pending");
    assert_eq!(lines[0]["invoiceId"], id.as_str());
    assert_eq!(lines[0]["to"], "m***a@example.com", "masked, as on screen");
    assert!(lines[0].get("recipient").is_none(), "{:?}", lines[0]);
    assert_eq!(lines[0]["installment"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_failure_is_retried_later() {
    let provider = Receiver::start().await;
    provider.fail_with(&[(503, None)]);
    let app = spawn_app_with_channels(None, Some(&provider.url)).await;
    let c = customer(&app, json!({ "phone": "+55 11 98765-4321" })).await;
    let id = invoice(
        &app,
        &c,
        json!({ "notifications": [{ "type": "INVOICE_GENERATED", "channel": "SMS" }] }),
    )
    .await;
    let rows = wait_sends(&app, &id, "the failed first attempt", |r| {
        r[0].attempts == 1
    })
    .await;
    let s = &rows[0];
    assert_eq!(s.status, "pending", "{s:?}");
    assert!(s.last_error.as_deref().unwrap().contains("503"), "{s:?}");
    assert!(
        s.next_attempt_at > s.due_at,
        "retried a minute later: {s:?}"
    );
    assert_eq!(provider.received().len(), 1);
}

/// The 47 digits of a linha digitável as the payer page prints them.
fn is_boleto_line(s: &str) -> bool {
    let groups: Vec<&str> = s.split([' ', '.']).collect();
    let lens: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    lens == [5, 5, 5, 6, 5, 6, 1, 14]
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_email_goes_over_starttls_with_auth_and_carries_the_codes_and_the_boleto() {
    let server = SmtpServer::start(Mode::StartTls).await;
    let app = spawn_app_with_channels(Some(server.config()), None).await;
    let c = customer(&app, json!({ "email": "maria@example.com" })).await;
    let id = invoice(
        &app,
        &c,
        json!({ "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }] }),
    )
    .await;
    let mail = server.wait_for(10, 1).await.remove(0);
    assert!(mail.tls, "the message travelled encrypted");
    assert_eq!(mail.user.as_deref(), Some(crate::smtp::USER));
    // Before STARTTLS only the greeting and the upgrade: no AUTH, no sender, no message.
    let log = server.log();
    let plain: Vec<&str> = log
        .iter()
        .filter(|(tls, _)| !tls)
        .map(|(_, l)| l.as_str())
        .collect();
    assert_eq!(plain.len(), 2, "{log:?}");
    assert!(plain[0].starts_with("EHLO"), "{log:?}");
    assert_eq!(plain[1], "STARTTLS");
    assert!(
        log.iter().any(|(tls, l)| *tls && l == "AUTH ***"),
        "{log:?}"
    );

    assert!(mail
        .header("Content-Type")
        .unwrap()
        .starts_with("multipart/mixed"));
    let text = mail.text();
    let pay_url = format!("{}/pay/{id}", app.addr);
    assert!(text.starts_with("Olá, Maria!"), "{text}");
    assert!(
        text.contains("Foi gerada a parcela 1 de 3, no valor de R$ 33,34"),
        "{text}"
    );
    assert!(text.contains(&pay_url), "{text}");
    // The PIX code of the amount due today (R$ 33,34, before the due date) and the boleto line.
    let pix = text
        .split("PIX copia e cola:\n")
        .nth(1)
        .and_then(|t| t.lines().next())
        .unwrap_or_else(|| panic!("no PIX code: {text}"));
    assert!(pix.starts_with("000201"), "{pix}");
    assert!(pix.contains("br.gov.bcb.pix"), "{pix}");
    assert!(pix.contains("540533.34"), "the amount: {pix}");
    let line = text
        .split("Linha digitável do boleto:\n")
        .nth(1)
        .and_then(|t| t.lines().next())
        .unwrap_or_else(|| panic!("no boleto line: {text}"));
    assert!(is_boleto_line(line), "{line}");
    assert!(text.contains("O boleto segue anexo"), "{text}");
    assert!(
        text.ends_with("Se você já pagou, desconsidere.\n"),
        "{text}"
    );

    let html = mail.html();
    assert!(html.contains("<html lang=\"pt-BR\">"), "{html}");
    assert!(
        html.contains(&format!("<a href=\"{pay_url}\">{pay_url}</a>")),
        "{html}"
    );
    assert!(html.contains(&line.to_string()), "{html}");
    assert!(html.contains(&pix.replace('&', "&amp;")), "{html}");

    let files = mail.attachments();
    assert_eq!(files.len(), 1, "{files:?}");
    let (name, content_type, pdf) = &files[0];
    assert_eq!(name, "boleto-order-42-1.pdf", "the externalId names it");
    assert_eq!(content_type, "application/pdf");
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
    assert!(pdf.len() > 5_000, "a whole boleto: {} bytes", pdf.len());
    wait_sends(&app, &id, "sent", |r| r[0].status == "sent").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn implicit_tls_and_a_loopback_relay_without_tls_both_deliver() {
    for mode in [Mode::Implicit, Mode::Plain] {
        let server = SmtpServer::start(mode).await;
        let app = spawn_app_with_channels(Some(server.config()), None).await;
        let c = customer(&app, json!({ "email": "maria@example.com" })).await;
        // Only PIX: no boleto to attach.
        let id = invoice(
            &app,
            &c,
            json!({ "paymentTypes": ["PIX"],
                    "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }] }),
        )
        .await;
        let mail = server.wait_for(10, 1).await.remove(0);
        assert_eq!(mail.tls, mode == Mode::Implicit, "{mode:?}");
        assert!(server
            .log()
            .iter()
            .all(|(tls, _)| *tls == (mode == Mode::Implicit)));
        assert_eq!(mail.to, ["maria@example.com"]);
        assert!(mail.text().contains("PIX copia e cola:"), "{mode:?}");
        assert!(!mail.text().contains("Linha digitável"), "{mode:?}");
        assert!(mail.attachments().is_empty(), "{mode:?}");
        assert!(mail.text().contains(&format!("/pay/{id}")));
        wait_sends(&app, &id, "sent", |r| r[0].status == "sent").await;
    }
}

/// Makes every pending send of the test database due now (as if its retry delay had passed).
async fn make_due(app: &TestApp) {
    let pool = raw_pool(&app.db_target).await;
    sqlx::query("UPDATE notification_sends SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE status = 'pending'")
        .execute(&pool)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_temporary_refusal_is_retried_and_a_permanent_one_fails_once() {
    let app = spawn_app_with_channels(None, None).await;
    let server = SmtpServer::start(Mode::StartTls).await;
    let notifier = Notifier::new(
        app.db.clone(),
        NotifyConfig::new(&app.addr, Some(server.config()), None).unwrap(),
    );
    let c = customer(&app, json!({ "email": "maria@example.com" })).await;
    let generated =
        json!({ "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }] });

    // An outage (421 at MAIL FROM), then the provider takes it.
    server.refuse_next(&["421 4.3.2 service not available, try again later"]);
    let id = invoice(&app, &c, generated.clone()).await;
    assert_eq!(notifier.send_due().await.unwrap(), 1);
    let s = &sends(&app, &id).await[0];
    assert_eq!((s.status.as_str(), s.attempts), ("pending", 1), "{s:?}");
    assert!(s.last_error.as_deref().unwrap().contains("421"), "{s:?}");
    assert!(s.next_attempt_at > s.due_at, "retried later: {s:?}");
    assert!(server.mails().is_empty());
    assert_eq!(notifier.send_due().await.unwrap(), 0, "not before its time");
    make_due(&app).await;
    assert_eq!(notifier.send_due().await.unwrap(), 1);
    let s = &sends(&app, &id).await[0];
    assert_eq!((s.status.as_str(), s.attempts), ("sent", 2), "{s:?}");
    assert_eq!(server.mails().len(), 1);

    // A permanent refusal: failed at once, never tried again.
    server.refuse_next(&["554 5.7.1 sender rejected by policy"]);
    let refused = invoice(&app, &c, generated.clone()).await;
    assert_eq!(notifier.send_due().await.unwrap(), 1);
    let s = &sends(&app, &refused).await[0];
    assert_eq!((s.status.as_str(), s.attempts), ("failed", 1), "{s:?}");
    assert!(s.last_error.as_deref().unwrap().contains("554"), "{s:?}");
    make_due(&app).await;
    assert_eq!(notifier.send_due().await.unwrap(), 0);
    assert_eq!(server.mails().len(), 1);

    // A wrong password is the provider's 535: failed, and the password is in no error.
    let wrong = paylink_server::workers::notifications::SmtpConfig::new(
        &server.url(Some(crate::smtp::USER)),
        "paylink@loja.example",
        Some("not-the-password".into()),
        Some(server.ca_pem.as_bytes()),
    )
    .unwrap();
    let wrong = Notifier::new(
        app.db.clone(),
        NotifyConfig::new(&app.addr, Some(wrong), None).unwrap(),
    );
    let denied = invoice(&app, &c, generated.clone()).await;
    assert_eq!(wrong.send_due().await.unwrap(), 1);
    let s = &sends(&app, &denied).await[0];
    assert_eq!(s.status, "failed", "{s:?}");
    let error = s.last_error.as_deref().unwrap();
    assert!(error.contains("535"), "{error}");
    assert!(!error.contains("not-the-password"), "{error}");
    assert_eq!(server.mails().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_starttls_or_with_an_untrusted_certificate_gets_nothing() {
    let app = spawn_app_with_channels(None, None).await;
    let c = customer(&app, json!({ "email": "maria@example.com" })).await;
    let generated =
        json!({ "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }] });
    let from = "paylink@loja.example";

    // A plain server on the smtp:// of a provider: STARTTLS is required, so no credentials
    // and no message cross in the clear.
    let plain = SmtpServer::start(Mode::Plain).await;
    let url = plain.url(Some(crate::smtp::USER)).replace("?tls=none", "");
    let config = paylink_server::workers::notifications::SmtpConfig::new(
        &url,
        from,
        Some(crate::smtp::PASSWORD.into()),
        None,
    )
    .unwrap();
    let notifier = Notifier::new(
        app.db.clone(),
        NotifyConfig::new(&app.addr, Some(config), None).unwrap(),
    );
    let id = invoice(&app, &c, generated.clone()).await;
    assert_eq!(notifier.send_due().await.unwrap(), 1);
    let s = &sends(&app, &id).await[0];
    assert_eq!((s.status.as_str(), s.attempts), ("pending", 1), "{s:?}");
    assert!(plain.mails().is_empty());
    let log = plain.log();
    assert!(
        log.iter()
            .all(|(_, l)| !l.starts_with("AUTH") && !l.starts_with("MAIL")),
        "{log:?}"
    );

    // A TLS server whose CA paylink was not told to trust: the handshake fails, nothing sent.
    let untrusted = SmtpServer::start(Mode::Implicit).await;
    let config = paylink_server::workers::notifications::SmtpConfig::new(
        &untrusted.url(Some(crate::smtp::USER)),
        from,
        Some(crate::smtp::PASSWORD.into()),
        None,
    )
    .unwrap();
    let notifier = Notifier::new(
        app.db.clone(),
        NotifyConfig::new(&app.addr, Some(config), None).unwrap(),
    );
    make_due(&app).await;
    assert_eq!(notifier.send_due().await.unwrap(), 1);
    let s = &sends(&app, &id).await[0];
    assert_eq!((s.status.as_str(), s.attempts), ("pending", 2), "{s:?}");
    assert!(
        untrusted.log().is_empty(),
        "no command over a refused handshake"
    );
    assert!(untrusted.mails().is_empty());
}

#[test]
fn serve_refuses_smtp_settings_that_would_leak_or_go_unprotected() {
    let dir = tempfile::tempdir().unwrap();
    let pw = dir.path().join("smtp-password");
    std::fs::write(&pw, "segredo-do-provedor\n").unwrap();
    let bad_ca = dir.path().join("ca.pem");
    std::fs::write(&bad_ca, "not a certificate").unwrap();
    let pw = pw.to_str().unwrap();
    let bad_ca = bad_ca.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["--smtp-url", "smtp://ana:segredo-do-provedor@smtp.example"],
            "--smtp-password-file",
        ),
        (
            vec!["--smtp-url", "smtp://smtp.example?tls=none"],
            "loopback",
        ),
        (
            vec!["--smtp-url", "smtp://ana@smtp.example"],
            "--smtp-password-file",
        ),
        (
            vec![
                "--smtp-url",
                "smtp://ana@smtp.example",
                "--smtp-password-file",
                "/nonexistent/pw",
            ],
            "cannot read /nonexistent/pw",
        ),
        (
            vec![
                "--smtp-url",
                "smtp://ana@smtp.example",
                "--smtp-password-file",
                pw,
                "--smtp-ca",
                bad_ca,
            ],
            "--smtp-ca is not a PEM certificate",
        ),
        (vec!["--smtp-url", "ftp://smtp.example"], "smtps://HOST:465"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_paylink"))
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--smtp-from",
                "cobranca@loja.example",
            ])
            .args(&args)
            .arg("--db")
            .arg(dir.path().join("x.db"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("segredo-do-provedor"),
            "{args:?}: {stderr}"
        );
    }
}
