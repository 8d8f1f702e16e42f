//! What the outbox workers (webhook deliveries, notification sends, the Pix
//! bank calls and Pix Automático) share: claiming due rows under a lease, in
//! one statement per batch, so that two workers (two servers on one database)
//! never take one row at the same time, nor a row that is no longer due; and
//! processing the claimed rows concurrently, each result recorded only under
//! the lease it was claimed with.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use sqlx::Row;

use super::{iso_in, new_id, now_iso, Db, DbError};

/// How long a worker holds a claimed row before another may take it (a send
/// takes at most its 15 s timeout; a worker killed mid-send frees the row when
/// the lease runs out, and the row is sent again: at least once).
pub const LEASE: Duration = Duration::from_secs(60);

/// One sqlx query on the `Any` backend, for the binds a caller adds.
pub(crate) type Query<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// The lease a claim holds its rows under: a fresh id per claim, written into
/// each row's `lease_id`. A result is recorded only while the row still
/// carries it (`WHERE id = ? AND lease_id = ?`): once the lease ran out and
/// another worker took the row, the first one's late result changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease(Arc<str>);

impl Lease {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The rows one claim won, and its lease.
#[derive(Debug)]
pub struct Claim {
    pub lease: Lease,
    pub ids: Vec<String>,
}

/// What a row must be for a claim to take it: pending, due, and not held
/// (never leased, or its lease ran out). `$3` is now.
const DUE: &str = "status = 'pending' AND next_attempt_at <= $3
                   AND (locked_until IS NULL OR locked_until < $3)";

/// Claims up to `limit` due rows of `table` (oldest `next_attempt_at`
/// first) in one `UPDATE`, with `filter` (`AND …`, its binds from `$5` on,
/// added by `bind`) narrowing which rows qualify. Returns the ids it won.
///
/// The due condition is both in the subquery that picks the batch and on the
/// `UPDATE` itself, so a row is taken only if it is still due when it is
/// written. On SQLite writers are serialised (the write gate, then the
/// file's lock), so the statement sees every earlier claim and result. On
/// PostgreSQL the subquery locks the rows it picks `FOR UPDATE SKIP LOCKED`:
/// two servers claiming at once take disjoint batches without waiting on
/// each other (nor deadlocking on rows locked in another order), and a row
/// another server has just claimed or failed is skipped or re-checked
/// against its committed state (READ COMMITTED): no longer due, not taken.
pub(crate) async fn claim(
    db: &Db,
    table: &'static str,
    filter: &str,
    bind: impl for<'q> FnOnce(Query<'q>) -> Query<'q>,
    limit: i64,
) -> Result<Claim, DbError> {
    let lock = if db.is_postgres() {
        "FOR UPDATE SKIP LOCKED"
    } else {
        ""
    };
    let sql = format!(
        "UPDATE {table} SET locked_until = $1, lease_id = $2
         WHERE id IN (SELECT id FROM {table} WHERE {DUE} {filter}
                      ORDER BY next_attempt_at LIMIT $4 {lock})
           AND {DUE}
         RETURNING id"
    );
    let lease = Lease(Arc::from(new_id()));
    let mut tx = db.begin_write().await?;
    let rows = bind(
        sqlx::query(&sql)
            .bind(iso_in(LEASE))
            .bind(lease.as_str().to_string())
            .bind(now_iso())
            .bind(limit),
    )
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    let ids = rows
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()?;
    Ok(Claim { lease, ids })
}

/// Runs `work(id, lease)` on each claimed row, concurrently, and returns how
/// many it ran.
pub async fn run_claimed<F, Fut>(claim: Claim, work: F) -> usize
where
    F: Fn(String, Lease) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mut tasks = tokio::task::JoinSet::new();
    for id in claim.ids {
        tasks.spawn(work(id, claim.lease.clone()));
    }
    let n = tasks.len();
    tasks.join_all().await;
    n
}
