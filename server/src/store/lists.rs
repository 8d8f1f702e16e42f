//! The merchant's lists: one page of invoices or customers matching a
//! filter, newest first; and every installment of the matching invoices,
//! streamed, for the CSV export. Pages are keyset-paginated on (created_at, id), so
//! the 2,000th page costs what the first does (an OFFSET would read every
//! row before it); the indexes that make it so are in migration 0009. A
//! page's invoices are read in two statements, its customers in one, not
//! one or two per row.

use paylink_model::list::{Cursor, CustomerFilter, InvoiceFilter};
use paylink_model::{CustomerDetail, CustomerPage, Date, InvoicePage, InvoiceState};
use sqlx::Row;

use super::customers::{customer_detail, DETAIL_COLUMNS, DETAIL_FROM};
use super::invoice_detail::detail_from_rows;
use super::{Db, DbError, DbRow};

/// A `WHERE` clause being built, with its (text) binds numbered in order.
struct Where {
    sql: String,
    binds: Vec<String>,
}

impl Where {
    fn new(app_id: &str, alias: &str) -> Where {
        Where {
            sql: format!("{alias}.application_id = $1"),
            binds: vec![app_id.to_string()],
        }
    }

    /// The placeholder of a new bind.
    fn bind(&mut self, value: String) -> String {
        self.binds.push(value);
        format!("${}", self.binds.len())
    }

    /// `sql` (which ends with this clause) with the binds in their order.
    fn query(self, sql: &str) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments<'_>> {
        self.binds
            .into_iter()
            .fold(sqlx::query(sql), |query, value| query.bind(value))
    }

    fn and(&mut self, condition: &str) {
        self.sql.push_str(" AND ");
        self.sql.push_str(condition);
    }

    /// Rows strictly after the cursor, newest first.
    fn after(&mut self, alias: &str, cursor: &Option<Cursor>) {
        if let Some(c) = cursor {
            let at = self.bind(c.created_at.clone());
            let id = self.bind(c.id.clone());
            self.and(&format!(
                "({alias}.created_at < {at} OR ({alias}.created_at = {at} AND {alias}.id < {id}))"
            ));
        }
    }

    /// `q` (folded by the model's `search_fold`) found in any of `columns`,
    /// search keys folded alike (store/search_keys.rs); a document is
    /// stored as digits, so a `q` of digits and mask characters is matched
    /// against it by its digits.
    fn search(&mut self, q: &Option<String>, columns: &[&str], document: &str) {
        if let Some((_, any)) = self.matches(q, columns, document) {
            self.and(&format!("({})", any.join(" OR ")));
        }
    }

    /// An invoice's search: its customer's name and e-mail (the customer's
    /// search key) or document, or its externalId (the invoice's search
    /// key). The customer's columns are tested once per customer in a
    /// subquery, not once per invoice through the join: PostgreSQL, unable
    /// to guess how many invoices such a test keeps, otherwise read and
    /// tested all 100,000 of them and sorted, rather than walking the
    /// newest-first index to the page's 50 (EXPLAIN ANALYZE: 427 ms → 2.6 ms).
    fn search_invoices(&mut self, q: &Option<String>) {
        let Some((pattern, any)) = self.matches(q, &["s.search_key"], "s.document") else {
            return;
        };
        self.and(&format!(
            "(v.customer_id IN (SELECT s.id FROM customers s WHERE s.application_id = $1 AND ({}))
              OR v.search_key LIKE {pattern} ESCAPE '\\')",
            any.join(" OR ")
        ));
    }

    /// The `LIKE` tests of [`Where::search`], to be OR-ed, with the
    /// placeholder of the pattern; `None` without a `q`.
    fn matches(
        &mut self,
        q: &Option<String>,
        columns: &[&str],
        document: &str,
    ) -> Option<(String, Vec<String>)> {
        let q = q.as_ref()?;
        let pattern = self.bind(format!("%{}%", like_escaped(q)));
        let mut any: Vec<String> = columns
            .iter()
            .map(|c| format!("{c} LIKE {pattern} ESCAPE '\\'"))
            .collect();
        // A document typed with its mask (529.982.247-25) is found by its
        // digits; text with letters in it is not a document.
        let looks_like_document = q
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '/' | ' '));
        let digits: String = q.chars().filter(char::is_ascii_digit).collect();
        if looks_like_document && !digits.is_empty() {
            let d = self.bind(format!("%{digits}%"));
            any.push(format!("COALESCE({document}, '') LIKE {d} ESCAPE '\\'"));
        }
        Some((pattern, any))
    }

    /// The page's rows as `select` reads them, newest first, one more than
    /// `limit` when there is a next page.
    async fn page(
        self,
        db: &Db,
        select: &str,
        alias: &str,
        limit: u32,
    ) -> Result<Vec<DbRow>, DbError> {
        let sql = format!(
            "{select} WHERE {} ORDER BY {alias}.created_at DESC, {alias}.id DESC LIMIT {}",
            self.sql,
            limit + 1
        );
        self.query(&sql).fetch_all(&db.pool).await
    }
}

