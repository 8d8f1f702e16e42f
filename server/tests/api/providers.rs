//! WhatsApp (Cloud API) and SMS (Twilio) notifications against local fakes that follow
//! each provider's published API: the Graph API's `POST /{version}/{phone-number-id}/messages`
//! (bearer token, a template message) and Twilio's `POST
//! /2010-04-01/Accounts/{sid}/Messages.json` (basic auth, form fields). The reminder that
//! arrives, an outage retried, a refusal failed once, and the providers' status callbacks:
//! signed ones recorded (in any order, never backwards) and shown on the detail, forged ones
//! refused. Signatures are computed here from the providers' recipes, not by the server's code.
//!
//! Its tests run `paylink` commands (a blocking child process) beside the server they spawn
//! in-process, so they run on two threads: on a test's single thread the server would stand
//! still, maybe inside a write transaction, while the command waits for that write lock (and
//! fails "database is locked" after the busy timeout).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use base64::Engine;
use hmac::{Hmac, Mac};
use paylink_model::Channel;
use paylink_server::domain::outbound::Outbound;
use paylink_server::domain::providers::{Secret, TwilioConfig, WhatsAppConfig};
use paylink_server::store::notifications::{list_sends, SendRow};
use paylink_server::workers::notifications::{Notifier, NotifyConfig};
use serde_json::{json, Value};

use crate::helpers::*;

const PHONE_NUMBER_ID: &str = "106540352242922";
const GRAPH_TOKEN: &str = "EAAG-test-token";
const APP_SECRET: &str = "meta-app-secret";
const VERIFY_TOKEN: &str = "verifica-paylink";
const TEMPLATE: &str = "cobranca_paylink";
const ACCOUNT_SID: &str = "AC0123456789abcdef0123456789abcdef";
const AUTH_TOKEN: &str = "twilio-auth-token";
const TWILIO_FROM: &str = "+5511912345678";
const PHONE: &str = "+5511987654321";

/// One request a fake took.
#[derive(Clone, Debug)]
struct Got {
    path: String,
    authorization: String,
    content_type: String,
    body: String,
}

impl Got {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }
    fn form(&self) -> Vec<(String, String)> {
        serde_urlencoded::from_str(&self.body).unwrap()
    }
    fn field(&self, name: &str) -> Option<String> {
        self.form()
            .into_iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
}

/// The Graph API and Twilio on one local port, each checking what its documentation
/// requires and answering as it does; `refuse` scripts the next answers.
#[derive(Clone, Default)]
struct Fake {
    base: String,
    got: Arc<Mutex<Vec<Got>>>,
    script: Arc<Mutex<VecDeque<(u16, Value)>>>,
    ids: Arc<Mutex<u32>>,
}

