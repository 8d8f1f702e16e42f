//! Webhooks end to end: events from the outbox, signed, retried, prioritised.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;
use crate::receiver::Receiver;

async fn invoice_with_hooks(app: &TestApp, url: &str, kinds: &[&str]) -> serde_json::Value {
    let customer = app.customer_id().await;
    let hooks: Vec<_> = kinds
        .iter()
        .map(|k| json!({ "hookType": k, "url": url }))
        .collect();
    let res = app
        .post_invoice(&with(invoice_body(&customer), json!({ "webhooks": hooks })))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await
}

/// The deliveries once `settled` holds: the receiver may have answered
/// before the worker recorded the answer.
async fn deliveries_when(
    app: &TestApp,
    settled: impl Fn(&[paylink_server::store::webhooks::DeliveryRow]) -> bool,
) -> Vec<paylink_server::store::webhooks::DeliveryRow> {
    let mut rows = Vec::new();
    for _ in 0..200 {
        rows = paylink_server::store::webhooks::list_deliveries(&app.db, None)
            .await
            .unwrap();
        if !rows.is_empty() && settled(&rows) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    rows
}

async fn secret(app: &TestApp) -> String {
    let (app_id, _) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    paylink_server::store::applications::webhook_secrets(&app.db, &app_id)
        .await
        .unwrap()
        .current
}

#[tokio::test]
async fn creation_and_payment_reach_the_merchant_signed() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    let inv = invoice_with_hooks(
        &app,
        &rx.url,
        &["INVOICE_CREATED", "PAYMENT_GENERATED", "PAYMENT_CONFIRMED"],
    )
    .await;
    let id = inv["id"].as_str().unwrap();
    rx.wait_for(10, "creation events", |g| g.len() == 4).await;
    paylink_server::store::payments::simulate_pay(&app.db, id, None, None)
        .await
        .unwrap();
    let got = rx.wait_for(10, "PAYMENT_CONFIRMED", |g| g.len() == 5).await;

    let mut types = Receiver::types(&got);
    types.sort();
    assert_eq!(
        types,
        [
            "INVOICE_CREATED",
            "PAYMENT_CONFIRMED",
            "PAYMENT_GENERATED",
            "PAYMENT_GENERATED",
            "PAYMENT_GENERATED"
        ]
    );
    let secret = secret(&app).await;
    assert!(secret.starts_with("whsec_"));
    for r in &got {
        assert!(r.verify(&secret), "signature of {}", r.body);
        let v = r.json();
        assert_eq!(v["id"], r.id.as_str(), "webhook-id is the event id");
        assert_eq!(v["data"]["externalId"], "order-42");
        assert_eq!(v["data"]["invoiceId"], id);
    }
    let confirmed = got
        .iter()
        .find(|r| r.json()["type"] == "PAYMENT_CONFIRMED")
        .unwrap()
        .json();
    assert_eq!(confirmed["data"]["installment"]["installment"], 1);
    assert_eq!(confirmed["data"]["installment"]["status"], "CONFIRMED");
    assert_eq!(confirmed["data"]["installment"]["pricePaid"], 33.34);
    assert_eq!(confirmed["data"]["method"], "PIX");
    // A tampered body fails the documented check.
    let mut forged = got[0].clone();
    forged.body = forged.body.replace("order-42", "order-43");
    assert!(!forged.verify(&secret));
}

#[tokio::test]
async fn a_receiver_that_fails_then_recovers_gets_the_event_with_the_same_id() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    rx.fail_with(&[(500, None)]);
    invoice_with_hooks(&app, &rx.url, &["INVOICE_CREATED"]).await;
    // First attempt at once (500), the retry 5 s (±10 %) later.
    let got = rx.wait_for(15, "the retry", |g| g.len() == 2).await;
    assert_eq!(got[0].id, got[1].id);
    assert_eq!(got[0].body, got[1].body);
    let rows = deliveries_when(&app, |r| r.len() == 1 && r[0].status != "pending").await;
    assert_eq!(rows[0].status, "succeeded");
    let codes: Vec<Option<i64>> = rows[0].attempt_log.iter().map(|a| a.status_code).collect();
    assert_eq!(codes, [Some(500), Some(200)], "each attempt is listed");
    assert_eq!(rows[0].attempts, 2);
}

