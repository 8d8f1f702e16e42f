//! Pix the bank confirmed (`pix_payments`, migration 0011): applying one marks its installment
//! CONFIRMED with the amount and time the bank reports and fires PAYMENT_CONFIRMED, once per
//! endToEndId however often a callback or a reconciliation pass brings it; the devoluções of each
//! (`pix_refunds`, migrations 0014 and 0032), as the bank reports them, whoever asked for them:
//! all of a Pix returned makes its installment REVERSED.

use paylink_model::{DevolucaoNatureza, DevolucaoStatus, PaymentType};

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
            reference: Some(p.end_to_end_id),
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

/// A devolução of a Pix as the bank reports it (`Devolucao` in its `GET /pix/{e2eid}`).
#[derive(Debug, Clone, PartialEq)]
pub struct Reported {
    pub id: String,
    pub rtr_id: Option<String>,
    pub cents: i64,
    pub natureza: DevolucaoNatureza,
    pub status: DevolucaoStatus,
    pub requested_at: Option<String>,
    pub settled_at: Option<String>,
}

/// What keeping a reported devolução did.
#[derive(Debug)]
pub enum Kept {
    /// No Pix of paylink's has this endToEndId: nothing kept.
    UnknownPix,
    Kept(KeptDevolucao),
}

#[derive(Debug)]
pub struct KeptDevolucao {
    /// Recorded now, or its state changed; `false` when the bank said the same before.
    pub changed: bool,
    /// All of the Pix's devoluções that are DEVOLVIDO, and what the Pix paid.
    pub returned_cents: i64,
    pub paid_cents: i64,
    pub invoice_id: String,
    pub number: u32,
    /// The installment, when this devolução made it REVERSED.
    pub reversed: Option<InstallmentSnapshot>,
    /// The installment's status after it.
    pub status: String,
}

/// Keeps devolução `d` of Pix `e2eid` as the bank reports it, once: a new one is recorded, a known
/// one takes the bank's newer state (its status, rtrId, settlement), the same report again changes
/// nothing. The Pix's total refunded counts every devolução not refused (`NAO_REALIZADO`); when
/// what is returned (`DEVOLVIDO`) reaches what the Pix paid, its confirmed installment becomes
/// REVERSED. One transaction.
pub async fn keep_devolucao(db: &Db, e2eid: &str, d: &Reported) -> Result<Kept, DbError> {
    use sqlx::Row;
    let mut tx = db.begin_write().await?;
    let Some(pix) = sqlx::query(
        "SELECT i.invoice_id, i.number, p.amount_cents FROM pix_payments p
         JOIN installments i ON i.id = p.installment_id WHERE p.end_to_end_id = $1",
    )
    .bind(e2eid)
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(Kept::UnknownPix);
    };
    let invoice_id: String = pix.try_get("invoice_id")?;
    let number = pix.try_get::<i64, _>("number")? as u32;
    let paid_cents: i64 = pix.try_get("amount_cents")?;
    let known = sqlx::query(
        "SELECT amount_cents, rtr_id, natureza, status, requested_at, settled_at
         FROM pix_refunds WHERE end_to_end_id = $1 AND refund_id = $2",
    )
    .bind(e2eid)
    .bind(&d.id)
    .fetch_optional(&mut *tx)
    .await?;
    let now = now_iso();
    let changed = match known {
        None => {
            sqlx::query(
                "INSERT INTO pix_refunds (end_to_end_id, refund_id, amount_cents, created_at,
                     rtr_id, natureza, status, requested_at, settled_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING",
            )
            .bind(e2eid)
            .bind(&d.id)
            .bind(d.cents)
            .bind(&now)
            .bind(&d.rtr_id)
            .bind(d.natureza.as_str())
            .bind(d.status.as_str())
            .bind(&d.requested_at)
            .bind(&d.settled_at)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                > 0
        }
        Some(row) => {
            // What the bank leaves out of a later report stays as an earlier one said.
            let text = |c: &str| row.try_get::<Option<String>, _>(c);
            let merged = Reported {
                id: d.id.clone(),
                rtr_id: d.rtr_id.clone().or(text("rtr_id")?),
                cents: d.cents,
                natureza: d.natureza,
                status: d.status,
                requested_at: d.requested_at.clone().or(text("requested_at")?),
                settled_at: d.settled_at.clone().or(text("settled_at")?),
            };
            let before = Reported {
                id: d.id.clone(),
                rtr_id: text("rtr_id")?,
                cents: row.try_get("amount_cents")?,
                natureza: DevolucaoNatureza::parse(row.try_get("natureza")?)
                    .unwrap_or(DevolucaoNatureza::Original),
                status: DevolucaoStatus::parse(row.try_get("status")?)
                    .unwrap_or(DevolucaoStatus::EmProcessamento),
                requested_at: text("requested_at")?,
                settled_at: text("settled_at")?,
            };
            if merged != before {
                sqlx::query(
                    "UPDATE pix_refunds SET amount_cents = $1, rtr_id = $2, natureza = $3,
                         status = $4, requested_at = $5, settled_at = $6, updated_at = $7
                     WHERE end_to_end_id = $8 AND refund_id = $9",
                )
                .bind(merged.cents)
                .bind(&merged.rtr_id)
                .bind(merged.natureza.as_str())
                .bind(merged.status.as_str())
                .bind(&merged.requested_at)
                .bind(&merged.settled_at)
                .bind(&now)
                .bind(e2eid)
                .bind(&d.id)
                .execute(&mut *tx)
                .await?;
            }
            merged != before
        }
    };
    let totals = sqlx::query(
        // Cast: PostgreSQL sums BIGINTs as NUMERIC.
        "SELECT CAST(COALESCE(SUM(CASE WHEN status <> 'NAO_REALIZADO' THEN amount_cents ELSE 0 END), 0) AS BIGINT) AS asked,
                CAST(COALESCE(SUM(CASE WHEN status = 'DEVOLVIDO' THEN amount_cents ELSE 0 END), 0) AS BIGINT) AS returned
         FROM pix_refunds WHERE end_to_end_id = $1",
    )
    .bind(e2eid)
    .fetch_one(&mut *tx)
    .await?;
    let (asked, returned_cents): (i64, i64) =
        (totals.try_get("asked")?, totals.try_get("returned")?);
    let mut reversed = None;
    if changed {
        sqlx::query("UPDATE pix_payments SET refunded_cents = $1 WHERE end_to_end_id = $2")
            .bind(asked)
            .bind(e2eid)
            .execute(&mut *tx)
            .await?;
        if returned_cents >= paid_cents {
            // Why: the devolução settled last, the one that completed the return.
            let natureza: Option<String> = sqlx::query_scalar(
                "SELECT natureza FROM pix_refunds WHERE end_to_end_id = $1 AND status = 'DEVOLVIDO'
                 ORDER BY COALESCE(settled_at, updated_at, '') DESC LIMIT 1",
            )
            .bind(e2eid)
            .fetch_optional(&mut *tx)
            .await?;
            match crate::store::payments::reverse_in(
                &mut tx,
                &invoice_id,
                number,
                Some(PaymentType::Pix),
                natureza
                    .as_deref()
                    .and_then(paylink_model::DevolucaoNatureza::parse),
            )
            .await
            {
                Ok(snapshot) => reversed = Some(snapshot),
                // Not confirmed (reversed already, or paid another way): it stays as it is.
                Err(LifecycleError::Db(e)) => return Err(e),
                // Not confirmed (reversed already, paid another way, deleted): it stays as it is.
                Err(other) => {
                    tracing::info!(%e2eid, why = %other, "Pix returned in full; its installment stays as it is");
                }
            }
        }
    }
    let status: String =
        sqlx::query_scalar("SELECT status FROM installments WHERE invoice_id = $1 AND number = $2")
            .bind(&invoice_id)
            .bind(number as i64)
            .fetch_one(&mut *tx)
            .await?;
    if changed {
        tx.commit().await?;
    }
    Ok(Kept::Kept(KeptDevolucao {
        changed,
        returned_cents,
        paid_cents,
        invoice_id,
        number,
        reversed,
        status,
    }))
}

