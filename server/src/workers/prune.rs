//! The pruning worker: every `--prune-every` (and once at start) it deletes
//! what has served its purpose, each kind older than its retention (what and
//! why: `store::prune`), in batches of at most `store::prune::BATCH` rows with
//! a pause between them, so a large first prune never holds the database.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::store::prune::{self, Prunable};
use crate::store::{Db, DbError};

/// The pause between two batches: other writers (requests, the other
/// workers, other servers on the SQLite file) get the database meanwhile.
const BETWEEN_BATCHES: Duration = Duration::from_millis(20);

/// How long each kind is kept, and how often the worker prunes.
#[derive(Clone, Debug)]
pub struct Retention {
    pub idempotency_keys: Duration,
    pub deliveries: Duration,
    pub events: Duration,
    pub provider_statuses: Duration,
    pub charges_links: Duration,
    pub every: Duration,
}

impl Retention {
    fn of(&self, what: Prunable) -> Duration {
        match what {
            Prunable::Deliveries => self.deliveries,
            Prunable::Events => self.events,
            Prunable::IdempotencyKeys => self.idempotency_keys,
            Prunable::ProviderStatuses => self.provider_statuses,
            Prunable::ChargesLinks => self.charges_links,
        }
    }
}

/// Prunes now and then every `retention.every` until `shutdown`; see [`super::poll`].
pub async fn run(db: Db, retention: Retention, shutdown: CancellationToken) {
    let stop = shutdown.clone();
    super::poll("prune", shutdown, retention.every, || {
        prune_all(&db, &retention, &stop)
    })
    .await;
}

/// One pass: each kind in turn (deliveries before the events they refer to),
/// batch after batch until none is left or `shutdown` comes. Returns 0, so
/// that the next pass waits its period.
pub async fn prune_all(
    db: &Db,
    retention: &Retention,
    shutdown: &CancellationToken,
) -> Result<usize, DbError> {
    for what in Prunable::ALL {
        let mut deleted = 0;
        loop {
            let n = prune::batch(db, what, retention.of(what)).await?;
            deleted += n;
            if n < prune::BATCH as u64 || shutdown.is_cancelled() {
                break;
            }
            tokio::time::sleep(BETWEEN_BATCHES).await;
        }
        if deleted > 0 {
            tracing::info!(worker = "prune", table = what.as_str(), deleted, "pruned");
        }
    }
    Ok(0)
}
