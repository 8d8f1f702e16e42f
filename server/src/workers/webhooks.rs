//! Webhook delivery, the Standard Webhooks way: signed (`webhook-id`,
//! `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`),
//! at-least-once from the `deliveries` outbox, retried on the Standard
//! Webhooks schedule, and never to an internal address unless allowed.

use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use crate::store::{deliveries, Db, DbError};

use crate::domain::outbound::Outbound;
use crate::domain::webhooks::sign;

/// Delay before retry n (after the n-th failed attempt): 5 s, 5 min, 30 min,
/// 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. The first attempt is immediate; after
/// the tenth the delivery is `failed`.
pub const RETRY_SCHEDULE: [u64; 9] = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
pub const MAX_ATTEMPTS: i64 = RETRY_SCHEDULE.len() as i64 + 1;
pub const SEND_TIMEOUT: Duration = Duration::from_secs(15);
/// The pause after a pass that found nothing due.
const IDLE: Duration = Duration::from_millis(300);

#[derive(Clone)]
pub struct Deliverer {
    db: Db,
    client: reqwest::Client,
    outbound: Outbound,
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
        }
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
        let due = deliveries::due(&self.db).await?;
        crate::store::outbox::process_claimed(&self.db, "deliveries", due, |id| {
            let me = self.clone();
            async move {
                if let Err(e) = me.deliver(&id).await {
                    tracing::warn!(delivery = %id, error = %e, "webhook delivery failed to record");
                }
            }
        })
        .await
    }

    #[tracing::instrument(name = "row", skip_all, fields(queue = "webhooks", id = %delivery_id))]
    async fn deliver(&self, delivery_id: &str) -> Result<(), DbError> {
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
                let base = RETRY_SCHEDULE[(attempts - 1) as usize];
                let delay = retry_after.map_or_else(|| jitter(base), |s| s.min(86_400));
                (
                    "pending",
                    Some(crate::store::iso_in(Duration::from_secs(delay))),
                )
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
        deliveries::record(&self.db, delivery_id, &pending, &attempt).await
    }

    /// Signed with each of `secrets` (the current one, and a rotated one during its grace):
    /// the receiver accepts any signature that checks out.
    async fn send(&self, url: &str, msg_id: &str, body: &str, secrets: &[&str]) -> Outcome {
        let target = match self.outbound.target(url) {
            Ok(target) => target,
            Err(why) => return Outcome::Refused(why),
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

/// ±10 % so that many endpoints failing together do not retry together.
fn jitter(secs: u64) -> u64 {
    let mut b = [0u8; 2];
    let _ = getrandom::getrandom(&mut b);
    let r = u16::from_le_bytes(b) as f64 / u16::MAX as f64; // 0..=1
    ((secs as f64) * (0.9 + 0.2 * r)).round().max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_stays_within_ten_percent() {
        for _ in 0..100 {
            let j = jitter(300);
            assert!((270..=330).contains(&j), "{j}");
        }
    }
}
