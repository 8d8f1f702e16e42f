//! Webhook delivery, the Standard Webhooks way: signed (`webhook-id`,
//! `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`),
//! at-least-once from the `deliveries` outbox, retried on the Standard
//! Webhooks schedule, and never to an internal address unless allowed.

use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use crate::store::outbox::{run_claimed, Lease};
use crate::store::{deliveries, Db, DbError};

use crate::domain::outbound::Outbound;
use crate::domain::webhooks::sign;

/// Delay before retry n (after the n-th failed attempt): 5 s, 5 min, 30 min,
/// 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. The first attempt is immediate; after
/// the tenth the delivery is `failed`.
pub const RETRY_SCHEDULE: [u64; 9] = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
/// The first delay of [`RETRY_SCHEDULE`], the base the others are multiples of.
pub const RETRY_BASE: Duration = Duration::from_secs(RETRY_SCHEDULE[0]);
pub const MAX_ATTEMPTS: i64 = RETRY_SCHEDULE.len() as i64 + 1;
pub const SEND_TIMEOUT: Duration = Duration::from_secs(15);
/// The pause after a pass that found nothing due.
const IDLE: Duration = Duration::from_millis(300);

#[derive(Clone)]
pub struct Deliverer {
    db: Db,
    client: reqwest::Client,
    outbound: Outbound,
    /// [`RETRY_BASE`] unless changed (`serve --retry-base-delay`): the schedule scaled to it.
    retry_base: Duration,
}

enum Outcome {
    Success(u16),
    /// Retry later: status (if any), error text, server's Retry-After.
    Retry(Option<u16>, String, Option<u64>),
    /// 410 Gone: the endpoint asked never to be called again.
    Gone,
    /// Will never work (refused address or scheme): no retries.
    Refused(String),
}

impl Deliverer {
    /// A deliverer that calls only what `outbound` allows.
    pub fn new(db: Db, outbound: Outbound) -> Deliverer {
        let builder = reqwest::Client::builder()
            .timeout(SEND_TIMEOUT)
            .connect_timeout(Duration::from_secs(5))
            .user_agent("paylink-webhooks/1");
        Deliverer {
            db,
            client: outbound.client(builder).expect("a valid HTTP client"),
            outbound,
            retry_base: RETRY_BASE,
        }
    }

    /// The same deliverer with [`RETRY_SCHEDULE`] scaled so that its first delay is `base`
    /// (the others keep their ratio to it): tests of retries need not wait 5 s each.
    pub fn with_retry_base(mut self, base: Duration) -> Deliverer {
        self.retry_base = base;
        self
    }

    /// Delivers what is due until `shutdown`; see [`super::poll`].
    /// Everything it needs is in the database, so a restart (or a CLI write)
    /// loses nothing.
    pub async fn run(self, shutdown: CancellationToken) {
        super::poll("webhooks", shutdown, IDLE, || self.deliver_due()).await;
    }

    /// One pass: claims up to 16 due deliveries and sends them concurrently.
    #[tracing::instrument(name = "pass", skip_all, fields(queue = "webhooks"))]
    pub async fn deliver_due(&self) -> Result<usize, DbError> {
        let claim = deliveries::claim_due(&self.db).await?;
        Ok(run_claimed(claim, |id, lease| {
            let me = self.clone();
            async move {
                match me.deliver(&id, &lease).await {
                    Ok(true) => {}
                    // Held past its lease (a send slower than the lease, a paused process):
                    // another worker has the delivery now, and its attempt is the one recorded.
                    Ok(false) => tracing::warn!(delivery = %id, lease = lease.as_str(), "webhook delivery's lease was lost; its result is not recorded"),
                    Err(e) => {
                        tracing::warn!(delivery = %id, error = %e, "webhook delivery failed to record");
                    }
                }
            }
        })
        .await)
    }

