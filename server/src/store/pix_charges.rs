//! `pix_charges`, the outbox of PIX charges at a bank's API Pix (migration 0011): which PIX
//! installments still need their charge, which invoices were deleted since (their charges are
//! removed), what one call needs, and recording the bank's answer; the charge the payer page
//! shows, and its state the merchant's detail shows.

use paylink_model::{ChargeTerms, Date, PixCharge, PixChargeState};
use sqlx::Row;

use crate::store::outbox::{self, Claim, Lease};
use crate::store::{now_iso, Db, DbError};

/// How many due rows one pass takes.
const BATCH: i64 = 16;

/// Open PIX installments without a charge yet (`i` installments, `v` invoices).
const NEW_CHARGES: &str = "FROM installments i JOIN invoices v ON v.id = i.invoice_id
     WHERE v.deleted_at IS NULL AND i.deleted_at IS NULL
       AND i.status = 'WAITING_PAYMENT' AND i.price_cents > 0
       AND EXISTS (SELECT 1 FROM invoice_payment_types p
                   WHERE p.invoice_id = v.id AND p.payment_type = 'PIX')
       AND NOT EXISTS (SELECT 1 FROM pix_charges c WHERE c.id = i.id)";

/// A later cycle of an authorized Pix Automático recurrence (`r`): charged by the payer's bank
/// through a recurring charge while it is at least [`CYCLE_LAST_DAYS`] days away, not by a code
/// on the payer page.
const CYCLE: &str = "i.number > 1 AND EXISTS (SELECT 1 FROM pix_recurrences r
                     WHERE r.id = v.id AND r.operation = 'create' AND r.bank_status = 'APROVADA')";

/// A recurring charge is sent between this many calendar days before its due date ...
pub const CYCLE_FIRST_DAYS: i64 = 10;
/// ... and this many (the arrangement's window: the payer's bank must have it 2 days ahead).
pub const CYCLE_LAST_DAYS: i64 = 2;

/// Open later cycles of authorized recurrences inside their window, without a charge yet.
fn cycles_due(first: &str, last: &str) -> String {
    format!(
        "FROM installments i JOIN invoices v ON v.id = i.invoice_id
         WHERE v.deleted_at IS NULL AND i.deleted_at IS NULL
           AND i.status = 'WAITING_PAYMENT' AND i.price_cents > 0
           AND i.due_date >= '{first}' AND i.due_date <= '{last}' AND {CYCLE}
           AND EXISTS (SELECT 1 FROM invoice_payment_types p
                       WHERE p.invoice_id = v.id AND p.payment_type = 'PIX')
           AND NOT EXISTS (SELECT 1 FROM pix_charges c WHERE c.id = i.id)"
    )
}

/// When the merchant's account is known (`serve --pix-account`), recurring charges are sent:
/// the day today is, in Brasília. Dates are ours (`YYYY-MM-DD`), written into the SQL.
#[derive(Clone, Copy, Debug)]
pub struct Cycles {
    pub today: Date,
}

impl Cycles {
    fn bounds(self) -> Option<(String, String)> {
        Some((
            self.today.add_days(CYCLE_LAST_DAYS)?.to_string(),
            self.today.add_days(CYCLE_FIRST_DAYS)?.to_string(),
        ))
    }
}

/// Charges still open (or never made) at the bank that nobody should pay any more: those of
/// deleted invoices, and those of installments paid another way (a boleto, a payment recorded
/// by hand, a Pix of an earlier charge), which a payer holding the code could otherwise pay a
/// second time. A charge its own Pix paid is left alone (the bank has it CONCLUIDA), and so is
/// a conflict: the charge the bank holds under that txid is not paylink's to remove (`refusal`
/// holds `PixCharge` as serde writes it, `{"state":"conflict",...}`).
const TO_REMOVE: &str =
    "WHERE operation = 'create' AND (bank_status IS NULL OR bank_status = 'ATIVA')
       AND (refusal IS NULL OR refusal NOT LIKE '{\"state\":\"conflict\"%')
       AND (invoice_id IN (SELECT id FROM invoices WHERE deleted_at IS NOT NULL)
            OR (EXISTS (SELECT 1 FROM installments i
                        WHERE i.id = pix_charges.id AND i.status <> 'WAITING_PAYMENT')
                AND NOT EXISTS (SELECT 1 FROM pix_payments p WHERE p.txid = pix_charges.txid)))";