impl Fake {
    async fn start() -> Fake {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let fake = Fake {
            base: format!("http://{}", listener.local_addr().unwrap()),
            ..Default::default()
        };
        let app = Router::new()
            .route("/v26.0/{phone}/messages", post(graph))
            .route("/2010-04-01/Accounts/{sid}/Messages.json", post(twilio))
            .with_state(fake.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        fake
    }

    fn whatsapp(&self) -> WhatsAppConfig {
        WhatsAppConfig {
            api_url: format!("{}/v26.0", self.base),
            phone_number_id: PHONE_NUMBER_ID.into(),
            token: Secret::new(GRAPH_TOKEN.into()),
            template: TEMPLATE.into(),
            template_lang: "pt_BR".into(),
            verify_token: Some(Secret::new(VERIFY_TOKEN.into())),
            app_secret: Some(Secret::new(APP_SECRET.into())),
        }
    }

    fn twilio(&self) -> TwilioConfig {
        TwilioConfig {
            api_url: self.base.clone(),
            account_sid: ACCOUNT_SID.into(),
            auth_token: Secret::new(AUTH_TOKEN.into()),
            from: TWILIO_FROM.into(),
        }
    }

    fn refuse(&self, answers: &[(u16, Value)]) {
        self.script.lock().unwrap().extend(answers.iter().cloned());
    }

    fn received(&self) -> Vec<Got> {
        self.got.lock().unwrap().clone()
    }

    async fn wait_for(&self, n: usize) -> Vec<Got> {
        for _ in 0..200 {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("timed out waiting for {n} requests: {:#?}", self.received());
    }

    fn next_id(&self) -> u32 {
        let mut n = self.ids.lock().unwrap();
        *n += 1;
        *n
    }

    /// Records the request and answers a scripted refusal, if any.
    fn take(&self, path: String, headers: &HeaderMap, body: String) -> Option<Response> {
        let h = |n: &str| {
            headers
                .get(n)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string()
        };
        self.got.lock().unwrap().push(Got {
            path,
            authorization: h("authorization"),
            content_type: h("content-type"),
            body,
        });
        let (status, body) = self.script.lock().unwrap().pop_front()?;
        Some((StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response())
    }
}

/// A Graph API error answer, as the Cloud API writes one.
fn graph_error(status: u16, code: i64, message: &str) -> (StatusCode, axum::Json<Value>) {
    (
        StatusCode::from_u16(status).unwrap(),
        axum::Json(json!({ "error": {
            "message": message, "type": "OAuthException", "code": code, "fbtrace_id": "Afake"
        }})),
    )
}

async fn graph(
    State(fake): State<Fake>,
    Path(phone): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    if let Some(r) = fake.take(format!("/v26.0/{phone}/messages"), &headers, body.clone()) {
        return r;
    }
    if headers.get("authorization").and_then(|v| v.to_str().ok())
        != Some(&format!("Bearer {GRAPH_TOKEN}"))
    {
        return graph_error(401, 190, "Invalid OAuth access token.").into_response();
    }
    if phone != PHONE_NUMBER_ID {
        return graph_error(400, 100, "Unsupported post request.").into_response();
    }
    let Ok(m) = serde_json::from_str::<Value>(&body) else {
        return graph_error(400, 100, "Invalid JSON").into_response();
    };
    let params = m["template"]["components"][0]["parameters"].as_array();
    let shape_ok = m["messaging_product"] == "whatsapp"
        && m["type"] == "template"
        && m["to"].as_str().is_some_and(|t| t.starts_with('+'))
        && m["template"]["name"].is_string()
        && m["template"]["language"]["code"].is_string()
        && m["template"]["components"][0]["type"] == "body"
        && params.is_some_and(|p| {
            p.iter()
                .all(|x| x["type"] == "text" && x["text"].as_str().is_some_and(|t| !t.is_empty()))
        });
    if !shape_ok {
        return graph_error(400, 131008, "Required parameter is missing").into_response();
    }
    let id = format!("wamid.test-{}", fake.next_id());
    let digits = m["to"]
        .as_str()
        .unwrap()
        .trim_start_matches('+')
        .to_string();
    axum::Json(json!({
        "messaging_product": "whatsapp",
        "contacts": [{ "input": m["to"], "wa_id": digits }],
        "messages": [{ "id": id, "message_status": "accepted" }]
    }))
    .into_response()
}

async fn twilio(
    State(fake): State<Fake>,
    Path(sid): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let path = format!("/2010-04-01/Accounts/{sid}/Messages.json");
    if let Some(r) = fake.take(path, &headers, body.clone()) {
        return r;
    }
    let basic =
        base64::engine::general_purpose::STANDARD.encode(format!("{ACCOUNT_SID}:{AUTH_TOKEN}"));
    let refuse = |status: u16, code: i64, message: &str| {
        (
            StatusCode::from_u16(status).unwrap(),
            axum::Json(json!({ "code": code, "message": message, "status": status,
                "more_info": format!("https://www.twilio.com/docs/errors/{code}") })),
        )
            .into_response()
    };
    if sid != ACCOUNT_SID
        || headers.get("authorization").and_then(|v| v.to_str().ok())
            != Some(&format!("Basic {basic}"))
    {
        return refuse(401, 20003, "Authenticate");
    }
    if !headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("application/x-www-form-urlencoded"))
    {
        return refuse(400, 20001, "Invalid content type");
    }
    let form: Vec<(String, String)> = serde_urlencoded::from_str(&body).unwrap_or_default();
    let field = |n: &str| form.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let (Some(to), Some(from), Some(text)) = (field("To"), field("From"), field("Body")) else {
        return refuse(
            400,
            21604,
            "A 'To' phone number, 'From' and 'Body' are required.",
        );
    };
    if !to.starts_with('+') {
        return refuse(400, 21211, "The 'To' number is not a valid phone number.");
    }
    let sid = format!("SM{:032x}", fake.next_id());
    (
        StatusCode::CREATED,
        axum::Json(json!({
            "sid": sid, "account_sid": ACCOUNT_SID, "to": to, "from": from, "body": text,
            "status": "queued", "num_segments": "1", "api_version": "2010-04-01",
            "uri": format!("/2010-04-01/Accounts/{ACCOUNT_SID}/Messages/{sid}.json"),
        })),
    )
        .into_response()
}

// ---------------------------------------------------------------------------
// The providers' signatures, from their documentation.

/// `X-Hub-Signature-256`: `sha256=` and the hex HMAC-SHA256 of the raw body with the app secret.
fn meta_signature(secret: &str, body: &str) -> String {
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(body.as_bytes());
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256={hex}")
}

/// `X-Twilio-Signature`: Base64 of the HMAC-SHA1 of the URL and each parameter (sorted by
/// name) as name then value, with the auth token.
fn twilio_signature(token: &str, url: &str, params: &[(&str, &str)]) -> String {
    let mut sorted = params.to_vec();
    sorted.sort();
    let mut data = url.to_string();
    for (k, v) in sorted {
        data.push_str(k);
        data.push_str(v);
    }
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(token.as_bytes()).unwrap();
    mac.update(data.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// A Cloud API status webhook for `statuses` (message id, status).
fn whatsapp_webhook(statuses: &[(&str, &str)]) -> String {
    let statuses: Vec<Value> = statuses
        .iter()
        .map(|(id, status)| {
            let mut s = json!({ "id": id, "status": status, "timestamp": "1795000000",
                "recipient_id": "5511987654321" });
            if *status == "failed" {
                s["errors"] = json!([{ "code": 131026, "title": "Message undeliverable" }]);
            }
            s
        })
        .collect();
    json!({ "object": "whatsapp_business_account", "entry": [{ "id": "102290129340398",
        "changes": [{ "field": "messages", "value": { "messaging_product": "whatsapp",
            "metadata": { "display_phone_number": "5511912345678", "phone_number_id": PHONE_NUMBER_ID },
            "statuses": statuses } }] }] })
    .to_string()
}

async fn post_whatsapp(app: &TestApp, body: &str, signature: Option<&str>) -> StatusCode {
    let mut req = reqwest::Client::new()
        .post(app.url("/webhooks/whatsapp"))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(s) = signature {
        req = req.header("x-hub-signature-256", s);
    }
    req.send().await.unwrap().status()
}

async fn post_sms_status(app: &TestApp, params: &[(&str, &str)], signature: &str) -> StatusCode {
    reqwest::Client::new()
        .post(app.url("/webhooks/sms"))
        .header("x-twilio-signature", signature)
        .form(params)
        .send()
        .await
        .unwrap()
        .status()
}

// ---------------------------------------------------------------------------
// Helpers over invoices and their sends.

async fn customer(app: &TestApp, contact: Value) -> String {
    let res = app
        .post_customer(&with(json!({ "fullName": "Maria da Silva" }), contact))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    body(res).await["id"].as_str().unwrap().to_string()
}

/// An invoice of 3 installments, the first due in 2 days, whose notifications are
/// `notifications`: a reminder 5 days before is due at once for the first.
async fn invoice(app: &TestApp, customer: &str, notifications: Value) -> String {
    let req = with(
        invoice_body(customer),
        json!({ "dueDate": days_from_today(2), "webhooks": [], "notifications": notifications }),
    );
    let res = app.post_invoice(&req).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

fn reminder(channel: &str) -> Value {
    json!([{ "type": "SEND_INVOICE_REMINDER", "channel": channel, "period": 5 }])
}

/// The sends of the invoice that are about its first installment (the others are weeks ahead).
async fn first_sends(app: &TestApp, id: &str) -> Vec<SendRow> {
    list_sends(&app.db, None, Some(id))
        .await
        .unwrap()
        .into_iter()
        .filter(|s| s.installment == Some(1))
        .collect()
}

async fn wait_first(
    app: &TestApp,
    id: &str,
    what: &str,
    pred: impl Fn(&SendRow) -> bool,
) -> SendRow {
    for _ in 0..200 {
        if let Some(s) = first_sends(app, id).await.into_iter().find(&pred) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "timed out waiting for {what}: {:#?}",
        first_sends(app, id).await
    );
}

/// The detail's send about installment 1 of the invoice's only notification.
async fn detail_send(app: &TestApp, id: &str) -> Value {
    let detail = body(app.get_invoice(id).await).await;
    let sends = detail["notificationBeforeDueDate"][0]["sends"]
        .as_array()
        .unwrap()
        .clone();
    sends.into_iter().find(|s| s["installment"] == 1).unwrap()
}

async fn make_due(app: &TestApp) {
    let pool = raw_pool(&app.db_target).await;
    sqlx::query("UPDATE notification_sends SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE status = 'pending' AND attempts > 0")
        .execute(&pool)
        .await
        .unwrap();
}

fn due_br() -> String {
    today().add_days(2).unwrap().format_br()
}

// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whatsapp_reminder_goes_as_a_template_and_signed_statuses_show_on_the_detail() {
    let fake = Fake::start().await;
    let app = spawn_app_notifying(Channels {
        whatsapp: Some(fake.whatsapp()),
        ..Default::default()
    })
    .await;
    let c = customer(&app, json!({ "phone": "(11) 98765-4321" })).await;
    let id = invoice(&app, &c, reminder("WhatsApp")).await;

    let got = &fake.wait_for(1).await[0];
    assert_eq!(got.path, format!("/v26.0/{PHONE_NUMBER_ID}/messages"));
    assert_eq!(got.authorization, format!("Bearer {GRAPH_TOKEN}"));
    assert!(got.content_type.starts_with("application/json"), "{got:?}");
    let m = got.json();
    assert_eq!(m["messaging_product"], "whatsapp");
    assert_eq!(m["type"], "template");
    assert_eq!(m["to"], PHONE, "E.164");
    assert_eq!(m["template"]["name"], TEMPLATE);
    assert_eq!(m["template"]["language"]["code"], "pt_BR");
    let params: Vec<&str> = m["template"]["components"][0]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        params,
        [
            "Maria",
            "R$ 33,34",
            due_br().as_str(),
            &format!("{}/pay/{id}", app.addr)
        ],
        "payer name, amount, due date, link, in that order"
    );

    let s = wait_first(&app, &id, "sent", |s| s.status == "sent").await;
    assert_eq!(s.provider_id.as_deref(), Some("wamid.test-1"));
    assert_eq!(s.to.as_deref(), Some("(11) 9****-4321"));
    assert_eq!(s.attempts, 1);
    let d = detail_send(&app, &id).await;
    assert_eq!(d["channel"], "WhatsApp");
    assert_eq!(d["to"], "(11) 9****-4321", "masked, without +55");
    assert_eq!(d["status"], "sent");
    assert_eq!(d["providerId"], "wamid.test-1");
    assert!(d["providerStatus"].is_null(), "{d}");
    assert!(d["sentAt"].is_string(), "{d}");

    // Read arrives before delivered: read stays. Twice: nothing more changes.
    let read = whatsapp_webhook(&[("wamid.test-1", "read")]);
    let signed = meta_signature(APP_SECRET, &read);
    assert_eq!(
        post_whatsapp(&app, &read, Some(&signed)).await,
        StatusCode::OK
    );
    assert_eq!(
        post_whatsapp(&app, &read, Some(&signed)).await,
        StatusCode::OK
    );
    let delivered = whatsapp_webhook(&[
        ("wamid.test-1", "delivered"),
        ("wamid.someone-else", "sent"),
    ]);
    let sig = meta_signature(APP_SECRET, &delivered);
    assert_eq!(
        post_whatsapp(&app, &delivered, Some(&sig)).await,
        StatusCode::OK
    );
    let d = detail_send(&app, &id).await;
    assert_eq!(d["providerStatus"], "read", "never back from read: {d}");
    assert!(d["providerStatusAt"].is_string(), "{d}");
    assert!(d["lastError"].is_null(), "{d}");

    // The CLI shows the same.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_paylink"))
        .args([
            "notifications",
            "list",
            "--invoice",
            &id,
            "--status",
            "sent",
            "--db",
        ])
        .arg(&app.db_target)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: Value =
        serde_json::from_slice(out.stdout.split(|b| *b == b'\n').next().unwrap()).unwrap();
    assert_eq!(line["channel"], "WhatsApp");
    assert_eq!(line["to"], "(11) 9****-4321");
    assert_eq!(line["providerId"], "wamid.test-1");
    assert_eq!(line["providerStatus"], "read");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("98765"),
        "no phone in the clear"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_or_unsigned_whatsapp_status_changes_nothing_and_verification_needs_the_token() {
    let fake = Fake::start().await;
    let app = spawn_app_notifying(Channels {
        whatsapp: Some(fake.whatsapp()),
        ..Default::default()
    })
    .await;
    let c = customer(&app, json!({ "phone": PHONE })).await;
    let id = invoice(&app, &c, reminder("WhatsApp")).await;
    wait_first(&app, &id, "sent", |s| s.status == "sent").await;

    let failed = whatsapp_webhook(&[("wamid.test-1", "failed")]);
    let forged = meta_signature("not-the-app-secret", &failed);
    assert_eq!(
        post_whatsapp(&app, &failed, Some(&forged)).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        post_whatsapp(&app, &failed, None).await,
        StatusCode::FORBIDDEN
    );
    // A signature of another body.
    let other = meta_signature(APP_SECRET, &whatsapp_webhook(&[("wamid.x", "sent")]));
    assert_eq!(
        post_whatsapp(&app, &failed, Some(&other)).await,
        StatusCode::FORBIDDEN
    );
    let d = detail_send(&app, &id).await;
    assert!(d["providerStatus"].is_null(), "nothing changed: {d}");
    assert!(d["lastError"].is_null(), "{d}");

    // Signed, the failure is recorded with the provider's error.
    let sig = meta_signature(APP_SECRET, &failed);
    assert_eq!(
        post_whatsapp(&app, &failed, Some(&sig)).await,
        StatusCode::OK
    );
    let d = detail_send(&app, &id).await;
    assert_eq!(d["providerStatus"], "failed");
    assert_eq!(d["lastError"], "WhatsApp 131026: Message undeliverable");

    // Meta's webhook verification.
    let verify = |token: &str| {
        app.url(&format!(
            "/webhooks/whatsapp?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token={token}"
        ))
    };
    let res = reqwest::get(verify(VERIFY_TOKEN)).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.unwrap(), "1158201444");
    let res = reqwest::get(verify("guess")).await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = reqwest::get(app.url("/webhooks/whatsapp?hub.mode=subscribe&hub.challenge=1"))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert!(!res.text().await.unwrap().contains(VERIFY_TOKEN));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_status_that_comes_before_the_send_is_kept_and_other_messages_statuses_are_dropped_in_time(
) {
    let fake = Fake::start().await;
    let app = spawn_app_notifying(Channels {
        whatsapp: Some(fake.whatsapp()),
        ..Default::default()
    })
    .await;
    // Meta may call back before paylink has written down the id it was answered with.
    let early = whatsapp_webhook(&[("wamid.test-1", "delivered")]);
    let sig = meta_signature(APP_SECRET, &early);
    assert_eq!(
        post_whatsapp(&app, &early, Some(&sig)).await,
        StatusCode::OK
    );
    let c = customer(&app, json!({ "phone": PHONE })).await;
    let id = invoice(&app, &c, reminder("WhatsApp")).await;
    wait_first(&app, &id, "sent", |s| s.status == "sent").await;
    assert_eq!(detail_send(&app, &id).await["providerStatus"], "delivered");

    // The account's other messages call back here too. Their statuses are kept a while (this
    // one might have been a send's, early), then dropped; a send's status stays.
    let other = whatsapp_webhook(&[("wamid.other-traffic", "read")]);
    let sig = meta_signature(APP_SECRET, &other);
    assert_eq!(
        post_whatsapp(&app, &other, Some(&sig)).await,
        StatusCode::OK
    );
    let pool = app.raw_pool().await;
    let kept = || async {
        let ids: Vec<String> = sqlx::query_scalar(
            "SELECT provider_id FROM notification_provider_statuses ORDER BY provider_id",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        ids
    };
    assert_eq!(kept().await, ["wamid.other-traffic", "wamid.test-1"]);
    sqlx::query(
        "UPDATE notification_provider_statuses SET received_at = '2000-01-01T00:00:00.000Z'",
    )
    .execute(&pool)
    .await
    .unwrap();
    let next = whatsapp_webhook(&[("wamid.later", "sent")]);
    let sig = meta_signature(APP_SECRET, &next);
    assert_eq!(post_whatsapp(&app, &next, Some(&sig)).await, StatusCode::OK);
    assert_eq!(kept().await, ["wamid.later", "wamid.test-1"]);
    assert_eq!(detail_send(&app, &id).await["providerStatus"], "delivered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sms_goes_through_twilio_in_one_segment_and_only_signed_callbacks_count() {
    let fake = Fake::start().await;
    let app = spawn_app_notifying(Channels {
        twilio: Some(fake.twilio()),
        ..Default::default()
    })
    .await;
    let c = customer(&app, json!({ "phone": "11 98765-4321" })).await;
    let id = invoice(&app, &c, reminder("SMS")).await;

    let got = &fake.wait_for(1).await[0];
    assert_eq!(
        got.path,
        format!("/2010-04-01/Accounts/{ACCOUNT_SID}/Messages.json")
    );
    let basic =
        base64::engine::general_purpose::STANDARD.encode(format!("{ACCOUNT_SID}:{AUTH_TOKEN}"));
    assert_eq!(got.authorization, format!("Basic {basic}"));
    assert_eq!(got.field("To").as_deref(), Some(PHONE));
    assert_eq!(got.field("From").as_deref(), Some(TWILIO_FROM));
    let callback = format!("{}/webhooks/sms", app.addr);
    assert_eq!(
        got.field("StatusCallback").as_deref(),
        Some(callback.as_str())
    );
    let text = got.field("Body").unwrap();
    let link = format!("{}/pay/{id}", app.addr);
    assert_eq!(
        text,
        format!(
            "Maria, sua fatura de R$ 33,34 (Curso de violao - 3x) vence em {}. Pague: {link}",
            due_br()
        ),
    );
    assert!(
        paylink_model::notify::gsm7_septets(&text).is_some_and(|n| n <= 160),
        "one GSM-7 segment: {text}"
    );

    let s = wait_first(&app, &id, "sent", |s| s.status == "sent").await;
    let sid = s.provider_id.clone().unwrap();
    assert!(sid.starts_with("SM") && sid.len() == 34, "{sid}");

    // Forged (another token), or signed for another URL: refused, nothing recorded.
    let params = [
        ("AccountSid", ACCOUNT_SID),
        ("MessageSid", sid.as_str()),
        ("MessageStatus", "delivered"),
        ("To", PHONE),
        ("From", TWILIO_FROM),
        ("ApiVersion", "2010-04-01"),
    ];
    let forged = twilio_signature("not-the-token", &callback, &params);
    assert_eq!(
        post_sms_status(&app, &params, &forged).await,
        StatusCode::FORBIDDEN
    );
    let elsewhere = twilio_signature(AUTH_TOKEN, "https://attacker.example/webhooks/sms", &params);
    assert_eq!(
        post_sms_status(&app, &params, &elsewhere).await,
        StatusCode::FORBIDDEN
    );
    let signed = twilio_signature(AUTH_TOKEN, &callback, &params);
    let mut tampered = params;
    tampered[2] = ("MessageStatus", "undelivered");
    assert_eq!(
        post_sms_status(&app, &tampered, &signed).await,
        StatusCode::FORBIDDEN
    );
    assert!(detail_send(&app, &id).await["providerStatus"].is_null());

    // Signed: recorded; a later "sent" does not take it back.
    assert_eq!(
        post_sms_status(&app, &params, &signed).await,
        StatusCode::OK
    );
    let mut sent = params;
    sent[2] = ("MessageStatus", "sent");
    let sig = twilio_signature(AUTH_TOKEN, &callback, &sent);
    assert_eq!(post_sms_status(&app, &sent, &sig).await, StatusCode::OK);
    let d = detail_send(&app, &id).await;
    assert_eq!(d["channel"], "SMS");
    assert_eq!(d["providerId"], sid.as_str());
    assert_eq!(d["providerStatus"], "delivered", "{d}");
    assert_eq!(d["to"], "(11) 9****-4321");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_is_retried_then_sent_and_a_refusal_fails_once_on_each_provider() {
    let fake = Fake::start().await;
    let app = spawn_app_with_channels(None, None).await;
    let mut config = NotifyConfig::new(&app.addr, None, None).unwrap();
    config.whatsapp = Some(fake.whatsapp());
    config.twilio = Some(fake.twilio());
    config.outbound = Outbound::allow_private();
    let notifier = Notifier::new(app.db.clone(), config);
    let c = customer(&app, json!({ "phone": PHONE })).await;

    for (channel, outage, refusal, error) in [
        (
            "WhatsApp",
            (
                500,
                json!({ "error": { "message": "An unknown error occurred", "code": 1 } }),
            ),
            (
                400,
                json!({ "error": { "message": "(#131030) Recipient phone number not in allowed list", "code": 131030 } }),
            ),
            "131030",
        ),
        (
            "SMS",
            (
                503,
                json!({ "code": 20503, "message": "Service unavailable", "status": 503 }),
            ),
            (
                400,
                json!({ "code": 21610, "message": "Attempt to send to unsubscribed recipient", "status": 400 }),
            ),
            "21610: Attempt to send to unsubscribed recipient",
        ),
    ] {
        let before = fake.received().len();
        fake.refuse(&[outage]);
        let id = invoice(&app, &c, reminder(channel)).await;
        assert_eq!(notifier.send_due().await.unwrap(), 1, "{channel}");
        let s = &first_sends(&app, &id).await[0];
        assert_eq!(
            (s.status.as_str(), s.attempts),
            ("pending", 1),
            "{channel}: {s:?}"
        );
        assert!(s.next_attempt_at > s.due_at, "retried later: {s:?}");
        assert_eq!(notifier.send_due().await.unwrap(), 0, "not before its time");
        make_due(&app).await;
        assert_eq!(notifier.send_due().await.unwrap(), 1);
        let s = &first_sends(&app, &id).await[0];
        assert_eq!(
            (s.status.as_str(), s.attempts),
            ("sent", 2),
            "{channel}: {s:?}"
        );
        assert!(s.provider_id.is_some(), "{s:?}");
        assert!(s.last_error.is_none(), "{s:?}");
        assert_eq!(fake.received().len(), before + 2);

        // A permanent refusal: failed at once with the provider's words, never tried again.
        fake.refuse(&[refusal]);
        let refused = invoice(&app, &c, reminder(channel)).await;
        assert_eq!(notifier.send_due().await.unwrap(), 1);
        let s = &first_sends(&app, &refused).await[0];
        assert_eq!(
            (s.status.as_str(), s.attempts),
            ("failed", 1),
            "{channel}: {s:?}"
        );
        let e = s.last_error.as_deref().unwrap();
        assert!(e.contains("400") && e.contains(error), "{e}");
        make_due(&app).await;
        assert_eq!(notifier.send_due().await.unwrap(), 0);
        assert_eq!(fake.received().len(), before + 3);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payer_without_a_phone_is_skipped_not_failed() {
    let fake = Fake::start().await;
    let app = spawn_app_notifying(Channels {
        whatsapp: Some(fake.whatsapp()),
        twilio: Some(fake.twilio()),
        ..Default::default()
    })
    .await;
    let c = customer(&app, json!({ "email": "maria@example.com" })).await;
    let id = invoice(
        &app,
        &c,
        json!([
            { "type": "SEND_INVOICE_REMINDER", "channel": "WhatsApp", "period": 5 },
            { "type": "SEND_INVOICE_REMINDER", "channel": "SMS", "period": 5 }
        ]),
    )
    .await;
    for _ in 0..100 {
        if first_sends(&app, &id)
            .await
            .iter()
            .all(|s| s.status != "pending")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let sends = first_sends(&app, &id).await;
    assert_eq!(sends.len(), 2);
    for s in &sends {
        assert_eq!(s.status, "skipped", "{s:?}");
        assert!(
            s.last_error.as_deref().unwrap().contains("no phone"),
            "{s:?}"
        );
        assert!(s.to.is_none());
    }
    assert!(sends.iter().any(|s| s.channel == Some(Channel::Sms)));
    assert!(fake.received().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_provider_its_callback_routes_are_not_there() {
    let app = spawn_app().await;
    let body = whatsapp_webhook(&[("wamid.x", "read")]);
    let sig = meta_signature(APP_SECRET, &body);
    assert_eq!(
        post_whatsapp(&app, &body, Some(&sig)).await,
        StatusCode::NOT_FOUND
    );
    let params = [("MessageSid", "SM1"), ("MessageStatus", "delivered")];
    assert_eq!(
        post_sms_status(&app, &params, "x").await,
        StatusCode::NOT_FOUND
    );
}

#[test]
fn serve_refuses_provider_settings_that_are_wrong_or_would_leak() {
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, "segredo-do-provedor\n").unwrap();
    let token = token.to_str().unwrap();
    // Flags as (name, value); `None` leaves a flag out.
    let args = |pairs: &[(&str, Option<&str>)]| -> Vec<String> {
        pairs
            .iter()
            .filter_map(|(k, v)| v.map(|v| [k.to_string(), v.to_string()]))
            .flatten()
            .collect()
    };
    let wa = |template: &str, lang: &str, api: &str, token_file: Option<&str>| {
        args(&[
            ("--whatsapp-phone-number-id", Some(PHONE_NUMBER_ID)),
            ("--whatsapp-token-file", token_file),
            ("--whatsapp-template", Some(template)),
            ("--whatsapp-template-lang", Some(lang)),
            ("--whatsapp-api-url", Some(api)),
        ])
    };
    let tw = |sid: &str, from: &str, api: &str, token_file: &str| {
        args(&[
            ("--twilio-account-sid", Some(sid)),
            ("--twilio-auth-token-file", Some(token_file)),
            ("--twilio-from", Some(from)),
            ("--twilio-api-url", Some(api)),
        ])
    };
    let graph = "https://graph.facebook.com/v26.0";
    let twilio = "https://api.twilio.com";
    for (args, expected) in [
        (
            wa("Cobrança!", "pt_BR", graph, Some(token)),
            "--whatsapp-template",
        ),
        (
            wa(TEMPLATE, "portuguese", graph, Some(token)),
            "--whatsapp-template-lang",
        ),
        (
            wa(TEMPLATE, "pt_BR", "http://graph.example/v26.0", Some(token)),
            "--whatsapp-api-url",
        ),
        (
            wa(TEMPLATE, "pt_BR", "https://127.0.0.1/v26.0", Some(token)),
            "--whatsapp-api-url",
        ),
        (wa(TEMPLATE, "pt_BR", graph, None), "--whatsapp-token-file"),
        (
            tw("AC123", TWILIO_FROM, twilio, token),
            "--twilio-account-sid",
        ),
        (tw(ACCOUNT_SID, "12345", twilio, token), "--twilio-from"),
        (
            tw(ACCOUNT_SID, TWILIO_FROM, "http://api.twilio.example", token),
            "--twilio-api-url",
        ),
        (
            tw(ACCOUNT_SID, TWILIO_FROM, twilio, "/nonexistent/t"),
            "cannot read /nonexistent/t",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_paylink"))
            .args(["serve", "--listen", "127.0.0.1:0"])
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
