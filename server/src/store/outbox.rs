//! What the two outbox workers (webhook deliveries, notification sends)
//! share: claiming due rows with a lease, so that two workers (two servers on
//! one database) never process one row at the same time, and processing the
//! claimed rows concurrently.

use std::future::Future;
use std::time::Duration;

use super::{iso_in, now_iso, Db, DbError};

/// How long a worker holds a claimed row before another may take it (a send
/// takes at most its 15 s timeout; a worker killed mid-send frees the row when
/// the lease runs out, and the row is sent again: at least once).
pub const LEASE: Duration = Duration::from_secs(60);

/// Claims each of `ids` (rows of `table` with `status = 'pending'`) and runs
/// `work` on the ones this worker won, concurrently. Returns how many it ran.
pub async fn process_claimed<F, Fut>(
    db: &Db,
    table: &'static str,
    ids: Vec<String>,
    work: F,
) -> Result<usize, DbError>
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let now = now_iso();
    let lease = iso_in(LEASE);
    let claim = format!(
        "UPDATE {table} SET locked_until = $1 WHERE id = $2 AND status = 'pending'
           AND (locked_until IS NULL OR locked_until < $3)"
    );
    let mut tasks = tokio::task::JoinSet::new();
    for id in ids {
        // Only the worker whose UPDATE changes the row owns it. On PostgreSQL
        // a second worker's UPDATE waits on the first one's row lock and then
        // re-checks the WHERE clause against the committed lease, so it
        // changes nothing (READ COMMITTED); on SQLite writers are serialised.
        // Claiming row by row like this needs no `FOR UPDATE SKIP LOCKED`,
        // and the same statement serves both backends.
        let mut tx = db.begin_write().await?;
        let won = sqlx::query(&claim)
            .bind(&lease)
            .bind(&id)
            .bind(&now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        tx.commit().await?;
        if won {
            tasks.spawn(work(id));
        }
    }
    let n = tasks.len();
    tasks.join_all().await;
    Ok(n)
}
