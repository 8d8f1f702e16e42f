//! The recurring-charge scheduler: a pass every minute over RECURRING and
//! SUBSCRIPTION invoices (the pass itself, and its rules, are `store::charges`).

use std::time::Duration;

pub use crate::store::charges::run_once;
use crate::store::Db;

/// Runs a pass now and then every minute, forever.
pub async fn run(db: Db) {
    loop {
        if let Err(e) = run_once(&db, crate::domain::today()).await {
            tracing::warn!(error = %e, "recurring charge pass failed");
        }
        tokio::time::sleep(Duration::from_secs(60)).await;
    }
}