/// `%`, `_` and `\` taken literally by LIKE … ESCAPE '\'.
fn like_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The rows of a page without the one past its end, and the cursor to the
/// next page when there is that row; `key` is a row's (id, created_at).
fn split_page<T>(
    mut rows: Vec<T>,
    limit: u32,
    key: impl Fn(&T) -> (String, String),
) -> (Vec<T>, Option<String>) {
    let next = (rows.len() > limit as usize).then(|| {
        rows.truncate(limit as usize);
        let (id, created_at) = rows.last().map(key).unwrap_or_default();
        Cursor { created_at, id }.encode()
    });
    (rows, next)
}

/// The invoices matching `f` (all but its cursor and limit), `v` being the
/// invoice and `c` its customer.
fn invoice_where(app_id: &str, f: &InvoiceFilter, today: Date) -> Where {
    let mut w = Where::new(app_id, "v");
    match f.status {
        Some(InvoiceState::Cancelled) => w.and("v.deleted_at IS NOT NULL"),
        status => {
            w.and("v.deleted_at IS NULL");
            let overdue = |w: &mut Where| {
                let t = w.bind(today.to_string());
                format!("{WAITING} AND i.due_date < {t})")
            };
            match status {
                Some(InvoiceState::Paid) => w.and(&format!("NOT {WAITING}) AND NOT {REVERSED}")),
                Some(InvoiceState::Reversed) => w.and(REVERSED),
                Some(InvoiceState::Overdue) => {
                    let c = overdue(&mut w);
                    w.and(&c);
                }
                Some(InvoiceState::Open) => {
                    let c = overdue(&mut w);
                    w.and(&format!("{WAITING}) AND NOT {c}"));
                }
                _ => {}
            }
        }
    }
    if let Some(d) = f.due_from {
        let p = w.bind(d.to_string());
        w.and(&format!("v.due_date >= {p}"));
    }
    if let Some(d) = f.due_to {
        let p = w.bind(d.to_string());
        w.and(&format!("v.due_date <= {p}"));
    }
    if let Some(state) = f.pix_automatico {
        w.and(&format!(
            "EXISTS (SELECT 1 FROM pix_recurrences r WHERE r.id = v.id AND {})",
            super::pix_recurrences::status_is(state)
        ));
    }
    w.search_invoices(&f.q);
    w
}

/// An installment of `v` whose payment was returned in full.
const REVERSED: &str = "EXISTS (SELECT 1 FROM installments i WHERE i.invoice_id = v.id
    AND i.deleted_at IS NULL AND i.status = 'REVERSED')";

const WAITING: &str = "EXISTS (SELECT 1 FROM installments i WHERE i.invoice_id = v.id
    AND i.deleted_at IS NULL AND i.status = 'WAITING_PAYMENT'";

/// A page of this application's invoices matching `f`, each in the
/// detail form with its payment link from `pay_url`. `today` (in
/// Brasília) tells overdue from open.
pub async fn invoice_page(
    db: &Db,
    app_id: &str,
    f: &InvoiceFilter,
    today: Date,
    pay_url: &(dyn Fn(&str) -> String + Sync),
) -> Result<InvoicePage, DbError> {
    let mut w = invoice_where(app_id, f, today);
    w.after("v", &f.cursor);
    let rows = w
        .page(
            db,
            "SELECT v.id, v.created_at FROM invoices v JOIN customers c ON c.id = v.customer_id",
            "v",
            f.limit,
        )
        .await?;
    let keys = rows
        .iter()
        .map(|r| Ok((r.try_get("id")?, r.try_get("created_at")?)))
        .collect::<Result<Vec<(String, String)>, DbError>>()?;
    let (keys, next_cursor) = split_page(keys, f.limit, Clone::clone);
    // The whole page in two statements (one by one, 50 rows were 100).
    let ids: Vec<String> = keys.into_iter().map(|(id, _)| id).collect();
    let mut loaded = crate::store::invoices::load_many(db, app_id, &ids, true).await?;
    let mut data = Vec::with_capacity(ids.len());
    for id in &ids {
        // Deleted between the two reads? Then it is no longer on the page.
        let Some(at) = loaded.iter().position(|r| r.id == *id) else {
            continue;
        };
        let rows = loaded.swap_remove(at);
        data.push(detail_from_rows(rows, &pay_url(id))?);
    }
    Ok(InvoicePage { data, next_cursor })
}

