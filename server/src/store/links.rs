//! Payment links in the database (`payment_links`, `payment_link_customers`).

use paylink_model::charges::{Value, ValueType};
use paylink_model::link::MAX_DUE_IN_DAYS;
pub use paylink_model::link_spec::LinkTerms;
use paylink_model::{InvoiceType, PaymentType, MAX_INSTALLMENTS};
use sqlx::Row;

use super::idempotency::Idem;

/// A stored link.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub slug: String,
    pub name: String,
    pub description: String,
    /// `None` when the payer states the amount.
    pub price_cents: Option<i64>,
    pub payment_types: Vec<PaymentType>,
    pub invoice_type: InvoiceType,
    pub max_installments: u32,
    pub due_in_days: u32,
    pub redirect_to: Option<String>,
    pub active: bool,
    pub created_at: String,
    /// Fine, interest and discount of the link's invoices.
    pub terms: LinkTerms,
    /// The application it belongs to (whose token made it, or the one
    /// `paylink link create` named): its payers' customers and invoices are
    /// that application's. `None`: a CLI link from before links had owners
    /// (migration 0031), served as the proxy token's application.
    pub application_id: Option<String>,
}

/// What a link has brought in: invoices made through it (for customers
/// registered through it, with its slug as externalId) and what was paid on them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    pub invoices_made: i64,
    pub amount_paid_cents: i64,
}

fn stored_value(kind: Option<String>, value: Option<i64>) -> Option<Value> {
    Some(Value::of(ValueType::parse(&kind?)?, value?))
}

use crate::store::{now_iso, Db, DbError, DbRow};

// ---- Storage ----

fn from_row(r: &DbRow) -> Result<Link, DbError> {
    let types: String = r.try_get("payment_types")?;
    Ok(Link {
        slug: r.try_get("slug")?,
        name: r.try_get("name")?,
        description: r.try_get("description")?,
        price_cents: r.try_get("price_cents")?,
        payment_types: types
            .split(',')
            .filter_map(|t| PaymentType::parse(t.trim()))
            .collect(),
        invoice_type: InvoiceType::parse(&r.try_get::<String, _>("invoice_type")?)
            .unwrap_or(InvoiceType::Single),
        max_installments: r
            .try_get::<i64, _>("max_installments")?
            .clamp(1, i64::from(MAX_INSTALLMENTS)) as u32,
        due_in_days: r
            .try_get::<i64, _>("due_in_days")?
            .clamp(0, MAX_DUE_IN_DAYS as i64) as u32,
        redirect_to: r.try_get("redirect_to")?,
        active: r.try_get::<i64, _>("active")? != 0,
        created_at: r.try_get("created_at")?,
        terms: LinkTerms {
            fine: stored_value(r.try_get("fine_type")?, r.try_get("fine_value")?),
            interest_monthly_bp: r.try_get("interest_monthly_bp")?,
            discount: stored_value(r.try_get("discount_type")?, r.try_get("discount_value")?),
            discount_days_before_due: r
                .try_get::<Option<i64>, _>("discount_days_before_due")?
                .unwrap_or(0)
                .clamp(0, MAX_DUE_IN_DAYS as i64) as u32,
        },
        application_id: r.try_get("application_id")?,
    })
}

const COLUMNS: &str =
    "slug, name, description, price_cents, price_by_customer, payment_types, invoice_type, \
                       max_installments, due_in_days, redirect_to, active, created_at, fine_type, fine_value, \
                       interest_monthly_bp, discount_type, discount_value, discount_days_before_due, application_id";

/// Stores a link, with the idempotency record of the request that made it
/// (its application's, and the answer) when the request carried a key.
pub async fn insert(db: &Db, l: &Link, idem: Option<(&str, &Idem)>) -> Result<(), DbError> {
    let types: Vec<&str> = l.payment_types.iter().map(|t| t.as_str()).collect();
    let mut tx = db.begin_write().await?;
    if let Some((app_id, idem)) = idem {
        super::idempotency::claim_key(&mut tx, app_id, idem).await?;
    }
    sqlx::query(&format!(
        "INSERT INTO payment_links ({COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
    ))
    .bind(&l.slug)
    .bind(&l.name)
    .bind(&l.description)
    .bind(l.price_cents)
    .bind(l.price_cents.is_none() as i64)
    .bind(types.join(","))
    .bind(l.invoice_type.as_str())
    .bind(l.max_installments as i64)
    .bind(l.due_in_days as i64)
    .bind(&l.redirect_to)
    .bind(l.active as i64)
    .bind(&l.created_at)
    .bind(l.terms.fine.map(|f| f.kind().name()))
    .bind(l.terms.fine.map(Value::stored))
    .bind(l.terms.interest_monthly_bp)
    .bind(l.terms.discount.map(|d| d.kind().name()))
    .bind(l.terms.discount.map(Value::stored))
    .bind(
        l.terms
            .discount
            .map(|_| l.terms.discount_days_before_due as i64),
    )
    .bind(&l.application_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// Turns a link on or off; false when there is no such link.
pub async fn set_active(db: &Db, slug: &str, active: bool) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let done = sqlx::query("UPDATE payment_links SET active = $1 WHERE slug = $2")
        .bind(active as i64)
        .bind(slug)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(done.rows_affected() > 0)
}

pub async fn find(db: &Db, slug: &str) -> Result<Option<Link>, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM payment_links WHERE slug = $1"
    ))
    .bind(slug)
    .fetch_optional(&db.pool)
    .await?;
    row.as_ref().map(from_row).transpose()
}