#[tokio::test]
async fn retry_after_is_honoured_and_410_disables_the_endpoint() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    rx.fail_with(&[(503, Some("1")), (410, None)]);
    let inv = invoice_with_hooks(&app, &rx.url, &["INVOICE_CREATED", "PAYMENT_CONFIRMED"]).await;
    // 503 with Retry-After: 1 → retried after ~1 s (not 5 s), then 410.
    rx.wait_for(4, "the retry after 1 s", |g| g.len() == 2)
        .await;
    let rows = deliveries_when(&app, |r| r[0].status != "pending").await;
    assert_eq!(rows[0].status, "disabled", "{rows:?}");
    // The endpoint is gone: a later payment sends nothing to it.
    paylink_server::store::payments::simulate_pay(&app.db, inv["id"].as_str().unwrap(), None, None)
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    assert_eq!(rx.received().len(), 2);
}

#[tokio::test]
async fn invoice_webhooks_take_priority_over_application_webhooks() {
    let app = spawn_app_insecure().await;
    let (app_id, _) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    let app_rx = Receiver::start().await;
    let invoice_rx = Receiver::start().await;
    for kind in [
        paylink_model::HookType::InvoiceCreated,
        paylink_model::HookType::PaymentGenerated,
    ] {
        paylink_server::store::webhooks::add_app_webhook(&app.db, &app_id, kind, &app_rx.url)
            .await
            .unwrap();
    }
    // The invoice has its own INVOICE_CREATED hook, none for PAYMENT_GENERATED.
    invoice_with_hooks(&app, &invoice_rx.url, &["INVOICE_CREATED"]).await;
    invoice_rx
        .wait_for(10, "INVOICE_CREATED on the invoice's hook", |g| {
            g.len() == 1
        })
        .await;
    let got = app_rx
        .wait_for(10, "PAYMENT_GENERATED on the application's hook", |g| {
            g.len() == 3
        })
        .await;
    assert!(Receiver::types(&got)
        .iter()
        .all(|t| t == "PAYMENT_GENERATED"));
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(
        invoice_rx.received().len(),
        1,
        "no duplicate on the invoice's hook"
    );
}

#[tokio::test]
async fn internal_addresses_are_refused_without_the_insecure_flag() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    for url in [
        "https://127.0.0.1/h",
        "https://[::1]/h",
        "https://10.0.0.8/h",
        "http://loja.example.com/h",
    ] {
        let req = with(
            invoice_body(&customer),
            json!({ "webhooks": [{ "hookType": "INVOICE_CREATED", "url": url }] }),
        );
        let errors = envelope(
            app.post_invoice(&req).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(errors["webhooks[0].url"].is_array(), "{url}: {errors}");
    }
}

