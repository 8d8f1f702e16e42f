//! Receipts (`receipts`, migration 0033): each paid installment's verification code, and how it
//! was paid (method, the Pix's endToEndId or the boleto's nosso número), written with the payment
//! by `payments::confirm_in`; found again by installment (the payer page, the PDF, the e-mail)
//! and by code (`/r/{code}`).

use paylink_model::PaymentType;
use sqlx::Row;

use crate::store::{now_iso, Db, DbError, WriteTx};

/// A new verification code: 80 bits from the operating system's generator.
fn new_code() -> String {
    let mut random = [0u8; 10];
    getrandom::getrandom(&mut random).expect("the operating system's random generator");
    paylink_model::receipt::code_from_random(random)
}

/// The receipt of installment `installment_id`, paid now by `method` (`None`: recorded by
/// hand) with `reference`: a new code each time it is paid, so the code of a payment since
/// reversed and paid again no longer vouches for the new one.
pub(crate) async fn issue_in(
    tx: &mut WriteTx,
    installment_id: &str,
    method: Option<PaymentType>,
    reference: Option<&str>,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO receipts (installment_id, code, method, reference, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (installment_id) DO UPDATE SET code = excluded.code,
             method = excluded.method, reference = excluded.reference,
             created_at = excluded.created_at",
    )
    .bind(installment_id)
    .bind(new_code())
    .bind(method.map(|m| m.as_str()))
    .bind(reference)
    .bind(now_iso())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// What a receipt knows beyond the installment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issued {
    pub code: String,
    pub method: Option<PaymentType>,
    pub reference: Option<String>,
}

fn issued(row: &crate::store::DbRow) -> Result<Issued, DbError> {
    let method: Option<String> = row.try_get("method")?;
    Ok(Issued {
        code: row.try_get("code")?,
        method: method.as_deref().and_then(PaymentType::parse),
        reference: row.try_get("reference")?,
    })
}

/// The receipt of paid installment `installment_id`. One paid before receipts were kept gets its
/// row now, how it was paid read from what the payment left: its Pix (`pix_payments`), else its
/// boleto's liquidação (`boleto_registrations`), else its `PAYMENT_CONFIRMED` event's method.
pub async fn of_installment(db: &Db, installment_id: &str) -> Result<Issued, DbError> {
    let select = "SELECT code, method, reference FROM receipts WHERE installment_id = $1";
    if let Some(row) = sqlx::query(select)
        .bind(installment_id)
        .fetch_optional(&db.pool)
        .await?
    {
        return issued(&row);
    }
    let pix: Option<String> = sqlx::query_scalar(
        "SELECT end_to_end_id FROM pix_payments WHERE installment_id = $1
         ORDER BY created_at LIMIT 1",
    )
    .bind(installment_id)
    .fetch_optional(&db.pool)
    .await?;
    let boleto: Option<String> = sqlx::query_scalar(
        "SELECT our_number FROM boleto_registrations WHERE installment_id = $1 AND state = 'PAID'",
    )
    .bind(installment_id)
    .fetch_optional(&db.pool)
    .await?;
    let (method, reference) = match (pix, boleto) {
        (Some(e2eid), _) => (Some(PaymentType::Pix), Some(e2eid)),
        (None, Some(our_number)) => (Some(PaymentType::Boleto), Some(our_number)),
        (None, None) => {
            let payload: Option<String> = sqlx::query_scalar(
                "SELECT payload FROM events WHERE installment_id = $1 AND type = 'PAYMENT_CONFIRMED'
                 ORDER BY created_at DESC LIMIT 1",
            )
            .bind(installment_id)
            .fetch_optional(&db.pool)
            .await?;
            let method = payload
                .and_then(|p| serde_json::from_str::<serde_json::Value>(&p).ok())
                .and_then(|v| v["data"]["method"].as_str().and_then(PaymentType::parse));
            (method, None)
        }
    };
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO receipts (installment_id, code, method, reference, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (installment_id) DO NOTHING",
    )
    .bind(installment_id)
    .bind(new_code())
    .bind(method.map(|m| m.as_str()))
    .bind(reference.as_deref())
    .bind(now_iso())
    .execute(&mut *tx)
    .await?;
    let row = sqlx::query(select)
        .bind(installment_id)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    issued(&row)
}

/// The invoice and installment number of the receipt whose code is `code` (canonical form), if
/// it is one paylink issued for an invoice not deleted.
pub async fn by_code(db: &Db, code: &str) -> Result<Option<(String, u32)>, DbError> {
    let row = sqlx::query(
        "SELECT i.invoice_id, i.number FROM receipts r
         JOIN installments i ON i.id = r.installment_id
         JOIN invoices v ON v.id = i.invoice_id
         WHERE r.code = $1 AND v.deleted_at IS NULL",
    )
    .bind(code)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok((
            r.try_get("invoice_id")?,
            r.try_get::<i64, _>("number")? as u32,
        ))
    })
    .transpose()
}