/// Charges that stopped being payable while their installment still waits (a `cob` whose amount
/// no longer holds, a `cobv` past its days of validity after the due date): each is made again
/// under a new txid (migration 0018), as what the installment costs now. At most 99 times
/// (`r99` keeps the txid within the document's 35 characters): a daily renewal of a charge
/// late with interest for three months.
const EXPIRED: &str = "FROM pix_charges c JOIN installments i ON i.id = c.id
                          JOIN invoices v ON v.id = c.invoice_id
     WHERE c.operation = 'create' AND c.status = 'done'
       AND c.expires_at <= $1 AND c.renewals < 99
       AND v.deleted_at IS NULL AND i.deleted_at IS NULL AND i.status = 'WAITING_PAYMENT'";

/// Takes up every open PIX installment without a charge yet, renews the charges that expired
/// unpaid, and turns the charges nobody should pay any more into removals. The installments
/// themselves are the source, so an installment created while the bank was unreachable, or
/// before `--pix-api-url` was set, is never missed. It looks first and writes only when there
/// is something to write, so the passes of an idle server never hold SQLite's write gate.
/// With `cycles`, the later cycles of authorized recurrences are left to recurring charges while
/// their window lasts, and taken up as `cobr` rows once inside it.
pub async fn enqueue(db: &Db, cycles: Option<Cycles>) -> Result<u64, DbError> {
    let found = |sql: String| async move {
        sqlx::query(&sql)
            .fetch_optional(&db.pool)
            .await
            .map(|r| r.is_some())
    };
    let now = now_iso();
    let mut changed = 0;
    let bounds = cycles.and_then(Cycles::bounds);
    // Not yet a code on the payer page while the recurrence will charge it.
    let new_charges = match &bounds {
        Some((last, _)) => format!("{NEW_CHARGES} AND NOT (i.due_date >= '{last}' AND {CYCLE})"),
        None => NEW_CHARGES.to_string(),
    };
    if let Some((first, last)) = &bounds {
        let cycles = cycles_due(first, last);
        if found(format!("SELECT 1 AS x {cycles} LIMIT 1")).await? {
            let mut tx = db.begin_write().await?;
            changed += sqlx::query(&format!(
                "INSERT INTO pix_charges (id, invoice_id, txid, kind, operation, status, attempts,
                                          next_attempt_at, created_at, updated_at)
                 SELECT i.id, i.invoice_id, REPLACE(i.id, '-', ''), 'cobr', 'create', 'pending', 0,
                        $1, $1, $1
                 {cycles} ON CONFLICT DO NOTHING"
            ))
            .bind(&now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            tx.commit().await?;
        }
    }
    if found(format!("SELECT 1 AS x {new_charges} LIMIT 1")).await? {
        let mut tx = db.begin_write().await?;
        changed += sqlx::query(&format!(
            "INSERT INTO pix_charges (id, invoice_id, txid, operation, status, attempts,
                                      next_attempt_at, created_at, updated_at)
             SELECT i.id, i.invoice_id, REPLACE(i.id, '-', ''), 'create', 'pending', 0, $1, $1, $1
             {new_charges} ON CONFLICT DO NOTHING"
        ))
        .bind(&now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
    }
    let expired = sqlx::query(&format!("SELECT 1 AS x {EXPIRED} LIMIT 1"))
        .bind(&now)
        .fetch_optional(&db.pool)
        .await?;
    if expired.is_some() {
        // The old txid is kept before the row takes its new one, in one transaction.
        let mut tx = db.begin_write().await?;
        sqlx::query(&format!(
            "INSERT INTO pix_retired_txids (txid, installment_id, retired_at)
             SELECT c.txid, c.id, $1 {EXPIRED} ON CONFLICT DO NOTHING"
        ))
        .bind(&now)
        .execute(&mut *tx)
        .await?;
        changed += sqlx::query(&format!(
            "UPDATE pix_charges SET renewals = renewals + 1,
                    txid = REPLACE(id, '-', '') || 'r' || CAST(renewals + 1 AS TEXT),
                    kind = CASE WHEN kind = 'cobr' THEN NULL ELSE kind END,
                    status = 'pending', attempts = 0, next_attempt_at = $1, location = NULL,
                    copia_e_cola = NULL, bank_status = NULL, expires_at = NULL,
                    last_error = NULL, refusal = NULL, updated_at = $1
             WHERE id IN (SELECT c.id {EXPIRED})"
        ))
        .bind(&now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
    }
    if found(format!(
        "SELECT 1 AS x FROM pix_charges {TO_REMOVE} LIMIT 1"
    ))
    .await?
    {
        let mut tx = db.begin_write().await?;
        changed += sqlx::query(&format!(
            "UPDATE pix_charges SET operation = 'remove', status = 'pending', attempts = 0,
                    next_attempt_at = $1, last_error = NULL, refusal = NULL, updated_at = $1
             {TO_REMOVE}"
        ))
        .bind(&now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
    }
    Ok(changed)
}

/// Claims up to 16 pending calls whose time has come and whose lease (if any) ran out, oldest
/// first (see [`outbox::claim`]).
pub async fn claim_due(db: &Db) -> Result<Claim, DbError> {
    outbox::claim(db, "pix_charges", "", |q| q, BATCH).await
}

/// What one call for a charge needs.
pub struct Work {
    pub txid: String,
    /// `create` or `remove`.
    pub operation: String,
    /// `cobv` or `cob` once created.
    pub kind: Option<String>,
    /// Calls made before this one.
    pub attempts: i64,
    /// Still waiting for payment (a charge for a paid installment is not created).
    pub open: bool,
    pub price_cents: i64,
    pub due: Option<Date>,
    pub first_due: Option<Date>,
    pub number: i64,
    pub count: i64,
    pub external_id: String,
    pub customer_name: String,
    pub customer_document: Option<String>,
    pub terms: ChargeTerms,
    /// The first cycle of a Pix Automático invoice: a `cob` payable now, for the composite code.
    pub immediate: bool,
    /// The invoice's recurrence at the bank (a `cobr` row's `idRec`).
    pub id_rec: Option<String>,
}

pub async fn work(db: &Db, id: &str) -> Result<Work, DbError> {
    let r = sqlx::query(
        "SELECT c.txid, c.operation, c.kind, c.attempts, i.status AS installment_status,
                i.price_cents, i.due_date, i.number, v.due_date AS first_due,
                v.installment_count, v.external_id, v.fine_type, v.fine_value,
                v.interest_monthly_bp, v.discount_type, v.discount_value, v.discount_until,
                u.full_name, u.document,
                CASE WHEN i.number = 1 AND EXISTS (SELECT 1 FROM pix_recurrences r WHERE r.id = v.id)
                     THEN 1 ELSE 0 END AS immediate,
                (SELECT r.id_rec FROM pix_recurrences r WHERE r.id = v.id) AS id_rec
         FROM pix_charges c JOIN installments i ON i.id = c.id
              JOIN invoices v ON v.id = c.invoice_id JOIN customers u ON u.id = v.customer_id
         WHERE c.id = $1",
    )
    .bind(id)
    .fetch_one(&db.pool)
    .await?;
    let date = |col: &str| r.try_get::<&str, _>(col).map(Date::parse_iso_prefix);
    Ok(Work {
        txid: r.try_get("txid")?,
        operation: r.try_get("operation")?,
        kind: r.try_get("kind")?,
        attempts: r.try_get("attempts")?,
        open: r.try_get::<&str, _>("installment_status")? == "WAITING_PAYMENT",
        price_cents: r.try_get("price_cents")?,
        due: date("due_date")?,
        first_due: date("first_due")?,
        number: r.try_get("number")?,
        count: r.try_get("installment_count")?,
        external_id: r.try_get("external_id")?,
        customer_name: r.try_get("full_name")?,
        customer_document: r.try_get("document")?,
        terms: crate::store::invoices::terms_of(&r)?,
        immediate: r.try_get::<i64, _>("immediate")? != 0,
        id_rec: r.try_get("id_rec")?,
    })
}

/// The bank's answer to a call: the charge as it keeps it.
pub struct Answer<'a> {
    pub kind: Option<&'a str>,
    pub location: Option<&'a str>,
    pub copia_e_cola: Option<&'a str>,
    pub bank_status: Option<&'a str>,
    /// When the charge stops being payable (RFC 3339), as the bank's answer says.
    pub expires_at: Option<&'a str>,
}

/// `operation` succeeded. Unless the row was turned into another operation meanwhile (an
/// invoice deleted while its charge was being created), nothing is left to do for it. Recorded
/// only under `lease`; `false` when another worker has taken the row since.
pub async fn record_done(
    db: &Db,
    id: &str,
    lease: &Lease,
    operation: &str,
    a: &Answer<'_>,
) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let held = sqlx::query(
        "UPDATE pix_charges SET kind = COALESCE($1, kind), location = COALESCE($2, location),
                copia_e_cola = COALESCE($3, copia_e_cola), bank_status = COALESCE($4, bank_status),
                status = CASE WHEN operation = $5 THEN 'done' ELSE status END,
                last_error = NULL, refusal = NULL, locked_until = NULL, lease_id = NULL,
                updated_at = $6, expires_at = COALESCE($8, expires_at)
         WHERE id = $7 AND lease_id = $9",
    )
    .bind(a.kind)
    .bind(a.location)
    .bind(a.copia_e_cola)
    .bind(a.bank_status)
    .bind(operation)
    .bind(now_iso())
    .bind(id)
    .bind(a.expires_at)
    .bind(lease.as_str())
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    tx.commit().await?;
    Ok(held)
}