#[tokio::test]
async fn a_name_resolving_to_loopback_is_refused_when_sending() {
    // "vm" and "runsc" resolve to 127.0.0.1 on this machine (/etc/hosts). A
    // row stored before the registration checks: the send refuses the name
    // (one label, `localhost.`) before connecting. A name that passes every
    // check and resolves to loopback later (rebinding) is outbound.rs's.
    let app = spawn_app().await;
    let (app_id, _) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    let rx = Receiver::start().await;
    let port = rx
        .url
        .split(':')
        .nth(2)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let sneaky = format!("https://localhost.:{port}/hooks");
    let name = ["vm", "runsc", "localhost"]
        .into_iter()
        .find(|h| {
            std::net::ToSocketAddrs::to_socket_addrs(&(*h, 0))
                .is_ok_and(|mut a| a.all(|a| a.ip().is_loopback()))
        })
        .unwrap();
    let url = if name == "localhost" {
        sneaky
    } else {
        format!("https://{name}:{port}/hooks")
    };
    paylink_server::store::webhooks::add_app_webhook(
        &app.db,
        &app_id,
        paylink_model::HookType::InvoiceCreated,
        &url,
    )
    .await
    .unwrap();
    let customer = app.customer_id().await;
    app.post_invoice(&invoice_body(&customer)).await;
    let mut rows = Vec::new();
    for _ in 0..100 {
        rows = paylink_server::store::webhooks::list_deliveries(&app.db, None)
            .await
            .unwrap();
        if rows.first().is_some_and(|r| r.attempts > 0) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(rows[0].attempts > 0, "{rows:?}");
    assert!(
        rows[0]
            .last_error
            .as_deref()
            .unwrap_or("")
            .contains("internal"),
        "{rows:?}"
    );
    assert!(rx.received().is_empty());
}

#[tokio::test]
async fn redelivery_repeats_an_event_with_its_id() {
    let app = spawn_app_insecure().await;
    let rx = Receiver::start().await;
    invoice_with_hooks(&app, &rx.url, &["INVOICE_CREATED"]).await;
    let first = rx.wait_for(10, "INVOICE_CREATED", |g| g.len() == 1).await;
    // The receiver has answered, but the worker may not have recorded the attempt yet: until
    // it has, the delivery is still under way and a redelivery is refused (`Pending`).
    let recorded = deliveries_when(&app, |d| {
        d.iter().all(|d| d.status == "succeeded" && d.attempts == 1)
    })
    .await;
    assert!(
        recorded
            .iter()
            .all(|d| d.status == "succeeded" && d.attempts == 1),
        "{recorded:?}"
    );
    let n = paylink_server::store::webhooks::redeliver(&app.db, &first[0].id)
        .await
        .unwrap();
    assert_eq!(n, 1);
    let got = rx.wait_for(10, "the redelivery", |g| g.len() == 2).await;
    assert_eq!(got[0].id, got[1].id);
    assert_eq!(
        paylink_server::store::webhooks::redeliver(&app.db, "no-such-event")
            .await
            .unwrap(),
        0
    );
}

#[tokio::test]
async fn payments_follow_the_legal_transitions_only() {
    use paylink_server::store::payments::{simulate_pay, simulate_reverse, LifecycleError as E};
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let inv = body(
        app.post_invoice(&with(
            invoice_body(&customer),
            json!({ "paymentTypes": ["BOLETO"] }),
        ))
        .await,
    )
    .await;
    let id = inv["id"].as_str().unwrap();
    assert!(matches!(
        simulate_pay(&app.db, id, None, Some(paylink_model::PaymentType::Pix)).await,
        Err(E::MethodNotAccepted(_))
    ));
    assert!(matches!(
        simulate_reverse(&app.db, id, 1).await,
        Err(E::NotPaid(1))
    ));
    let paid = simulate_pay(&app.db, id, None, None).await.unwrap();
    assert_eq!(paid.installment, 1);
    assert!(matches!(
        simulate_pay(&app.db, id, Some(1), None).await,
        Err(E::AlreadyPaid(1))
    ));
    assert!(matches!(
        simulate_pay(&app.db, id, Some(9), None).await,
        Err(E::InstallmentNotFound(9))
    ));
    // The next payment without --installment takes the next open one.
    assert_eq!(
        simulate_pay(&app.db, id, None, None)
            .await
            .unwrap()
            .installment,
        2
    );
    simulate_reverse(&app.db, id, 1).await.unwrap();

    let d = body(app.get_invoice(id).await).await;
    let i = &d["installments"];
    assert_eq!(i[0]["_status"], "REVERSED");
    assert_eq!(i[1]["_status"], "CONFIRMED");
    assert_eq!(i[1]["pricePaid"], 33.33);
    for f in ["paidAt", "paymentReceivedAt", "updatedAt"] {
        assert!(i[1][f].is_string(), "{f}");
    }
    assert_eq!(i[2]["_status"], "WAITING_PAYMENT");

    paylink_server::store::payments::delete_invoice(&app.db, id)
        .await
        .unwrap();
    envelope(app.get_invoice(id).await, StatusCode::NOT_FOUND).await;
    assert!(matches!(
        paylink_server::store::payments::delete_invoice(&app.db, id).await,
        Err(E::InvoiceNotFound)
    ));
    assert!(matches!(
        simulate_pay(&app.db, id, None, None).await,
        Err(E::InvoiceNotFound)
    ));
}
