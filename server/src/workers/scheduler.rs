//! The recurring-charge scheduler: a pass every minute over RECURRING and
//! SUBSCRIPTION invoices (the pass itself, and its rules, are `store::charges`).

use std::time::Duration;

use tokio_util::sync::CancellationToken;

pub use crate::domain::charges::run_once;
use crate::store::Db;

/// The pause between passes.
const EVERY: Duration = Duration::from_secs(60);

/// Runs a pass now and then every minute until `shutdown`.
pub async fn run(db: Db, shutdown: CancellationToken) {
    super::poll("scheduler", shutdown, EVERY, || async {
        // A pass does all that is due; the count only tells poll to wait.
        run_once(&db, crate::domain::today()).await.map(|_| 0)
    })
    .await;
}
