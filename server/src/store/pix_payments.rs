//! Pix the bank confirmed (`pix_payments`, migration 0011): applying one marks its installment
//! CONFIRMED with the amount and time the bank reports and fires PAYMENT_CONFIRMED, once per
//! endToEndId however often a callback or a reconciliation pass brings it; refunds.

use paylink_model::PaymentType;

use crate::store::events::InstallmentSnapshot;
use crate::store::payments::{confirm_in, LifecycleError, Settlement};
use crate::store::{now_iso, Db, DbError};

/// A Pix as the bank confirmed it.
pub struct Confirmed<'a> {
    pub end_to_end_id: &'a str,
    pub txid: &'a str,
    pub cents: i64,
    /// When the payer paid (RFC 3339).
    pub horario: &'a str,
}

#[derive(Debug)]
pub enum Applied {
    /// The installment is CONFIRMED now.
    Confirmed(InstallmentSnapshot),
    /// This endToEndId was applied before.
    Again,
    /// No charge of paylink's has this txid.
    UnknownTxid,
    /// Recorded, but the installment was no longer waiting (paid another way, or deleted).
    NotOpen(String),
}

/// The installment of `txid`, its charge's current one or one it gave up when the charge was
/// made again (`pix_retired_txids`): (installment id, invoice id, number).
async fn installment_of(
    tx: &mut crate::store::WriteTx,
    txid: &str,
) -> Result<Option<(String, String, i64)>, DbError> {
    sqlx::query_as(
        "SELECT c.id, c.invoice_id, i.number FROM pix_charges c JOIN installments i ON i.id = c.id
         WHERE c.txid = $1
            OR c.id = (SELECT r.installment_id FROM pix_retired_txids r WHERE r.txid = $1)",
    )
    .bind(txid)
    .fetch_optional(&mut **tx)
    .await
}

pub async fn apply(db: &Db, p: &Confirmed<'_>) -> Result<Applied, DbError> {
    let mut tx = db.begin_write().await?;
    let Some((installment_id, invoice_id, number)) = installment_of(&mut tx, p.txid).await? else {
        return Ok(Applied::UnknownTxid);
    };
    let inserted = sqlx::query(
        "INSERT INTO pix_payments (end_to_end_id, installment_id, txid, amount_cents, paid_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
    )
    .bind(p.end_to_end_id)
    .bind(&installment_id)
    .bind(p.txid)
    .bind(p.cents)
    .bind(p.horario)
    .bind(now_iso())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Ok(Applied::Again);
    }
    // The bank concluded the charge this Pix paid: nothing to remove there, whatever the
    // installment's state (a Pix of an earlier, expired txid leaves the current charge open,
    // which `pix_charges::enqueue` then removes).
    sqlx::query("UPDATE pix_charges SET bank_status = 'CONCLUIDA' WHERE txid = $1")
        .bind(p.txid)
        .execute(&mut *tx)
        .await?;
    let settled = confirm_in(
        &mut tx,
        &invoice_id,
        number as u32,
        Settlement {
            paid_cents: Some(p.cents),
            paid_at: p.horario,
            received_at: p.horario,
            method: Some(PaymentType::Pix),
        },
    )
    .await;
    let applied = match settled {
        Ok(snapshot) => Applied::Confirmed(snapshot),
        Err(LifecycleError::Db(e)) => return Err(e),
        Err(other) => Applied::NotOpen(other.to_string()),
    };
    tx.commit().await?;
    Ok(applied)
}

/// A Pix paylink recorded, for a refund: (installment id, invoice id, number, amount, refunded, paid at).
#[derive(sqlx::FromRow)]
pub struct Recorded {
    pub installment_id: String,
    pub invoice_id: String,
    pub number: i64,
    #[sqlx(rename = "amount_cents")]
    pub cents: i64,
    pub refunded_cents: i64,
    pub paid_at: String,
}

pub async fn recorded(db: &Db, e2eid: &str) -> Result<Option<Recorded>, DbError> {
    sqlx::query_as(
        "SELECT p.installment_id, i.invoice_id, i.number, p.amount_cents, p.refunded_cents, p.paid_at
         FROM pix_payments p JOIN installments i ON i.id = p.installment_id
         WHERE p.end_to_end_id = $1",
    )
    .bind(e2eid)
    .fetch_optional(&db.pool)
    .await
}

/// The amount of refund `refund_id` of Pix `e2eid`, when paylink recorded it.
pub async fn refund_recorded(
    db: &Db,
    e2eid: &str,
    refund_id: &str,
) -> Result<Option<i64>, DbError> {
    sqlx::query_scalar(
        "SELECT amount_cents FROM pix_refunds WHERE end_to_end_id = $1 AND refund_id = $2",
    )
    .bind(e2eid)
    .bind(refund_id)
    .fetch_optional(&db.pool)
    .await
}

/// Records refund `refund_id` the bank made and adds it to the Pix's total, in one transaction;
/// returns the total refunded, or `None` when that refund was recorded before (nothing added).
pub async fn add_refund(
    db: &Db,
    e2eid: &str,
    refund_id: &str,
    cents: i64,
) -> Result<Option<i64>, DbError> {
    let mut tx = db.begin_write().await?;
    let inserted = sqlx::query(
        "INSERT INTO pix_refunds (end_to_end_id, refund_id, amount_cents, created_at)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
    )
    .bind(e2eid)
    .bind(refund_id)
    .bind(cents)
    .bind(now_iso())
    .execute(&mut *tx)
    .await?;
    if inserted.rows_affected() == 0 {
        return Ok(None);
    }
    sqlx::query(
        "UPDATE pix_payments SET refunded_cents = refunded_cents + $1 WHERE end_to_end_id = $2",
    )
    .bind(cents)
    .bind(e2eid)
    .execute(&mut *tx)
    .await?;
    let total =
        sqlx::query_scalar("SELECT refunded_cents FROM pix_payments WHERE end_to_end_id = $1")
            .bind(e2eid)
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    Ok(Some(total))
}
