//! Storage. SQLite (WAL) by default, PostgreSQL when `--db` is a
//! `postgres://` URL. One set of queries for both, through `sqlx::Any`: the
//! SQL is portable (`$n` placeholders, no backend-only functions), integers
//! are 64-bit on both sides, and each backend has its own migrations with the
//! same schema (`migrations/sqlite`, `migrations/postgres`).
//!
//! One style: each module's operations are free functions (`customers::insert(db, ..)`,
//! `invoices::load(db, ..)`) that take the `Db`, or the `WriteTx` of a caller's transaction;
//! `Db`'s own methods are only opening, the write gate and the ping (`gate.rs`).

pub mod applications;
pub mod boletos;
pub mod charges;
pub mod charges_links;
pub mod customers;
pub mod dashboard;
pub mod deliveries;
pub mod events;
mod gate;
pub mod idempotency;
pub mod invoice_detail;
pub mod invoices;
pub mod links;
pub mod lists;
pub mod metrics;
pub mod notifications;
pub mod operators;
pub mod outbox;
pub mod payments;
pub mod pix_charges;
pub mod pix_cycles;
pub mod pix_payments;
pub mod pix_recurrences;
pub mod prune;
pub mod receipts;
pub mod schema;
pub mod search_keys;
pub mod sends;
pub mod tokens;
pub mod views;
pub mod webhooks;

pub use applications::Application;
pub use gate::{Db, OpenMode, WriteTx};
pub use idempotency::Idem;
pub use invoices::{initial_plan, InvoiceRows, NotificationRow, WebhookRow};

use std::time::Duration;

pub type DbError = sqlx::Error;

impl Db {
    /// Opens the database, doing to its schema what `mode` says, and keys the rows an older
    /// version wrote without a search key. Here, above both, so that the connection (`gate`)
    /// does not call the search keys, which write through it.
    pub async fn open_with(target: &str, mode: OpenMode) -> Result<Db, schema::SchemaError> {
        let db = Db::connect(target, mode).await?;
        if mode != OpenMode::AsIs {
            search_keys::fill(&db).await?;
        }
        Ok(db)
    }
}

/// The backend types every module uses, named once here: `sqlx::Any`, so one
/// set of queries runs on SQLite and on PostgreSQL.
pub type Pool = sqlx::AnyPool;
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

/// Stored data that does not read as what it should be (text that names no
/// known value, a date that does not parse): a storage fault, the same
/// kind of error as a column that does not decode.
pub fn stored_fault(what: String) -> DbError {
    sqlx::Error::Decode(what.into())
}

/// Whether a write broke a unique constraint: the one test of it, for both
/// backends (an idempotency key or a name already taken, a row already there).
pub fn is_unique_violation(e: &DbError) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
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

pub fn now_iso() -> String {
    paylink_model::date::iso_utc_from_millis(now_millis())
}

/// A new row id: a UUIDv7 (RFC 9562), 48 bits of the time in milliseconds
/// then 74 random bits. Rows written one after another then land at the end
/// of their primary-key index (and of the indexes that lead with a parent's
/// id), a page already in memory, where random ids scattered each insert over
/// the whole index (~90 page writes per created invoice). No counter: the 74
/// bits come from the operating system's generator, so an id seen (a payer
/// page URL) does not tell the next one.
pub fn new_id() -> String {
    let mut random = [0u8; 10];
    getrandom::getrandom(&mut random).expect("the operating system's random generator");
    uuid::Builder::from_unix_timestamp_millis(now_millis() as u64, &random)
        .into_uuid()
        .to_string()
}

/// A static PIX code's txid for a new installment: 25 random hex digits (100
/// bits, the BR Code's longest txid), told nothing by the invoice's id.
pub fn new_pix_txid() -> String {
    let mut random = [0u8; 13];
    getrandom::getrandom(&mut random).expect("the operating system's random generator");
    let mut hex = hex::encode(random);
    hex.truncate(25);
    hex
}

fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The ISO UTC instant `hours` ago.
pub(crate) fn iso_hours_ago(hours: i64) -> String {
    paylink_model::date::iso_utc_from_millis(now_millis() - hours * 3_600_000)
}

/// The ISO UTC instant `before` ago.
pub(crate) fn iso_ago(before: Duration) -> String {
    paylink_model::date::iso_utc_from_millis(now_millis() - before.as_millis() as i64)
}

/// ISO timestamp `after` from now.
pub fn iso_in(after: Duration) -> String {
    paylink_model::date::iso_utc_from_millis(now_millis() + after.as_millis() as i64)
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

    /// A stored value of the wrong type (here a blob where text belongs,
    /// which SQLite's column affinity lets through) is an error from the
    /// store's readers, typed (`FromRow`) and by hand alike, never a panic
    /// that would take the request (or, built with `panic = "abort"`, the
    /// process) down with it.
    #[tokio::test]
    async fn a_column_that_does_not_decode_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(dir.path().join("p.db").to_str().unwrap())
            .await
            .unwrap();
        let mut tx = db.begin_write().await.unwrap();
        sqlx::query(
            "INSERT INTO applications (id, user_id, name, created_at)
             VALUES ('app', 'user', X'FF00', '2026-01-01T00:00:00Z')",
        )
        .execute(&mut *tx)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO customers (id, application_id, user_id, full_name, created_at)
             VALUES ('cus', 'app', 'user', X'FF00', '2026-01-01T00:00:00Z')",
        )
        .execute(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        let app = crate::store::applications::find(&db, "app").await;
        assert!(
            matches!(app, Err(sqlx::Error::ColumnDecode { ref index, .. }) if index.contains("name")),
            "{app:?}"
        );
        let customer = crate::store::customers::find(&db, "app", "cus", false).await;
        assert!(
            matches!(customer, Err(sqlx::Error::ColumnDecode { ref index, .. }) if index.contains("full_name")),
            "{customer:?}"
        );
    }

    /// The read pool refuses to write: a store function that wrote on it,
    /// past the write gate, would fail its tests on every backend rather
    /// than race another writer. Through the gate the same write is taken.
    #[tokio::test]
    async fn only_the_write_gate_writes() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(dir.path().join("p.db").to_str().unwrap())
            .await
            .unwrap();
        let insert = "INSERT INTO applications (id, user_id, name, created_at)
                      VALUES ('app', 'user', 'loja', '2026-01-01T00:00:00Z')";
        for _ in 0..3 {
            match sqlx::query(insert).execute(&db.pool).await {
                Err(e) => assert!(e.to_string().contains("readonly"), "{e}"),
                Ok(done) => panic!("written on the read pool: {done:?}"),
            }
        }
        let mut tx = db.begin_write().await.unwrap();
        sqlx::query(insert).execute(&mut *tx).await.unwrap();
        tx.commit().await.unwrap();
        assert!(crate::store::applications::find(&db, "app")
            .await
            .unwrap()
            .is_some());
    }

    #[test]
    fn ids_are_time_ordered_uuid_v7_with_random_tails() {
        let (a, b) = (new_id(), new_id());
        let (ua, ub) = (
            uuid::Uuid::parse_str(&a).unwrap(),
            uuid::Uuid::parse_str(&b).unwrap(),
        );
        assert_eq!((ua.get_version_num(), ub.get_version_num()), (7, 7));
        assert!(paylink_model::br::uuid_is_valid(&a));
        let secs = |u: uuid::Uuid| u.get_timestamp().unwrap().to_unix().0;
        let now = now_millis() as u64 / 1000;
        assert!(secs(ua).abs_diff(now) <= 1, "the id carries the time");
        assert_ne!(a[15..], b[15..], "the bits after the time are random");
        std::thread::sleep(Duration::from_millis(2));
        assert!(new_id() > b, "a later id sorts after");
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
