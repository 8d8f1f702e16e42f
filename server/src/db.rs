//! Storage. SQLite (WAL) by default, PostgreSQL when `--db` is a
//! `postgres://` URL. One set of queries for both, through `sqlx::Any`: the
//! SQL is portable (`$n` placeholders, no backend-only functions), integers
//! are 64-bit on both sides, and each backend has its own migrations with the
//! same schema (`migrations/sqlite`, `migrations/postgres`).

use std::sync::Arc;
use std::time::Duration;

use paylink_model::{
    Customer, CustomerDetail, HookType, InvoiceCreated, InvoiceType, NewInvoice, PlannedInstallment,
};
use sqlx::any::AnyPoolOptions;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode};
use sqlx::{ConnectOptions, Connection, Executor, Row};

pub type DbError = sqlx::Error;

/// The backend types every module uses, named once here: `sqlx::Any`, so one
/// set of queries runs on SQLite and on PostgreSQL.
pub type Pool = sqlx::AnyPool;
pub type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;
pub type DbRow = sqlx::any::AnyRow;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// PostgreSQL for a `postgres://` (or `postgresql://`) URL; anything else
    /// is SQLite: a file path, or a `sqlite:` URL.
    pub fn of(target: &str) -> Backend {
        if target.starts_with("postgres://") || target.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// `target` fit for messages and logs: a URL's password replaced by `***`.
pub fn redacted(target: &str) -> String {
    match reqwest::Url::parse(target) {
        Ok(mut url) if url.password().is_some() => {
            let _ = url.set_password(Some("***"));
            url.to_string()
        }
        _ => target.to_string(),
    }
}

#[derive(Clone)]
pub struct Db {
    pub(crate) pool: Pool,
    /// SQLite only: one writer at a time inside this process. SQLite allows
    /// one writer per file; without this gate a second writer sleeps in the
    /// busy handler (1, 2, 5 … 100 ms steps) instead of queueing, which
    /// gave create invoice a p99 of ~1 s under load. `None` on PostgreSQL,
    /// whose row locks let writers run concurrently (and other instances
    /// would not share an in-process gate anyway).
    write_gate: Option<Arc<tokio::sync::Mutex<()>>>,
}

/// Held while writing; releases the write gate (if any) when dropped.
pub struct WriteGuard(#[allow(dead_code)] Option<tokio::sync::OwnedMutexGuard<()>>);

/// A write transaction that holds the write gate until it is committed or
/// dropped. Derefs to the transaction (`&mut **tx` is the connection).
pub struct WriteTx {
    // Declared first: dropped (rolled back) before the gate opens.
    tx: Tx<'static>,
    _gate: WriteGuard,
}

impl WriteTx {
    pub async fn commit(self) -> Result<(), DbError> {
        let WriteTx { tx, _gate } = self;
        tx.commit().await
    }
}

impl std::ops::Deref for WriteTx {
    type Target = Tx<'static>;
    fn deref(&self) -> &Self::Target {
        &self.tx
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.tx
    }
}

pub fn now_iso() -> String {
    paylink_model::date::iso_utc_from_millis(now_millis())
}

pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// An `Idempotency-Key` and the answer given to the request that first used it.
#[derive(Clone, Debug)]
pub struct Idem {
    pub key: String,
    /// SHA-256 of the operation and the parsed request, so formatting does not matter.
    pub request_hash: String,
    pub status: u16,
    pub body: String,
}

/// Records the key as the transaction's first write. A concurrent request
/// with the same key waits on the row lock and then fails on the primary key,
/// so only one of them creates anything. A record older than 24 h is replaced.
async fn claim_key(tx: &mut Tx<'_>, app_id: &str, idem: &Idem) -> Result<(), DbError> {
    sqlx::query(
        "DELETE FROM idempotency_keys WHERE application_id = $1 AND key = $2 AND created_at <= $3",
    )
    .bind(app_id)
    .bind(&idem.key)
    .bind(iso_hours_ago(24))
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO idempotency_keys (application_id, key, request_hash, status_code, response_body, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(app_id)
    .bind(&idem.key)
    .bind(&idem.request_hash)
    .bind(idem.status as i64)
    .bind(&idem.body)
    .bind(now_iso())
    .execute(&mut **tx)
    .await
    .map(|_| ())
}

fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn iso_hours_ago(hours: i64) -> String {
    paylink_model::date::iso_utc_from_millis(now_millis() - hours * 3_600_000)
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
    /// The invoice's columns under their own names (and more).
    pub invoice: DbRow,
    pub customer: CustomerDetail,
    /// One row per installment, in order, its columns prefixed `i_`.
    pub installments: Vec<DbRow>,
    pub payment_types: Vec<String>,
    pub notifications: Vec<NotificationRow>,
    pub webhooks: Vec<WebhookRow>,
    /// Each scheduled notification send, with its notification's id.
    pub notification_sends: Vec<(String, paylink_model::NotificationSend)>,
}

/// A stored notification config of an invoice.
pub struct NotificationRow {
    pub id: String,
    pub kind: String,
    pub channel: String,
    pub period: Option<i64>,
    pub created_at: String,
}

/// A stored webhook of an invoice.
pub struct WebhookRow {
    pub id: String,
    pub hook_type: String,
    pub url: String,
    pub created_at: String,
}

impl Db {
    /// Opens the database and applies its backend's migrations. `target` is a
    /// SQLite file path (created if needed; or a `sqlite:` URL) or a
    /// `postgres://user:pass@host/db` URL (the database must exist).
    pub async fn open(target: &str) -> Result<Db, DbError> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of(target);
        let pool = match backend {
            Backend::Postgres => {
                // One plain connection first: a wrong URL or a server that is
                // down fails at once, where the pool would retry for 30 s.
                sqlx::AnyConnection::connect(target).await?.close().await?;
                AnyPoolOptions::new()
                    .max_connections(8)
                    .connect(target)
                    .await?
            }
            Backend::Sqlite => open_sqlite(target).await?,
        };
        match backend {
            Backend::Sqlite => sqlx::migrate!("./migrations/sqlite").run(&pool).await?,
            Backend::Postgres => sqlx::migrate!("./migrations/postgres").run(&pool).await?,
        }
        let write_gate =
            (backend == Backend::Sqlite).then(|| Arc::new(tokio::sync::Mutex::new(())));
        Ok(Db { pool, write_gate })
    }

    /// Waits for the write gate (SQLite; a no-op on PostgreSQL). Every write
    /// takes it, transaction or single statement, and always before it
    /// checks out a connection: a task that held a connection while waiting
    /// here could starve the gate's holder of one.
    pub async fn lock_writes(&self) -> WriteGuard {
        match &self.write_gate {
            Some(gate) => WriteGuard(Some(gate.clone().lock_owned().await)),
            None => WriteGuard(None),
        }
    }

    /// Begins a write transaction: every transaction that writes starts
    /// here, so none bypasses the write gate.
    pub async fn begin_write(&self) -> Result<WriteTx, DbError> {
        let gate = self.lock_writes().await;
        let tx = self.pool.begin().await?;
        Ok(WriteTx { tx, _gate: gate })
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
        let _w = self.lock_writes().await;
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

    /// Stores a customer built by the handler (ids and timestamps included),
    /// with its idempotency record when the request carried a key.
    pub async fn insert_customer(
        &self,
        app: &Application,
        c: &Customer,
        idem: Option<&Idem>,
    ) -> Result<(), DbError> {
        let mut tx = self.begin_write().await?;
        if let Some(idem) = idem {
            claim_key(&mut tx, &app.id, idem).await?;
        }
        sqlx::query(
            "INSERT INTO customers (id, application_id, user_id, full_name, document, business, email, phone, observations, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
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
        .execute(&mut **tx)
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
            .execute(&mut **tx)
            .await?;
        }
        tx.commit().await
    }

    /// The stored answer to an earlier request with this key, if younger than 24 h.
    pub async fn find_idempotent(&self, app_id: &str, key: &str) -> Result<Option<Idem>, DbError> {
        let row = sqlx::query(
            "SELECT key, request_hash, status_code, response_body FROM idempotency_keys
             WHERE application_id = $1 AND key = $2 AND created_at > $3",
        )
        .bind(app_id)
        .bind(key)
        .bind(iso_hours_ago(24))
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| Idem {
            key: r.get("key"),
            request_hash: r.get("request_hash"),
            status: r.get::<i64, _>("status_code") as u16,
            body: r.get("response_body"),
        }))
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
    /// and webhooks in one transaction: all of it or nothing. `created` is
    /// the response (its ids are the rows' ids); `plan` gives the due dates.
    pub async fn insert_invoice(
        &self,
        app: &Application,
        inv: &NewInvoice,
        created: &InvoiceCreated,
        plan: &[PlannedInstallment],
        idem: Option<&Idem>,
    ) -> Result<(), DbError> {
        let (id, created_at) = (created.id.as_str(), created.created_at.as_str());
        let mut tx = self.begin_write().await?;
        if let Some(idem) = idem {
            claim_key(&mut tx, &app.id, idem).await?;
        }
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
        .execute(&mut **tx)
        .await?;
        // Each list in one multi-row INSERT: a statement is a round trip.
        use crate::events::values_placeholders as values;
        let sql = format!(
            "INSERT INTO installments (id, invoice_id, number, price_cents, price_paid_cents, due_date, status, created_at)
             VALUES {}",
            values(plan.len(), 8)
        );
        let mut q = sqlx::query(&sql);
        for (p, created) in plan.iter().zip(&created.installments) {
            q = q
                .bind(&created.id)
                .bind(id)
                .bind(p.number as i64)
                .bind(p.price_cents)
                .bind(0_i64)
                .bind(p.due_date.to_string())
                .bind("WAITING_PAYMENT")
                .bind(created_at);
        }
        q.execute(&mut **tx).await?;
        if !inv.payment_types.is_empty() {
            let sql = format!(
                "INSERT INTO invoice_payment_types (invoice_id, position, payment_type) VALUES {}",
                values(inv.payment_types.len(), 3)
            );
            let mut q = sqlx::query(&sql);
            for (pos, t) in inv.payment_types.iter().enumerate() {
                q = q.bind(id).bind(pos as i64).bind(t.as_str());
            }
            q.execute(&mut **tx).await?;
        }
        if !inv.notifications.is_empty() {
            let sql = format!(
                "INSERT INTO invoice_notifications (id, invoice_id, position, type, channel, period, created_at)
                 VALUES {}",
                values(inv.notifications.len(), 7)
            );
            let mut q = sqlx::query(&sql);
            for (pos, n) in inv.notifications.iter().enumerate() {
                q = q
                    .bind(new_id())
                    .bind(id)
                    .bind(pos as i64)
                    .bind(n.kind.as_str())
                    .bind(n.channel.as_str())
                    .bind(n.period.map(|p| p as i64))
                    .bind(created_at);
            }
            q.execute(&mut **tx).await?;
        }
        if !inv.webhooks.is_empty() {
            let sql = format!(
                "INSERT INTO invoice_webhooks (id, invoice_id, position, hook_type, url, created_at) VALUES {}",
                values(inv.webhooks.len(), 6)
            );
            let mut q = sqlx::query(&sql);
            for (pos, w) in inv.webhooks.iter().enumerate() {
                q = q
                    .bind(new_id())
                    .bind(id)
                    .bind(pos as i64)
                    .bind(w.hook_type.as_str())
                    .bind(&w.url)
                    .bind(created_at);
            }
            q.execute(&mut **tx).await?;
        }
        // The outbox: INVOICE_CREATED, and PAYMENT_GENERATED for each
        // installment's charge, committed with the invoice itself.
        let event = |kind, installment| crate::events::NewEvent {
            application_id: &app.id,
            invoice_id: id,
            external_id: &inv.external_id,
            kind,
            installment,
            method: None,
        };
        let mut events = vec![event(HookType::InvoiceCreated, None)];
        for i in &created.installments {
            let snapshot = crate::events::InstallmentSnapshot {
                id: i.id.clone(),
                installment: i.installment,
                price: i.price,
                price_paid: i.price_paid,
                status: i.status.as_str().to_string(),
                due_date: i.due_date.clone(),
            };
            events.push(event(HookType::PaymentGenerated, Some(snapshot)));
        }
        crate::events::record_all(&mut tx, &events).await?;
        // Payer notifications of the new installments, in the same
        // transaction (a new invoice's configs are the request's: none, no
        // sends, and no query to find that out).
        if !inv.notifications.is_empty() {
            let new: Vec<_> = created
                .installments
                .iter()
                .zip(plan)
                .map(|(i, p)| (i.id.as_str(), p.number, p.due_date))
                .collect();
            crate::notifications::schedule_for_new_installments(&mut tx, id, &new).await?;
        }
        tx.commit().await
    }

    /// All rows of an invoice of `app_id`, or `None` (unknown, deleted, or
    /// another application's: indistinguishable to the caller). Two
    /// statements on one connection: every statement is a round trip to the
    /// connection (on SQLite, to its worker thread), and the trips, not the
    /// queries, are what this operation costs.
    pub async fn load_invoice(
        &self,
        app_id: &str,
        id: &str,
    ) -> Result<Option<InvoiceRows>, DbError> {
        let mut conn = self.pool.acquire().await?;
        // The invoice, its customer (deleted or not: an invoice keeps its
        // payer) and the customer's address, repeated on each installment.
        // Every invoice has at least one installment; the LEFT JOIN keeps
        // the invoice even if one had none.
        let rows = sqlx::query(
            // A BOOLEAN column reaches sqlx::Any as a type SQLite's driver
            // cannot map; as an integer expression it reads alike on both.
            "SELECT v.id, v.customer_id, v.external_id, v.description, v.invoice_type, v.price_cents,
                    CASE WHEN v.price_by_customer THEN 1 ELSE 0 END AS price_by_customer, v.due_date,
                    v.installment_count, v.frequency, v.end_date, v.end_installment, v.end_subscription,
                    v.redirect_to, v.created_at,
                    c.full_name AS c_full_name, c.document AS c_document, c.business AS c_business,
                    c.email AS c_email, c.user_id AS c_user_id, c.application_id AS c_application_id,
                    c.phone AS c_phone, a.id AS c_address_id, c.observations AS c_observations,
                    c.created_at AS c_created_at, c.deleted_at AS c_deleted_at,
                    i.id AS i_id, i.number AS i_number, i.price_cents AS i_price_cents,
                    i.price_paid_cents AS i_price_paid_cents, i.due_date AS i_due_date, i.status AS i_status,
                    i.created_at AS i_created_at, i.updated_at AS i_updated_at, i.deleted_at AS i_deleted_at,
                    i.last_view_at AS i_last_view_at, i.paid_at AS i_paid_at,
                    i.payment_received_at AS i_payment_received_at, i.views_count AS i_views_count
             FROM invoices v
             JOIN customers c ON c.id = v.customer_id AND c.application_id = v.application_id
             LEFT JOIN addresses a ON a.customer_id = c.id
             LEFT JOIN installments i ON i.invoice_id = v.id
             WHERE v.id = $1 AND v.application_id = $2 AND v.deleted_at IS NULL
             ORDER BY i.number",
        )
        .bind(id)
        .bind(app_id)
        .fetch_all(&mut *conn)
        .await?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let customer = CustomerDetail {
            id: first.get("customer_id"),
            full_name: first.get("c_full_name"),
            document: first.get("c_document"),
            business: first.get("c_business"),
            email: first.get("c_email"),
            user_id: first.get("c_user_id"),
            application_id: first.get("c_application_id"),
            phone: first.get("c_phone"),
            address_id: first.get("c_address_id"),
            observations: first.get("c_observations"),
            created_at: first.get("c_created_at"),
            deleted_at: first.get("c_deleted_at"),
        };
        // Payment types, notification configs, webhooks and notification
        // sends in one statement: `kind` tells them apart, `o1`..`o4` order
        // each kind as its own query did (a send of no installment sorts
        // first, explicitly: SQLite puts NULL first and PostgreSQL last).
        // Typed NULLs, because PostgreSQL types each UNION column once.
        let extras = sqlx::query(
            "SELECT 'p' AS kind, CAST(NULL AS TEXT) AS id, payment_type AS t1, CAST(NULL AS TEXT) AS t2,
                    CAST(NULL AS TEXT) AS t3, CAST(NULL AS BIGINT) AS n1,
                    position AS o1, CAST(NULL AS TEXT) AS o2, CAST(0 AS BIGINT) AS o3, CAST(NULL AS TEXT) AS o4
             FROM invoice_payment_types WHERE invoice_id = $1
             UNION ALL
             SELECT 'n', id, type, channel, created_at, period, position, NULL, 0, NULL
             FROM invoice_notifications WHERE invoice_id = $1
             UNION ALL
             SELECT 'w', id, hook_type, url, created_at, NULL, position, NULL, 0, NULL
             FROM invoice_webhooks WHERE invoice_id = $1
             UNION ALL
             SELECT 's', s.notification_id, s.status, s.due_at, s.sent_at, n.number,
                    0, s.due_at, COALESCE(n.number, 0), s.created_at
             FROM notification_sends s LEFT JOIN installments n ON n.id = s.installment_id
             WHERE s.invoice_id = $1
             ORDER BY kind, o1, o2, o3, o4",
        )
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
        let (mut payment_types, mut notifications, mut webhooks, mut notification_sends) =
            (vec![], vec![], vec![], vec![]);
        for r in &extras {
            match r.get::<&str, _>("kind") {
                "p" => payment_types.push(r.get("t1")),
                "n" => notifications.push(NotificationRow {
                    id: r.get("id"),
                    kind: r.get("t1"),
                    channel: r.get("t2"),
                    period: r.get("n1"),
                    created_at: r.get("t3"),
                }),
                "w" => webhooks.push(WebhookRow {
                    id: r.get("id"),
                    hook_type: r.get("t1"),
                    url: r.get("t2"),
                    created_at: r.get("t3"),
                }),
                _ => notification_sends.push((
                    r.get("id"),
                    paylink_model::NotificationSend {
                        installment: r.get::<Option<i64>, _>("n1").map(|n| n as u32),
                        due_at: r.get("t2"),
                        status: r.get("t1"),
                        sent_at: r.get("t3"),
                    },
                )),
            }
        }
        let installments = rows
            .iter()
            .filter(|r| r.get::<Option<&str>, _>("i_id").is_some())
            .cloned()
            .collect();
        let invoice = rows.into_iter().next().expect("checked above");
        Ok(Some(InvoiceRows {
            invoice,
            customer,
            installments,
            payment_types,
            notifications,
            webhooks,
            notification_sends,
        }))
    }
}

/// The SQLite file through the Any driver, which takes only a URL: the file
/// is created and switched to WAL once by a native connection (journal mode
/// is stored in the file), and every pooled connection sets the per-connection
/// settings when it opens.
async fn open_sqlite(target: &str) -> Result<Pool, DbError> {
    let url = if target.starts_with("sqlite:") {
        target.to_string()
    } else {
        let path = std::path::absolute(target).map_err(|e| DbError::Configuration(e.into()))?;
        // `%`, `?` and `#` would be read as URL syntax.
        let path = path
            .to_string_lossy()
            .replace('%', "%25")
            .replace('?', "%3F")
            .replace('#', "%23");
        format!("sqlite://{path}")
    };
    let native: SqliteConnectOptions = url.parse()?;
    native
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .connect()
        .await?
        .close()
        .await?;
    AnyPoolOptions::new()
        .max_connections(8)
        // A local file cannot drop a connection: the ping sqlx sends on every
        // checkout by default is a wasted round trip to the connection's
        // worker thread (measured: +10-30 % requests/s).
        .test_before_acquire(false)
        .after_connect(|conn, _| {
            Box::pin(async move {
                // WAL + NORMAL: a commit survives a process crash; only an OS
                // crash can lose the last transactions, never corrupt the file.
                conn.execute("PRAGMA synchronous = NORMAL").await?;
                conn.execute("PRAGMA foreign_keys = ON").await?;
                conn.execute("PRAGMA busy_timeout = 10000").await?;
                Ok(())
            })
        })
        .connect(&url)
        .await
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

/// ISO timestamp `after` from now.
pub fn iso_in(after: Duration) -> String {
    paylink_model::date::iso_utc_from_millis(now_millis() + after.as_millis() as i64)
}

impl Db {
    /// The application's webhook signing secret, created on first use.
    pub async fn webhook_secret(&self, app_id: &str) -> Result<String, DbError> {
        // Set only where still empty, so two callers racing agree on one secret.
        let w = self.lock_writes().await;
        sqlx::query(
            "UPDATE applications SET webhook_secret = $1 WHERE id = $2 AND webhook_secret IS NULL",
        )
        .bind(crate::webhooks::new_secret())
        .bind(app_id)
        .execute(&self.pool)
        .await?;
        drop(w);
        sqlx::query_scalar("SELECT webhook_secret FROM applications WHERE id = $1")
            .bind(app_id)
            .fetch_one(&self.pool)
            .await
    }

    pub async fn find_application_by_name(
        &self,
        name: &str,
    ) -> Result<Option<Application>, DbError> {
        let id: Option<String> = sqlx::query_scalar("SELECT id FROM applications WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        match id {
            Some(id) => self.find_application(&id).await,
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SQLite settings the native driver used to set survive the move to
    /// `sqlx::Any`: on every pooled connection, not only the first.
    #[tokio::test]
    async fn sqlite_connections_keep_wal_normal_sync_foreign_keys_and_busy_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(dir.path().join("p.db").to_str().unwrap())
            .await
            .unwrap();
        let mut conns = Vec::new();
        for _ in 0..3 {
            let mut c = db.pool.acquire().await.unwrap();
            let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
                .fetch_one(&mut *c)
                .await
                .unwrap();
            let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
                .fetch_one(&mut *c)
                .await
                .unwrap();
            let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
                .fetch_one(&mut *c)
                .await
                .unwrap();
            let busy: i64 = sqlx::query_scalar("PRAGMA busy_timeout")
                .fetch_one(&mut *c)
                .await
                .unwrap();
            // synchronous: 1 is NORMAL.
            assert_eq!((journal.as_str(), sync, fk, busy), ("wal", 1, 1, 10_000));
            conns.push(c);
        }
    }

    #[test]
    fn the_backend_follows_the_url_scheme() {
        assert_eq!(Backend::of("postgres://u@h/db"), Backend::Postgres);
        assert_eq!(Backend::of("postgresql://u@h/db"), Backend::Postgres);
        assert_eq!(Backend::of("./paylink.db"), Backend::Sqlite);
        assert_eq!(Backend::of("sqlite:///tmp/p.db"), Backend::Sqlite);
    }

    #[test]
    fn a_password_never_reaches_a_message() {
        assert_eq!(
            redacted("postgres://loja:segredo@db.example:5432/paylink"),
            "postgres://loja:***@db.example:5432/paylink"
        );
        assert_eq!(
            redacted("postgres://loja@db/paylink"),
            "postgres://loja@db/paylink"
        );
        assert_eq!(redacted("./paylink.db"), "./paylink.db");
    }
}
