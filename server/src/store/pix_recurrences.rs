//! `pix_recurrences`, the Pix Automático recurrence of an invoice that asked for it (migration
//! 0020): written with the invoice; the outbox of its calls to the bank (which rows are due, what
//! one call needs, recording each step's answer, turning a deleted invoice's recurrence into a
//! cancellation); the recurrence's state as the bank reads it back; and the detail's
//! `pixAutomatico`.

use paylink_model::pix_automatico::{NewPixAutomatico, Periodicidade, RetryPolicy};
use paylink_model::{PixAutomaticoDetail, PixAutomaticoStatus};
use sqlx::Row;

use super::outbox::{self, Claim, Lease};
use super::{iso_in, now_iso, stored_fault, Db, DbError, DbRow, WriteTx};

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
        cycles: Vec::new(),
    }))
}

/// The SQL condition on recurrence row `r` that [`detail_of`] reads as `status` (the list's
/// `pixAutomatico` filter).
pub(super) fn status_is(status: PixAutomaticoStatus) -> &'static str {
    use PixAutomaticoStatus::*;
    match status {
        Refused => "r.operation = 'create' AND r.status = 'failed'",
        Cancelled => {
            "(r.operation = 'cancel' OR (r.operation = 'create' AND r.status <> 'failed'
              AND r.bank_status = 'CANCELADA'))"
        }
        Pending => "r.operation = 'create' AND r.status <> 'failed' AND r.bank_status IS NULL",
        Created => "r.operation = 'create' AND r.status <> 'failed' AND r.bank_status = 'CRIADA'",
        Approved => {
            "r.operation = 'create' AND r.status <> 'failed' AND r.bank_status = 'APROVADA'"
        }
        Rejected => {
            "r.operation = 'create' AND r.status <> 'failed' AND r.bank_status = 'REJEITADA'"
        }
        Expired => "r.operation = 'create' AND r.status <> 'failed' AND r.bank_status = 'EXPIRADA'",
    }
}

/// How many due rows one pass takes.
const BATCH: i64 = 16;

/// Recurrences still alive (or never made) at the bank whose invoice was deleted: they are
/// cancelled, so the payer's bank charges no further cycle. One refused for good, or ended by the
/// payer or the bank, is left as it is.
const TO_CANCEL: &str = "WHERE operation = 'create' AND status <> 'failed'
       AND (bank_status IS NULL OR bank_status IN ('CRIADA', 'APROVADA'))
       AND id IN (SELECT id FROM invoices WHERE deleted_at IS NOT NULL)";

/// Turns the recurrences of deleted invoices into cancellations; looks first, so an idle
/// server's passes never take the write gate.
pub async fn enqueue(db: &Db) -> Result<u64, DbError> {
    let found = sqlx::query(&format!(
        "SELECT 1 AS x FROM pix_recurrences {TO_CANCEL} LIMIT 1"
    ))
    .fetch_optional(&db.pool)
    .await?;
    if found.is_none() {
        return Ok(0);
    }
    let mut tx = db.begin_write().await?;
    let n = sqlx::query(&format!(
        "UPDATE pix_recurrences SET operation = 'cancel', status = 'pending', attempts = 0,
                next_attempt_at = $1, last_error = NULL, refusal = NULL, updated_at = $1
         {TO_CANCEL}"
    ))
    .bind(now_iso())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(n)
}

/// Claims up to 16 pending calls whose time has come and whose lease (if any) ran out, oldest
/// first (see [`outbox::claim`]).
pub async fn claim_due(db: &Db) -> Result<Claim, DbError> {
    outbox::claim(db, "pix_recurrences", "", |q| q, BATCH).await
}

/// What one call for a recurrence needs.
pub struct Work {
    /// `create` or `cancel`.
    pub operation: String,
    pub attempts: i64,
    pub periodicity: Periodicidade,
    pub retry_policy: RetryPolicy,
    pub loc_id: Option<i64>,
    pub id_rec: Option<String>,
    pub external_id: String,
    pub description: Option<String>,
    pub price_cents: i64,
    pub first_due: Option<paylink_model::Date>,
    /// The last due date allowed (`endDate`), when the invoice has one.
    pub end_date: Option<paylink_model::Date>,
    /// The last charge's number (`endInstallment`), when the invoice has one.
    pub end_installment: Option<i64>,
    /// A subscription's `endSubscription` (an ISO date in it ends the invoice).
    pub end_subscription: Option<String>,
    pub frequency: Option<String>,
    pub customer_name: String,
    pub customer_document: Option<String>,
    /// Whether the first cycle still waits for payment.
    pub first_open: bool,
    /// The first cycle's charge in the charges' outbox: (txid, kind, status of the row).
    pub first_charge: Option<(String, Option<String>, String)>,
}

