//! Retention: what the pruning worker (`workers::prune`) deletes, one small
//! batch per statement, once it has served its purpose. Finished webhook
//! deliveries and their attempts, events no delivery refers to any more,
//! idempotency keys, providers' status callbacks, and links to a payer's
//! page of charges that have ended (expired or revoked), each older than its
//! retention. Never an invoice, a payment, an audit record, a notification
//! send or anything still pending.

use super::{iso_ago, Db, DbError};

/// Rows one statement deletes at most: a short write, so that requests and
/// the other workers get the database between batches.
pub const BATCH: i64 = 500;

/// What can be pruned, each by its own age.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prunable {
    /// Deliveries succeeded, failed or disabled, by when they finished
    /// (`updated_at`), with their attempts.
    Deliveries,
    /// Events no delivery refers to (pending or kept), by creation.
    Events,
    /// `Idempotency-Key` records, by creation (a key is honoured for 24 h).
    IdempotencyKeys,
    /// WhatsApp and SMS status callbacks, by when they came.
    ProviderStatuses,
    /// Links to a payer's page of charges that opened nothing any more, by when they ended
    /// (expired or revoked): one is made per e-mail sent.
    ChargesLinks,
}

impl Prunable {
    pub const ALL: [Prunable; 5] = [
        Prunable::Deliveries,
        Prunable::Events,
        Prunable::IdempotencyKeys,
        Prunable::ProviderStatuses,
        Prunable::ChargesLinks,
    ];

    /// Its name in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Prunable::Deliveries => "deliveries",
            Prunable::Events => "events",
            Prunable::IdempotencyKeys => "idempotency_keys",
            Prunable::ProviderStatuses => "provider_statuses",
            Prunable::ChargesLinks => "charges_links",
        }
    }
}

impl Prunable {
    /// The statements of one batch, run in order in one transaction, each bound to the
    /// cut-off instant (`$1`) and [`BATCH`] (`$2`); the last one's count is the batch's.
    fn statements(self) -> &'static [&'static str] {
        match self {
            // Attempts first (they refer to their delivery), then the deliveries of the same
            // batch that have none left: one redelivered meanwhile (pending again) is kept, and
            // a delivery whose attempts were not deleted here is never deleted before them.
            Prunable::Deliveries => &[
                "DELETE FROM delivery_attempts WHERE delivery_id IN (
                   SELECT id FROM deliveries
                   WHERE status IN ('succeeded', 'failed', 'disabled') AND updated_at < $1
                   ORDER BY updated_at LIMIT $2)",
                "DELETE FROM deliveries WHERE id IN (
                   SELECT d.id FROM deliveries d
                   WHERE d.status IN ('succeeded', 'failed', 'disabled') AND d.updated_at < $1
                     AND NOT EXISTS (SELECT 1 FROM delivery_attempts a WHERE a.delivery_id = d.id)
                   ORDER BY d.updated_at LIMIT $2)",
            ],
            Prunable::Events => &["DELETE FROM events WHERE id IN (
                   SELECT e.id FROM events e
                   WHERE e.created_at < $1
                     AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)
                   ORDER BY e.created_at LIMIT $2)"],
            Prunable::IdempotencyKeys => &[
                "DELETE FROM idempotency_keys WHERE (application_id, key) IN (
                   SELECT application_id, key FROM idempotency_keys
                   WHERE created_at < $1 ORDER BY created_at LIMIT $2)",
            ],
            Prunable::ProviderStatuses => &[
                "DELETE FROM notification_provider_statuses WHERE (channel, provider_id) IN (
                   SELECT channel, provider_id FROM notification_provider_statuses
                   WHERE received_at < $1 ORDER BY received_at LIMIT $2)",
            ],
            // Ended when it expired, or when revoked if that came first.
            Prunable::ChargesLinks => &["DELETE FROM charges_links WHERE token_hash IN (
                   SELECT token_hash FROM charges_links
                   WHERE expires_at < $1 OR revoked_at < $1
                   ORDER BY created_at LIMIT $2)"],
        }
    }
}

/// Deletes at most [`BATCH`] rows of `what` older than `retention`, oldest
/// first, in one transaction. Returns how many (fewer than [`BATCH`]: none left).
pub async fn batch(
    db: &Db,
    what: Prunable,
    retention: std::time::Duration,
) -> Result<u64, DbError> {
    let before = iso_ago(retention);
    let mut tx = db.begin_write().await?;
    let mut n = 0;
    for sql in what.statements() {
        n = sqlx::query(sql)
            .bind(&before)
            .bind(BATCH)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    }
    tx.commit().await?;
    Ok(n)
}
