//! Retention against a real `paylink serve` and a real database: with short retentions its
//! pruning worker deletes what has served its purpose (ended links to a payer's page of charges
//! too) and keeps what is pending, and every invoice.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;
use crate::outbox::{eventually, invoice_via, Server};
use crate::receiver::Receiver;

/// Retentions of 1 s, a prune every 200 ms: a delivered webhook (its
/// delivery, attempt and event), an idempotency key and a provider's status
/// callback go; a delivery still being retried stays with its attempt and
/// event, and both invoices read back whole.
#[tokio::test]
async fn old_finished_rows_are_pruned_and_pending_ones_and_invoices_stay() {
    let dir = tempfile::tempdir().unwrap();
    let db = migrated_database(dir.path(), "prune.db").await;
    let token = cli_token(&db);
    let ok = Receiver::start().await;
    let failing = Receiver::start().await;
    failing.fail_with(&[(500, None); 20]);
    let server = Server::start(&[
        "--db",
        &db,
        "--allow-insecure-webhooks",
        // The failed delivery's retry a minute away: still pending, one attempt, throughout.
        "--retry-base-delay",
        "1m",
        "--retention-deliveries",
        "1s",
        "--retention-events",
        "1s",
        "--retention-idempotency-keys",
        "1s",
        "--retention-provider-statuses",
        "1s",
        "--retention-charges-links",
        "1s",
        "--prune-every",
        "200ms",
    ]);
    let client = reqwest::Client::new();
    let delivered = invoice_via(
        &client,
        &server.addr,
        &token,
        &ok.url,
        &["INVOICE_CREATED"],
        "ok",
    )
    .await;
    let retried = invoice_via(
        &client,
        &server.addr,
        &token,
        &failing.url,
        &["INVOICE_CREATED"],
        "retried",
    )
    .await;
    let res = client
        .post(format!("{}/invoices/applications/customers", server.addr))
        .header("authorization", format!("Basic {token}"))
        .header("Idempotency-Key", "cliente-1")
        .json(&json!({ "fullName": "Bia" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let pool = raw_pool(&db).await;
    sqlx::query(
        "INSERT INTO notification_provider_statuses
                (channel, provider_id, status, status_rank, error, received_at, claimed)
         VALUES ('SMS', 'SM0001', 'delivered', 2, NULL, '2026-01-01T00:00:00.000Z', 0)",
    )
    .execute(&pool)
    .await
    .unwrap();
    // Links to a payer's page of charges: one expired, one revoked, one live.
    let customer: String = sqlx::query_scalar("SELECT id FROM customers LIMIT 1")
        .fetch_one(&pool)
        .await
        .unwrap();
    let app: String = sqlx::query_scalar("SELECT application_id FROM customers WHERE id = $1")
        .bind(&customer)
        .fetch_one(&pool)
        .await
        .unwrap();
    for (hash, expires, revoked) in [
        ("expired", "2026-01-01T00:00:00.000Z", None),
        (
            "revoked",
            "9999-12-31T00:00:00.000Z",
            Some("2026-01-01T00:00:00.000Z"),
        ),
        ("live", "9999-12-31T00:00:00.000Z", None),
    ] {
        sqlx::query(
            "INSERT INTO charges_links (token_hash, application_id, customer_id, created_at, expires_at, revoked_at)
             VALUES ($1, $2, $3, '2026-01-01T00:00:00.000Z', $4, $5)",
        )
        .bind(hash)
        .bind(&app)
        .bind(&customer)
        .bind(expires)
        .bind(revoked)
        .execute(&pool)
        .await
        .unwrap();
    }
    ok.wait_for(10, "the delivered webhook", |got| got.len() == 1)
        .await;
    failing
        .wait_for(10, "the failed first attempt", |got| got.len() == 1)
        .await;

    let count = |sql: &'static str, id: &str| {
        let (pool, id) = (pool.clone(), id.to_string());
        async move {
            sqlx::query_scalar::<_, i64>(sql)
                .bind(id)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    const DELIVERIES: &str = "SELECT COUNT(*) FROM deliveries d JOIN events e ON e.id = d.event_id
                              WHERE e.invoice_id = $1";
    const EVENTS: &str = "SELECT COUNT(*) FROM events WHERE invoice_id = $1";
    const KEYS: &str = "SELECT COUNT(*) FROM idempotency_keys WHERE key = $1";
    const STATUSES: &str =
        "SELECT COUNT(*) FROM notification_provider_statuses WHERE provider_id = $1";
    const LINKS: &str = "SELECT COUNT(*) FROM charges_links WHERE token_hash = $1";
    eventually(20, "the old finished rows to be pruned", || {
        let (count, delivered) = (&count, &delivered);
        async move {
            let gone = count(DELIVERIES, delivered).await == 0
                && count(EVENTS, delivered).await == 0
                && count(KEYS, "cliente-1").await == 0
                && count(STATUSES, "SM0001").await == 0
                && count(LINKS, "expired").await == 0
                && count(LINKS, "revoked").await == 0;
            gone.then_some(())
        }
    })
    .await;
    // Each older than its retention too, but still pending: kept, with what it refers to.
    let pending: Vec<(String, i64)> = sqlx::query_as(
        "SELECT d.status, d.attempts FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE e.invoice_id = $1",
    )
    .bind(&retried)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(pending, [("pending".to_string(), 1)]);
    assert_eq!(count(EVENTS, &retried).await, 1);
    assert_eq!(count(LINKS, "live").await, 1, "a live link stays");
    let attempts: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
         JOIN events e ON e.id = d.event_id WHERE e.invoice_id = $1",
    )
    .bind(&retried)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(attempts, 1);
    for id in [&delivered, &retried] {
        let res = client
            .get(format!(
                "{}/invoices/applications/invoices/{id}",
                server.addr
            ))
            .header("authorization", format!("Basic {token}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let invoice = body(res).await;
        assert_eq!(invoice["installments"].as_array().unwrap().len(), 3);
    }
    server.stop();
}
