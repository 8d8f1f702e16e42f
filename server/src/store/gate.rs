//! The database handle and its write gate: the read pool, the write pool
//! and the one way to a write transaction. In a module of its own so that
//! the rest of the store sees `pool` (reads) but neither the write pool nor
//! how a [`WriteTx`] is made: it cannot make one without the gate.

use std::sync::Arc;

use sqlx::any::AnyPoolOptions;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode};
use sqlx::{ConnectOptions, Connection, Executor};

use super::schema::{self, Migration, SchemaError};
use super::{Backend, DbError, Pool};

/// What opening does to the schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenMode {
    /// Apply the pending migrations (`paylink migrate`, `serve` without `--no-migrate`).
    Migrate,
    /// Refuse a database that needs a migration, naming `paylink migrate`; a SQLite file
    /// that does not exist is not created (every other command, `serve --no-migrate`).
    RequireCurrent,
    /// Open as it is, whatever its migrations (`paylink migrate --status`).
    AsIs,
}

/// The database. Reads and writes go through two pools: `pool`, whose
/// connections refuse to write (SQLite `query_only`, PostgreSQL
/// `default_transaction_read_only`), and `writes`, reached only through
/// [`Db::begin_write`], which takes the write gate first. A store function
/// that writes takes the [`WriteTx`] only the gate gives, so a write that
/// forgets the gate does not compile, and one that writes on `pool` anyway
/// is refused by the database on both backends.
#[derive(Clone)]
pub struct Db {
    pub(super) pool: Pool,
    pub(super) writes: Pool,
    /// SQLite only: one writer at a time inside this process. SQLite allows
    /// one writer per file; without this gate a second writer sleeps in the
    /// busy handler (1, 2, 5 … 100 ms steps) instead of queueing, which
    /// gave create invoice a p99 of ~1 s under load. `None` on PostgreSQL,
    /// whose row locks let writers run concurrently (and other instances
    /// would not share an in-process gate anyway).
    write_gate: Option<Arc<tokio::sync::Mutex<()>>>,
    backend: Backend,
}

/// A write transaction, the one handle that writes: only [`Db::begin_write`]
/// makes one, after taking the write gate, which it holds until the
/// transaction is committed or dropped. Derefs to the connection
/// (`&mut **tx` where a function was given `&mut WriteTx`).
///
/// A store function that writes inside its caller's transaction takes
/// `&mut WriteTx`, so its caller went through the gate:
///
/// ```
/// use paylink_server::store::{events, Db, DbError};
///
/// async fn write(db: &Db) -> Result<(), DbError> {
///     let mut tx = db.begin_write().await?;
///     events::record_all(&mut tx, &[]).await?;
///     tx.commit().await
/// }
/// # let dir = tempfile::tempdir().unwrap();
/// # let path = dir.path().join("gate.db");
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// #     write(&Db::open(path.to_str().unwrap()).await.unwrap()).await.unwrap();
/// # });
/// ```
///
/// Forgetting the gate does not compile (`cargo test --doc`; each block below
/// is the one above with one line changed, so it fails for that line's reason
/// alone: stable rustdoc does not check the error code): the database handle
/// is not a write transaction,
///
/// ```compile_fail,E0308
/// use paylink_server::store::{events, Db, DbError};
///
/// async fn write(db: &Db) -> Result<(), DbError> {
///     events::record_all(db, &[]).await?;
///     Ok(())
/// }
/// ```
///
/// nor is a transaction begun anywhere else (the write pool is the gate's
/// alone),
///
/// ```compile_fail,E0616
/// use paylink_server::store::{events, Db, DbError};
///
/// async fn write(db: &Db) -> Result<(), DbError> {
///     let mut tx = db.writes.begin().await?;
///     events::record_all(&mut tx, &[]).await?;
///     tx.commit().await
/// }
/// ```
///
/// and no one but the gate can make one.
///
/// ```compile_fail,E0451
/// use paylink_server::store::{events, Db, DbError, WriteTx};
///
/// async fn write(db: &Db) -> Result<(), DbError> {
///     let mut tx = WriteTx { tx: todo!(), _gate: None };
///     events::record_all(&mut tx, &[]).await?;
///     tx.commit().await
/// }
/// ```
pub struct WriteTx {
    // Declared first: dropped (rolled back) before the gate opens.
    tx: sqlx::Transaction<'static, sqlx::Any>,
    _gate: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl WriteTx {
    pub async fn commit(self) -> Result<(), DbError> {
        let WriteTx { tx, _gate } = self;
        tx.commit().await
    }
}

impl std::ops::Deref for WriteTx {
    type Target = sqlx::AnyConnection;
    fn deref(&self) -> &Self::Target {
        &self.tx
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.tx
    }
}

impl Db {
    /// Opens the database and applies its backend's migrations. `target` is a
    /// SQLite file path (created if needed; or a `sqlite:` URL) or a
    /// `postgres://user:pass@host/db` URL (the database must exist).
    pub async fn open(target: &str) -> Result<Db, DbError> {
        Db::open_with(target, OpenMode::Migrate)
            .await
            .map_err(|e| match e {
                SchemaError::Db(e) => e,
                other => DbError::Configuration(other.to_string().into()),
            })
    }

