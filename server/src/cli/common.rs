//! What every command shares: how it fails, and how it opens the database.

use crate::store::Db;

/// Why a command failed: bad input (exit 2, like clap's own usage errors)
/// or anything else (exit 1).
pub enum Failure {
    Usage(String),
    Runtime(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Runtime(message)
    }
}

pub(crate) async fn open(target: &str) -> Result<Db, String> {
    Db::open(target).await.map_err(|e| {
        format!(
            "cannot open database {}: {e}",
            crate::store::redacted(target)
        )
    })
}

/// `--db`, the same on every command: a SQLite file (created if missing) or
/// `postgres://user:pass@host/db`, also read from `PAYLINK_DB`, which keeps
/// a password off the command line (and out of `ps`); `--help` never shows
/// its value.
#[derive(clap::Args, Clone, Debug)]
pub struct DbArg {
    /// SQLite file or postgres:// URL (PAYLINK_DB keeps a password off the command line).
    #[arg(
        long = "db",
        env = "PAYLINK_DB",
        default_value = "./paylink.db",
        hide_env_values = true
    )]
    pub db: String,
}

impl std::ops::Deref for DbArg {
    type Target = str;
    fn deref(&self) -> &str {
        &self.db
    }
}
