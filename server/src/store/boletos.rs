//! Boletos registered at the bank (CNAB 240): which installments a remessa
//! sent, under which nosso número, which it asked the bank to write off, and
//! what the bank's retornos said of them.
//! The files themselves are written and read in `domain::settlement`; here is
//! only what is stored, each file's effect in one transaction.

use paylink_model::Date;
use sqlx::Row;

use crate::store::payments::{self, LifecycleError, Settlement};
use crate::store::{new_id, now_iso, Db, DbError, WriteTx};

/// An open BOLETO installment not yet sent to the bank, with what its
/// segments P, Q and R carry.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Unsent {
    #[sqlx(rename = "id")]
    pub installment_id: String,
    /// The 10-digit complement of its nosso número, given when it was written.
    #[sqlx(try_from = "i64")]
    pub our_number: u64,
    pub invoice_id: String,
    #[sqlx(try_from = "i64")]
    pub number: u32,
    pub price_cents: i64,
    /// `YYYY-MM-DD`.
    pub due_date: String,
    /// The invoice's first due date (`YYYY-MM-DD`): its discount is stated for it.
    pub first_due_date: String,
    pub external_id: String,
    pub invoice_created_at: String,
    #[sqlx(rename = "full_name")]
    pub payer_name: String,
    #[sqlx(rename = "document")]
    pub payer_document: Option<String>,
    #[sqlx(rename = "address")]
    pub street: Option<String>,
    pub street_number: Option<String>,
    #[sqlx(rename = "neighborhood")]
    pub district: Option<String>,
    pub zipcode: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub fine_type: Option<String>,
    pub fine_value: Option<i64>,
    pub interest_monthly_bp: Option<i64>,
    pub discount_type: Option<String>,
    pub discount_value: Option<i64>,
    pub discount_until: Option<String>,
}

/// A boleto at the bank that must no longer be paid: its invoice was
/// cancelled or its installment paid another way (by hand, by PIX), and no
/// remessa has asked for its baixa yet.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ToWriteOff {
    #[sqlx(rename = "id")]
    pub installment_id: String,
    pub invoice_id: String,
    #[sqlx(try_from = "i64")]
    pub number: u32,
    pub our_number: String,
    pub price_cents: i64,
    /// `YYYY-MM-DD`.
    pub due_date: String,
    pub external_id: String,
}

/// What the caller made of the unsent boletos: the file's text and each
/// boleto's nosso número (in the order of [`Unsent`]s given).
pub struct Decided {
    pub content: String,
    pub our_numbers: Vec<String>,
    pub total_cents: i64,
}

/// A remessa written: its sequence number (NSA), how many boletos it
/// registers and how many it asks the bank to write off.
#[derive(Debug)]
pub struct Written {
    pub sequence: i64,
    pub boletos: usize,
    pub write_offs: usize,
}

/// A remessa's boleto whose nosso número another installment's registration holds: seen
/// before the insert (`Held`, naming the holder) or by the unique index (`Raced`).
#[derive(Debug, thiserror::Error)]
pub enum OurNumberTaken {
    #[error(
        "nosso número {our_number} of installment {number} of invoice {invoice_id} is already \
         registered for installment {holder}: nothing was written"
    )]
    Held {
        our_number: String,
        number: u32,
        invoice_id: String,
        holder: String,
    },
    #[error(
        "nosso número {our_number} (installment {number} of invoice {invoice_id}) is already \
         registered: nothing was written"
    )]
    Raced {
        our_number: String,
        number: u32,
        invoice_id: String,
    },
}

