//! The rows of the charges of RECURRING and SUBSCRIPTION invoices: the invoices a pass
//! reads and one new charge written. Which charges are due is `domain::charges`; the unique
//! (invoice, number) pair means two servers, or two passes, never create one twice.

use paylink_model::{Date, HookType, InstallmentStatus};

use super::events::{self, InstallmentSnapshot, NewEvent};
use super::{new_id, now_iso, Db, DbError};

/// A periodic invoice as the pass reads it.
#[derive(sqlx::FromRow)]
pub struct Periodic {
    pub id: String,
    pub application_id: String,
    pub external_id: String,
    pub due_date: String,
    pub frequency: Option<String>,
    pub end_date: Option<String>,
    pub end_installment: Option<i64>,
    pub end_subscription: Option<String>,
    pub price_cents: i64,
    pub last_number: Option<i64>,
}

/// Every RECURRING and SUBSCRIPTION invoice not deleted, with its last charge's number.
pub async fn periodic_invoices(db: &Db) -> Result<Vec<Periodic>, DbError> {
    sqlx::query_as(
        "SELECT i.id, i.application_id, i.external_id, i.due_date, i.frequency, i.end_date, i.end_installment,
                i.end_subscription, i.price_cents,
                (SELECT MAX(number) FROM installments s WHERE s.invoice_id = i.id) AS last_number
         FROM invoices i
         WHERE i.invoice_type IN ('RECURRING', 'SUBSCRIPTION') AND i.deleted_at IS NULL",
    )
    .fetch_all(&db.pool)
    .await
}

/// Charge `number` of `inv`, due on `due`, with its PAYMENT_GENERATED event and its
/// notifications, in one transaction; a unique violation when it exists already.
pub async fn create_charge(db: &Db, inv: &Periodic, number: u32, due: Date) -> Result<(), DbError> {
    let invoice_id = inv.id.as_str();
    let price = inv.price_cents;
    let id = new_id();
    let now = now_iso();
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO installments (id, invoice_id, number, price_cents, price_paid_cents, due_date, status, created_at, pix_txid)
         VALUES ($1, $2, $3, $4, 0, $5, 'WAITING_PAYMENT', $6, $7)",
    )
    .bind(&id)
    .bind(invoice_id)
    .bind(number as i64)
    .bind(price)
    .bind(due.to_string())
    .bind(&now)
    .bind(super::new_pix_txid())
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE invoices SET installment_count = $1 WHERE id = $2")
        .bind(number as i64)
        .bind(invoice_id)
        .execute(&mut *tx)
        .await?;
    events::record(
        &mut tx,
        NewEvent {
            application_id: &inv.application_id,
            invoice_id,
            external_id: &inv.external_id,
            kind: HookType::PaymentGenerated,
            installment: Some(InstallmentSnapshot {
                id: id.clone(),
                installment: number,
                price,
                price_paid: 0,
                status: InstallmentStatus::WaitingPayment.as_str().into(),
                due_date: due.to_iso_midnight_utc(),
            }),
            method: None,
            returned: None,
        },
    )
    .await?;
    crate::store::notifications::schedule_for_new_installments(
        &mut tx,
        invoice_id,
        &[(&id, number, due)],
    )
    .await?;
    tx.commit().await
}