pub async fn work(db: &Db, id: &str) -> Result<Work, DbError> {
    let r = sqlx::query(
        "SELECT r.operation, r.attempts, r.periodicity, r.retry_policy, r.loc_id, r.id_rec,
                v.external_id, v.description, v.price_cents, v.due_date, v.end_date,
                v.end_installment, v.end_subscription, v.frequency, u.full_name, u.document,
                c.txid AS c_txid, c.kind AS c_kind, c.status AS c_status, i.status AS i_status
         FROM pix_recurrences r JOIN invoices v ON v.id = r.id
              JOIN customers u ON u.id = v.customer_id
              LEFT JOIN installments i ON i.invoice_id = v.id AND i.number = 1
              LEFT JOIN pix_charges c ON c.id = i.id AND c.operation = 'create'
         WHERE r.id = $1",
    )
    .bind(id)
    .fetch_one(&db.pool)
    .await?;
    let fault = |what: &str, v: &str| stored_fault(format!("unexpected stored {what} {v:?}"));
    let periodicity: String = r.try_get("periodicity")?;
    let policy: String = r.try_get("retry_policy")?;
    let date = |col: &str| -> Result<Option<paylink_model::Date>, DbError> {
        Ok(r.try_get::<Option<&str>, _>(col)?
            .and_then(paylink_model::Date::parse_iso_prefix))
    };
    let first_charge = match r.try_get::<Option<String>, _>("c_txid")? {
        Some(txid) => Some((txid, r.try_get("c_kind")?, r.try_get("c_status")?)),
        None => None,
    };
    let first_open = r.try_get::<Option<&str>, _>("i_status")? == Some("WAITING_PAYMENT");
    Ok(Work {
        operation: r.try_get("operation")?,
        attempts: r.try_get("attempts")?,
        periodicity: Periodicidade::parse(&periodicity)
            .ok_or_else(|| fault("periodicity", &periodicity))?,
        retry_policy: RetryPolicy::parse(&policy).ok_or_else(|| fault("retry policy", &policy))?,
        loc_id: r.try_get("loc_id")?,
        id_rec: r.try_get("id_rec")?,
        external_id: r.try_get("external_id")?,
        description: r.try_get("description")?,
        price_cents: r.try_get("price_cents")?,
        first_due: date("due_date")?,
        end_date: date("end_date")?,
        end_installment: r.try_get("end_installment")?,
        end_subscription: r.try_get("end_subscription")?,
        frequency: r.try_get("frequency")?,
        customer_name: r.try_get("full_name")?,
        customer_document: r.try_get("document")?,
        first_open,
        first_charge,
    })
}

/// One write to a recurrence's row, in its own transaction.
type Query<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

async fn update(
    db: &Db,
    sql: &str,
    bind: impl for<'q> FnOnce(Query<'q>) -> Query<'q>,
) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    bind(sqlx::query(sql)).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(())
}

/// [`update`] of a result that releases the lease: written only while the row carries `lease`
/// (bound after `bind`'s values, as `$n` one past the last of them). Whether it was.
async fn update_held(
    db: &Db,
    sql: &str,
    lease: &Lease,
    bind: impl for<'q> FnOnce(Query<'q>) -> Query<'q>,
) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let n = bind(sqlx::query(sql))
        .bind(lease.as_str().to_string())
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(n == 1)
}

/// The location the recurrence is made with (kept before `POST /rec`, so a retry after a lost
/// answer asks it for the recurrence already made).
pub async fn record_location(
    db: &Db,
    id: &str,
    loc_id: i64,
    location: &str,
) -> Result<(), DbError> {
    update(
        db,
        "UPDATE pix_recurrences SET loc_id = $1, location = $2, updated_at = $3 WHERE id = $4",
        |q| {
            q.bind(loc_id)
                .bind(location.to_string())
                .bind(now_iso())
                .bind(id.to_string())
        },
    )
    .await
}

