//! Charges of RECURRING and SUBSCRIPTION invoices. Charge n+1 is created when
//! the period it bills starts, that is on the due date of charge n, until
//! `endDate`, `endInstallment` or an `endSubscription` date ends it. A pass
//! catches up every charge missed while paylink was down, and the unique
//! (invoice, number) pair means two servers, or two passes, never create one twice.

use paylink_model::plan::PeriodicEnd;
use paylink_model::{periodic_due, Date, Frequency, HookType, InstallmentStatus};

use super::events::{self, InstallmentSnapshot, NewEvent};
use super::{new_id, now_iso, Db, DbError};

/// A periodic invoice as the pass reads it.
#[derive(sqlx::FromRow)]
struct Periodic {
    id: String,
    application_id: String,
    external_id: String,
    due_date: String,
    frequency: Option<String>,
    end_date: Option<String>,
    end_installment: Option<i64>,
    end_subscription: Option<String>,
    price_cents: i64,
    last_number: Option<i64>,
}

/// Creates every charge that is due by `today`. Returns how many it created.
pub async fn run_once(db: &Db, today: Date) -> Result<usize, DbError> {
    let invoices: Vec<Periodic> = sqlx::query_as(
        "SELECT i.id, i.application_id, i.external_id, i.due_date, i.frequency, i.end_date, i.end_installment,
                i.end_subscription, i.price_cents,
                (SELECT MAX(number) FROM installments s WHERE s.invoice_id = i.id) AS last_number
         FROM invoices i
         WHERE i.invoice_type IN ('RECURRING', 'SUBSCRIPTION') AND i.deleted_at IS NULL",
    )
    .fetch_all(&db.pool)
    .await?;
    let mut created = 0;
    for inv in invoices {
        let (Some(first), Some(freq)) = (
            Date::parse_iso(&inv.due_date),
            inv.frequency.as_deref().and_then(Frequency::parse),
        ) else {
            continue;
        };
        // The end of the invoice (model::plan::PeriodicEnd, also Pix Automático's dataFinal).
        let ends = PeriodicEnd::new(
            inv.end_date.as_deref().and_then(Date::parse_iso),
            inv.end_installment.map(|n| n as u32),
            inv.end_subscription.as_deref(),
        );
        let mut last = inv.last_number.unwrap_or(0) as u32;
        // Charge `last` is due on periodic_due(first, last - 1): once that day comes, the next period starts.
        while let (Some(last_due), Some(next_due)) = (
            periodic_due(first, freq, last.saturating_sub(1)),
            periodic_due(first, freq, last),
        ) {
            let next = last + 1;
            if today < last_due || !ends.allows(next, next_due) {
                break;
            }
            match create_charge(db, &inv, next, next_due).await {
                Ok(()) => created += 1,
                // Another server (or pass) created it first: fine, move on.
                Err(e) if super::is_unique_violation(&e) => {}
                Err(e) => return Err(e),
            }
            last = next;
        }
    }
    Ok(created)
}

async fn create_charge(db: &Db, inv: &Periodic, number: u32, due: Date) -> Result<(), DbError> {
    let invoice_id = inv.id.as_str();
    let price = inv.price_cents;
    let id = new_id();
    let now = now_iso();
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO installments (id, invoice_id, number, price_cents, price_paid_cents, due_date, status, created_at)
         VALUES ($1, $2, $3, $4, 0, $5, 'WAITING_PAYMENT', $6)",
    )
    .bind(&id)
    .bind(invoice_id)
    .bind(number as i64)
    .bind(price)
    .bind(due.to_string())
    .bind(&now)
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