/// `operation` failed: again at `next` (RFC 3339), or never (`next` None: the bank refused it,
/// `refusal` saying why in the merchant's words). Under `lease` only, as [`record_done`].
#[allow(clippy::too_many_arguments)]
pub async fn record_failure(
    db: &Db,
    id: &str,
    lease: &Lease,
    operation: &str,
    attempts: i64,
    next: Option<&str>,
    error: &str,
    refusal: Option<&PixCharge>,
) -> Result<bool, DbError> {
    let refusal = refusal.and_then(|r| serde_json::to_string(r).ok());
    let mut tx = db.begin_write().await?;
    let held = sqlx::query(
        "UPDATE pix_charges SET attempts = $1, last_error = $2, locked_until = NULL, lease_id = NULL,
                status = $3, next_attempt_at = COALESCE($4, next_attempt_at), updated_at = $5,
                refusal = $6
         WHERE id = $7 AND operation = $8 AND lease_id = $9",
    )
    .bind(attempts)
    .bind(error)
    .bind(if next.is_some() { "pending" } else { "failed" })
    .bind(next)
    .bind(now_iso())
    .bind(refusal)
    .bind(id)
    .bind(operation)
    .bind(lease.as_str())
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    tx.commit().await?;
    Ok(held)
}

/// The merchant's view of a charge row (`None`: no row, no API Pix charge for it). A failed
/// row without a stored refusal (failed before migration 0017) shows its technical error.
pub fn charge_of(
    operation: Option<String>,
    status: Option<String>,
    refusal: Option<String>,
    last_error: Option<String>,
) -> Option<PixCharge> {
    let state = match (operation?.as_str(), status?.as_str()) {
        ("remove", _) => PixChargeState::Removed,
        (_, "done") => PixChargeState::Created,
        (_, "failed") => {
            return Some(
                refusal
                    .and_then(|r| serde_json::from_str(&r).ok())
                    .unwrap_or(PixCharge {
                        state: PixChargeState::Refused,
                        reasons: last_error.into_iter().collect(),
                    }),
            )
        }
        _ => PixChargeState::Pending,
    };
    Some(PixCharge {
        state,
        reasons: Vec::new(),
    })
}