    /// Connects to the database and does to its schema what `mode` says; `Db::open_with`
    /// (in `store`) then fills the search keys.
    pub(super) async fn connect(target: &str, mode: OpenMode) -> Result<Db, SchemaError> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of(target);
        let (pool, writes) = match backend {
            Backend::Postgres => {
                // One plain connection first: a wrong URL or a server that is
                // down fails at once, where the pool would retry for 30 s.
                sqlx::AnyConnection::connect(target).await?.close().await?;
                let writes = AnyPoolOptions::new()
                    .max_connections(8)
                    .connect(target)
                    .await?;
                let reads = AnyPoolOptions::new()
                    .max_connections(8)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            conn.execute("SET default_transaction_read_only = on")
                                .await?;
                            Ok(())
                        })
                    })
                    .connect(target)
                    .await?;
                (reads, writes)
            }
            Backend::Sqlite => open_sqlite(target, mode != OpenMode::RequireCurrent).await?,
        };
        match mode {
            OpenMode::Migrate => schema::apply(&writes, backend).await?,
            OpenMode::RequireCurrent => schema::require_current(&pool, backend).await?,
            OpenMode::AsIs => {}
        }
        let write_gate =
            (backend == Backend::Sqlite).then(|| Arc::new(tokio::sync::Mutex::new(())));
        Ok(Db {
            pool,
            writes,
            write_gate,
            backend,
        })
    }

    /// Every migration of this build and whether the database has applied it.
    pub async fn migrations(&self) -> Result<Vec<Migration>, SchemaError> {
        schema::status(&self.pool, self.backend).await
    }

    /// Applies the pending migrations.
    pub async fn migrate(&self) -> Result<(), DbError> {
        schema::apply(&self.writes, self.backend).await
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A consistent copy of a SQLite database in the new file `to` (`VACUUM INTO`: one read
    /// transaction, so the copy is the database as of one instant, while other connections
    /// and processes go on writing). PostgreSQL has `pg_dump` for this.
    pub async fn backup_sqlite(&self, to: &std::path::Path) -> Result<(), DbError> {
        if self.backend != Backend::Sqlite {
            return Err(DbError::Configuration(
                "a backup of PostgreSQL is pg_dump's (docs/operations.md, Backups)".into(),
            ));
        }
        // A connection of the write pool: the read pool's are query_only, which refuses
        // VACUUM. VACUUM cannot run in a transaction, so not through the gate's.
        let mut conn = self.writes.acquire().await?;
        sqlx::query("VACUUM INTO $1")
            .bind(to.to_string_lossy().into_owned())
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Begins a write transaction, the only way to one: it waits for the
    /// write gate (SQLite; none on PostgreSQL) before it checks out a
    /// connection, since a task that held a connection while waiting could
    /// starve the gate's holder of one.
    ///
    /// On SQLite the transaction takes the file's write lock at once
    /// (`BEGIN IMMEDIATE`), waiting for another process's writer (the CLI
    /// beside a server) for the busy timeout. A deferred `BEGIN` would take
    /// it at its first write, and if another process had committed since
    /// this transaction's first read, SQLite fails that write at once
    /// (`SQLITE_BUSY`, which no busy timeout waits out): the CLI's
    /// `boleto remessa` got "database error" while the server wrote.
    pub async fn begin_write(&self) -> Result<WriteTx, DbError> {
        let gate = match &self.write_gate {
            Some(gate) => Some(gate.clone().lock_owned().await),
            None => None,
        };
        // In a task of its own: a request cancelled while this waits (a client gone, a
        // timeout) must not drop the BEGIN half done. The database would then hold a
        // transaction nobody has, on a connection back in the pool (on SQLite with the file's
        // write lock: every later writer failed). Here the task runs to the end, and a
        // transaction no one takes any more is dropped, which rolls it back.
        let writes = self.writes.clone();
        let immediate = gate.is_some();
        let tx = tokio::spawn(async move {
            if immediate {
                writes.begin_with("BEGIN IMMEDIATE").await
            } else {
                writes.begin().await
            }
        })
        .await
        .map_err(|e| DbError::Io(std::io::Error::other(e)))??;
        Ok(WriteTx { tx, _gate: gate })
    }

    /// PostgreSQL (no write gate: its row locks serialise writers), for the
    /// few statements that lock rows its way (`store::outbox::claim`).
    pub(crate) fn is_postgres(&self) -> bool {
        self.write_gate.is_none()
    }

    pub async fn ping(&self) -> Result<(), DbError> {
        sqlx::query("SELECT 1")
            .execute(&self.pool)
            .await
            .map(|_| ())
    }
}

/// How long a SQLite connection waits for another's lock (a writer in
/// another process, a checkpoint) before its statement fails: set on every
/// connection, the pools' and the one that switches the file to WAL, in the
/// server and the CLI alike (both open the database here).
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The SQLite file through the Any driver, which takes only a URL: the file
/// is created and switched to WAL once by a native connection (journal mode
/// is stored in the file), and every pooled connection sets the per-connection
/// settings when it opens.
async fn open_sqlite(target: &str, create: bool) -> Result<(Pool, Pool), DbError> {
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
    if !create && !target.starts_with("sqlite:") && !std::path::Path::new(target).exists() {
        return Err(DbError::Configuration(
            format!("cannot open database {target}: there is none: `paylink migrate --db {target}` makes one")
                .into(),
        ));
    }
    native
        .create_if_missing(create)
        .busy_timeout(BUSY_TIMEOUT)
        .journal_mode(SqliteJournalMode::Wal)
        .connect()
        .await?
        .close()
        .await?;
    let pool = |max: u32, query_only: bool| {
        AnyPoolOptions::new()
            .max_connections(max)
            // A local file cannot drop a connection: the ping sqlx sends on every
            // checkout by default is a wasted round trip to the connection's
            // worker thread (measured: +10-30 % requests/s).
            .test_before_acquire(false)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    // WAL + NORMAL: a commit survives a process crash; only an OS
                    // crash can lose the last transactions, never corrupt the file.
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    conn.execute(
                        format!("PRAGMA busy_timeout = {}", BUSY_TIMEOUT.as_millis()).as_str(),
                    )
                    .await?;
                    if query_only {
                        conn.execute("PRAGMA query_only = ON").await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
    };
    // The gate lets one writer in at a time; a second connection serves
    // the migrations' own locking and a writer whose first is closing.
    Ok((pool(8, true).await?, pool(2, false).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two processes on one SQLite file (two `Db`s: each its own pools and
    /// gate, as the CLI beside a server): a writer that has read is not
    /// failed by the other's commit; the other waits for it instead. With a
    /// deferred `BEGIN`, the second committed first and the first's write
    /// failed at once with `SQLITE_BUSY` (the CLI's "database error").
    #[tokio::test]
    async fn a_writer_in_another_process_waits_for_this_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.db");
        let path = path.to_str().unwrap();
        let (server, cli) = (Db::open(path).await.unwrap(), Db::open(path).await.unwrap());
        let insert = |id: &'static str| {
            sqlx::query(
                "INSERT INTO applications (id, user_id, name, created_at)
                 VALUES ($1, 'user', $1, '2026-01-01T00:00:00Z')",
            )
            .bind(id)
        };
        let mut first = server.begin_write().await.unwrap();
        let seen: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM applications")
            .fetch_one(&mut *first)
            .await
            .unwrap();
        let other = tokio::spawn(async move {
            let mut tx = cli.begin_write().await?;
            insert("other").execute(&mut *tx).await?;
            tx.commit().await
        });
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(!other.is_finished(), "the other writer waits for this one");
        insert("first").execute(&mut *first).await.unwrap();
        first.commit().await.unwrap();
        other.await.unwrap().unwrap();
        let after: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM applications")
            .fetch_one(&server.pool)
            .await
            .unwrap();
        assert_eq!(after, seen + 2);
    }

    /// Every SQLite connection waits out another's lock, the write pool's too.
    #[tokio::test]
    async fn every_sqlite_connection_has_the_busy_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(dir.path().join("p.db").to_str().unwrap())
            .await
            .unwrap();
        for pool in [&db.pool, &db.writes] {
            let busy: i64 = sqlx::query_scalar("PRAGMA busy_timeout")
                .fetch_one(pool)
                .await
                .unwrap();
            assert_eq!(busy, BUSY_TIMEOUT.as_millis() as i64);
        }
    }
}
