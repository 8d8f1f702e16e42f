//! `pix_cycles` (migration 0022): each later cycle of a Pix Automático recurrence as the bank
//! last read its recurring charge back (status and attempts), for the merchant's detail
//! (`pixAutomatico.cycles`). Written after every read of the charge: the `PUT`'s answer, the
//! `GET` after a callback, the `PATCH` cancelling it, or the refusal to make it.

use paylink_model::{CycleAttempt, PixAutomaticoCycle};
use sqlx::Row;

use super::{now_iso, Db, DbError, DbRow};

/// The recurring charge `txid` as read back: its due date, status and attempts (and, refused,
/// why). Nothing when `txid` is no installment's charge.
pub async fn record(
    db: &Db,
    txid: &str,
    due_date: &str,
    status: &str,
    attempts: &[CycleAttempt],
    reasons: &[String],
) -> Result<(), DbError> {
    let attempts = serde_json::to_string(attempts).unwrap_or_else(|_| "[]".into());
    let reasons = (!reasons.is_empty()).then(|| serde_json::to_string(reasons).unwrap_or_default());
    let now = now_iso();
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO pix_cycles (installment_id, invoice_id, txid, due_date, status, attempts,
                                 reasons, updated_at)
         SELECT i.id, i.invoice_id, $1, $2, $3, $4, $5, $6 FROM installments i
         WHERE i.id = (SELECT c.id FROM pix_charges c WHERE c.txid = $1
                       UNION SELECT t.installment_id FROM pix_retired_txids t WHERE t.txid = $1)
         ON CONFLICT (installment_id) DO UPDATE SET due_date = excluded.due_date,
                status = excluded.status, attempts = excluded.attempts,
                reasons = excluded.reasons, updated_at = excluded.updated_at",
    )
    .bind(txid)
    .bind(due_date)
    .bind(status)
    .bind(&attempts)
    .bind(reasons)
    .bind(&now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The cycle of an installment row of the detail query (its `y_` columns), if it has one.
pub(super) fn cycle_of(i: &DbRow, number: u32) -> Result<Option<PixAutomaticoCycle>, DbError> {
    let Some(status) = i.try_get::<Option<String>, _>("y_status")? else {
        return Ok(None);
    };
    let json = |col: &str| -> Result<Option<String>, DbError> { i.try_get(col) };
    Ok(Some(PixAutomaticoCycle {
        installment: number,
        due_date: i.try_get("y_due_date")?,
        status,
        attempts: json("y_attempts")?
            .and_then(|j| serde_json::from_str(&j).ok())
            .unwrap_or_default(),
        reasons: json("y_reasons")?
            .and_then(|j| serde_json::from_str(&j).ok())
            .unwrap_or_default(),
    }))
}