/// The bank's code of an installment's active charge, for the payer page.
#[derive(sqlx::FromRow)]
pub struct BankCode {
    pub copia_e_cola: String,
    pub location: Option<String>,
}

/// `None` while the charge is not at the bank yet (or not active there, or no longer payable).
pub async fn bank_code(db: &Db, installment_id: &str) -> Result<Option<BankCode>, DbError> {
    sqlx::query_as(
        "SELECT copia_e_cola, location FROM pix_charges
         WHERE id = $1 AND operation = 'create' AND copia_e_cola IS NOT NULL
           AND bank_status = 'ATIVA' AND (expires_at IS NULL OR expires_at > $2)",
    )
    .bind(installment_id)
    .bind(now_iso())
    .fetch_optional(&db.pool)
    .await
}

/// A charge row as tests and operators see it: (operation, status, attempts, last_error, bank_status).
pub async fn state(
    db: &Db,
    installment_id: &str,
) -> Result<Option<(String, String, i64, Option<String>, Option<String>)>, DbError> {
    sqlx::query_as(
        "SELECT operation, status, attempts, last_error, bank_status FROM pix_charges WHERE id = $1",
    )
    .bind(installment_id)
    .fetch_optional(&db.pool)
    .await
}

/// Whether installment `id`'s charge is a recurring charge (`cobr`): its payer's bank pays it,
/// and the payer page shows no code for it.
pub async fn is_cycle(db: &Db, installment_id: &str) -> Result<bool, DbError> {
    let found = sqlx::query(
        "SELECT 1 AS x FROM pix_charges WHERE id = $1 AND kind = 'cobr' AND operation = 'create'
           AND (bank_status IS NULL OR bank_status = 'ATIVA') AND expires_at IS NULL",
    )
    .bind(installment_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(found.is_some())
}

/// A recurring charge that ended unpaid (the payer's bank rejected it with no retry left, or it
/// was cancelled or expired, as the bank reads it back): it stops being payable now, so the
/// renewal of [`enqueue`] makes the installment an ordinary charge under a new txid, its code on
/// the payer page (the old txid kept, so a late Pix of it still pays), and the payer's
/// `INVOICE_FAIL` (if the invoice has one) goes out now rather than on its day. Once only: a
/// charge already ended, paid or made again is left alone.
pub async fn cycle_ended(db: &Db, txid: &str, bank_status: &str) -> Result<bool, DbError> {
    let now = now_iso();
    let mut tx = db.begin_write().await?;
    let n = sqlx::query(
        "UPDATE pix_charges SET bank_status = $1, expires_at = $2, updated_at = $2
         WHERE txid = $3 AND kind = 'cobr' AND operation = 'create' AND status = 'done'
           AND (bank_status IS NULL OR bank_status = 'ATIVA')
           AND NOT EXISTS (SELECT 1 FROM pix_payments p WHERE p.txid = pix_charges.txid)",
    )
    .bind(bank_status)
    .bind(&now)
    .bind(txid)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if n == 1 {
        // The payer hears of it now: an INVOICE_FAIL still waiting for its day, or held back
        // while the bank was retrying (`workers::notifications`), is due at once.
        sqlx::query(
            "UPDATE notification_sends SET due_at = CASE WHEN due_at > $1 THEN $1 ELSE due_at END, next_attempt_at = $1, updated_at = $1
             WHERE type = 'INVOICE_FAIL' AND status = 'pending' AND next_attempt_at > $1
               AND installment_id = (SELECT id FROM pix_charges WHERE txid = $2)",
        )
        .bind(&now)
        .bind(txid)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(n == 1)
}