/// Registers every open BOLETO installment without a registration (created
/// on or after `since`, a `YYYY-MM-DD` UTC day, when given) and writes off
/// every registered boleto that must no longer be paid: `decide` turns them
/// into a file under sequence number `n`, and the file and every boleto's
/// registration or baixa are stored in the same transaction, so a boleto is
/// in exactly one remessa of each kind. `decide` may do more before the
/// commit (write the file); its error rolls everything back. `None` when
/// nothing is to be sent.
pub async fn remessa<F, E>(db: &Db, since: Option<&str>, decide: F) -> Result<Option<Written>, E>
where
    F: FnOnce(i64, &[Unsent], &[ToWriteOff]) -> Result<Decided, E>,
    E: From<DbError> + From<OurNumberTaken>,
{
    let db_err = E::from;
    let mut tx = db.begin_write().await.map_err(db_err)?;
    // Serialises remessas: the first statement writes (SQLite's write lock).
    sqlx::query("UPDATE remessa_files SET id = id WHERE sequence = -1")
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let unsent: Vec<Unsent> = sqlx::query_as(
        "SELECT i.id, i.our_number, i.invoice_id, i.number, i.price_cents, i.due_date,
                v.due_date AS first_due_date, v.external_id, v.created_at AS invoice_created_at,
                v.fine_type, v.fine_value, v.interest_monthly_bp,
                v.discount_type, v.discount_value, v.discount_until,
                c.full_name, c.document,
                a.address, a.number AS street_number, a.neighborhood, a.zipcode, a.city, a.state
         FROM installments i
         JOIN invoices v ON v.id = i.invoice_id
         JOIN customers c ON c.id = v.customer_id
         LEFT JOIN addresses a ON a.customer_id = c.id
         WHERE v.deleted_at IS NULL AND i.deleted_at IS NULL
           AND i.status = 'WAITING_PAYMENT' AND i.price_cents > 0
           AND (CAST($1 AS TEXT) IS NULL OR i.created_at >= CAST($1 AS TEXT))
           AND EXISTS (SELECT 1 FROM invoice_payment_types t
                       WHERE t.invoice_id = v.id AND t.payment_type = 'BOLETO')
           AND NOT EXISTS (SELECT 1 FROM boleto_registrations r WHERE r.installment_id = i.id)
         ORDER BY i.created_at, v.id, i.number",
    )
    .bind(since)
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    // Sent or registered, not paid at the bank, and no longer payable here:
    // the bank must refuse it (a REJECTED or WRITTEN_OFF boleto is not payable).
    let write_offs: Vec<ToWriteOff> = sqlx::query_as(
        "SELECT i.id, i.invoice_id, i.number, i.price_cents, i.due_date, v.external_id,
                r.our_number
         FROM boleto_registrations r
         JOIN installments i ON i.id = r.installment_id
         JOIN invoices v ON v.id = i.invoice_id
         WHERE r.state IN ('SENT', 'REGISTERED') AND r.write_off_remessa_id IS NULL
           AND (v.deleted_at IS NOT NULL OR i.deleted_at IS NOT NULL
                OR i.status <> 'WAITING_PAYMENT')
         ORDER BY r.created_at, r.our_number",
    )
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    if unsent.is_empty() && write_offs.is_empty() {
        return Ok(None);
    }
    let last: Option<i64> = sqlx::query_scalar("SELECT MAX(sequence) FROM remessa_files")
        .fetch_one(&mut *tx)
        .await
        .map_err(db_err)?;
    let sequence = last.unwrap_or(0) + 1;
    let decided = decide(sequence, &unsent, &write_offs)?;
    assert_eq!(
        decided.our_numbers.len(),
        unsent.len(),
        "one nosso número per boleto"
    );
    let now = now_iso();
    let file_id = new_id();
    sqlx::query(
        "INSERT INTO remessa_files (id, sequence, boletos, total_cents, content, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&file_id)
    .bind(sequence)
    .bind(unsent.len() as i64)
    .bind(decided.total_cents)
    .bind(&decided.content)
    .bind(&now)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    for (u, our_number) in unsent.iter().zip(&decided.our_numbers) {
        let taken: Option<String> = sqlx::query_scalar(
            "SELECT installment_id FROM boleto_registrations WHERE our_number = $1",
        )
        .bind(our_number)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db_err)?;
        if let Some(holder) = taken {
            return Err(E::from(OurNumberTaken::Held {
                our_number: our_number.clone(),
                number: u.number,
                invoice_id: u.invoice_id.clone(),
                holder,
            }));
        }
        sqlx::query(
            "INSERT INTO boleto_registrations
                 (installment_id, our_number, remessa_id, state, created_at, updated_at)
             VALUES ($1, $2, $3, 'SENT', $4, $4)",
        )
        .bind(&u.installment_id)
        .bind(our_number)
        .bind(&file_id)
        .bind(&now)
        .execute(&mut *tx)
        .await
        .map_err(|e| match e {
            e if crate::store::is_unique_violation(&e) => E::from(OurNumberTaken::Raced {
                our_number: our_number.clone(),
                number: u.number,
                invoice_id: u.invoice_id.clone(),
            }),
            e => db_err(e),
        })?;
    }
    for w in &write_offs {
        sqlx::query(
            "UPDATE boleto_registrations SET write_off_remessa_id = $1, updated_at = $2
             WHERE installment_id = $3",
        )
        .bind(&file_id)
        .bind(&now)
        .bind(&w.installment_id)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)?;
    Ok(Some(Written {
        sequence,
        boletos: unsent.len(),
        write_offs: write_offs.len(),
    }))
}

