//! The background work `serve` runs: webhook deliveries, notification sends
//! and the Pix bank calls (each from an outbox table), the recurring-charge
//! scheduler and the pruning of what has served its purpose.
//!
//! Each worker is a [`poll`] loop over one pass function. [`Workers`] owns
//! them: a worker that panics or returns is logged and started again (after
//! a pause, so a worker that keeps failing does not spin), and on shutdown
//! each one finishes the pass it is in (its sends recorded, its leases
//! released) before the process exits.

use std::future::Future;
use std::time::Duration;

use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::store::DbError;

pub mod notifications;
pub mod pix;
pub mod pix_rec;
pub mod prune;
pub mod scheduler;
pub mod webhooks;

/// A pause before a worker that died is started again.
pub const RESTART_PAUSE: Duration = Duration::from_secs(1);

/// Runs `pass` until `shutdown` is cancelled: again at once when it did some
/// work (there may be more), after `idle` when it found nothing or failed.
/// A pass that has started is never interrupted, so shutdown waits for the
/// current deliveries to be sent and recorded.
pub async fn poll<F, Fut>(
    name: &'static str,
    shutdown: CancellationToken,
    idle: Duration,
    mut pass: F,
) where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<usize, DbError>>,
{
    while !shutdown.is_cancelled() {
        match pass().await {
            Ok(n) if n > 0 => continue,
            Ok(_) => {}
            Err(e) => tracing::warn!(worker = name, error = %e, "pass failed"),
        }
        tokio::select! {
            _ = shutdown.cancelled() => {}
            _ = tokio::time::sleep(idle) => {}
        }
    }
}

use crate::domain::error_chain;

/// The workers of one server, and the signal that stops them.
pub struct Workers {
    shutdown: CancellationToken,
    tasks: JoinSet<()>,
}

impl Default for Workers {
    fn default() -> Self {
        Workers::new()
    }
}

impl Workers {
    pub fn new() -> Workers {
        Workers {
            shutdown: CancellationToken::new(),
            tasks: JoinSet::new(),
        }
    }

    /// Starts a worker: `run(shutdown)` is a loop that returns once `shutdown`
    /// is cancelled. If it panics or returns before that, the error is
    /// logged and a new `run` starts after [`RESTART_PAUSE`].
    pub fn spawn<F, Fut>(&mut self, name: &'static str, run: F)
    where
        F: Fn(CancellationToken) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        tracing::info!(worker = name, "worker started");
        let shutdown = self.shutdown.clone();
        self.tasks.spawn(async move {
            loop {
                // Its own task, so a panic is caught here; aborted with this
                // supervisor (a shutdown past its grace), or it would run on.
                let outcome =
                    tokio_util::task::AbortOnDropHandle::new(tokio::spawn(run(shutdown.clone())))
                        .await;
                if shutdown.is_cancelled() {
                    return;
                }
                match outcome {
                    Ok(()) => tracing::error!(
                        worker = name,
                        "worker stopped on its own; starting it again"
                    ),
                    Err(e) => {
                        tracing::error!(worker = name, error = %e, "worker died; starting it again");
                    }
                }
                tokio::select! {
                    _ = shutdown.cancelled() => return,
                    _ = tokio::time::sleep(RESTART_PAUSE) => {}
                }
            }
        });
    }

    /// Asks every worker to stop after its current pass and waits for them,
    /// at most `grace`; a worker still busy then is cut off (its leases run
    /// out and its rows are taken again later: at least once).
    pub async fn shutdown(mut self, grace: Duration) {
        self.shutdown.cancel();
        let all = async { while self.tasks.join_next().await.is_some() {} };
        if tokio::time::timeout(grace, all).await.is_err() {
            tracing::warn!(
                ?grace,
                "workers still busy after the grace period; stopping them"
            );
            self.tasks.abort_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// A worker that panics is noticed and started again, and shutdown
    /// waits for the pass in progress.
    #[tokio::test]
    async fn a_dead_worker_is_started_again() {
        let starts = Arc::new(AtomicUsize::new(0));
        let finished = Arc::new(AtomicUsize::new(0));
        let mut workers = Workers::new();
        let (s, f) = (starts.clone(), finished.clone());
        workers.spawn("flaky", move |shutdown| {
            let (s, f) = (s.clone(), f.clone());
            async move {
                if s.fetch_add(1, Ordering::SeqCst) == 0 {
                    panic!("the first run dies");
                }
                poll("flaky", shutdown, Duration::from_millis(10), || {
                    let f = f.clone();
                    async move {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        f.fetch_add(1, Ordering::SeqCst);
                        Ok(0)
                    }
                })
                .await;
            }
        });
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while finished.load(Ordering::SeqCst) == 0 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the worker was not started again"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(starts.load(Ordering::SeqCst), 2);
        workers.shutdown(Duration::from_secs(5)).await;
        let after = finished.load(Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(
            finished.load(Ordering::SeqCst),
            after,
            "a worker ran after shutdown"
        );
    }

    /// A worker still busy when the grace period ends is stopped, not left
    /// running behind the supervisor that was aborted.
    #[tokio::test]
    async fn a_worker_past_the_grace_is_stopped() {
        let ticks = Arc::new(AtomicUsize::new(0));
        let mut workers = Workers::new();
        let t = ticks.clone();
        workers.spawn("stubborn", move |_shutdown| {
            let t = t.clone();
            async move {
                loop {
                    t.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
        });
        while ticks.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        workers.shutdown(Duration::from_millis(50)).await;
        // The abort lands at the worker's next await.
        tokio::time::sleep(Duration::from_millis(20)).await;
        let after = ticks.load(Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(ticks.load(Ordering::SeqCst), after, "the worker still runs");
    }

    /// A pass in progress is finished, not cut, when shutdown comes, and no
    /// other starts.
    #[tokio::test]
    async fn shutdown_lets_the_current_pass_finish() {
        let started = Arc::new(AtomicUsize::new(0));
        let done = Arc::new(AtomicUsize::new(0));
        let mut workers = Workers::new();
        let (s, d) = (started.clone(), done.clone());
        workers.spawn("slow", move |shutdown| {
            let (s, d) = (s.clone(), d.clone());
            poll("slow", shutdown, Duration::from_millis(10), move || {
                let (s, d) = (s.clone(), d.clone());
                async move {
                    s.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    d.fetch_add(1, Ordering::SeqCst);
                    Ok(0)
                }
            })
        });
        while started.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        workers.shutdown(Duration::from_secs(5)).await;
        assert_eq!(
            (started.load(Ordering::SeqCst), done.load(Ordering::SeqCst)),
            (1, 1)
        );
    }
}
