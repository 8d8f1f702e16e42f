//! Idempotency keys and the first answer given to each.

use sqlx::Row;

use super::*;

/// An `Idempotency-Key` and the answer given to the request that first used it.
#[derive(Clone, Debug)]
pub struct Idem {
    pub key: String,
    /// SHA-256 of the operation and the parsed request, so formatting does not matter.
    pub request_hash: String,
    pub status: u16,
    pub body: String,
}

/// Records the key as the transaction's first write. A concurrent request
/// with the same key waits on the row lock and then fails on the primary key,
/// so only one of them creates anything. A record older than 24 h is replaced.
pub(super) async fn claim_key(tx: &mut WriteTx, app_id: &str, idem: &Idem) -> Result<(), DbError> {
    sqlx::query(
        "DELETE FROM idempotency_keys WHERE application_id = $1 AND key = $2 AND created_at <= $3",
    )
    .bind(app_id)
    .bind(&idem.key)
    .bind(iso_hours_ago(24))
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO idempotency_keys (application_id, key, request_hash, status_code, response_body, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(app_id)
    .bind(&idem.key)
    .bind(&idem.request_hash)
    .bind(idem.status as i64)
    .bind(&idem.body)
    .bind(now_iso())
    .execute(&mut **tx)
    .await
    .map(|_| ())
}

/// The stored answer to an earlier request with this key, if younger than 24 h.
pub async fn find(db: &Db, app_id: &str, key: &str) -> Result<Option<Idem>, DbError> {
    let row = sqlx::query(
        "SELECT key, request_hash, status_code, response_body FROM idempotency_keys
         WHERE application_id = $1 AND key = $2 AND created_at > $3",
    )
    .bind(app_id)
    .bind(key)
    .bind(iso_hours_ago(24))
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok(Idem {
            key: r.try_get("key")?,
            request_hash: r.try_get("request_hash")?,
            status: r.try_get::<i64, _>("status_code")? as u16,
            body: r.try_get("response_body")?,
        })
    })
    .transpose()
}
