//! Per-address budgets for the public routes, which answer anyone: the
//! payment links' creations and the payer's routes (`/api/pay/*`, the boleto
//! PDFs). A token bucket per client address, refilled continuously, so a
//! burst of the whole budget is allowed and then one request per 60/N
//! seconds.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{AppError, Reason};

/// Requests per minute per client address; 0 turns the limit off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget(pub u32);

impl Budget {
    /// Payment links' creations: a payer makes two (customer, invoice).
    pub const LINK_CREATIONS: Budget = Budget(30);
    /// The payer's routes. A payer's page reads its charge on opening, counts
    /// a view, and then polls every 3 s at most (backing off to 30 s), so one
    /// page needs well under 30 a minute; 600 leaves room for many payers
    /// behind one address (an office, a carrier's NAT) while a guesser of
    /// invoice ids gets 10 a second instead of the thousand or so the
    /// server would answer.
    pub const PAYER: Budget = Budget(600);
}

impl Default for Budget {
    fn default() -> Self {
        Budget::LINK_CREATIONS
    }
}

/// Beyond this many tracked addresses, full buckets (idle addresses) are dropped.
const PRUNE_ABOVE: usize = 10_000;

pub struct RateLimiter {
    per_minute: u32,
    /// Take the client address from `X-Forwarded-For` (behind a trusted reverse proxy).
    trust_forwarded_for: bool,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimiter {
    pub fn new(budget: Budget, trust_forwarded_for: bool) -> Arc<Self> {
        Arc::new(RateLimiter {
            per_minute: budget.0,
            trust_forwarded_for,
            buckets: Mutex::new(HashMap::new()),
        })
    }

    /// Takes one request from `ip`'s budget, or says in how many seconds one is available.
    pub fn check(&self, ip: IpAddr, now: Instant) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let capacity = self.per_minute as f64;
        let per_sec = capacity / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > PRUNE_ABOVE {
            buckets.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * per_sec < capacity
            });
        }
        let b = buckets.entry(ip).or_insert(Bucket {
            tokens: capacity,
            at: now,
        });
        let elapsed = now.saturating_duration_since(b.at).as_secs_f64();
        b.tokens = (b.tokens + elapsed * per_sec).min(capacity);
        b.at = now;
        // The epsilon keeps float rounding (0.05 × 20 s) from costing a second.
        if b.tokens >= 1.0 - 1e-9 {
            b.tokens = (b.tokens - 1.0).max(0.0);
            Ok(())
        } else {
            Err((((1.0 - b.tokens) / per_sec - 1e-9).ceil() as u64).max(1))
        }
    }

    /// The client address as [`client_ip`] finds it.
    pub fn client_ip(&self, headers: &HeaderMap, peer: Option<SocketAddr>) -> IpAddr {
        client_ip(self.trust_forwarded_for, headers, peer)
    }
}

/// The socket peer, or with `--trust-forwarded-for` the last address in
/// `X-Forwarded-For` (the one the nearest proxy, ours, appended). Without
/// connection info (an in-process call) every caller shares one address.
pub fn client_ip(
    trust_forwarded_for: bool,
    headers: &HeaderMap,
    peer: Option<SocketAddr>,
) -> IpAddr {
    if trust_forwarded_for {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<IpAddr>().ok())
            .next_back();
        if let Some(ip) = forwarded {
            return ip;
        }
    }
    peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |p| p.ip())
}

/// Middleware: a 429 envelope with `Retry-After` once the address is over budget.
pub async fn limit(State(limiter): State<Arc<RateLimiter>>, req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    let ip = limiter.client_ip(req.headers(), peer);
    match limiter.check(ip, Instant::now()) {
        Ok(()) => next.run(req).await,
        Err(retry_after) => {
            let mut res = AppError::new(Reason::TooManyRequests).into_response();
            res.headers_mut()
                .insert("retry-after", HeaderValue::from(retry_after));
            res
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_burst_of_the_budget_then_one_per_interval() {
        let l = RateLimiter::new(Budget(3), false);
        let ip: IpAddr = "203.0.113.7".parse().unwrap();
        let other: IpAddr = "203.0.113.8".parse().unwrap();
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(l.check(ip, t0), Ok(()));
        }
        // 3 per minute: the next token comes in 20 s.
        assert_eq!(l.check(ip, t0), Err(20));
        assert_eq!(l.check(other, t0), Ok(()), "budgets are per address");
        assert_eq!(l.check(ip, t0 + Duration::from_secs(15)), Err(5));
        assert_eq!(l.check(ip, t0 + Duration::from_secs(20)), Ok(()));
        assert!(l.check(ip, t0 + Duration::from_secs(20)).is_err());
    }

    #[test]
    fn zero_is_no_limit() {
        let l = RateLimiter::new(Budget(0), false);
        let ip: IpAddr = "203.0.113.7".parse().unwrap();
        let t0 = Instant::now();
        assert!((0..1000).all(|_| l.check(ip, t0).is_ok()));
    }

    #[test]
    fn forwarded_for_only_when_trusted() {
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            "198.51.100.1, 203.0.113.9".parse().unwrap(),
        );
        let peer: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        let trusted = RateLimiter::new(Budget::default(), true);
        let untrusted = RateLimiter::new(Budget::default(), false);
        assert_eq!(
            trusted.client_ip(&h, Some(peer)),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        assert_eq!(untrusted.client_ip(&h, Some(peer)), peer.ip());
        assert_eq!(
            trusted.client_ip(&HeaderMap::new(), Some(peer)),
            peer.ip(),
            "no header: the peer"
        );
        assert_eq!(
            untrusted.client_ip(&h, None),
            IpAddr::V4(Ipv4Addr::UNSPECIFIED)
        );
    }
}
