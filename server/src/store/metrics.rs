//! Read-only queries for `/metrics` (`serve --metrics-listen`): how many rows of each outbox
//! are due and how long the oldest of them has waited, and how the connection pools are used.
//! Nothing here writes or takes a lease: a scrape never changes what a worker does.

use super::{now_millis, Db, DbError};

/// One outbox queue at the moment of a scrape.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueDue {
    /// The queue's label: `webhooks`, `notifications`, `bank_calls`, `pix_automatico`.
    pub queue: &'static str,
    /// Rows still pending whose next attempt is due now (a worker should be on them).
    pub due: i64,
    /// How long the oldest due row has been due, in seconds (0 when none is).
    pub oldest_due_seconds: f64,
}

/// Each queue's label and its query. Written out, not formatted from a table name, so each
/// statement is plain text that the `(status, next_attempt_at)` indexes of its table serve.
const QUEUES: [(&str, &str); 4] = [
    (
        "webhooks",
        "SELECT COUNT(*), MIN(next_attempt_at) FROM deliveries
          WHERE status = 'pending' AND next_attempt_at <= $1",
    ),
    (
        "notifications",
        "SELECT COUNT(*), MIN(next_attempt_at) FROM notification_sends
          WHERE status = 'pending' AND next_attempt_at <= $1",
    ),
    (
        "bank_calls",
        "SELECT COUNT(*), MIN(next_attempt_at) FROM pix_charges
          WHERE status = 'pending' AND next_attempt_at <= $1",
    ),
    (
        "pix_automatico",
        "SELECT COUNT(*), MIN(next_attempt_at) FROM pix_recurrences
          WHERE status = 'pending' AND next_attempt_at <= $1",
    ),
];

/// Every queue, in a fixed order, each read on the read pool.
pub async fn outbox_due(db: &Db) -> Result<Vec<QueueDue>, DbError> {
    let now_ms = now_millis();
    let now = paylink_model::date::iso_utc_from_millis(now_ms);
    let mut queues = Vec::with_capacity(QUEUES.len());
    for (queue, sql) in QUEUES {
        let (due, oldest): (i64, Option<String>) =
            sqlx::query_as(sql).bind(&now).fetch_one(&db.pool).await?;
        let oldest_due_seconds = oldest
            .as_deref()
            .and_then(paylink_model::date::millis_from_rfc3339)
            .map_or(0.0, |at| (now_ms - at).max(0) as f64 / 1000.0);
        queues.push(QueueDue {
            queue,
            due,
            oldest_due_seconds,
        });
    }
    Ok(queues)
}

/// One connection pool's connections at the moment of a scrape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolUse {
    /// `read` (queries) or `write` (the write gate's transactions).
    pub pool: &'static str,
    /// Open and waiting for a query.
    pub idle: usize,
    /// Open and lent to a query or a transaction.
    pub in_use: usize,
}

/// The read and the write pool (sqlx's own counters: no query).
pub fn pools(db: &Db) -> [PoolUse; 2] {
    let of = |pool: &'static str, p: &super::Pool| {
        let idle = p.num_idle();
        PoolUse {
            pool,
            idle,
            in_use: (p.size() as usize).saturating_sub(idle),
        }
    };
    [of("read", &db.pool), of("write", &db.writes)]
}
