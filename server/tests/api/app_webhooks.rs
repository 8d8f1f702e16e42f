//! The application's webhooks over the API (and the proxy): registering,
//! listing and removing them, the signing secret shown once and rotated, the
//! deliveries' list (filters, pages) and a redelivery; bad input answered
//! with an envelope, never a 500.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::*;
use crate::receiver::Receiver;

const HOOKS: &str = "/invoices/applications/webhooks";
const DELIVERIES: &str = "/invoices/applications/deliveries";

async fn call(app: &TestApp, method: Method, path: &str, body: Option<Value>) -> reqwest::Response {
    let req = app.authed(method, path).await;
    let req = match body {
        Some(b) => req.json(&b),
        None => req,
    };
    req.send().await.unwrap()
}

async fn add(app: &TestApp, kind: &str, url: &str) -> reqwest::Response {
    call(
        app,
        Method::POST,
        HOOKS,
        Some(json!({ "hookType": kind, "url": url })),
    )
    .await
}

async fn invoice(app: &TestApp) -> String {
    let customer = app.customer_id().await;
    let res = app
        .post_invoice(&with(invoice_body(&customer), json!({ "webhooks": [] })))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

async fn deliveries(app: &TestApp, query: &str) -> Value {
    let res = call(app, Method::GET, &format!("{DELIVERIES}{query}"), None).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await
}

/// The deliveries once `settled` holds for them.
async fn deliveries_when(app: &TestApp, settled: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let mut rows = Vec::new();
    for _ in 0..200 {
        rows = deliveries(app, "").await["data"]
            .as_array()
            .unwrap()
            .clone();
        if settled(&rows) {
            return rows;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("deliveries never settled: {rows:#?}");
}

#[tokio::test]
async fn webhooks_are_registered_listed_and_removed_with_the_secret_shown_once() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    let empty = body(call(&app, Method::GET, HOOKS, None).await).await;
    assert_eq!(
        empty,
        json!({ "data": [], "secretCreatedAt": null, "previousSecretValidUntil": null })
    );

    let res = add(&app, "INVOICE_CREATED", &format!(" {} ", rx.url)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let first = body(res).await;
    let secret = first["secret"].as_str().unwrap().to_string();
    assert!(secret.starts_with("whsec_"), "{first}");
    assert_eq!(first["url"], rx.url.as_str(), "trimmed");
    assert_eq!(first["hookType"], "INVOICE_CREATED");
    // The second webhook does not show the secret again, nor does the list.
    let second = body(add(&app, "PAYMENT_CONFIRMED", &rx.url).await).await;
    assert!(second.get("secret").is_none(), "{second}");
    let res = call(&app, Method::GET, HOOKS, None).await;
    assert_eq!(res.headers()["cache-control"], "no-store");
    let text = res.text().await.unwrap();
    assert!(
        !text.contains(&secret) && !text.contains("whsec_"),
        "{text}"
    );
    let list: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(list["data"].as_array().unwrap().len(), 2);
    assert_eq!(list["data"][0]["id"], first["id"]);
    assert!(list["secretCreatedAt"].as_str().unwrap().ends_with('Z'));

    // The same event at the same URL once only.
    let errors = envelope(
        add(&app, "INVOICE_CREATED", &rx.url).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(
        errors["url"][0].as_str().unwrap().contains("já recebe"),
        "{errors}"
    );

    // Another application neither sees nor removes them.
    let other = app.other_token().await;
    let res = app
        .client
        .get(app.url(HOOKS))
        .header("Authorization", format!("Basic {other}"))
        .send()
        .await
        .unwrap();
    assert_eq!(body(res).await["data"], json!([]));
    let id = first["id"].as_str().unwrap();
    let res = app
        .client
        .delete(app.url(&format!("{HOOKS}/{id}")))
        .header("Authorization", format!("Basic {other}"))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::NOT_FOUND).await;

    let res = call(&app, Method::DELETE, &format!("{HOOKS}/{id}"), None).await;
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let res = call(&app, Method::DELETE, &format!("{HOOKS}/{id}"), None).await;
    envelope(res, StatusCode::NOT_FOUND).await;
    let list = body(call(&app, Method::GET, HOOKS, None).await).await;
    assert_eq!(list["data"].as_array().unwrap().len(), 1);
    // Events of the removed webhook's type go nowhere now.
    invoice(&app).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(rx.received().is_empty());
}

#[tokio::test]
async fn an_application_has_at_most_twenty_webhooks() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    let mut ids = Vec::new();
    for n in 0..paylink_model::webhooks::MAX_APP_WEBHOOKS {
        let res = add(&app, "PAYMENT_CONFIRMED", &format!("{}/loja-{n}", rx.url)).await;
        assert_eq!(res.status(), StatusCode::CREATED, "webhook {n}");
        ids.push(body(res).await["id"].as_str().unwrap().to_string());
    }
    let errors = envelope(
        add(&app, "PAYMENT_CONFIRMED", &format!("{}/mais-um", rx.url)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(
        errors["url"][0],
        "A aplicação já tem 20 webhooks, o máximo: remova um antes de adicionar outro.",
        "{errors}"
    );
    let list = body(call(&app, Method::GET, HOOKS, None).await).await;
    assert_eq!(list["data"].as_array().unwrap().len(), 20, "nothing stored");
    // Another application is not counted against it.
    let other = app.other_token().await;
    let res = app
        .client
        .post(app.url(HOOKS))
        .header("Authorization", format!("Basic {other}"))
        .json(&json!({ "hookType": "PAYMENT_CONFIRMED", "url": format!("{}/outra", rx.url) }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    // One removed, one may be added.
    let res = call(&app, Method::DELETE, &format!("{HOOKS}/{}", ids[0]), None).await;
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let res = add(&app, "PAYMENT_CONFIRMED", &format!("{}/mais-um", rx.url)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn a_rotated_secret_signs_every_delivery_after_it_and_the_old_one_signs_too_for_a_day() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    let old = body(add(&app, "INVOICE_CREATED", &rx.url).await).await["secret"]
        .as_str()
        .unwrap()
        .to_string();
    invoice(&app).await;
    let got = rx.wait_for(10, "the first event", |g| g.len() == 1).await;
    assert!(got[0].verify(&old));

    let res = call(&app, Method::POST, &format!("{HOOKS}/secret"), None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let rotated = body(res).await;
    let new = rotated["secret"].as_str().unwrap().to_string();
    assert!(new.starts_with("whsec_") && new != old, "{rotated}");
    let list = body(call(&app, Method::GET, HOOKS, None).await).await;
    assert_eq!(list["secretCreatedAt"], rotated["createdAt"]);
    // The old one signs too, for a day: the receiver can switch without refusing a delivery.
    let until = rotated["previousValidUntil"].as_str().unwrap();
    let made = rotated["createdAt"].as_str().unwrap();
    let day = |at: &str| paylink_model::Date::parse_iso_prefix(at).unwrap();
    assert_eq!(
        (day(until), &until[10..]),
        (day(made).add_days(1).unwrap(), &made[10..]),
        "24 hours after it was made: {rotated}"
    );
    assert_eq!(list["previousSecretValidUntil"], until);

    invoice(&app).await;
    let got = rx.wait_for(10, "the second event", |g| g.len() == 2).await;
    assert_eq!(
        got[1].signature.split(' ').count(),
        2,
        "{}",
        got[1].signature
    );
    assert!(got[1].verify(&new) && got[1].verify(&old));

    // Its day over, only the new one signs.
    let pool = app.raw_pool().await;
    sqlx::query(
        "UPDATE applications SET webhook_secret_previous_until = '2000-01-01T00:00:00.000Z'",
    )
    .execute(&pool)
    .await
    .unwrap();
    let list = body(call(&app, Method::GET, HOOKS, None).await).await;
    assert_eq!(list["previousSecretValidUntil"], Value::Null);
    invoice(&app).await;
    let got = rx.wait_for(10, "the third event", |g| g.len() == 3).await;
    assert!(
        got[2].verify(&new) && !got[2].verify(&old),
        "{}",
        got[2].signature
    );
    let kept: Option<String> = sqlx::query_scalar(
        "SELECT webhook_secret_previous FROM applications WHERE webhook_secret_previous IS NOT NULL",
    )
    .fetch_optional(&pool)
    .await
    .unwrap();
    assert_eq!(kept, None, "the old secret is not kept past its day");

    // Rotated twice within a day: the first secret is gone at once, the second signs a day.
    let second = body(call(&app, Method::POST, &format!("{HOOKS}/secret"), None).await).await;
    let third = body(call(&app, Method::POST, &format!("{HOOKS}/secret"), None).await).await;
    invoice(&app).await;
    let got = rx.wait_for(10, "the fourth event", |g| g.len() == 4).await;
    let (second, third) = (
        second["secret"].as_str().unwrap(),
        third["secret"].as_str().unwrap(),
    );
    assert!(got[3].verify(third) && got[3].verify(second) && !got[3].verify(&new));
}

#[tokio::test]
async fn failed_deliveries_are_found_by_status_and_invoice_and_sent_again() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    add(&app, "INVOICE_CREATED", &rx.url).await;
    rx.fail_with(&[(500, None)]);
    let failing = invoice(&app).await;
    let rows = deliveries_when(&app, |d| d.len() == 1 && d[0]["attempts"] == 1).await;
    let failed = rows[0].clone();
    assert_eq!(failed["status"], "pending", "a retry waits: {failed}");
    assert_eq!(failed["invoiceId"], failing.as_str());
    assert_eq!(failed["eventType"], "INVOICE_CREATED");
    assert_eq!(failed["source"], "application");
    assert_eq!(failed["lastStatusCode"], 500);
    assert!(failed["lastError"].as_str().unwrap().contains("500"));
    assert!(failed["nextAttemptAt"].as_str().unwrap() > failed["updatedAt"].as_str().unwrap());
    let fine = invoice(&app).await;
    deliveries_when(&app, |d| d.len() == 2 && d[0]["status"] == "succeeded").await;

    // Filters and pages.
    let page = deliveries(&app, "?status=succeeded").await;
    assert_eq!(page["data"].as_array().unwrap().len(), 1);
    assert_eq!(page["data"][0]["invoiceId"], fine.as_str());
    let page = deliveries(&app, &format!("?invoiceId={}", failing.to_uppercase())).await;
    assert_eq!(page["data"].as_array().unwrap().len(), 1);
    assert_eq!(page["data"][0]["id"], failed["id"]);
    let page = deliveries(&app, "").await;
    assert_eq!(page["data"].as_array().unwrap().len(), 2);
    let first = deliveries(&app, "?limit=1").await;
    assert_eq!(first["data"][0]["invoiceId"], fine.as_str(), "newest first");
    let cursor = first["nextCursor"].as_str().unwrap();
    let second = deliveries(&app, &format!("?limit=1&cursor={cursor}")).await;
    assert_eq!(second["data"][0]["id"], failed["id"]);
    assert_eq!(second["nextCursor"], Value::Null);

    // Sent again now, not at its retry 5 s later: the same event, to the same URL.
    let id = failed["id"].as_str().unwrap();
    let res = call(
        &app,
        Method::POST,
        &format!("{DELIVERIES}/{id}/redeliver"),
        None,
    )
    .await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let queued = body(res).await;
    assert_eq!(queued["status"], "pending");
    assert_eq!(queued["id"], failed["id"]);
    let got = rx.wait_for(3, "the redelivery", |g| g.len() == 3).await;
    assert_eq!(got[2].id, got[0].id, "same webhook-id");
    let rows = deliveries_when(&app, |d| d.iter().all(|r| r["status"] == "succeeded")).await;
    let redelivered = rows.iter().find(|r| r["id"] == failed["id"]).unwrap();
    assert_eq!(redelivered["attempts"], 2);
    assert_eq!(redelivered["lastError"], Value::Null);

    // Another application's delivery is not found.
    let other = app.other_token().await;
    let res = app
        .client
        .post(app.url(&format!("{DELIVERIES}/{id}/redeliver")))
        .header("Authorization", format!("Basic {other}"))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn removing_a_webhook_stops_its_retries() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    let hook = body(add(&app, "INVOICE_CREATED", &rx.url).await).await;
    rx.fail_with(&[(500, None)]);
    invoice(&app).await;
    deliveries_when(&app, |d| d.len() == 1 && d[0]["attempts"] == 1).await;
    let id = hook["id"].as_str().unwrap();
    let res = call(&app, Method::DELETE, &format!("{HOOKS}/{id}"), None).await;
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let rows = deliveries(&app, "").await;
    assert_eq!(rows["data"][0]["status"], "disabled");
    assert_eq!(rows["data"][0]["nextAttemptAt"], Value::Null);
}

#[tokio::test]
async fn bad_input_is_answered_with_an_envelope_never_a_500() {
    let app = spawn_app_production().await;
    for (body_, field) in [
        (json!({ "url": "https://loja.example/h" }), "hookType"),
        (
            json!({ "hookType": "PAID", "url": "https://loja.example/h" }),
            "hookType",
        ),
        (
            json!({ "hookType": 1, "url": "https://loja.example/h" }),
            "hookType",
        ),
        (json!({ "hookType": "INVOICE_CREATED" }), "url"),
        (json!({ "hookType": "INVOICE_CREATED", "url": " " }), "url"),
        (
            json!({ "hookType": "INVOICE_CREATED", "url": "http://loja.example/h" }),
            "url",
        ),
        (
            json!({ "hookType": "INVOICE_CREATED", "url": "https://10.0.0.1/h" }),
            "url",
        ),
        (
            json!({ "hookType": "INVOICE_CREATED", "url": "https://localhost/h" }),
            "url",
        ),
        (
            json!({ "hookType": "INVOICE_CREATED", "url": "https://[::1]/h" }),
            "url",
        ),
        (
            json!({ "hookType": "INVOICE_CREATED", "url": "https://u:p@loja.example/h" }),
            "url",
        ),
        (
            json!({ "hookType": "INVOICE_CREATED", "url": format!("https://loja.example/{}", "a".repeat(2000)) }),
            "url",
        ),
        (
            json!({ "hookType": "INVOICE_CREATED", "url": ["https://loja.example"] }),
            "url",
        ),
    ] {
        let res = call(&app, Method::POST, HOOKS, Some(body_.clone())).await;
        let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert!(errors.get(field).is_some(), "{body_}: {errors}");
    }
    // In English when asked.
    let res = app
        .authed(Method::POST, HOOKS)
        .await
        .header("Accept-Language", "en")
        .json(&json!({ "hookType": "INVOICE_CREATED", "url": "http://loja.example" }))
        .send()
        .await
        .unwrap();
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(errors["url"][0], "Enter a valid HTTPS URL.");
    for (raw, content_type, status) in [
        ("[]", "application/json", StatusCode::BAD_REQUEST),
        ("{", "application/json", StatusCode::BAD_REQUEST),
        ("{}", "text/plain", StatusCode::UNSUPPORTED_MEDIA_TYPE),
    ] {
        let res = app
            .authed(Method::POST, HOOKS)
            .await
            .header("content-type", content_type)
            .body(raw)
            .send()
            .await
            .unwrap();
        envelope(res, status).await;
    }
    for path in [HOOKS, DELIVERIES] {
        let res = app.client.get(app.url(path)).send().await.unwrap();
        envelope(res, StatusCode::UNAUTHORIZED).await;
    }
    for (query, field) in [
        ("invoiceId=42", "invoiceId"),
        ("invoiceId=", "invoiceId"),
        ("status=", "status"),
        ("status=ok", "status"),
        ("cursor=x", "cursor"),
        ("cursor=", "cursor"),
        ("limit=0", "limit"),
        ("limit=x", "limit"),
    ] {
        let res = call(&app, Method::GET, &format!("{DELIVERIES}?{query}"), None).await;
        let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert!(errors.get(field).is_some(), "{query}: {errors}");
    }
    let res = call(
        &app,
        Method::GET,
        &format!("{DELIVERIES}?status=failed&status=pending"),
        None,
    )
    .await;
    envelope(res, StatusCode::BAD_REQUEST).await;
    for id in ["x", "00000000-0000-0000-0000-000000000000", "%FF"] {
        let res = call(
            &app,
            Method::POST,
            &format!("{DELIVERIES}/{id}/redeliver"),
            None,
        )
        .await;
        assert!(
            res.status() == StatusCode::NOT_FOUND || res.status() == StatusCode::BAD_REQUEST,
            "{id}: {}",
            res.status()
        );
        envelope(
            res,
            if id == "%FF" {
                StatusCode::BAD_REQUEST
            } else {
                StatusCode::NOT_FOUND
            },
        )
        .await;
        let res = call(&app, Method::DELETE, &format!("{HOOKS}/{id}"), None).await;
        envelope(
            res,
            if id == "%FF" {
                StatusCode::BAD_REQUEST
            } else {
                StatusCode::NOT_FOUND
            },
        )
        .await;
    }
}

/// The widget's calls: the operator's session, through the proxy, each
/// change audited (adding and removing a webhook, rotating the secret,
/// redelivering).
#[tokio::test]
async fn the_proxy_serves_the_screen_under_the_session_and_audits_its_actions() {
    use paylink_server::store::operators as rows;
    let app = spawn_app_with(local_proxy).await;
    let res = app
        .post(
            "/api/webhooks",
            &json!({ "hookType": "PAYMENT_CONFIRMED", "url": "https://loja.example/hooks" }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let hook = body(res).await;
    assert!(hook["secret"].as_str().unwrap().starts_with("whsec_"));
    let hook_id = hook["id"].as_str().unwrap().to_string();
    let res = app
        .post(
            "/api/webhooks",
            &json!({ "hookType": "PAYMENT_CONFIRMED", "url": "http://loja.example" }),
        )
        .await;
    assert!(envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await["url"].is_array());
    let list = body(app.get("/api/webhooks").await).await;
    assert_eq!(list["data"][0]["id"], hook_id.as_str());
    let res = app.post_empty("/api/webhooks/secret").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let page = body(app.get("/api/deliveries?status=failed").await).await;
    assert_eq!(page["data"], json!([]));
    let res = app.get("/api/deliveries?status=nope").await;
    assert!(envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await["status"].is_array());

    // A delivery to send again: stored before the checks (a refused address fails at once).
    let (app_id, _) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    paylink_server::store::webhooks::add_app_webhook(
        &app.db,
        &app_id,
        paylink_model::HookType::InvoiceCreated,
        "https://127.0.0.1:9/h",
    )
    .await
    .unwrap();
    let res = app
        .post("/api/customers", &json!({ "fullName": "Maria da Silva" }))
        .await;
    let customer = body(res).await["id"].as_str().unwrap().to_string();
    let res = app
        .post(
            "/api/invoices",
            &with(invoice_body(&customer), json!({ "webhooks": [] })),
        )
        .await;
    assert!(res.status().is_success());
    let mut failed = Value::Null;
    for _ in 0..200 {
        let page = body(app.get("/api/deliveries?status=failed").await).await;
        if let Some(d) = page["data"].get(0) {
            failed = d.clone();
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        failed["lastError"].as_str().unwrap().contains("internal"),
        "{failed}"
    );
    let delivery_id = failed["id"].as_str().unwrap().to_string();
    let res = app
        .post_empty(&format!("/api/deliveries/{delivery_id}/redeliver"))
        .await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let res = app
        .client
        .delete(app.url(&format!("/api/webhooks/{hook_id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);

    // Without a session: the login, and nothing changed.
    let anonymous = reqwest::Client::new();
    let res = anonymous
        .get(app.url("/api/webhooks"))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::UNAUTHORIZED).await;
    // From another origin: refused.
    let res = app
        .client
        .post(app.url("/api/webhooks/secret"))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::FORBIDDEN).await;

    let audit = rows::list_audit(&app.db).await.unwrap();
    let seen: Vec<(&str, Option<&str>)> = audit
        .iter()
        .filter(|a| a.action.contains("webhook") || a.action.contains("deliver"))
        .map(|a| (a.action.as_str(), a.target_id.as_deref()))
        .collect();
    let mut seen = seen;
    seen.sort();
    let mut expected = vec![
        ("add_webhook", Some(hook_id.as_str())),
        ("rotate_webhook_secret", None),
        ("redeliver", Some(delivery_id.as_str())),
        ("remove_webhook", Some(hook_id.as_str())),
    ];
    expected.sort();
    assert_eq!(seen, expected);
}