pub async fn list(db: &Db) -> Result<Vec<Link>, DbError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM payment_links ORDER BY created_at, slug"
    ))
    .fetch_all(&db.pool)
    .await?;
    rows.iter().map(from_row).collect()
}

/// The slugs that are `base` or start with `base-` (a new link's slug is
/// the first of `base`, `base-2`, `base-3`… not among them).
pub async fn slugs_like(db: &Db, base: &str) -> Result<Vec<String>, DbError> {
    sqlx::query_scalar("SELECT slug FROM payment_links WHERE slug = $1 OR slug LIKE $2")
        .bind(base)
        .bind(format!("{base}-%"))
        .fetch_all(&db.pool)
        .await
}

/// Which links an application sees: its own, and those without an owner
/// (from before links had one; see [`Link::application_id`]).
const SEEN_BY: &str = "(application_id = $1 OR application_id IS NULL)";

/// A link application `app_id` sees (its own, or one without an owner).
pub async fn find_for(db: &Db, app_id: &str, slug: &str) -> Result<Option<Link>, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM payment_links WHERE {SEEN_BY} AND slug = $2"
    ))
    .bind(app_id)
    .bind(slug)
    .fetch_optional(&db.pool)
    .await?;
    row.as_ref().map(from_row).transpose()
}

/// Turns a link application `app_id` sees on or off; false when there is none.
pub async fn set_active_for(
    db: &Db,
    app_id: &str,
    slug: &str,
    active: bool,
) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let done = sqlx::query(&format!(
        "UPDATE payment_links SET active = $3 WHERE {SEEN_BY} AND slug = $2"
    ))
    .bind(app_id)
    .bind(slug)
    .bind(active as i64)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected() > 0)
}

/// The links application `app_id` sees, newest first, each with what it
/// brought in for that application.
pub async fn list_for(db: &Db, app_id: &str) -> Result<Vec<(Link, LinkStats)>, DbError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS}, {STATS} FROM payment_links l WHERE {SEEN_BY}
         ORDER BY created_at DESC, slug"
    ))
    .bind(app_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| Ok((from_row(r)?, stats_of(r)?)))
        .collect()
}

/// What one link brought in for application `app_id`.
pub async fn stats_for(db: &Db, app_id: &str, slug: &str) -> Result<LinkStats, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {STATS} FROM payment_links l WHERE slug = $2"
    ))
    .bind(app_id)
    .bind(slug)
    .fetch_optional(&db.pool)
    .await?;
    row.as_ref()
        .map(stats_of)
        .transpose()
        .map(Option::unwrap_or_default)
}

/// Invoices of application `$1` made through link `l` (its slug as
/// externalId, for a customer registered through it), and the paid
/// installments' sum. As BIGINT: PostgreSQL's SUM(bigint) is NUMERIC.
const STATS: &str = "
    (SELECT COUNT(*) FROM invoices v
      WHERE v.application_id = $1 AND v.external_id = l.slug
        AND v.customer_id IN (SELECT c.customer_id FROM link_customers c WHERE c.slug = l.slug)
    ) AS invoices_made,
    (SELECT CAST(COALESCE(SUM(i.price_paid_cents), 0) AS BIGINT)
       FROM installments i JOIN invoices v ON v.id = i.invoice_id
      WHERE v.application_id = $1 AND v.external_id = l.slug
        AND i.status = 'CONFIRMED' AND i.deleted_at IS NULL
        AND v.customer_id IN (SELECT c.customer_id FROM link_customers c WHERE c.slug = l.slug)
    ) AS amount_paid_cents";

fn stats_of(r: &DbRow) -> Result<LinkStats, DbError> {
    Ok(LinkStats {
        invoices_made: r.try_get("invoices_made")?,
        amount_paid_cents: r.try_get("amount_paid_cents")?,
    })
}

/// Gives link `slug` its owner, if it has none yet; false when there is no
/// such link without an owner (a link's payers so far are its owner's, so an
/// owned link is never moved).
pub async fn adopt(db: &Db, slug: &str, app_id: &str) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let done = sqlx::query(
        "UPDATE payment_links SET application_id = $1 WHERE slug = $2 AND application_id IS NULL",
    )
    .bind(app_id)
    .bind(slug)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected() > 0)
}

/// Records a customer created through the link (a replayed creation records it again: no-op).
pub async fn add_customer(db: &Db, slug: &str, customer_id: &str) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO link_customers (slug, customer_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind(slug)
    .bind(customer_id)
    .bind(now_iso())
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

pub async fn has_customer(db: &Db, slug: &str, customer_id: &str) -> Result<bool, DbError> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM link_customers WHERE slug = $1 AND customer_id = $2",
    )
    .bind(slug)
    .bind(customer_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0)
}