/// The nosso número (10-digit complement) of each installment of invoice
/// `invoice_id`, by installment id: what its boletos print.
pub async fn our_numbers(db: &Db, invoice_id: &str) -> Result<Vec<(String, u64)>, DbError> {
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT id, our_number FROM installments WHERE invoice_id = $1")
            .bind(invoice_id)
            .fetch_all(&db.pool)
            .await?;
    Ok(rows.into_iter().map(|(id, n)| (id, n as u64)).collect())
}

/// What the bank reports of a boleto in a retorno (segment T's "código de movimento"):
/// read from the file by `domain::cnab240`, applied here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Movement {
    /// 02: entrada confirmada (registered).
    Registered,
    /// 03: entrada rejeitada, with the bank's reason codes (positions 214-223 of segment T).
    Rejected { reasons: String },
    /// 06 (liquidação) or 17 (liquidação após baixa): paid.
    Paid {
        paid_cents: i64,
        /// Data da ocorrência: when the payer paid.
        paid_on: Date,
        /// Data do crédito: when the money reaches the merchant's account.
        credited_on: Option<Date>,
    },
    /// 09: baixa (written off).
    WrittenOff,
    /// Any other movement code (tariffs, instructions confirmed, ...): reported, not applied.
    Other(String),
}

#[derive(Clone, Debug)]
pub struct Item {
    /// The line of the file the news is on (segment T).
    pub line: usize,
    pub our_number: String,
    pub movement: Movement,
}

/// What applying a retorno did.
#[derive(Debug)]
pub enum Applied {
    /// The same file (byte for byte) was applied before, on that date: nothing changed.
    Before(String),
    /// One line of report per item, with its line number.
    Now(Vec<String>),
}

/// Why a retorno was not applied (nothing of it was). (`cnab240::RetornoError` is a file
/// that does not read as a retorno.)
#[derive(Debug, thiserror::Error)]
pub enum ApplyRetornoError {
    #[error("line {line}: nosso número {our_number} was not registered by paylink")]
    UnknownOurNumber { line: usize, our_number: String },
    #[error("database error: {0}")]
    Db(String),
}

impl From<DbError> for ApplyRetornoError {
    fn from(e: DbError) -> Self {
        ApplyRetornoError::Db(e.to_string())
    }
}