/// The recurrence the bank made (its id and status, and the first cycle's txid it pairs with).
pub async fn record_made(
    db: &Db,
    id: &str,
    id_rec: &str,
    bank_status: Option<&str>,
    journey_txid: Option<&str>,
) -> Result<(), DbError> {
    update(
        db,
        "UPDATE pix_recurrences SET id_rec = $1, bank_status = COALESCE($2, bank_status),
                journey_txid = $3, updated_at = $4 WHERE id = $5",
        |q| {
            q.bind(id_rec.to_string())
                .bind(bank_status.map(str::to_string))
                .bind(journey_txid.map(str::to_string))
                .bind(now_iso())
                .bind(id.to_string())
        },
    )
    .await
}

/// `operation` is done: the composite code (a creation) and the bank's status. Unless the row
/// was turned into another operation meanwhile (an invoice deleted while its recurrence was being
/// made), nothing is left to do for it.
#[allow(clippy::too_many_arguments)]
pub async fn record_done(
    db: &Db,
    id: &str,
    lease: &Lease,
    operation: &str,
    copia_e_cola: Option<&str>,
    authorization_code: Option<&str>,
    bank_status: Option<&str>,
    closing: Option<&[String]>,
) -> Result<bool, DbError> {
    let closing = closing.map(|c| serde_json::to_string(c).unwrap_or_default());
    update_held(
        db,
        "UPDATE pix_recurrences SET copia_e_cola = COALESCE($1, copia_e_cola),
                bank_status = COALESCE($2, bank_status), closing = COALESCE($3, closing),
                status = CASE WHEN operation = $4 THEN 'done' ELSE status END,
                last_error = NULL, refusal = NULL, locked_until = NULL, lease_id = NULL,
                updated_at = $5, authorization_code = COALESCE($7, authorization_code)
         WHERE id = $6 AND lease_id = $8",
        lease,
        |q| {
            q.bind(copia_e_cola.map(str::to_string))
                .bind(bank_status.map(str::to_string))
                .bind(closing)
                .bind(operation.to_string())
                .bind(now_iso())
                .bind(id.to_string())
                .bind(authorization_code.map(str::to_string))
        },
    )
    .await
}

/// Not yet: called again after `wait` without counting an attempt (the first cycle's charge is
/// not at the bank yet).
pub async fn record_wait(
    db: &Db,
    id: &str,
    lease: &Lease,
    wait: std::time::Duration,
) -> Result<bool, DbError> {
    update_held(
        db,
        "UPDATE pix_recurrences SET next_attempt_at = $1, locked_until = NULL, lease_id = NULL
         WHERE id = $2 AND lease_id = $3",
        lease,
        |q| q.bind(iso_in(wait)).bind(id.to_string()),
    )
    .await
}

/// `operation` failed: again at `next` (RFC 3339), or never (`next` None: the bank refused it,
/// `reasons` in its words).
#[allow(clippy::too_many_arguments)]
pub async fn record_failure(
    db: &Db,
    id: &str,
    lease: &Lease,
    operation: &str,
    attempts: i64,
    next: Option<&str>,
    error: &str,
    reasons: Option<&[String]>,
) -> Result<bool, DbError> {
    let reasons = reasons.map(|r| serde_json::to_string(r).unwrap_or_default());
    update_held(
        db,
        "UPDATE pix_recurrences SET attempts = $1, last_error = $2, locked_until = NULL,
                lease_id = NULL, status = $3, next_attempt_at = COALESCE($4, next_attempt_at),
                updated_at = $5, refusal = $6
         WHERE id = $7 AND operation = $8 AND lease_id = $9",
        lease,
        |q| {
            q.bind(attempts)
                .bind(error.to_string())
                .bind(if next.is_some() { "pending" } else { "failed" })
                .bind(next.map(str::to_string))
                .bind(now_iso())
                .bind(reasons)
                .bind(id.to_string())
                .bind(operation.to_string())
        },
    )
    .await
}

/// The recurrence `id_rec` as the bank reads it back (`GET /rec/{idRec}`): its status and, once
/// ended, who ended it and why. `false` when paylink made no recurrence of that id. Applying the
/// same state again changes nothing.
pub async fn apply_bank_state(
    db: &Db,
    id_rec: &str,
    bank_status: &str,
    closing: &[String],
) -> Result<bool, DbError> {
    let known = sqlx::query("SELECT 1 AS x FROM pix_recurrences WHERE id_rec = $1")
        .bind(id_rec)
        .fetch_optional(&db.pool)
        .await?;
    if known.is_none() {
        return Ok(false);
    }
    let closing = (!closing.is_empty()).then(|| serde_json::to_string(closing).unwrap_or_default());
    update(
        db,
        "UPDATE pix_recurrences SET bank_status = $1, closing = COALESCE($2, closing),
                updated_at = $3
         WHERE id_rec = $4 AND (bank_status IS NULL OR bank_status <> $1)",
        |q| {
            q.bind(bank_status.to_string())
                .bind(closing)
                .bind(now_iso())
                .bind(id_rec.to_string())
        },
    )
    .await?;
    Ok(true)
}