/// Pay again (issue 41): REVERSED installment `number` of `invoice_id` becomes payable again,
/// `WAITING_PAYMENT` with nothing paid, in one transaction; its Pix charge, if it has one at the
/// bank, is made again under a new txid (the old one kept in `pix_retired_txids`, as a renewal
/// does), so the charges worker puts a fresh code on the payer page. The returned payment and its
/// devoluções stay recorded. `false` when it was not REVERSED (paid again meanwhile, say).
pub async fn pay_again(db: &Db, invoice_id: &str, number: u32) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let id: Option<String> = sqlx::query_scalar(
        "SELECT id FROM installments WHERE invoice_id = $1 AND number = $2
            AND status = 'REVERSED' AND deleted_at IS NULL",
    )
    .bind(invoice_id)
    .bind(number as i64)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(id) = id else {
        return Ok(false);
    };
    let now = now_iso();
    sqlx::query(
        "UPDATE installments SET status = 'WAITING_PAYMENT', price_paid_cents = 0, paid_at = NULL,
                payment_received_at = NULL, updated_at = $1
         WHERE id = $2",
    )
    .bind(&now)
    .bind(&id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO pix_retired_txids (txid, installment_id, retired_at)
         SELECT txid, id, $1 FROM pix_charges WHERE id = $2 ON CONFLICT DO NOTHING",
    )
    .bind(&now)
    .bind(&id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE pix_charges SET renewals = renewals + 1,
                txid = REPLACE(id, '-', '') || 'r' || CAST(renewals + 1 AS TEXT),
                kind = CASE WHEN kind = 'cobr' THEN NULL ELSE kind END, operation = 'create',
                status = 'pending', attempts = 0, next_attempt_at = $1, location = NULL,
                copia_e_cola = NULL, bank_status = NULL, expires_at = NULL,
                last_error = NULL, refusal = NULL, updated_at = $1
         WHERE id = $2",
    )
    .bind(&now)
    .bind(&id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}
