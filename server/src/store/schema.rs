//! The schema's migrations: the set this build carries for each backend, which of them a
//! database has applied, and applying the rest. `paylink migrate` and `serve` change the
//! schema; every other command opens the database only when it is current (gate.rs).

use sqlx::migrate::Migrator;
use sqlx::Row;

use super::{Backend, DbError, Pool};

static SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

pub(super) fn migrator(backend: Backend) -> &'static Migrator {
    match backend {
        Backend::Sqlite => &SQLITE,
        Backend::Postgres => &POSTGRES,
    }
}

/// One migration of this build, and whether the database has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Migration {
    pub version: i64,
    pub description: String,
    pub applied: bool,
}

/// Why a database is not the schema this build expects.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// Migrations this build carries and the database has not applied (by version).
    #[error(
        "the database needs {} migration(s) ({}): run `paylink migrate`",
        .0.len(),
        .0.iter().map(|n| format!("{n:04}")).collect::<Vec<_>>().join(", ")
    )]
    Pending(Vec<i64>),
    /// The database has a migration this build does not know: a newer paylink wrote it.
    #[error("the database has migration {0:04}, which this paylink does not know: a newer version wrote it")]
    Newer(i64),
    /// A migration half applied (it failed): the database needs a person.
    #[error("migration {0:04} failed part way on this database: restore it from a backup")]
    Dirty(i64),
    #[error(transparent)]
    Db(#[from] DbError),
}

/// The versions the database has applied, and whether each succeeded; none when it has no
/// migrations table yet (a new database).
async fn applied(pool: &Pool, backend: Backend) -> Result<Vec<(i64, bool)>, DbError> {
    let exists = match backend {
        Backend::Sqlite => {
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'"
        }
        Backend::Postgres => {
            "SELECT COUNT(*) FROM information_schema.tables
              WHERE table_name = '_sqlx_migrations' AND table_schema = current_schema()"
        }
    };
    let n: i64 = sqlx::query_scalar(exists).fetch_one(pool).await?;
    if n == 0 {
        return Ok(Vec::new());
    }
    // `success` is a BOOLEAN, which the Any driver does not map on SQLite: read as a number.
    let rows = sqlx::query(
        "SELECT version, CAST(success AS INTEGER) FROM _sqlx_migrations ORDER BY version",
    )
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)? != 0)))
        .collect()
}

/// Every migration of this build with its state on the database.
pub(super) async fn status(pool: &Pool, backend: Backend) -> Result<Vec<Migration>, SchemaError> {
    let done = applied(pool, backend).await?;
    if let Some((v, _)) = done.iter().find(|(_, ok)| !ok) {
        return Err(SchemaError::Dirty(*v));
    }
    let known = migrator(backend);
    if let Some((v, _)) = done
        .iter()
        .find(|(v, _)| !known.iter().any(|m| m.version == *v))
    {
        return Err(SchemaError::Newer(*v));
    }
    Ok(known
        .iter()
        .filter(|m| !m.migration_type.is_down_migration())
        .map(|m| Migration {
            version: m.version,
            description: m.description.to_string(),
            applied: done.iter().any(|(v, _)| *v == m.version),
        })
        .collect())
}

/// `Ok` when every migration of this build is applied, else what is wrong.
pub(super) async fn require_current(pool: &Pool, backend: Backend) -> Result<(), SchemaError> {
    let pending: Vec<i64> = status(pool, backend)
        .await?
        .into_iter()
        .filter(|m| !m.applied)
        .map(|m| m.version)
        .collect();
    if pending.is_empty() {
        Ok(())
    } else {
        Err(SchemaError::Pending(pending))
    }
}

/// Applies the pending migrations (each in its transaction, under sqlx's lock, so two
/// servers starting together apply each once).
pub(super) async fn apply(pool: &Pool, backend: Backend) -> Result<(), DbError> {
    migrator(backend).run(pool).await?;
    Ok(())
}
