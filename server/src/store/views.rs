//! Views of the payer page, counted on installments.

use super::{now_iso, Db, DbError};

/// Counts a view of the payer page on the installment it highlights (the
/// next open one, or the last when all are settled). `false`: no such invoice.
pub async fn record_view(db: &Db, invoice_id: &str) -> Result<bool, DbError> {
    let _w = db.lock_writes().await;
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
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(changed > 0)
}
