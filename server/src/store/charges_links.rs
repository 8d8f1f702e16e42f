//! Links to a payer's page of charges (`charges_links`, migration 0034): the SHA-256 of each
//! link's token with its application and customer, when it ends (expiry) and whether it was
//! revoked; and the invoices such a page lists. The page reads a link on every visit, so a
//! revoked one is refused at once.

use super::*;

/// A new link, made at `now` and ending at `expires_at`. A notification's (`send_id`) revokes
/// the one an earlier attempt of the same send made, so a retried send leaves one live link.
pub async fn insert(
    db: &Db,
    token_hash: &str,
    application_id: &str,
    customer_id: &str,
    now: &str,
    expires_at: &str,
    send_id: Option<&str>,
) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    if let Some(send) = send_id {
        sqlx::query(
            "UPDATE charges_links SET revoked_at = $1 WHERE send_id = $2 AND revoked_at IS NULL",
        )
        .bind(now)
        .bind(send)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query(
        "INSERT INTO charges_links (token_hash, application_id, customer_id, created_at, expires_at, send_id)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(token_hash)
    .bind(application_id)
    .bind(customer_id)
    .bind(now)
    .bind(expires_at)
    .bind(send_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The (application, customer) of the link whose token hashes to `token_hash`, if it is neither
/// revoked nor expired at `now` and its customer is not deleted.
pub async fn live(
    db: &Db,
    token_hash: &str,
    now: &str,
) -> Result<Option<(String, String)>, DbError> {
    sqlx::query_as(
        "SELECT l.application_id, l.customer_id FROM charges_links l
         JOIN customers c ON c.id = l.customer_id
         WHERE l.token_hash = $1 AND l.revoked_at IS NULL AND l.expires_at > $2
           AND c.deleted_at IS NULL",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(&db.pool)
    .await
}

/// Revokes every live link to `customer_id`'s page with `application_id` at `now`: how many.
pub async fn revoke_all(
    db: &Db,
    application_id: &str,
    customer_id: &str,
    now: &str,
) -> Result<u64, DbError> {
    let mut tx = db.begin_write().await?;
    let n = sqlx::query(
        "UPDATE charges_links SET revoked_at = $1
         WHERE application_id = $2 AND customer_id = $3 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(application_id)
    .bind(customer_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(n)
}

/// The most invoices one page lists: a payer's open and recent charges, not an archive.
pub const PAGE_INVOICES: i64 = 200;

/// The invoices of `customer_id` with `application_id` a page of charges lists: not cancelled,
/// newest first, at most [`PAGE_INVOICES`].
pub async fn invoice_ids(
    db: &Db,
    application_id: &str,
    customer_id: &str,
) -> Result<Vec<String>, DbError> {
    sqlx::query_scalar(
        "SELECT id FROM invoices WHERE application_id = $1 AND customer_id = $2
            AND deleted_at IS NULL
         ORDER BY created_at DESC, id DESC LIMIT $3",
    )
    .bind(application_id)
    .bind(customer_id)
    .bind(PAGE_INVOICES)
    .fetch_all(&db.pool)
    .await
}

/// The customer invoice `invoice_id` is for (a notification's link goes to their page).
pub async fn customer_of(db: &Db, invoice_id: &str) -> Result<Option<String>, DbError> {
    sqlx::query_scalar("SELECT customer_id FROM invoices WHERE id = $1")
        .bind(invoice_id)
        .fetch_optional(&db.pool)
        .await
}
