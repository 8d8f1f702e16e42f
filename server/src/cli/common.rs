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
