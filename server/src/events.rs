//! Events of an invoice and the webhook deliveries they cause. Both are
//! written inside the caller's transaction, so an event exists exactly when
//! the change that caused it was committed (a transactional outbox).

use crate::db::Tx;
use paylink_model::{HookType, PaymentType};
use serde::Serialize;
use serde_json::json;
use sqlx::Row;

use crate::db::{new_id, now_iso, DbError};

/// The installment an event is about, as it is after the change.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstallmentSnapshot {
    pub id: String,
    pub installment: u32,
    #[serde(with = "paylink_model::money::reais")]
    pub price: i64,
    #[serde(with = "paylink_model::money::reais")]
    pub price_paid: i64,
    pub status: String,
    pub due_date: String,
}

pub struct NewEvent<'a> {
    pub application_id: &'a str,
    pub invoice_id: &'a str,
    pub external_id: &'a str,
    pub kind: HookType,
    pub installment: Option<InstallmentSnapshot>,
    pub method: Option<PaymentType>,
}

/// Records the event and one pending delivery per target webhook: the
/// invoice's own webhooks of that type if it has any, otherwise the
/// application's (spec rule 3). Returns the event id.
pub async fn record(tx: &mut Tx<'_>, ev: NewEvent<'_>) -> Result<String, DbError> {
    let id = new_id();
    let now = now_iso();
    let payload = json!({
        "id": id,
        "type": ev.kind.as_str(),
        "timestamp": now,
        "data": {
            "invoiceId": ev.invoice_id,
            "externalId": ev.external_id,
            "installment": ev.installment,
            "method": ev.method.map(|m| m.as_str()),
        }
    })
    .to_string();
    sqlx::query(
        "INSERT INTO events (id, application_id, invoice_id, installment_id, type, payload, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&id)
    .bind(ev.application_id)
    .bind(ev.invoice_id)
    .bind(ev.installment.as_ref().map(|i| i.id.as_str()))
    .bind(ev.kind.as_str())
    .bind(&payload)
    .bind(&now)
    .execute(&mut **tx)
    .await?;

    let mut targets: Vec<(&str, String, String)> = sqlx::query(
        "SELECT id, url FROM invoice_webhooks WHERE invoice_id = $1 AND hook_type = $2 AND disabled_at IS NULL ORDER BY position",
    )
    .bind(ev.invoice_id)
    .bind(ev.kind.as_str())
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .map(|r| ("invoice", r.get("id"), r.get("url")))
    .collect();
    if targets.is_empty() {
        targets = sqlx::query(
            "SELECT id, url FROM app_webhooks WHERE application_id = $1 AND hook_type = $2 AND disabled_at IS NULL ORDER BY created_at",
        )
        .bind(ev.application_id)
        .bind(ev.kind.as_str())
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .map(|r| ("application", r.get("id"), r.get("url")))
        .collect();
    }
    for (source, webhook_id, url) in targets {
        insert_delivery(tx, &id, source, &webhook_id, &url, &now).await?;
    }
    Ok(id)
}

pub async fn insert_delivery(
    tx: &mut Tx<'_>,
    event_id: &str,
    source: &str,
    webhook_id: &str,
    url: &str,
    now: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO deliveries (id, event_id, webhook_source, webhook_id, url, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $6, $6)",
    )
    .bind(new_id())
    .bind(event_id)
    .bind(source)
    .bind(webhook_id)
    .bind(url)
    .bind(now)
    .execute(&mut **tx)
    .await
    .map(|_| ())
}
