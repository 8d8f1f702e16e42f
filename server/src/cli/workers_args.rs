//! `serve`'s settings of its background workers: which of them this server
//! runs (`--workers`, so API servers and worker servers can be kept apart),
//! the retention of what the pruning worker deletes, and the webhook retry
//! schedule's base (hidden: for tests of retries).

use super::common::DurationError;
use std::time::Duration;

use crate::workers::prune::Retention;

/// Every worker `--workers` can name, in the order `serve` starts them.
pub const WORKER_NAMES: [&str; 7] = [
    "webhooks",
    "notifications",
    "pix-charges",
    "pix-recurrences",
    "pix-reconcile",
    "scheduler",
    "prune",
];

/// What the background workers of `serve` do.
#[derive(clap::Args, Debug, Clone)]
pub struct WorkersArgs {
    /// Which workers this server runs: `all`, `none` (an API server only), or a comma list of
    /// webhooks, notifications, pix-charges, pix-recurrences, pix-reconcile, scheduler, prune.
    /// Each row is still sent once however many servers run its worker.
    #[arg(long, default_value = "all", value_name = "all|none|LIST", value_parser = parse_workers)]
    pub workers: WorkerSet,
    /// The first delay of the webhook retry schedule (5s, 5m, 30m, … 24h); the later ones keep
    /// their ratio to it. For tests of retries.
    #[arg(long, default_value = "5s", value_parser = positive_duration, hide = true)]
    pub retry_base_delay: Duration,
    /// How long an idempotency key's first answer is kept (replayed to a retry for 24 h at most).
    #[arg(long, default_value = "24h", value_parser = super::common::parse_duration)]
    pub retention_idempotency_keys: Duration,
    /// How long a finished webhook delivery (succeeded, failed or disabled) and its attempts are
    /// kept after it finished; pending ones are never pruned.
    #[arg(long, default_value = "30d", value_parser = super::common::parse_duration)]
    pub retention_deliveries: Duration,
    /// How long an event is kept once no delivery refers to it.
    #[arg(long, default_value = "30d", value_parser = super::common::parse_duration)]
    pub retention_events: Duration,
    /// How long a provider's status callback (WhatsApp, SMS) is kept after it came.
    #[arg(long, default_value = "30d", value_parser = super::common::parse_duration)]
    pub retention_provider_statuses: Duration,
    /// How long a link to a payer's page of charges is kept after it ended (expired or revoked).
    #[arg(long, default_value = "30d", value_parser = super::common::parse_duration)]
    pub retention_charges_links: Duration,
    /// How often the pruning worker runs (first at start).
    #[arg(long, default_value = "1h", value_parser = positive_duration)]
    pub prune_every: Duration,
}

impl WorkersArgs {
    /// The pruning worker's settings.
    pub fn retention(&self) -> Retention {
        Retention {
            idempotency_keys: self.retention_idempotency_keys,
            deliveries: self.retention_deliveries,
            events: self.retention_events,
            provider_statuses: self.retention_provider_statuses,
            charges_links: self.retention_charges_links,
            every: self.prune_every,
        }
    }
}

/// The workers one server runs (of [`WORKER_NAMES`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerSet(Vec<&'static str>);

impl WorkerSet {
    /// Whether the worker `name` (one of [`WORKER_NAMES`]) runs here.
    pub fn runs(&self, name: &str) -> bool {
        debug_assert!(WORKER_NAMES.contains(&name), "{name}");
        self.0.contains(&name)
    }
}

/// `all`, `none`, or a comma list of worker names (each known, none twice).
fn parse_workers(text: &str) -> Result<WorkerSet, super::config::ConfigError> {
    match text.trim() {
        "all" => return Ok(WorkerSet(WORKER_NAMES.to_vec())),
        "none" => return Ok(WorkerSet(Vec::new())),
        _ => {}
    }
    let mut set = Vec::new();
    for name in text.split(',').map(str::trim) {
        let known = WORKER_NAMES.iter().find(|&&w| w == name).ok_or_else(|| {
            super::config::ConfigError::UnknownWorker {
                name: name.to_string(),
                known: WORKER_NAMES.join(", "),
            }
        })?;
        if set.contains(known) {
            return Err(super::config::ConfigError::WorkerTwice {
                name: name.to_string(),
            });
        }
        set.push(*known);
    }
    Ok(WorkerSet(set))
}

/// A duration (see `parse_duration`) that is not zero: a period or a delay
/// that would spin at zero.
fn positive_duration(text: &str) -> Result<Duration, DurationError> {
    match super::common::parse_duration(text)? {
        Duration::ZERO => Err(DurationError::Zero(text.to_string())),
        d => Ok(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_are_all_none_or_a_list_of_known_names() {
        let all = parse_workers("all").unwrap();
        assert!(WORKER_NAMES.iter().all(|w| all.runs(w)));
        let none = parse_workers("none").unwrap();
        assert!(!WORKER_NAMES.iter().any(|w| none.runs(w)));
        let some = parse_workers("webhooks, prune").unwrap();
        assert!(some.runs("webhooks") && some.runs("prune") && !some.runs("scheduler"));
        let unknown = parse_workers("webhooks,mailer").unwrap_err().to_string();
        assert!(unknown.contains("\"mailer\""), "{unknown}");
        assert!(unknown.contains("notifications"), "{unknown}");
        assert!(parse_workers("").is_err());
        assert!(parse_workers("prune,prune").is_err());
        assert!(parse_workers("all,prune").is_err());
    }

    #[test]
    fn a_period_of_zero_is_refused() {
        assert!(positive_duration("0").is_err());
        assert_eq!(positive_duration("1h"), Ok(Duration::from_secs(3600)));
    }
}