/// A page of this application's customers (not deleted) matching `f`.
pub async fn customer_page(
    db: &Db,
    app_id: &str,
    f: &CustomerFilter,
) -> Result<CustomerPage, DbError> {
    let mut w = Where::new(app_id, "c");
    w.and("c.deleted_at IS NULL");
    w.search(&f.q, &["c.search_key"], "c.document");
    w.after("c", &f.cursor);
    // The whole page in one statement, each row read as
    // `customers::find` reads one (one by one, 50 rows were 51 statements).
    let rows = w
        .page(
            db,
            &format!("SELECT {DETAIL_COLUMNS} FROM {DETAIL_FROM}"),
            "c",
            f.limit,
        )
        .await?;
    let data = rows
        .iter()
        .map(customer_detail)
        .collect::<Result<Vec<CustomerDetail>, DbError>>()?;
    let (data, next_cursor) = split_page(data, f.limit, |c| (c.id.clone(), c.created_at.clone()));
    Ok(CustomerPage { data, next_cursor })
}

/// One line of the export: an installment of a matching invoice.
pub struct ExportRow {
    pub invoice_id: String,
    pub external_id: String,
    pub full_name: String,
    pub document: Option<String>,
    pub email: Option<String>,
    pub invoice_type: String,
    pub number: i64,
    pub installment_count: i64,
    pub due_date: Option<Date>,
    pub price_cents: i64,
    pub paid_cents: i64,
    pub status: String,
    pub paid_at: Option<String>,
    pub cancelled: bool,
}

/// Sends every installment of the invoices matching `f` (its cursor and
/// limit aside), newest invoice first, to `out` as it reads them: one
/// query, never all rows in memory; the channel's bound is the memory.
/// Stops early, without error, when the receiver is gone (the client
/// left). A read error is sent as the last item.
pub async fn export_installments(
    db: &Db,
    app_id: &str,
    f: &InvoiceFilter,
    today: Date,
    out: tokio::sync::mpsc::Sender<Result<ExportRow, DbError>>,
) {
    use futures_util::TryStreamExt;
    let w = invoice_where(app_id, f, today);
    let sql = format!(
        "SELECT v.id, v.external_id, c.full_name, c.document, c.email, v.invoice_type,
                v.installment_count, v.deleted_at, i.number, i.due_date, i.price_cents,
                i.price_paid_cents, i.status, i.paid_at
         FROM invoices v JOIN customers c ON c.id = v.customer_id
         JOIN installments i ON i.invoice_id = v.id AND i.deleted_at IS NULL
         WHERE {} ORDER BY v.created_at DESC, v.id DESC, i.number",
        w.sql
    );
    let mut rows = w.query(&sql).fetch(&db.pool);
    loop {
        let item = match rows.try_next().await {
            Ok(None) => return,
            Ok(Some(r)) => export_row(&r),
            Err(e) => Err(e),
        };
        let failed = item.is_err();
        if out.send(item).await.is_err() || failed {
            return;
        }
    }
}

/// One line of the export from its row.
fn export_row(r: &DbRow) -> Result<ExportRow, DbError> {
    Ok(ExportRow {
        invoice_id: r.try_get("id")?,
        external_id: r.try_get("external_id")?,
        full_name: r.try_get("full_name")?,
        document: r.try_get("document")?,
        email: r.try_get("email")?,
        invoice_type: r.try_get("invoice_type")?,
        number: r.try_get("number")?,
        installment_count: r.try_get("installment_count")?,
        due_date: Date::parse_iso(r.try_get::<&str, _>("due_date")?),
        price_cents: r.try_get("price_cents")?,
        paid_cents: r.try_get("price_paid_cents")?,
        status: r.try_get("status")?,
        paid_at: r.try_get("paid_at")?,
        cancelled: r.try_get::<Option<String>, _>("deleted_at")?.is_some(),
    })
}
