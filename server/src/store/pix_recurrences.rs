//! `pix_recurrences`, the Pix Automático recurrence of an invoice that asked for it (migration
//! 0020): written with the invoice, and read into the detail's `pixAutomatico`.

use paylink_model::pix_automatico::{NewPixAutomatico, Periodicidade, RetryPolicy};
use paylink_model::{PixAutomaticoDetail, PixAutomaticoStatus};
use sqlx::Row;

use super::{stored_fault, DbError, DbRow, WriteTx};

/// The recurrence of invoice `id`, to be made at the bank by the recurrences worker.
pub(super) async fn insert(
    tx: &mut WriteTx,
    id: &str,
    p: &NewPixAutomatico,
    created_at: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO pix_recurrences (id, periodicity, retry_policy, operation, status, attempts,
                                      next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, 'create', 'pending', 0, $4, $4, $4)",
    )
    .bind(id)
    .bind(p.periodicidade.as_str())
    .bind(p.retry_policy.as_str())
    .bind(created_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The detail's `pixAutomatico` from an invoice row joined with its recurrence (the `r_`
/// columns of `invoices::load_many`); `None` when the invoice did not ask for it.
pub(super) fn detail_of(r: &DbRow) -> Result<Option<PixAutomaticoDetail>, DbError> {
    let Some(periodicity) = r.try_get::<Option<String>, _>("r_periodicity")? else {
        return Ok(None);
    };
    let fault = |what: &str, v: &str| stored_fault(format!("unexpected stored {what} {v:?}"));
    let periodicity =
        Periodicidade::parse(&periodicity).ok_or_else(|| fault("periodicity", &periodicity))?;
    let policy: String = r.try_get("r_retry_policy")?;
    let retry_policy = RetryPolicy::parse(&policy).ok_or_else(|| fault("retry policy", &policy))?;
    let operation: String = r.try_get("r_operation")?;
    let status: String = r.try_get("r_status")?;
    let bank_status: Option<String> = r.try_get("r_bank_status")?;
    let reasons_in = |col: &str| -> Result<Vec<String>, DbError> {
        Ok(r.try_get::<Option<String>, _>(col)?
            .and_then(|j| serde_json::from_str::<Vec<String>>(&j).ok())
            .unwrap_or_default())
    };
    let (status, reasons) = match (operation.as_str(), status.as_str(), bank_status) {
        ("create", "failed", _) => (PixAutomaticoStatus::Refused, reasons_in("r_refusal")?),
        ("cancel", _, _) => (PixAutomaticoStatus::Cancelled, reasons_in("r_closing")?),
        (_, _, Some(b)) => (
            PixAutomaticoStatus::from_bank(&b).ok_or_else(|| fault("recurrence status", &b))?,
            reasons_in("r_closing")?,
        ),
        _ => (PixAutomaticoStatus::Pending, Vec::new()),
    };
    Ok(Some(PixAutomaticoDetail {
        status,
        id_rec: r.try_get("r_id_rec")?,
        periodicity,
        retry_policy,
        reasons,
    }))
}
