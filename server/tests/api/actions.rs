//! The merchant's actions over real HTTP: cancel an invoice, record a
//! payment received outside paylink; and what the payer page says after.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

async fn new_invoice(app: &TestApp) -> String {
    let customer = app.customer_id().await;
    let res = app.post_invoice(&invoice_body(&customer)).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

async fn event_types(app: &TestApp, invoice_id: &str) -> Vec<String> {
    sqlx::query_scalar("SELECT type FROM events WHERE invoice_id = $1 ORDER BY created_at")
        .bind(invoice_id)
        .fetch_all(&app.raw_pool().await)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_payment_received_in_cash_confirms_the_installment_once() {
    let app = spawn_app().await;
    let id = new_invoice(&app).await;
    let path = format!("/invoices/applications/invoices/{id}/installments/2/payments");
    // The invoice was made today: no payment of it was received before.
    let yesterday = days_from_today(0);
    let res = app
        .authed(reqwest::Method::POST, &path)
        .await
        .json(&json!({ "amount": 33.33, "paidOn": yesterday }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let detail = body(res).await;
    let second = &detail["installments"][1];
    assert_eq!(second["_status"], "CONFIRMED", "{detail}");
    assert_eq!(second["pricePaid"], 33.33);
    assert!(second["paidAt"].as_str().unwrap().starts_with(&yesterday));
    assert_eq!(detail["installments"][0]["_status"], "WAITING_PAYMENT");
    assert!(event_types(&app, &id)
        .await
        .contains(&"PAYMENT_CONFIRMED".to_string()));

    // Again: already paid, a 409 that changes nothing.
    let again = app
        .authed(reqwest::Method::POST, &path)
        .await
        .json(&json!({ "amount": 33.33, "paidOn": yesterday }))
        .send()
        .await
        .unwrap();
    envelope(again, StatusCode::CONFLICT).await;
    let confirmed = event_types(&app, &id)
        .await
        .iter()
        .filter(|t| *t == "PAYMENT_CONFIRMED")
        .count();
    assert_eq!(confirmed, 1);
}

#[tokio::test]
async fn bad_payments_get_the_envelope_and_change_nothing() {
    let app = spawn_app().await;
    let id = new_invoice(&app).await;
    let tomorrow = days_from_today(1);
    for (body, field) in [
        (json!({ "paidOn": days_from_today(0) }), "amount"),
        (
            json!({ "amount": 0, "paidOn": days_from_today(0) }),
            "amount",
        ),
        (
            json!({ "amount": 1.001, "paidOn": days_from_today(0) }),
            "amount",
        ),
        (json!({ "amount": 10 }), "paidOn"),
        (json!({ "amount": 10, "paidOn": "01/11/2026" }), "paidOn"),
        (json!({ "amount": 10, "paidOn": tomorrow }), "paidOn"),
        (
            json!({ "amount": "dez", "paidOn": days_from_today(0) }),
            "amount",
        ),
    ] {
        let res = app
            .authed(
                reqwest::Method::POST,
                &format!("/invoices/applications/invoices/{id}/installments/1/payments"),
            )
            .await
            .json(&body)
            .send()
            .await
            .unwrap();
        let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert!(errors[field].is_array(), "{body}: {errors}");
    }
    let ok = json!({ "amount": 10, "paidOn": days_from_today(0) });
    for (path, status) in [
        (format!("/invoices/applications/invoices/{id}/installments/9/payments"), StatusCode::NOT_FOUND),
        (format!("/invoices/applications/invoices/{id}/installments/x/payments"), StatusCode::NOT_FOUND),
        ("/invoices/applications/invoices/nope/installments/1/payments".to_string(), StatusCode::BAD_REQUEST),
        (
            "/invoices/applications/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11/installments/1/payments".to_string(),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let res = app.authed(reqwest::Method::POST, &path).await.json(&ok).send().await.unwrap();
        envelope(res, status).await;
    }
    // Another application's invoice is not found.
    let other = app.other_token().await;
    let res = app
        .client
        .post(app.url(&format!(
            "/invoices/applications/invoices/{id}/installments/1/payments"
        )))
        .header("Authorization", format!("Basic {other}"))
        .json(&ok)
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::NOT_FOUND).await;
    let detail = body(app.get_invoice(&id).await).await;
    assert!(detail["installments"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["_status"] == "WAITING_PAYMENT"));
}

/// Issue 38: a manual payment took R$ 99.999.999,99 on a R$ 33,33
/// installment and a payment received on 01/01/0001. Now at most what the
/// installment costs, on a day from the invoice's creation to today, each
/// refusal a field message in the request's language.
#[tokio::test]
async fn a_payment_is_at_most_what_is_due_on_a_day_since_the_invoice_was_made() {
    let app = spawn_app().await;
    let id = new_invoice(&app).await;
    let path = format!("/invoices/applications/invoices/{id}/installments/2/payments");
    let today = days_from_today(0);
    for (body, field, lang, says) in [
        (
            json!({ "amount": 99_999_999.99, "paidOn": today }),
            "amount",
            "pt-BR",
            "O valor não pode passar do devido nesta parcela (R$ 33,33).",
        ),
        (
            json!({ "amount": 33.34, "paidOn": today }),
            "amount",
            "en",
            "The amount cannot exceed what is due on this installment (R$ 33.33).",
        ),
        (
            json!({ "amount": 33.33, "paidOn": "0001-01-01" }),
            "paidOn",
            "en",
            "The date cannot be before the invoice was created",
        ),
        (
            json!({ "amount": 33.33, "paidOn": days_from_today(-1) }),
            "paidOn",
            "pt-BR",
            "A data não pode ser anterior à criação da cobrança",
        ),
        (
            json!({ "amount": 33.33, "paidOn": days_from_today(1) }),
            "paidOn",
            "en",
            "The date cannot be after today.",
        ),
    ] {
        let res = app
            .authed(reqwest::Method::POST, &path)
            .await
            .header("accept-language", lang)
            .json(&body)
            .send()
            .await
            .unwrap();
        let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        let messages = errors.as_object().unwrap();
        assert_eq!(messages.len(), 1, "{body}: {errors}");
        let said = errors[field][0].as_str().unwrap_or_default();
        assert!(said.starts_with(says), "{body}: {errors}");
    }
    let detail = body(app.get_invoice(&id).await).await;
    assert_eq!(detail["installments"][1]["_status"], "WAITING_PAYMENT");
    // Exactly what is due, today: taken.
    let res = app
        .authed(reqwest::Method::POST, &path)
        .await
        .json(&json!({ "amount": 33.33, "paidOn": today }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

/// Cancelled: 204 once, gone from the detail and the list (but
/// status=cancelled), INVOICE_DELETED fired, and the payer page says the
/// charge was cancelled (410) rather than "not found".
#[tokio::test]
async fn a_cancelled_invoice_leaves_the_lists_and_its_payer_page_says_so() {
    let app = spawn_app_with(local_proxy).await;
    let id = new_invoice(&app).await;
    let res = app.cancel_invoice(&id).await;
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    envelope(app.cancel_invoice(&id).await, StatusCode::NOT_FOUND).await;
    envelope(app.get_invoice(&id).await, StatusCode::NOT_FOUND).await;
    assert!(event_types(&app, &id)
        .await
        .contains(&"INVOICE_DELETED".to_string()));

    let list = body(
        app.authed(reqwest::Method::GET, "/invoices/applications/invoices")
            .await
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(list["data"].as_array().unwrap().len(), 0);
    let cancelled = body(
        app.authed(
            reqwest::Method::GET,
            "/invoices/applications/invoices?status=cancelled",
        )
        .await
        .send()
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(cancelled["data"][0]["id"], id.as_str());

    let payer = app.get(&format!("/api/pay/{id}")).await;
    assert_eq!(payer.status(), StatusCode::GONE);
    let v = body(payer).await;
    assert!(v["message"].as_str().unwrap().contains("cancelada"), "{v}");
    // An unknown one is still "not found".
    envelope(
        app.get("/api/pay/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11")
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
}

/// The widget's detail screen calls the actions through the proxy; only
/// UUIDs and digits reach the upstream path; without an operator's session they are
/// refused like every merchant screen.
#[tokio::test]
async fn the_proxy_carries_the_actions_for_the_operator_only() {
    let app = spawn_app_with(local_proxy).await;
    let id = new_invoice(&app).await;
    let res = app
        .post(
            &format!("/api/invoices/{id}/installments/1/payments"),
            &json!({ "amount": 33.34, "paidOn": days_from_today(0) }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(body(res).await["installments"][0]["_status"], "CONFIRMED");
    let res = app
        .post(
            &format!("/api/invoices/{id}/installments/..%2F..%2F1/payments"),
            &json!({}),
        )
        .await;
    envelope(res, StatusCode::NOT_FOUND).await;
    let res = app
        .client
        .delete(app.url(&format!("/api/invoices/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);

    let public = spawn_app_anonymous().await;
    let res = public
        .client
        .delete(public.url(&format!("/api/invoices/{id}")))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::UNAUTHORIZED).await;
}

/// "Send it again": one send per channel the invoice's notifications use,
/// due now, about the next open installment; refused (409) when nothing is
/// open or there is no channel; through the proxy too.
#[tokio::test]
async fn the_charge_is_sent_again_on_each_channel_now() {
    let app = spawn_app_with(local_proxy).await;
    let id = new_invoice(&app).await; // notifications on Email, SMS and WhatsApp
    let pending = || async {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM notification_sends WHERE invoice_id = $1 AND type = 'INVOICE_GENERATED' AND status = 'pending'",
        )
        .bind(&id)
        .fetch_one(&app.raw_pool().await)
        .await
        .unwrap();
        n
    };
    let before = pending().await;
    let res = app
        .authed(
            reqwest::Method::POST,
            &format!("/invoices/applications/invoices/{id}/resend"),
        )
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    assert_eq!(body(res).await, json!({ "queued": 3 }));
    assert_eq!(pending().await, before + 3);
    let res = app.post_empty(&format!("/api/invoices/{id}/resend")).await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);

    // Nothing open: every installment paid.
    for n in 1..=3 {
        paylink_server::store::payments::simulate_pay(&app.db, &id, Some(n), None)
            .await
            .unwrap();
    }
    let res = app
        .authed(
            reqwest::Method::POST,
            &format!("/invoices/applications/invoices/{id}/resend"),
        )
        .await
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::CONFLICT).await;

    // No channel: an invoice without notifications.
    let customer = app.customer_id().await;
    let bare = body(
        app.post_invoice(&with(
            invoice_body(&customer),
            json!({ "notifications": null }),
        ))
        .await,
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .authed(
            reqwest::Method::POST,
            &format!("/invoices/applications/invoices/{bare}/resend"),
        )
        .await
        .send()
        .await
        .unwrap();
    let v = body(res).await;
    assert_eq!(v["code"], 409, "{v}");
    assert!(
        v["message"].as_str().unwrap().contains("notificações"),
        "{v}"
    );
}
