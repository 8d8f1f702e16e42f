//! The invoice lifecycle beyond creation: simulated payments and reversals
//! (sandbox), and soft deletion. Each change and its event are one transaction.

use paylink_model::{HookType, InstallmentStatus, PaymentType};
use sqlx::Row;

use crate::store::events::{self, InstallmentSnapshot, NewEvent};
use crate::store::{now_iso, Db, DbError};

#[derive(Debug, thiserror::Error)]
pub enum LifecycleError {
    #[error("invoice not found (or deleted)")]
    InvoiceNotFound,
    #[error("the invoice has no installment {0}")]
    InstallmentNotFound(u32),
    #[error("every installment is already paid")]
    NothingToPay,
    #[error("installment {0} is already paid")]
    AlreadyPaid(u32),
    #[error("installment {0} is not paid, so it cannot be reversed")]
    NotPaid(u32),
    #[error("the invoice does not accept {0}")]
    MethodNotAccepted(PaymentType),
    #[error("database error: {0}")]
    Db(DbError),
}

impl From<DbError> for LifecycleError {
    fn from(e: DbError) -> Self {
        LifecycleError::Db(e)
    }
}

struct InvoiceHead {
    application_id: String,
    external_id: String,
}

async fn invoice_head(
    tx: &mut crate::store::WriteTx,
    invoice_id: &str,
) -> Result<InvoiceHead, LifecycleError> {
    let row = sqlx::query(
        "SELECT application_id, external_id FROM invoices WHERE id = $1 AND deleted_at IS NULL",
    )
    .bind(invoice_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(LifecycleError::InvoiceNotFound)?;
    Ok(InvoiceHead {
        application_id: row.try_get("application_id")?,
        external_id: row.try_get("external_id")?,
    })
}

/// Confirms the payment of installment `number` (default: the first one
/// waiting for payment), as the bank would: `CONFIRMED`, paid in full, with
/// `paidAt`, `paymentReceivedAt`, `updatedAt`; fires `PAYMENT_CONFIRMED`.
pub async fn simulate_pay(
    db: &Db,
    invoice_id: &str,
    number: Option<u32>,
    method: Option<PaymentType>,
) -> Result<InstallmentSnapshot, LifecycleError> {
    // Writing first takes SQLite's write lock at once, so the read below
    // cannot go stale under a concurrent payment.
    let mut tx = db.begin_write().await?;
    lock_invoice(&mut tx, invoice_id).await?;
    invoice_head(&mut tx, invoice_id).await?;
    let accepted: Vec<String> = sqlx::query_scalar(
        "SELECT payment_type FROM invoice_payment_types WHERE invoice_id = $1 ORDER BY position",
    )
    .bind(invoice_id)
    .fetch_all(&mut *tx)
    .await?;
    let method = match method {
        Some(m) if !accepted.iter().any(|a| a == m.as_str()) => {
            return Err(LifecycleError::MethodNotAccepted(m))
        }
        Some(m) => m,
        None => accepted
            .first()
            .and_then(|a| PaymentType::parse(a))
            .unwrap_or(PaymentType::Pix),
    };
    let number = match number {
        Some(n) => n,
        None => {
            let n: i64 = sqlx::query_scalar(
                "SELECT number FROM installments
                 WHERE invoice_id = $1 AND status = 'WAITING_PAYMENT' ORDER BY number LIMIT 1",
            )
            .bind(invoice_id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(LifecycleError::NothingToPay)?;
            n as u32
        }
    };
    let now = now_iso();
    let snapshot = confirm_in(
        &mut tx,
        invoice_id,
        number,
        Settlement {
            paid_cents: None,
            paid_at: &now,
            received_at: &now,
            method: Some(method),
            reference: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(snapshot)
}

/// How an installment was paid: the amount (`None`: its price, in full),
/// when the payer paid, when the money reached the merchant, and by what
/// (`None`: outside paylink's methods, such as cash or a check), and what the payer's bank
/// calls it (a Pix's endToEndId, a boleto's nosso número), which its receipt prints.
pub(crate) struct Settlement<'a> {
    pub paid_cents: Option<i64>,
    pub paid_at: &'a str,
    pub received_at: &'a str,
    pub method: Option<PaymentType>,
    pub reference: Option<&'a str>,
}

/// Takes the invoice's row for this transaction (SQLite's write lock, a row
/// lock on PostgreSQL), so that two payments of one invoice serialise.
async fn lock_invoice(
    tx: &mut crate::store::WriteTx,
    invoice_id: &str,
) -> Result<(), LifecycleError> {
    sqlx::query("UPDATE invoices SET id = id WHERE id = $1")
        .bind(invoice_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The one path by which an installment becomes paid, inside the caller's
/// transaction: `CONFIRMED` with the amount and dates of `s`, the
/// `PAYMENT_CONFIRMED` event (and its webhook deliveries), the receipt and the
/// payer's confirmation notifications. The sandbox, a bank's retorno and a manual
/// settlement all come here, so webhooks and notifications follow alike.
pub(crate) async fn confirm_in(
    tx: &mut crate::store::WriteTx,
    invoice_id: &str,
    number: u32,
    s: Settlement<'_>,
) -> Result<InstallmentSnapshot, LifecycleError> {
    lock_invoice(tx, invoice_id).await?;
    let head = invoice_head(tx, invoice_id).await?;
    let row = sqlx::query(
        "SELECT id, number, price_cents, status, due_date FROM installments
         WHERE invoice_id = $1 AND number = $2",
    )
    .bind(invoice_id)
    .bind(number as i64)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(LifecycleError::InstallmentNotFound(number))?;
    if row.try_get::<&str, _>("status")? != InstallmentStatus::WaitingPayment.as_str() {
        return Err(LifecycleError::AlreadyPaid(number));
    }
    let price: i64 = row.try_get("price_cents")?;
    let paid = s.paid_cents.unwrap_or(price);
    sqlx::query(
        "UPDATE installments SET status = 'CONFIRMED', price_paid_cents = $1, paid_at = $2,
                payment_received_at = $3, updated_at = $4 WHERE id = $5",
    )
    .bind(paid)
    .bind(s.paid_at)
    .bind(s.received_at)
    .bind(now_iso())
    .bind(row.try_get::<&str, _>("id")?)
    .execute(&mut **tx)
    .await?;
    let snapshot = InstallmentSnapshot {
        id: row.try_get("id")?,
        installment: number,
        price,
        price_paid: paid,
        status: InstallmentStatus::Confirmed.as_str().into(),
        due_date: due_iso(row.try_get("due_date")?),
    };
    events::record(
        tx,
        NewEvent {
            application_id: &head.application_id,
            invoice_id,
            external_id: &head.external_id,
            kind: HookType::PaymentConfirmed,
            installment: Some(snapshot.clone()),
            method: s.method,
            returned: None,
        },
    )
    .await?;
    crate::store::receipts::issue_in(tx, &snapshot.id, s.method, s.reference).await?;
    crate::store::notifications::on_payment_confirmed(tx, invoice_id, &snapshot.id).await?;
    Ok(snapshot)
}

/// Manual settlement (cash, a transfer, a check): installment `number`
/// paid `paid_cents` on `paid_on`, with the same events as any payment.
pub async fn mark_paid(
    db: &Db,
    invoice_id: &str,
    number: u32,
    paid_cents: i64,
    paid_on: paylink_model::Date,
) -> Result<InstallmentSnapshot, LifecycleError> {
    let mut tx = db.begin_write().await?;
    let at = paid_on.to_iso_midnight_utc();
    let snapshot = confirm_in(
        &mut tx,
        invoice_id,
        number,
        Settlement {
            paid_cents: Some(paid_cents),
            paid_at: &at,
            received_at: &at,
            method: None,
            reference: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(snapshot)
}

/// Reverses a confirmed payment: `REVERSED`, `updatedAt` set; fires `PAYMENT_REVERSED`.
pub async fn simulate_reverse(
    db: &Db,
    invoice_id: &str,
    number: u32,
) -> Result<InstallmentSnapshot, LifecycleError> {
    let mut tx = db.begin_write().await?;
    let snapshot = reverse_in(&mut tx, invoice_id, number, None, None).await?;
    tx.commit().await?;
    Ok(snapshot)
}

/// [`simulate_reverse`] inside `tx`: the confirmed installment `number` becomes `REVERSED`
/// with `updatedAt` now, its notifications follow, and `PAYMENT_REVERSED` (paylink's own
/// event, which only the application's webhooks take) fires once, with how it had been paid
/// and, for a Pix the bank returned, why (`returned`).
pub(crate) async fn reverse_in(
    tx: &mut crate::store::WriteTx,
    invoice_id: &str,
    number: u32,
    method: Option<PaymentType>,
    returned: Option<paylink_model::DevolucaoNatureza>,
) -> Result<InstallmentSnapshot, LifecycleError> {
    sqlx::query("UPDATE invoices SET id = id WHERE id = $1")
        .bind(invoice_id)
        .execute(&mut **tx)
        .await?;
    let head = invoice_head(tx, invoice_id).await?;
    let row = sqlx::query("SELECT id, price_cents, price_paid_cents, status, due_date FROM installments WHERE invoice_id = $1 AND number = $2")
        .bind(invoice_id)
        .bind(number as i64)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(LifecycleError::InstallmentNotFound(number))?;
    if row.try_get::<&str, _>("status")? != InstallmentStatus::Confirmed.as_str() {
        return Err(LifecycleError::NotPaid(number));
    }
    sqlx::query("UPDATE installments SET status = 'REVERSED', updated_at = $1 WHERE id = $2")
        .bind(now_iso())
        .bind(row.try_get::<&str, _>("id")?)
        .execute(&mut **tx)
        .await?;
    crate::store::notifications::on_installment_changed(tx, invoice_id, row.try_get("id")?).await?;
    let snapshot = InstallmentSnapshot {
        id: row.try_get("id")?,
        installment: number,
        price: row.try_get("price_cents")?,
        price_paid: row.try_get("price_paid_cents")?,
        status: InstallmentStatus::Reversed.as_str().into(),
        due_date: due_iso(row.try_get("due_date")?),
    };
    events::record(
        tx,
        NewEvent {
            application_id: &head.application_id,
            invoice_id,
            external_id: &head.external_id,
            kind: HookType::PaymentReversed,
            installment: Some(snapshot.clone()),
            method,
            returned,
        },
    )
    .await?;
    Ok(snapshot)
}

/// Soft-deletes an invoice (`deletedAt`); it is a 404 from then on. Fires `INVOICE_DELETED`.
pub async fn delete_invoice(db: &Db, invoice_id: &str) -> Result<(), LifecycleError> {
    let mut tx = db.begin_write().await?;
    let now = now_iso();
    let changed =
        sqlx::query("UPDATE invoices SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL")
            .bind(&now)
            .bind(invoice_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    if changed == 0 {
        return Err(LifecycleError::InvoiceNotFound);
    }
    let row = sqlx::query("SELECT application_id, external_id FROM invoices WHERE id = $1")
        .bind(invoice_id)
        .fetch_one(&mut *tx)
        .await?;
    events::record(
        &mut tx,
        NewEvent {
            application_id: row.try_get("application_id")?,
            invoice_id,
            external_id: row.try_get("external_id")?,
            kind: HookType::InvoiceDeleted,
            installment: None,
            method: None,
            returned: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

fn due_iso(date: String) -> String {
    paylink_model::Date::parse_iso(&date)
        .map(paylink_model::Date::to_iso_midnight_utc)
        .unwrap_or(date)
}
