//! Idempotency-Key: retries and double clicks create once.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

impl TestApp {
    async fn post_keyed(&self, path: &str, key: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .header("Authorization", format!("Basic {}", self.token))
            .header("Idempotency-Key", key)
            .json(body)
            .send()
            .await
            .unwrap()
    }

    async fn count(&self, table: &str) -> i64 {
        let pool = self.raw_pool().await;
        sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&pool)
            .await
            .unwrap()
    }
}

const INVOICES: &str = "/invoices/applications/invoices";
const CUSTOMERS: &str = "/invoices/applications/customers";

#[tokio::test]
async fn a_retry_with_the_same_key_gets_the_first_answer_and_creates_nothing() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let req = invoice_body(&customer);
    let first = app.post_keyed(INVOICES, "order-42-try", &req).await;
    assert_eq!(first.status(), StatusCode::OK);
    assert!(first.headers().get("idempotent-replayed").is_none());
    let first = body(first).await;
    // Same request, other formatting: still the same request.
    let second = app
        .client
        .post(app.url(INVOICES))
        .header("Authorization", format!("Basic {}", app.token))
        .header("Idempotency-Key", "order-42-try")
        .header("Content-Type", "application/json")
        .body(serde_json::to_string_pretty(&req).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(second.status(), StatusCode::OK);
    assert_eq!(second.headers()["idempotent-replayed"], "true");
    assert_eq!(body(second).await, first);
    assert_eq!(app.count("invoices").await, 1);
    assert_eq!(app.count("installments").await, 3);

    let c1 = body(
        app.post_keyed(CUSTOMERS, "cust-1", &json!({ "fullName": "Maria" }))
            .await,
    )
    .await;
    let again = app
        .post_keyed(CUSTOMERS, "cust-1", &json!({ "fullName": "Maria" }))
        .await;
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(body(again).await["id"], c1["id"]);
}

#[tokio::test]
async fn the_same_key_with_another_request_is_refused() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    app.post_keyed(INVOICES, "k1", &invoice_body(&customer))
        .await;
    let other = with(invoice_body(&customer), json!({ "price": 200 }));
    envelope(
        app.post_keyed(INVOICES, "k1", &other).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(app.count("invoices").await, 1);
}

#[tokio::test]
async fn concurrent_requests_with_one_key_create_once() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let req = invoice_body(&customer);
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..8 {
        let (client, url, auth, req) = (
            app.client.clone(),
            app.url(INVOICES),
            format!("Basic {}", app.token),
            req.clone(),
        );
        set.spawn(async move {
            client
                .post(url)
                .header("Authorization", auth)
                .header("Idempotency-Key", "double-click")
                .json(&req)
                .send()
                .await
                .unwrap()
        });
    }
    let mut ids = Vec::new();
    for res in set.join_all().await {
        assert_eq!(res.status(), StatusCode::OK);
        ids.push(body(res).await["id"].as_str().unwrap().to_string());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1, "every answer names the same invoice");
    assert_eq!(app.count("invoices").await, 1);
}

#[tokio::test]
async fn a_refused_request_does_not_use_up_its_key() {
    let app = spawn_app().await;
    let bad = envelope(
        app.post_keyed(CUSTOMERS, "k", &json!({ "fullName": "Al" }))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(bad["fullName"].is_array());
    let res = app
        .post_keyed(CUSTOMERS, "k", &json!({ "fullName": "Alice" }))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn malformed_keys_are_refused() {
    let app = spawn_app().await;
    for (key, why) in [
        ("x".repeat(256), "256 characters"),
        ("has space".to_string(), "a space"),
        (String::new(), "empty"),
    ] {
        let res = app
            .post_keyed(CUSTOMERS, &key, &json!({ "fullName": "Maria" }))
            .await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{why}");
        envelope(res, StatusCode::BAD_REQUEST).await;
    }
}

#[tokio::test]
async fn the_proxy_forwards_the_key() {
    let app = spawn_app_with(local_proxy).await;
    let send = || {
        app.client
            .post(app.url("/api/customers"))
            .header("Idempotency-Key", "widget-submit-1")
            .json(&json!({ "fullName": "Maria" }))
            .send()
    };
    let a = body(send().await.unwrap()).await;
    let b = body(send().await.unwrap()).await;
    assert_eq!(a["id"], b["id"]);
    assert_eq!(app.count("customers").await, 1);
}
