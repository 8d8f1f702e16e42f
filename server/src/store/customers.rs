//! Customers (payers).

use paylink_model::{Address, Customer, CustomerDetail, Lang};
use sqlx::Row;

use super::idempotency::claim_key;
use super::operators::{bind_audit, with_audit, AuditLine};
use super::search_keys::customer_key;
use super::*;

/// Stores a customer built by the handler (ids and timestamps included),
/// with its idempotency record when the request carried a key and the
/// operator's audit line when an operator made it (`audit`).
pub async fn insert(
    db: &Db,
    app: &Application,
    c: &Customer,
    idem: Option<&Idem>,
    audit: Option<&AuditLine>,
) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    if let Some(idem) = idem {
        claim_key(&mut tx, &app.id, idem).await?;
    }
    const INSERT: &str =
        "INSERT INTO customers (id, application_id, user_id, full_name, document, business,
            email, phone, observations, created_at, search_key, language)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
    // An operator's creation writes its audit line in the same statement.
    let sql = audit.map(|_| with_audit(db.backend(), INSERT, 12));
    let q = sqlx::query(sql.as_deref().unwrap_or(INSERT))
        .bind(&c.id)
        .bind(&app.id)
        .bind(&app.user_id)
        .bind(&c.full_name)
        .bind(&c.document)
        .bind(&c.business)
        .bind(&c.email)
        .bind(&c.phone)
        .bind(&c.observations)
        .bind(&c.created_at)
        .bind(customer_key(&c.full_name, c.email.as_deref()))
        .bind(c.language.code());
    match audit {
        Some(line) => bind_audit(q, line),
        None => q,
    }
    .execute(&mut *tx)
    .await?;
    if let Some(a) = &c.address {
        sqlx::query(
            "INSERT INTO addresses (id, customer_id, address, number, complement, neighborhood, city, state, zipcode)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&a.id)
        .bind(&c.id)
        .bind(&a.address)
        .bind(&a.number)
        .bind(&a.complement)
        .bind(&a.neighborhood)
        .bind(&a.city)
        .bind(&a.state)
        .bind(&a.zipcode)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}

/// The customer in its invoice-detail form, only if it belongs to
/// `app_id`. Deleted customers count only with `include_deleted` (an
/// existing invoice keeps its payer; a new one cannot pick a deleted one).
pub async fn find(
    db: &Db,
    app_id: &str,
    id: &str,
    include_deleted: bool,
) -> Result<Option<CustomerDetail>, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {DETAIL_COLUMNS} FROM {DETAIL_FROM}
         WHERE c.id = $1 AND c.application_id = $2 AND ($3 OR c.deleted_at IS NULL)"
    ))
    .bind(id)
    .bind(app_id)
    .bind(include_deleted)
    .fetch_optional(&db.pool)
    .await?;
    row.as_ref().map(customer_detail).transpose()
}

/// A customer's columns in its detail form, read by [`customer_detail`]
/// from [`DETAIL_FROM`]: the customer `c` and its address `a` (one at most).
pub(super) const DETAIL_COLUMNS: &str =
    "c.id, c.full_name, c.document, c.business, c.email, c.user_id, c.application_id, c.phone,
     a.id AS address_id, c.observations, c.language, c.created_at, c.deleted_at";
pub(super) const DETAIL_FROM: &str = "customers c LEFT JOIN addresses a ON a.customer_id = c.id";

pub(super) fn customer_detail(r: &DbRow) -> Result<CustomerDetail, DbError> {
    Ok(CustomerDetail {
        id: r.try_get("id")?,
        full_name: r.try_get("full_name")?,
        document: r.try_get("document")?,
        business: r.try_get("business")?,
        email: r.try_get("email")?,
        user_id: r.try_get("user_id")?,
        application_id: r.try_get("application_id")?,
        phone: r.try_get("phone")?,
        address_id: r.try_get("address_id")?,
        observations: r.try_get("observations")?,
        language: language(r.try_get("language")?),
        created_at: r.try_get("created_at")?,
        deleted_at: r.try_get("deleted_at")?,
    })
}

/// A stored language: `en`, or pt-BR (NULL, customers made before it was asked).
pub(crate) fn language(stored: Option<&str>) -> Lang {
    stored.and_then(Lang::from_code).unwrap_or_default()
}

/// The payer's address for the boleto, from paylink's own database (the
/// invoice detail carries only its id).
pub async fn payer_address(db: &Db, address_id: &str) -> Result<Option<Address>, DbError> {
    let row: Option<AddressRow> = sqlx::query_as(
        "SELECT address, number, complement, neighborhood, city, state, zipcode
         FROM addresses WHERE id = $1",
    )
    .bind(address_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(
        |(address, number, complement, neighborhood, city, state, zipcode)| Address {
            id: address_id.to_string(),
            address,
            number,
            complement,
            neighborhood,
            city,
            state,
            zipcode,
        },
    ))
}

type AddressRow = (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);
