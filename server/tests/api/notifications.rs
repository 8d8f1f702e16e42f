//! Payer notifications end to end: scheduled from the invoice's dates and
//! events, sent over real SMTP to a sink written here and over HTTP to a
//! local provider, skipped when they no longer apply, listed by the CLI.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use paylink_server::store::notifications::{list_sends, SendRow};
use paylink_server::workers::notifications::{Notifier, NotifyConfig};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::helpers::*;
use crate::receiver::Receiver;

/// One message as the SMTP sink received it.
#[derive(Clone, Debug)]
struct Mail {
    from: String,
    to: Vec<String>,
    /// Headers and body, dot-unstuffed, CRLF line ends.
    data: String,
}

impl Mail {
    fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next().unwrap();
        let prefix = format!("{}:", name.to_ascii_lowercase());
        head.split("\r\n")
            .find(|l| l.to_ascii_lowercase().starts_with(&prefix))
            .map(|l| l[prefix.len()..].trim().to_string())
    }

    /// The text body, with its Content-Transfer-Encoding undone.
    fn text(&self) -> String {
        let body = self.data.split_once("\r\n\r\n").unwrap().1;
        match self
            .header("Content-Transfer-Encoding")
            .unwrap_or_default()
            .to_ascii_lowercase()
            .as_str()
        {
            "quoted-printable" => decode_quoted_printable(body),
            "base64" => String::from_utf8(
                base64::engine::general_purpose::STANDARD
                    .decode(body.replace("\r\n", ""))
                    .unwrap(),
            )
            .unwrap(),
            _ => body.to_string(),
        }
        .replace("\r\n", "\n")
    }
}

fn decode_quoted_printable(s: &str) -> String {
    let s = s.replace("=\r\n", "");
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'=' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("");
            if let Ok(byte) = u8::from_str_radix(hex, 16) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

/// A tiny SMTP server: greets, accepts any sender and recipient, records
/// each message, never relays anything.
#[derive(Clone, Default)]
struct SmtpSink {
    url: String,
    mails: Arc<Mutex<Vec<Mail>>>,
}

impl SmtpSink {
    async fn start() -> SmtpSink {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let sink = SmtpSink {
            url: format!("smtp://{}", listener.local_addr().unwrap()),
            ..Default::default()
        };
        let mails = sink.mails.clone();
        tokio::spawn(async move {
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                tokio::spawn(session(stream, mails.clone()));
            }
        });
        sink
    }

    fn mails(&self) -> Vec<Mail> {
        self.mails.lock().unwrap().clone()
    }

    async fn wait_for(&self, secs: u64, n: usize) -> Vec<Mail> {
        for _ in 0..secs * 20 {
            if self.mails().len() >= n {
                return self.mails();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("timed out waiting for {n} e-mails; got {:#?}", self.mails());
    }
}

async fn session(stream: tokio::net::TcpStream, mails: Arc<Mutex<Vec<Mail>>>) {
    let (r, mut w) = stream.into_split();
    let mut r = BufReader::new(r);
    w.write_all(b"220 sink.test ESMTP\r\n").await.unwrap();
    let (mut from, mut to) = (String::new(), Vec::new());
    let address = |line: &str| {
        let start = line.find('<').map_or(0, |i| i + 1);
        let end = line.rfind('>').unwrap_or(line.len());
        line[start..end].to_string()
    };
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let cmd = line.trim_end().to_ascii_uppercase();
        let reply: &[u8] = if cmd.starts_with("EHLO") || cmd.starts_with("HELO") {
            b"250 sink.test\r\n"
        } else if cmd.starts_with("MAIL FROM:") {
            from = address(line.trim_end());
            to.clear();
            b"250 OK\r\n"
        } else if cmd.starts_with("RCPT TO:") {
            to.push(address(line.trim_end()));
            b"250 OK\r\n"
        } else if cmd == "DATA" {
            w.write_all(b"354 end with <CRLF>.<CRLF>\r\n")
                .await
                .unwrap();
            let mut data = String::new();
            loop {
                let mut l = String::new();
                if r.read_line(&mut l).await.unwrap_or(0) == 0 {
                    return;
                }
                if l == ".\r\n" {
                    break;
                }
                data.push_str(l.strip_prefix('.').unwrap_or(&l));
            }
            mails.lock().unwrap().push(Mail {
                from: from.clone(),
                to: to.clone(),
                data,
            });
            b"250 OK queued\r\n"
        } else if cmd == "QUIT" {
            let _ = w.write_all(b"221 bye\r\n").await;
            return;
        } else if cmd == "RSET" || cmd == "NOOP" {
            b"250 OK\r\n"
        } else {
            b"502 not implemented\r\n"
        };
        w.write_all(reply).await.unwrap();
    }
}

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

#[tokio::test]
async fn an_invoice_generated_email_reaches_the_smtp_sink() {
    let sink = SmtpSink::start().await;
    let app = spawn_app_with_channels(Some(&sink.url), None).await;
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

#[tokio::test]
async fn a_message_sent_while_a_discount_lasts_states_the_discounted_amount() {
    let sink = SmtpSink::start().await;
    let app = spawn_app_with_channels(Some(&sink.url), None).await;
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

#[tokio::test]
async fn dated_sends_are_scheduled_at_noon_utc_and_wait_for_their_day() {
    let sink = SmtpSink::start().await;
    let app = spawn_app_with_channels(Some(&sink.url), None).await;
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

#[tokio::test]
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

    let sink = SmtpSink::start().await;
    let config = NotifyConfig::new(
        &app.addr,
        Some(&sink.url),
        Some("cobranca@loja.example"),
        None,
    )
    .unwrap();
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

#[tokio::test]
async fn a_payment_and_a_reversal_notify_the_payer() {
    let sink = SmtpSink::start().await;
    let app = spawn_app_with_channels(Some(&sink.url), None).await;
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

#[tokio::test]
async fn a_customer_without_an_email_is_skipped_with_the_reason() {
    let sink = SmtpSink::start().await;
    let app = spawn_app_with_channels(Some(&sink.url), None).await;
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

#[tokio::test]
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
            .any(|s| s.channel == "WhatsApp" && s.status == "sent")
    })
    .await;
    let email = rows.iter().find(|s| s.channel == "Email").unwrap();
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
    assert_eq!(lines[0]["recipient"], "maria@example.com");
    assert_eq!(lines[0]["installment"], 1);
}

#[tokio::test]
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
