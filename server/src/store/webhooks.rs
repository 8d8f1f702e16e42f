//! Webhook registrations and deliveries in the database, for the CLI.

use sqlx::Row;

use crate::store::{new_id, now_iso, Db, DbError};

/// invoice has no webhook of that type).
pub async fn add_app_webhook(
    db: &Db,
    app_id: &str,
    hook_type: paylink_model::HookType,
    url: &str,
) -> Result<String, DbError> {
    let id = new_id();
    let mut tx = db.begin_write().await?;
    sqlx::query("INSERT INTO app_webhooks (id, application_id, hook_type, url, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&id)
        .bind(app_id)
        .bind(hook_type.as_str())
        .bind(url)
        .bind(now_iso())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(id)
}

/// One row of `paylink webhook deliveries`.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryRow {
    pub id: String,
    pub event_id: String,
    pub event_type: String,
    pub url: String,
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: Option<String>,
    pub last_status_code: Option<i64>,
    pub last_error: Option<String>,
    /// Every attempt so far, oldest first.
    pub attempt_log: Vec<AttemptRow>,
}

/// One attempt of a delivery.
#[derive(Debug, serde::Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct AttemptRow {
    pub at: String,
    pub status_code: Option<i64>,
    pub error: Option<String>,
    pub duration_ms: i64,
}

pub async fn list_deliveries(db: &Db, event_id: Option<&str>) -> Result<Vec<DeliveryRow>, DbError> {
    let rows = sqlx::query(
        "SELECT d.id, d.event_id, e.type, d.url, d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error
         FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE ($1 IS NULL OR d.event_id = $1) ORDER BY d.created_at, d.id",
    )
    .bind(event_id)
    .fetch_all(&db.pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let id: String = r.try_get("id")?;
        let attempt_log = sqlx::query_as(
            "SELECT attempted_at AS at, status_code, error, duration_ms FROM delivery_attempts
             WHERE delivery_id = $1 ORDER BY attempted_at, id",
        )
        .bind(&id)
        .fetch_all(&db.pool)
        .await?;
        out.push(DeliveryRow {
            id,
            event_id: r.try_get("event_id")?,
            event_type: r.try_get("type")?,
            url: r.try_get("url")?,
            status: r.try_get("status")?,
            attempts: r.try_get("attempts")?,
            next_attempt_at: r.try_get("next_attempt_at")?,
            last_status_code: r.try_get("last_status_code")?,
            last_error: r.try_get("last_error")?,
            attempt_log,
        });
    }
    Ok(out)
}

/// Sends an event again to every endpoint it was delivered to (same
/// `webhook-id`, so receivers can drop it if they already have it).
/// Returns how many deliveries were queued; 0 means no such event.
pub async fn redeliver(db: &Db, event_id: &str) -> Result<usize, DbError> {
    let mut tx = db.begin_write().await?;
    let targets = sqlx::query(
        "SELECT DISTINCT webhook_source, webhook_id, url FROM deliveries WHERE event_id = $1",
    )
    .bind(event_id)
    .fetch_all(&mut *tx)
    .await?;
    let now = now_iso();
    for t in &targets {
        crate::store::events::insert_delivery(
            &mut tx,
            event_id,
            t.try_get("webhook_source")?,
            t.try_get("webhook_id")?,
            t.try_get("url")?,
            &now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(targets.len())
}
