//! A real HTTP receiver for webhooks: records what arrives and answers with
//! the statuses a test scripts (then 200).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::post;
use axum::Router;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

#[derive(Clone, Debug)]
pub struct Received {
    /// When it arrived.
    pub at: std::time::Instant,
    /// What this receiver answered.
    pub status: u16,
    pub id: String,
    pub timestamp: String,
    pub signature: String,
    pub body: String,
}

impl Received {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap()
    }

    /// The README's verification recipe, written independently of the server:
    /// HMAC-SHA256 over "{webhook-id}.{webhook-timestamp}.{body}" with the
    /// base64-decoded secret after `whsec_`, compared with each `v1,` signature.
    pub fn verify(&self, secret: &str) -> bool {
        let key = base64::engine::general_purpose::STANDARD
            .decode(&secret["whsec_".len()..])
            .unwrap();
        let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
        mac.update(format!("{}.{}.{}", self.id, self.timestamp, self.body).as_bytes());
        let expected =
            base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes());
        self.signature
            .split(' ')
            .any(|s| s.strip_prefix("v1,") == Some(expected.as_str()))
    }
}

/// A status to answer, with an optional `Retry-After`.
type Scripted = (u16, Option<&'static str>);

#[derive(Clone, Default)]
pub struct Receiver {
    pub url: String,
    got: Arc<Mutex<Vec<Received>>>,
    /// Statuses to answer before answering 200.
    script: Arc<Mutex<VecDeque<Scripted>>>,
    /// Answer 500 to the first attempt of each event (by `webhook-id`).
    fail_first: Arc<std::sync::atomic::AtomicBool>,
}

impl Receiver {
    pub async fn start() -> Receiver {
        Receiver::start_on("127.0.0.1:0").await
    }

    pub async fn start_on(addr: &str) -> Receiver {
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        let r = Receiver {
            url: format!("http://{}/hooks", listener.local_addr().unwrap()),
            ..Default::default()
        };
        let app = Router::new()
            .route("/hooks", post(receive))
            .with_state(r.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        r
    }

    /// Answer these statuses (with an optional Retry-After) first.
    pub fn fail_with(&self, statuses: &[Scripted]) {
        self.script.lock().unwrap().extend(statuses.iter().copied());
    }

    /// Answer 500 at once to each event's first attempt, 200 to the later ones: the
    /// fast failure after which a retry must wait its delay.
    pub fn fail_first_attempts(&self) {
        self.fail_first
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn received(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    /// Waits until `pred` holds for what arrived (or fails after `secs`).
    pub async fn wait_for(
        &self,
        secs: u64,
        what: &str,
        pred: impl Fn(&[Received]) -> bool,
    ) -> Vec<Received> {
        for _ in 0..secs * 20 {
            let got = self.received();
            if pred(&got) {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "timed out waiting for {what}; received {:#?}",
            self.received()
        );
    }

    pub fn types(got: &[Received]) -> Vec<String> {
        got.iter()
            .map(|r| r.json()["type"].as_str().unwrap().to_string())
            .collect()
    }
}

async fn receive(State(r): State<Receiver>, headers: HeaderMap, body: String) -> impl IntoResponse {
    let h = |n: &str| {
        headers
            .get(n)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    let mut got = r.got.lock().unwrap();
    let first_of_event = !got.iter().any(|g| g.id == h("webhook-id"));
    let scripted = if r.fail_first.load(std::sync::atomic::Ordering::SeqCst) {
        first_of_event.then_some((500, None))
    } else {
        r.script.lock().unwrap().pop_front()
    };
    let (status, retry_after) = scripted.unwrap_or((200, None));
    got.push(Received {
        at: std::time::Instant::now(),
        status,
        id: h("webhook-id"),
        timestamp: h("webhook-timestamp"),
        signature: h("webhook-signature"),
        body,
    });
    drop(got);
    let mut res = StatusCode::from_u16(status).unwrap().into_response();
    if let Some(ra) = retry_after {
        res.headers_mut().insert("retry-after", ra.parse().unwrap());
    }
    res
}

/// A TCP port that only counts the connections made to it: the proof that a
/// refused webhook reached nothing (a TLS or HTTP exchange is not needed to
/// count, so `https://` URLs to it are counted too).
#[derive(Clone)]
pub struct Listener {
    pub port: u16,
    accepted: Arc<std::sync::atomic::AtomicUsize>,
}

impl Listener {
    pub async fn start() -> Listener {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = accepted.clone();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            // Each connection is closed at once: the client fails fast.
            while let Ok((socket, _)) = listener.accept().await {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                drop(socket);
            }
        });
        Listener { port, accepted }
    }

    pub fn connections(&self) -> usize {
        self.accepted.load(std::sync::atomic::Ordering::SeqCst)
    }
}