    /// Sends one delivery and records the attempt; whether it still held `lease` to do so.
    #[tracing::instrument(name = "row", skip_all, fields(queue = "webhooks", id = %delivery_id))]
    async fn deliver(&self, delivery_id: &str, lease: &Lease) -> Result<bool, DbError> {
        let pending = deliveries::pending(&self.db, delivery_id).await?;
        let attempts = pending.attempts + 1;
        let secrets =
            crate::store::applications::webhook_secrets(&self.db, &pending.application_id).await?;
        let secrets: Vec<&str> = std::iter::once(secrets.current.as_str())
            .chain(secrets.previous.as_deref())
            .collect();

        let started = Instant::now();
        let outcome = self
            .send(&pending.url, &pending.event_id, &pending.payload, &secrets)
            .await;
        let duration_ms = started.elapsed().as_millis() as i64;
        let (status_code, error) = match &outcome {
            Outcome::Success(c) => (Some(*c), None),
            Outcome::Retry(c, e, _) => (*c, Some(e.clone())),
            Outcome::Gone => (Some(410), Some("410 Gone: endpoint disabled".to_string())),
            Outcome::Refused(e) => (None, Some(e.clone())),
        };
        let (status, next) = match &outcome {
            Outcome::Success(_) => ("succeeded", None),
            Outcome::Gone => ("disabled", None),
            Outcome::Refused(_) => ("failed", None),
            Outcome::Retry(..) if attempts >= MAX_ATTEMPTS => ("failed", None),
            Outcome::Retry(_, _, retry_after) => {
                let delay = retry_after.map_or_else(
                    || jitter(retry_delay(self.retry_base, attempts)),
                    |s| Duration::from_secs(s.min(86_400)),
                );
                ("pending", Some(crate::store::iso_in(delay)))
            }
        };
        // The outcome in the words every queue's counter uses (docs/operations.md, Metrics).
        let label = match status {
            "succeeded" => "ok",
            "pending" => "retry",
            "disabled" => "gone",
            _ => "failed",
        };
        metrics::counter!(
            "paylink_outbox_attempts_total",
            "queue" => "webhooks",
            "outcome" => label,
        )
        .increment(1);
        let attempt = deliveries::Attempt {
            status_code,
            error: error.as_deref(),
            duration_ms,
            status,
            next_attempt_at: next.as_deref(),
            attempts,
            gone: matches!(outcome, Outcome::Gone),
        };
        deliveries::record(&self.db, delivery_id, lease, &pending, &attempt).await
    }

    /// Signed with each of `secrets` (the current one, and a rotated one during its grace):
    /// the receiver accepts any signature that checks out.
    async fn send(&self, url: &str, msg_id: &str, body: &str, secrets: &[&str]) -> Outcome {
        let target = match self.outbound.target(url) {
            Ok(target) => target,
            Err(why) => return Outcome::Refused(why.to_string()),
        };
        let timestamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let Some(signatures) = secrets
            .iter()
            .map(|secret| sign(secret, msg_id, timestamp, body))
            .collect::<Option<Vec<_>>>()
        else {
            return Outcome::Refused("the application's webhook secret is unreadable".into());
        };
        let signature = signatures.join(" ");
        let res = self
            .client
            .post(target)
            .header("content-type", "application/json")
            .header("webhook-id", msg_id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(body.to_string())
            .send()
            .await;
        match res {
            Ok(r) if r.status().is_success() => Outcome::Success(r.status().as_u16()),
            Ok(r) if r.status().as_u16() == 410 => Outcome::Gone,
            Ok(r) => {
                let retry_after = r
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok());
                Outcome::Retry(
                    Some(r.status().as_u16()),
                    format!("HTTP {}", r.status()),
                    retry_after,
                )
            }
            Err(e) => Outcome::Retry(None, super::error_chain(&e), None),
        }
    }
}

/// The delay before the retry after failed attempt `attempts` (1 for the
/// first), before jitter: [`RETRY_SCHEDULE`] scaled to its first step being `base`.
fn retry_delay(base: Duration, attempts: i64) -> Duration {
    let steps = RETRY_SCHEDULE[(attempts - 1) as usize] / RETRY_SCHEDULE[0];
    base.saturating_mul(steps as u32)
}

/// ±10 % so that many endpoints failing together do not retry together (at
/// least a millisecond).
fn jitter(delay: Duration) -> Duration {
    let mut b = [0u8; 2];
    let _ = getrandom::getrandom(&mut b);
    let r = u16::from_le_bytes(b) as f64 / u16::MAX as f64; // 0..=1
    delay.mul_f64(0.9 + 0.2 * r).max(Duration::from_millis(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_stays_within_ten_percent() {
        for _ in 0..100 {
            let j = jitter(Duration::from_secs(300));
            assert!(
                (Duration::from_secs(270)..=Duration::from_secs(330)).contains(&j),
                "{j:?}"
            );
        }
    }

    /// The schedule keeps its shape when its base is changed.
    #[test]
    fn the_retry_base_scales_the_schedule() {
        assert_eq!(retry_delay(RETRY_BASE, 1), Duration::from_secs(5));
        assert_eq!(retry_delay(RETRY_BASE, 2), Duration::from_secs(300));
        assert_eq!(retry_delay(RETRY_BASE, 9), Duration::from_secs(86_400));
        let fast = Duration::from_millis(100);
        assert_eq!(retry_delay(fast, 1), fast);
        assert_eq!(retry_delay(fast, 9), Duration::from_secs(1728));
    }
}
