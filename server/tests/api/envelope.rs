//! Every way a request can be malformed gets the envelope, never axum's plain
//! text, never a 500.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn malformed_requests_get_an_envelope_with_the_right_status() {
    let app = spawn_app().await;
    let auth = format!("Basic {}", app.token);
    let customers = app.url("/invoices/applications/customers");
    let invoices = app.url("/invoices/applications/invoices");
    let big = format!("{{\"fullName\":\"{}\"}}", "a".repeat(1024 * 1024 + 10));
    let cases: Vec<(&str, reqwest::RequestBuilder, StatusCode)> = vec![
        (
            "malformed JSON",
            app.client
                .post(&customers)
                .header("content-type", "application/json")
                .body("{\"fullName\":"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "empty body",
            app.client
                .post(&customers)
                .header("content-type", "application/json"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "a JSON array instead of an object",
            app.client
                .post(&customers)
                .header("content-type", "application/json")
                .body("[1,2]"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "no Content-Type",
            app.client.post(&customers).body("{\"fullName\":\"Maria\"}"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "text/plain Content-Type",
            app.client
                .post(&invoices)
                .header("content-type", "text/plain")
                .body("{}"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "form-encoded body",
            app.client
                .post(&invoices)
                .header("content-type", "application/x-www-form-urlencoded")
                .body("a=b"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "body over 1 MiB",
            app.client
                .post(&customers)
                .header("content-type", "application/json")
                .body(big),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            "unknown route",
            app.client.get(app.url("/invoices/applications/nothing")),
            StatusCode::NOT_FOUND,
        ),
        (
            "unknown route under the API",
            app.client
                .post(app.url("/invoices/applications/customers/x"))
                .json(&json!({})),
            StatusCode::NOT_FOUND,
        ),
        (
            "PUT on a POST-and-GET route",
            app.client.put(&customers),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "PATCH on an invoice",
            app.client.patch(
                app.url("/invoices/applications/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11"),
            ),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ];
    for (why, req, status) in cases {
        let res = req.header("Authorization", &auth).send().await.unwrap();
        assert_eq!(res.status(), status, "{why}");
        envelope(res, status).await;
    }
}

#[tokio::test]
async fn wrong_json_types_are_field_errors_keyed_by_path() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let cases = [
        (
            json!({ "fullName": 123 }),
            "/invoices/applications/customers",
            "fullName",
            "number as fullName",
        ),
        (
            json!({ "fullName": "Maria", "address": "Rua A" }),
            "/invoices/applications/customers",
            "address",
            "string as address",
        ),
        (
            json!({ "fullName": "Maria", "address": { "zipcode": 1310100 } }),
            "/invoices/applications/customers",
            "address.zipcode",
            "number as zipcode",
        ),
        (
            with(invoice_body(&customer), json!({ "price": "100,00" })),
            "/invoices/applications/invoices",
            "price",
            "string as price",
        ),
        (
            with(invoice_body(&customer), json!({ "installmentCount": 2.5 })),
            "/invoices/applications/invoices",
            "installmentCount",
            "fractional installmentCount",
        ),
        (
            with(invoice_body(&customer), json!({ "paymentTypes": "PIX" })),
            "/invoices/applications/invoices",
            "paymentTypes",
            "string as paymentTypes",
        ),
        (
            with(invoice_body(&customer), json!({ "priceByCustomer": "yes" })),
            "/invoices/applications/invoices",
            "priceByCustomer",
            "string as priceByCustomer",
        ),
        (
            with(
                invoice_body(&customer),
                json!({ "notifications": [{ "type": "SEND_INVOICE_REMINDER", "channel": "Email", "period": "5" }] }),
            ),
            "/invoices/applications/invoices",
            "notifications[0].period",
            "string as period",
        ),
        (
            with(
                invoice_body(&customer),
                json!({ "webhooks": [{ "hookType": "PAYMENT_CONFIRMED", "url": "https://a.example" }, { "hookType": 7 }] }),
            ),
            "/invoices/applications/invoices",
            "webhooks[1].hookType",
            "number as hookType",
        ),
    ];
    for (req, path, field, why) in cases {
        let errors = envelope(
            app.post_as(&app.token, path, &req).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(
            errors[field].is_array(),
            "{why}: expected {field} in {errors}"
        );
    }
}

#[tokio::test]
async fn healthz_answers_when_ready() {
    let app = spawn_app().await;
    let res = app.get("/healthz").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(body(res).await["status"], "ok");
}
