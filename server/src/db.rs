//! Storage. SQLite (WAL) by default; the SQL is kept portable (`$n`
//! placeholders, no SQLite-only functions) so PostgreSQL can share it.

use std::str::FromStr;
use std::time::Duration;

use paylink_model::{
    Address, Customer, CustomerDetail, InvoiceType, NewCustomer, NewInvoice, PlannedInstallment,
};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

pub type DbError = sqlx::Error;

#[derive(Clone)]
pub struct Db {
    pool: SqlitePool,
}

pub fn now_iso() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    paylink_model::date::iso_utc_from_millis(ms)
}

pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// A stored application (the owner of a token).
#[derive(Clone, Debug)]
pub struct Application {
    pub id: String,
    pub user_id: String,
    pub name: String,
    pub secret_hash: String,
}

/// Every row of an invoice, as the detail operation needs them.
pub struct InvoiceRows {
    pub invoice: sqlx::sqlite::SqliteRow,
    pub customer: CustomerDetail,
    pub installments: Vec<sqlx::sqlite::SqliteRow>,
    pub payment_types: Vec<String>,
    pub notifications: Vec<sqlx::sqlite::SqliteRow>,
    pub webhooks: Vec<sqlx::sqlite::SqliteRow>,
}

impl Db {
    /// Opens (creating if needed) the database file and applies migrations.
    pub async fn open(path: &str) -> Result<Db, DbError> {
        let opts = SqliteConnectOptions::from_str(&format!("sqlite://{path}"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // WAL + NORMAL: a commit survives a process crash; only an OS crash
            // can lose the last transactions, never corrupt the file.
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(opts)
            .await?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        Ok(Db { pool })
    }

    pub async fn ping(&self) -> Result<(), DbError> {
        sqlx::query("SELECT 1")
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    pub async fn create_application(
        &self,
        name: &str,
        secret_hash: &str,
    ) -> Result<Application, DbError> {
        let app = Application {
            id: new_id(),
            user_id: new_id(),
            name: name.to_string(),
            secret_hash: secret_hash.to_string(),
        };
        sqlx::query("INSERT INTO applications (id, user_id, name, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(&app.id)
            .bind(&app.user_id)
            .bind(&app.name)
            .bind(&app.secret_hash)
            .bind(now_iso())
            .execute(&self.pool)
            .await?;
        Ok(app)
    }

    pub async fn find_application(&self, id: &str) -> Result<Option<Application>, DbError> {
        let row =
            sqlx::query("SELECT id, user_id, name, secret_hash FROM applications WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| Application {
            id: r.get("id"),
            user_id: r.get("user_id"),
            name: r.get("name"),
            secret_hash: r.get("secret_hash"),
        }))
    }

    pub async fn insert_customer(
        &self,
        app: &Application,
        c: &NewCustomer,
    ) -> Result<Customer, DbError> {
        let id = new_id();
        let created_at = now_iso();
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO customers (id, application_id, user_id, full_name, document, business, email, phone, observations, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&id)
        .bind(&app.id)
        .bind(&app.user_id)
        .bind(&c.full_name)
        .bind(&c.document)
        .bind(&c.business)
        .bind(&c.email)
        .bind(&c.phone)
        .bind(&c.observations)
        .bind(&created_at)
        .execute(&mut *tx)
        .await?;
        let address = match &c.address {
            None => None,
            Some(a) => {
                let address_id = new_id();
                sqlx::query(
                    "INSERT INTO addresses (id, customer_id, address, number, complement, neighborhood, city, state, zipcode)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(&address_id)
                .bind(&id)
                .bind(&a.address)
                .bind(&a.number)
                .bind(&a.complement)
                .bind(&a.neighborhood)
                .bind(&a.city)
                .bind(&a.state)
                .bind(&a.zipcode)
                .execute(&mut *tx)
                .await?;
                Some(Address {
                    id: address_id,
                    address: a.address.clone(),
                    number: a.number.clone(),
                    complement: a.complement.clone(),
                    neighborhood: a.neighborhood.clone(),
                    city: a.city.clone(),
                    state: a.state.clone(),
                    zipcode: a.zipcode.clone(),
                })
            }
        };
        tx.commit().await?;
        Ok(Customer {
            id,
            full_name: c.full_name.clone(),
            document: c.document.clone(),
            business: c.business.clone(),
            email: c.email.clone(),
            phone: c.phone.clone(),
            observations: c.observations.clone(),
            address,
            user_id: app.user_id.clone(),
            application_id: app.id.clone(),
            created_at,
            deleted_at: None,
        })
    }

    /// The customer in its invoice-detail form, only if it belongs to
    /// `app_id`. Deleted customers count only with `include_deleted` (an
    /// existing invoice keeps its payer; a new one cannot pick a deleted one).
    pub async fn find_customer(
        &self,
        app_id: &str,
        id: &str,
        include_deleted: bool,
    ) -> Result<Option<CustomerDetail>, DbError> {
        let row = sqlx::query(
            "SELECT c.id, c.full_name, c.document, c.business, c.email, c.user_id, c.application_id, c.phone,
                    a.id AS address_id, c.observations, c.created_at, c.deleted_at
             FROM customers c LEFT JOIN addresses a ON a.customer_id = c.id
             WHERE c.id = $1 AND c.application_id = $2 AND ($3 OR c.deleted_at IS NULL)",
        )
        .bind(id)
        .bind(app_id)
        .bind(include_deleted)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| CustomerDetail {
            id: r.get("id"),
            full_name: r.get("full_name"),
            document: r.get("document"),
            business: r.get("business"),
            email: r.get("email"),
            user_id: r.get("user_id"),
            application_id: r.get("application_id"),
            phone: r.get("phone"),
            address_id: r.get("address_id"),
            observations: r.get("observations"),
            created_at: r.get("created_at"),
            deleted_at: r.get("deleted_at"),
        }))
    }

    /// Stores an invoice with its installments, payment types, notifications
    /// and webhooks in one transaction: all of it or nothing.
    pub async fn insert_invoice(
        &self,
        app: &Application,
        id: &str,
        inv: &NewInvoice,
        plan: &[PlannedInstallment],
        created_at: &str,
    ) -> Result<Vec<String>, DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO invoices (id, application_id, customer_id, external_id, description, invoice_type, price_cents,
                price_by_customer, due_date, installment_count, frequency, end_date, end_installment, end_subscription,
                redirect_to, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        )
        .bind(id)
        .bind(&app.id)
        .bind(&inv.customer_id)
        .bind(&inv.external_id)
        .bind(&inv.description)
        .bind(inv.invoice_type.as_str())
        .bind(inv.price_cents)
        .bind(inv.price_by_customer)
        .bind(inv.due_date.to_string())
        .bind(inv.installment_count as i64)
        .bind(inv.frequency.map(|f| f.as_str()))
        .bind(inv.end_date.map(|d| d.to_string()))
        .bind(inv.end_installment.map(|n| n as i64))
        .bind(&inv.end_subscription)
        .bind(&inv.redirect_to)
        .bind(created_at)
        .execute(&mut *tx)
        .await?;
        let mut installment_ids = Vec::with_capacity(plan.len());
        for p in plan {
            let installment_id = new_id();
            sqlx::query(
                "INSERT INTO installments (id, invoice_id, number, price_cents, price_paid_cents, due_date, status, created_at)
                 VALUES ($1, $2, $3, $4, 0, $5, 'WAITING_PAYMENT', $6)",
            )
            .bind(&installment_id)
            .bind(id)
            .bind(p.number as i64)
            .bind(p.price_cents)
            .bind(p.due_date.to_string())
            .bind(created_at)
            .execute(&mut *tx)
            .await?;
            installment_ids.push(installment_id);
        }
        for (pos, t) in inv.payment_types.iter().enumerate() {
            sqlx::query("INSERT INTO invoice_payment_types (invoice_id, position, payment_type) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(pos as i64)
                .bind(t.as_str())
                .execute(&mut *tx)
                .await?;
        }
        for (pos, n) in inv.notifications.iter().enumerate() {
            sqlx::query(
                "INSERT INTO invoice_notifications (id, invoice_id, position, type, channel, period, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(new_id())
            .bind(id)
            .bind(pos as i64)
            .bind(n.kind.as_str())
            .bind(n.channel.as_str())
            .bind(n.period.map(|p| p as i64))
            .bind(created_at)
            .execute(&mut *tx)
            .await?;
        }
        for (pos, w) in inv.webhooks.iter().enumerate() {
            sqlx::query(
                "INSERT INTO invoice_webhooks (id, invoice_id, position, hook_type, url, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(new_id())
            .bind(id)
            .bind(pos as i64)
            .bind(w.hook_type.as_str())
            .bind(&w.url)
            .bind(created_at)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(installment_ids)
    }

    /// All rows of an invoice of `app_id`, or `None` (unknown, deleted, or
    /// another application's: indistinguishable to the caller).
    pub async fn load_invoice(
        &self,
        app_id: &str,
        id: &str,
    ) -> Result<Option<InvoiceRows>, DbError> {
        let Some(invoice) = sqlx::query(
            "SELECT id, customer_id, external_id, description, invoice_type, price_cents, price_by_customer, due_date,
                    installment_count, frequency, end_date, end_installment, end_subscription, redirect_to, created_at
             FROM invoices WHERE id = $1 AND application_id = $2 AND deleted_at IS NULL",
        )
        .bind(id)
        .bind(app_id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let customer_id: String = invoice.get("customer_id");
        let Some(customer) = self.find_customer(app_id, &customer_id, true).await? else {
            return Ok(None);
        };
        let installments = sqlx::query(
            "SELECT id, number, price_cents, price_paid_cents, due_date, status, created_at, updated_at, deleted_at,
                    last_view_at, paid_at, payment_received_at, views_count
             FROM installments WHERE invoice_id = $1 ORDER BY number",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let payment_types = sqlx::query("SELECT payment_type FROM invoice_payment_types WHERE invoice_id = $1 ORDER BY position")
            .bind(id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| r.get("payment_type"))
            .collect();
        let notifications = sqlx::query(
            "SELECT id, type, channel, period, created_at FROM invoice_notifications WHERE invoice_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let webhooks = sqlx::query(
            "SELECT id, hook_type, url, created_at FROM invoice_webhooks WHERE invoice_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(Some(InvoiceRows {
            invoice,
            customer,
            installments,
            payment_types,
            notifications,
            webhooks,
        }))
    }
}

/// SINGLE, RECURRING and SUBSCRIPTION start with one installment (later
/// charges of periodic invoices are created by the scheduler); INSTALLMENT
/// gets its whole plan at once.
pub fn initial_plan(inv: &NewInvoice) -> Vec<PlannedInstallment> {
    let count = if inv.invoice_type == InvoiceType::Installment {
        inv.installment_count
    } else {
        1
    };
    paylink_model::installment_plan(inv.price_cents, count, inv.due_date)
}