/// A recurrence row as tests and operators see it: (operation, status, attempts, id_rec,
/// bank_status, copia_e_cola).
pub type State = (
    String,
    String,
    i64,
    Option<String>,
    Option<String>,
    Option<String>,
);

pub async fn state(db: &Db, invoice_id: &str) -> Result<Option<State>, DbError> {
    sqlx::query_as(
        "SELECT operation, status, attempts, id_rec, bank_status, copia_e_cola
         FROM pix_recurrences WHERE id = $1",
    )
    .bind(invoice_id)
    .fetch_optional(&db.pool)
    .await
}

/// The codes of invoice `id`'s recurrence while it waits for the payer's authorization (the
/// bank holds it `CRIADA` and paylink read them back): the composite code when the recurrence was
/// paired with the first cycle's charge (Jornada 3; `None` otherwise), and the recurrence's own
/// (Jornada 2). `None` when there is nothing to authorize.
pub async fn payer_code(
    db: &Db,
    id: &str,
) -> Result<Option<(Option<String>, Option<String>)>, DbError> {
    sqlx::query_as(
        "SELECT CASE WHEN journey_txid IS NOT NULL THEN copia_e_cola END, authorization_code
         FROM pix_recurrences
         WHERE id = $1 AND operation = 'create' AND status = 'done' AND bank_status = 'CRIADA'",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// A recurrence the payer ended without authorizing it, which a new one may replace.
const RENEWABLE: &str = "operation = 'create' AND status = 'done'
       AND bank_status IN ('REJEITADA', 'EXPIRADA')
       AND id IN (SELECT id FROM invoices WHERE deleted_at IS NULL)";

/// Where invoice `id`'s recurrence stands for a payer who may authorize again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Again {
    /// The payer declined it (`REJEITADA`).
    Declined,
    /// Never authorized in time (`EXPIRADA`).
    Expired,
    /// A new one, asked for from the payer page, is being made.
    Preparing,
}

pub async fn again(db: &Db, id: &str) -> Result<Option<Again>, DbError> {
    let row: Option<(String, String, Option<String>, i64)> = sqlx::query_as(
        "SELECT operation, status, bank_status,
                (SELECT COUNT(*) FROM pix_recurrences_past p WHERE p.invoice_id = r.id) AS past
         FROM pix_recurrences r WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(match row {
        Some((op, status, bank, past)) if op == "create" => {
            match (status.as_str(), bank.as_deref()) {
                ("done", Some("REJEITADA")) => Some(Again::Declined),
                ("done", Some("EXPIRADA")) => Some(Again::Expired),
                ("pending", None) if past > 0 => Some(Again::Preparing),
                ("done", None) if past > 0 => Some(Again::Preparing),
                _ => None,
            }
        }
        _ => None,
    })
}

/// The payer asked for a new recurrence in place of one they declined or let expire: the old one
/// is kept in `pix_recurrences_past` and the row starts again as a creation (a new location, a
/// new `POST /rec`, Jornada 3 while the first cycle's charge is open, else Jornada 2). `false`
/// when there is nothing to replace (already asked for, authorized, or the invoice deleted).
pub async fn renew(db: &Db, id: &str) -> Result<bool, DbError> {
    let now = now_iso();
    let mut tx = db.begin_write().await?;
    sqlx::query(&format!(
        "INSERT INTO pix_recurrences_past (id_rec, invoice_id, bank_status, closing, replaced_at)
         SELECT id_rec, id, bank_status, closing, $1 FROM pix_recurrences
         WHERE id = $2 AND id_rec IS NOT NULL AND {RENEWABLE}
         ON CONFLICT DO NOTHING"
    ))
    .bind(&now)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    let n = sqlx::query(&format!(
        "UPDATE pix_recurrences SET operation = 'create', status = 'pending', attempts = 0,
                next_attempt_at = $1, locked_until = NULL, last_error = NULL, refusal = NULL,
                loc_id = NULL, location = NULL, id_rec = NULL, journey_txid = NULL,
                copia_e_cola = NULL, authorization_code = NULL, bank_status = NULL,
                closing = NULL, updated_at = $1
         WHERE id = $2 AND {RENEWABLE}"
    ))
    .bind(&now)
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(n == 1)
}