/// Moves a registration to `state`, stamping `column` (a `*_at` column, when
/// given) and `updated_at` with `now`.
async fn set_state(
    tx: &mut WriteTx,
    installment_id: &str,
    state: &str,
    column: Option<&'static str>,
    now: &str,
) -> Result<(), DbError> {
    let stamp = column.map(|c| format!(", {c} = $2")).unwrap_or_default();
    sqlx::query(&format!(
        "UPDATE boleto_registrations SET state = $1{stamp}, updated_at = $2 WHERE installment_id = $3"
    ))
    .bind(state)
    .bind(now)
    .bind(installment_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Applies a retorno's items in one transaction: every nosso número must be
/// one paylink registered (else nothing is applied), each change happens
/// once (an installment already paid stays as it is; a file applied before,
/// identified by `sha256`, changes nothing at all).
pub async fn apply_retorno(
    db: &Db,
    sha256: &str,
    items: &[Item],
) -> Result<Applied, ApplyRetornoError> {
    let mut tx = db.begin_write().await?;
    // Writing first takes SQLite's write lock before anything is read.
    sqlx::query("UPDATE retorno_files SET notices = notices WHERE sha256 = $1")
        .bind(sha256)
        .execute(&mut *tx)
        .await?;
    let before: Option<String> =
        sqlx::query_scalar("SELECT applied_at FROM retorno_files WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&mut *tx)
            .await?;
    if let Some(at) = before {
        return Ok(Applied::Before(at));
    }
    let now = now_iso();
    let mut report = Vec::new();
    for item in items {
        let row = sqlx::query(
            "SELECT r.installment_id, r.state, i.invoice_id, i.number, i.status
             FROM boleto_registrations r JOIN installments i ON i.id = r.installment_id
             WHERE r.our_number = $1",
        )
        .bind(&item.our_number)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| ApplyRetornoError::UnknownOurNumber {
            line: item.line,
            our_number: item.our_number.clone(),
        })?;
        let installment_id: String = row.try_get("installment_id")?;
        let state: String = row.try_get("state")?;
        let invoice_id: String = row.try_get("invoice_id")?;
        let number = row.try_get::<i64, _>("number")? as u32;
        let who = format!(
            "line {}: nosso número {} (installment {number} of invoice {invoice_id})",
            item.line, item.our_number
        );
        let line = match &item.movement {
            Movement::Registered if state == "SENT" || state == "REJECTED" => {
                set_state(
                    &mut tx,
                    &installment_id,
                    "REGISTERED",
                    Some("registered_at"),
                    &now,
                )
                .await?;
                format!("{who}: registered")
            }
            Movement::Registered => format!("{who}: registered already ({state}), unchanged"),
            Movement::Rejected { reasons } if state == "SENT" => {
                sqlx::query(
                    "UPDATE boleto_registrations SET state = 'REJECTED', rejected_reasons = $1,
                            updated_at = $2 WHERE installment_id = $3",
                )
                .bind(reasons)
                .bind(&now)
                .bind(&installment_id)
                .execute(&mut *tx)
                .await?;
                format!("{who}: REJECTED by the bank (reasons {reasons})")
            }
            Movement::Rejected { .. } => format!("{who}: rejection ignored, the boleto is {state}"),
            Movement::Paid {
                paid_cents,
                paid_on,
                credited_on,
            } => {
                let paid_at = paid_on.to_iso_midnight_utc();
                let received_at = credited_on.unwrap_or(*paid_on).to_iso_midnight_utc();
                let outcome = payments::confirm_in(
                    &mut tx,
                    &invoice_id,
                    number,
                    Settlement {
                        paid_cents: Some(*paid_cents),
                        paid_at: &paid_at,
                        received_at: &received_at,
                        method: Some(paylink_model::PaymentType::Boleto),
                        reference: Some(&item.our_number),
                    },
                )
                .await;
                let line = match outcome {
                    Ok(_) => format!(
                        "{who}: CONFIRMED, paid {} on {paid_on}",
                        paylink_model::money::format_brl(*paid_cents, paylink_model::Lang::PtBr)
                    ),
                    Err(LifecycleError::AlreadyPaid(_)) if state == "PAID" => {
                        format!("{who}: paid already (this liquidação was applied), unchanged")
                    }
                    // Paid by PIX or by hand, and now at the bank too: a double payment.
                    Err(LifecycleError::AlreadyPaid(_)) => format!(
                        "{who}: WARNING the installment was already paid another way; the bank \
                         received {} on {paid_on} as well: refund the payer",
                        paylink_model::money::format_brl(*paid_cents, paylink_model::Lang::PtBr)
                    ),
                    Err(LifecycleError::InvoiceNotFound) => format!(
                        "{who}: WARNING the invoice was deleted; the bank received {} on {paid_on}",
                        paylink_model::money::format_brl(*paid_cents, paylink_model::Lang::PtBr)
                    ),
                    Err(LifecycleError::Db(e)) => return Err(e.into()),
                    Err(e) => return Err(ApplyRetornoError::Db(e.to_string())),
                };
                if state != "PAID" {
                    set_state(&mut tx, &installment_id, "PAID", None, &now).await?;
                }
                line
            }
            Movement::WrittenOff if state != "WRITTEN_OFF" && state != "PAID" => {
                set_state(
                    &mut tx,
                    &installment_id,
                    "WRITTEN_OFF",
                    Some("written_off_at"),
                    &now,
                )
                .await?;
                format!("{who}: written off (baixa) at the bank")
            }
            Movement::WrittenOff => format!("{who}: write-off ignored, the boleto is {state}"),
            Movement::Other(code) => format!("{who}: movement {code}, nothing to apply"),
        };
        report.push(line);
    }
    sqlx::query("INSERT INTO retorno_files (sha256, notices, applied_at) VALUES ($1, $2, $3)")
        .bind(sha256)
        .bind(items.len() as i64)
        .bind(&now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Applied::Now(report))
}
