//! The webhook worker's side of the `deliveries` outbox: claiming the due
//! deliveries, what one needs to be sent, and recording an attempt (with the 410
//! rule: an endpoint that answered Gone is disabled for its application).

use crate::store::outbox::{self, Claim, Lease};
use crate::store::{new_id, now_iso, Db, DbError};

/// How many due rows one pass takes.
const BATCH: i64 = 16;

/// Claims up to 16 pending deliveries whose time has come and whose lease
/// (if any) ran out, oldest first (see [`outbox::claim`]).
pub async fn claim_due(db: &Db) -> Result<Claim, DbError> {
    outbox::claim(db, "deliveries", "", |q| q, BATCH).await
}

/// What sending one delivery needs.
#[derive(sqlx::FromRow)]
pub struct Pending {
    pub url: String,
    pub event_id: String,
    pub payload: String,
    pub application_id: String,
    /// Attempts made before this one.
    pub attempts: i64,
}

pub async fn pending(db: &Db, delivery_id: &str) -> Result<Pending, DbError> {
    sqlx::query_as(
        "SELECT d.url, d.attempts, e.id AS event_id, e.payload, e.application_id
         FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = $1",
    )
    .bind(delivery_id)
    .fetch_one(&db.pool)
    .await
}

/// One attempt's result, as recorded.
pub struct Attempt<'a> {
    pub status_code: Option<u16>,
    pub error: Option<&'a str>,
    pub duration_ms: i64,
    /// `pending` (with `next_attempt_at`), `succeeded`, `failed` or `disabled`.
    pub status: &'static str,
    pub next_attempt_at: Option<&'a str>,
    /// The attempt number (1 for the first).
    pub attempts: i64,
    /// The endpoint answered 410 Gone.
    pub gone: bool,
}

/// Records an attempt and releases the delivery's lease, in one transaction,
/// if the delivery still carries `lease`. Returns `false`, having recorded
/// nothing, when it does not: the lease ran out and another worker took the
/// delivery, whose own attempt is the one that counts.
pub async fn record(
    db: &Db,
    delivery_id: &str,
    lease: &Lease,
    sent: &Pending,
    attempt: &Attempt<'_>,
) -> Result<bool, DbError> {
    let now = now_iso();
    let code = attempt.status_code.map(i64::from);
    let mut tx = db.begin_write().await?;
    // The lease first: a lost one leaves the transaction without a write.
    let held = sqlx::query(
        "UPDATE deliveries SET status = $1, attempts = $2, next_attempt_at = $3, locked_until = NULL,
                lease_id = NULL, last_status_code = $4, last_error = $5, updated_at = $6
         WHERE id = $7 AND lease_id = $8",
    )
    .bind(attempt.status)
    .bind(attempt.attempts)
    .bind(attempt.next_attempt_at)
    .bind(code)
    .bind(attempt.error)
    .bind(&now)
    .bind(delivery_id)
    .bind(lease.as_str())
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if !held {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO delivery_attempts (id, delivery_id, attempted_at, status_code, error, duration_ms)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(new_id())
    .bind(delivery_id)
    .bind(&now)
    .bind(code)
    .bind(attempt.error)
    .bind(attempt.duration_ms)
    .execute(&mut *tx)
    .await?;
    if attempt.gone {
        // 410: the endpoint (this URL, for this application) asked never
        // to be called again, whatever webhook rows point at it.
        let (app_id, url) = (&sent.application_id, &sent.url);
        sqlx::query("UPDATE app_webhooks SET disabled_at = $1 WHERE application_id = $2 AND url = $3 AND disabled_at IS NULL")
            .bind(&now)
            .bind(app_id)
            .bind(url)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE invoice_webhooks SET disabled_at = $1 WHERE url = $3 AND disabled_at IS NULL
               AND invoice_id IN (SELECT id FROM invoices WHERE application_id = $2)",
        )
        .bind(&now)
        .bind(app_id)
        .bind(url)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE deliveries SET status = 'disabled', updated_at = $1 WHERE url = $3 AND status = 'pending'
               AND event_id IN (SELECT id FROM events WHERE application_id = $2)",
        )
        .bind(&now)
        .bind(app_id)
        .bind(url)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
}
