//! Views of the payer page, counted on installments.

use super::{now_iso, Db, DbError};

/// Counts a view of the payer page on the installment it highlights (the
/// next open one, or the last when all are settled). `false`: no such invoice.
pub async fn record_view(db: &Db, invoice_id: &str) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let changed = sqlx::query(
        "UPDATE installments SET views_count = views_count + 1, last_view_at = $1
         WHERE id = COALESCE(
             (SELECT s.id FROM installments s JOIN invoices i ON i.id = s.invoice_id
              WHERE s.invoice_id = $2 AND i.deleted_at IS NULL AND s.status = 'WAITING_PAYMENT' ORDER BY s.number LIMIT 1),
             (SELECT s.id FROM installments s JOIN invoices i ON i.id = s.invoice_id
              WHERE s.invoice_id = $2 AND i.deleted_at IS NULL ORDER BY s.number DESC LIMIT 1))",
    )
    .bind(now_iso())
    .bind(invoice_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(changed > 0)
}

/// Whether invoice `id` exists and was cancelled (soft-deleted): the payer
/// page says so instead of "not found".
pub async fn is_cancelled(db: &Db, invoice_id: &str) -> Result<bool, DbError> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT 1 FROM invoices WHERE id = $1 AND deleted_at IS NOT NULL")
            .bind(invoice_id)
            .fetch_optional(&db.pool)
            .await?;
    Ok(found.is_some())
}
