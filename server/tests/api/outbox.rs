//! The outbox shared by several real `paylink serve` processes on one
//! database (a SQLite file, or PostgreSQL with PAYLINK_TEST_DATABASE_URL):
//! each attempt is sent once and a retry waits its delay, and `--workers`
//! picks what each server runs.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;
use crate::receiver::Receiver;

const BIN: &str = env!("CARGO_BIN_EXE_paylink");

/// A `paylink serve` process, stopped (SIGKILL) if the test fails before it
/// stops it itself.
pub struct Server {
    child: Running,
    pub addr: String,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        let (child, addr) = serve_binary(args);
        Server { child, addr }
    }

    pub fn start_logging(args: &[&str], log: std::fs::File) -> Server {
        let (child, addr) = serve_binary_logging(args, log);
        Server { child, addr }
    }

    /// SIGTERM, then waits for its exit: its workers finish the pass they
    /// are in and record it first.
    pub fn stop(mut self) {
        let ok = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill -TERM");
        let deadline = Instant::now() + Duration::from_secs(25);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "serve exited with {status}");
                return;
            }
            assert!(
                Instant::now() < deadline,
                "serve did not exit after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Creates a customer and an invoice through `addr`, with `hooks` to `url`;
/// returns the invoice's id.
pub async fn invoice_via(
    client: &reqwest::Client,
    addr: &str,
    token: &str,
    url: &str,
    hooks: &[&str],
    external_id: &str,
) -> String {
    let auth = format!("Basic {token}");
    let res = client
        .post(format!("{addr}/invoices/applications/customers"))
        .header("authorization", &auth)
        .json(&json!({ "fullName": "Maria da Silva" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let customer = body(res).await["id"].as_str().unwrap().to_string();
    let hooks: Vec<_> = hooks
        .iter()
        .map(|k| json!({ "hookType": k, "url": url }))
        .collect();
    let res = client
        .post(format!("{addr}/invoices/applications/invoices"))
        .header("authorization", &auth)
        .json(&with(
            invoice_body(&customer),
            json!({ "webhooks": hooks, "externalId": external_id }),
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

/// Polls `check` every 50 ms until it returns `Some`, for at most `secs`.
pub async fn eventually<T, F, Fut>(secs: u64, what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Two servers with their webhook workers on one database, started together
/// on a backlog of deliveries, and a receiver that answers 500 at once to
/// each event's first attempt: every event reaches it exactly twice, a
/// failure and then a success, the retry no sooner than the retry delay after
/// the failure, whichever server sent each. The outbox agrees: two attempts
/// per delivery. (With the old claim, which listed the due rows and then took
/// each one whose lease was free, due or not, this failed 4 runs in 5 on each
/// backend: the other server re-sent 8 to 18 of the 80 failed attempts
/// within 150 ms.)
#[tokio::test]
async fn two_servers_send_each_attempt_once_and_a_retry_waits_its_delay() {
    // The schedule's first delay, made short for the test (5 s by default).
    const RETRY: Duration = Duration::from_secs(1);
    let dir = tempfile::tempdir().unwrap();
    let db = migrated_database(dir.path(), "outbox.db").await;
    let token = cli_token(&db);
    let rx = Receiver::start().await;
    rx.fail_first_attempts();
    // A backlog first, written by an API server that sends nothing (`--workers none`): both
    // worker servers then start on the same due rows at once, as after an outage.
    let api = Server::start(&[
        "--db",
        &db,
        "--allow-insecure-webhooks",
        "--workers",
        "none",
    ]);
    let client = reqwest::Client::new();
    for i in 0..20 {
        let hooks = ["INVOICE_CREATED", "PAYMENT_GENERATED"];
        invoice_via(
            &client,
            &api.addr,
            &token,
            &rx.url,
            &hooks,
            &format!("order-{i}"),
        )
        .await;
    }
    let args = [
        "--db",
        &db,
        "--allow-insecure-webhooks",
        "--workers",
        "webhooks",
        "--retry-base-delay",
        "1s",
    ];
    // Started together, so that both look at the backlog at once.
    let (b, c) = std::thread::scope(|s| {
        let b = s.spawn(|| Server::start(&args));
        let c = s.spawn(|| Server::start(&args));
        (b.join().unwrap(), c.join().unwrap())
    });
    let servers = [api, b, c];

    let pool = raw_pool(&db).await;
    let deliveries: Vec<(String, String, i64)> =
        eventually(60, "every delivery to succeed", || {
            let pool = pool.clone();
            async move {
                let rows: Vec<(String, String, i64)> =
                    sqlx::query_as("SELECT event_id, status, attempts FROM deliveries")
                        .fetch_all(&pool)
                        .await
                        .unwrap();
                rows.iter()
                    .all(|(_, status, _)| status == "succeeded")
                    .then_some(rows)
            }
        })
        .await;
    assert!(deliveries.len() >= 40, "{} deliveries", deliveries.len());
    // Stopped, each finishes and records what it had claimed: nothing more can come.
    for server in servers {
        server.stop();
    }

    let mut by_event: BTreeMap<String, Vec<_>> = BTreeMap::new();
    for got in rx.received() {
        by_event.entry(got.id.clone()).or_default().push(got);
    }
    assert_eq!(by_event.len(), deliveries.len(), "one event per delivery");
    let min_gap = RETRY.mul_f64(0.9); // the jitter takes up to 10 % off
    let mut wrong = Vec::new();
    for (event, got) in &by_event {
        let statuses: Vec<u16> = got.iter().map(|g| g.status).collect();
        let gaps: Vec<Duration> = got.windows(2).map(|w| w[1].at - w[0].at).collect();
        if statuses != [500, 200] || gaps.iter().any(|g| *g < min_gap) {
            wrong.push(format!("{event}: {statuses:?} {gaps:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} events were not one failure then one retry ≥ {min_gap:?} later:\n{}",
        wrong.len(),
        by_event.len(),
        wrong.join("\n")
    );
    for (event, _, attempts) in &deliveries {
        assert_eq!(*attempts, 2, "delivery of {event}");
    }
    let recorded: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM delivery_attempts")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(recorded, 2 * deliveries.len() as i64);
}

/// `--workers none` makes an API server: it answers, and starts no worker,
/// so the delivery it writes waits; a `--workers webhooks` server on the same
/// database sends it, and starts that worker alone. A name that is no worker
/// is refused at start, naming the setting and the names it takes.
#[tokio::test]
async fn workers_picks_what_a_server_runs() {
    let dir = tempfile::tempdir().unwrap();
    let db = migrated_database(dir.path(), "split.db").await;
    let token = cli_token(&db);
    let rx = Receiver::start().await;

    let api_log = dir.path().join("api.log");
    let api = Server::start_logging(
        &[
            "--db",
            &db,
            "--allow-insecure-webhooks",
            "--workers",
            "none",
        ],
        std::fs::File::create(&api_log).unwrap(),
    );
    let client = reqwest::Client::new();
    invoice_via(
        &client,
        &api.addr,
        &token,
        &rx.url,
        &["INVOICE_CREATED"],
        "a",
    )
    .await;

    let worker_log = dir.path().join("worker.log");
    let worker = Server::start_logging(
        &[
            "--db",
            &db,
            "--allow-insecure-webhooks",
            "--workers",
            "webhooks",
        ],
        std::fs::File::create(&worker_log).unwrap(),
    );
    rx.wait_for(10, "the delivery, from the worker server", |got| {
        got.len() == 1
    })
    .await;
    api.stop();
    worker.stop();
    let api_log = std::fs::read_to_string(&api_log).unwrap();
    assert!(!api_log.contains("worker started"), "{api_log}");
    let worker_log = std::fs::read_to_string(&worker_log).unwrap();
    let started: Vec<&str> = worker_log
        .lines()
        .filter(|l| l.contains("worker started"))
        .collect();
    assert_eq!(started.len(), 1, "{worker_log}");
    assert!(started[0].contains("webhooks"), "{worker_log}");

    let refused = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--db", &db])
        .args(["--workers", "webhooks,mailer"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(err.contains("--workers"), "{err}");
    assert!(err.contains("\"mailer\""), "{err}");
    assert!(err.contains("notifications"), "{err}");
    assert!(refused.stdout.is_empty(), "it never said it listens");
}

/// A database with one invoice (the usual body, its webhook to `hook_url`), written by the
/// service alone: no worker runs, only the test claims. Its `--db` target, and the `Db`.
async fn invoice_without_workers(
    dir: &std::path::Path,
    hook_url: &str,
) -> (String, paylink_server::store::Db) {
    use tower::ServiceExt;
    let target = test_database(dir, "lease.db").await;
    let db = paylink_server::store::Db::open(&target).await.unwrap();
    let (_, token) = paylink_server::http::auth::create_token(&db, "loja")
        .await
        .unwrap();
    let service = paylink_server::service(paylink_server::Service {
        db: db.clone(),
        public_url: std::sync::Arc::from("http://127.0.0.1"),
        outbound: paylink_server::domain::outbound::Outbound::public_only(),
        merchant: Default::default(),
    });
    let post = |path: &str, body: serde_json::Value| {
        axum::http::Request::post(path)
            .header("authorization", format!("Basic {token}"))
            .header("content-type", "application/json")
            .body(axum::body::Body::from(body.to_string()))
            .unwrap()
    };
    let res = service
        .clone()
        .oneshot(post(
            "/invoices/applications/customers",
            json!({ "fullName": "Maria da Silva", "email": "maria@example.com" }),
        ))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let customer: serde_json::Value = serde_json::from_slice(
        &axum::body::to_bytes(res.into_body(), 1 << 20)
            .await
            .unwrap(),
    )
    .unwrap();
    let hooks = json!([{ "hookType": "INVOICE_CREATED", "url": hook_url }]);
    let invoice = with(
        invoice_body(customer["id"].as_str().unwrap()),
        json!({ "webhooks": hooks }),
    );
    let res = service
        .oneshot(post("/invoices/applications/invoices", invoice))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    (target, db)
}

/// The claim and the lease, step by step on one delivery (a server paused
/// past its lease, then another taking the row over): a delivery whose retry
/// is not due yet is not claimed; a claimed one is not claimed again while
/// its lease runs; once the lease has run out another claim takes it, and
/// the first claimer's late result records nothing (no attempt, the row as
/// the second left it) while the second one's is recorded.
#[tokio::test]
async fn a_claim_takes_only_due_rows_and_a_lost_lease_records_nothing() {
    use paylink_server::store::deliveries::{self, Attempt};
    let dir = tempfile::tempdir().unwrap();
    let (target, db) = invoice_without_workers(dir.path(), "https://loja.example/h").await;
    let pool = raw_pool(&target).await;
    let set = |sql: &'static str| {
        let pool = pool.clone();
        async move { sqlx::query(sql).execute(&pool).await.unwrap() }
    };
    // Tried once already, its retry far ahead.
    set(
        "UPDATE deliveries SET status = 'pending', attempts = 1, locked_until = NULL,
                lease_id = NULL, next_attempt_at = '2999-01-01T00:00:00.000Z'",
    )
    .await;
    assert!(
        deliveries::claim_due(&db).await.unwrap().ids.is_empty(),
        "not due yet"
    );
    set("UPDATE deliveries SET next_attempt_at = '2000-01-01T00:00:00.000Z'").await;
    let first = deliveries::claim_due(&db).await.unwrap();
    assert_eq!(first.ids.len(), 1);
    let id = first.ids[0].clone();
    assert!(
        deliveries::claim_due(&db).await.unwrap().ids.is_empty(),
        "leased"
    );
    set("UPDATE deliveries SET locked_until = '2000-01-01T00:00:00.000Z'").await;
    let second = deliveries::claim_due(&db).await.unwrap();
    assert_eq!(second.ids, std::slice::from_ref(&id));
    assert_ne!(first.lease, second.lease);

    let pending = deliveries::pending(&db, &id).await.unwrap();
    let attempt = |status| Attempt {
        status_code: Some(200),
        error: None,
        duration_ms: 3,
        status,
        next_attempt_at: None,
        attempts: 2,
        gone: false,
    };
    let attempts = || {
        let pool = pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM delivery_attempts")
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    let before = attempts().await;
    let late = attempt("failed");
    let late = deliveries::record(&db, &id, &first.lease, &pending, &late);
    assert!(!late.await.unwrap(), "recorded under a lost lease");
    assert_eq!(attempts().await, before);
    let (status, lease): (String, Option<String>) =
        sqlx::query_as("SELECT status, lease_id FROM deliveries WHERE id = $1")
            .bind(&id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(
        (status.as_str(), lease.as_deref()),
        ("pending", Some(second.lease.as_str()))
    );
    let done = attempt("succeeded");
    let held = deliveries::record(&db, &id, &second.lease, &pending, &done);
    assert!(held.await.unwrap());
    assert_eq!(attempts().await, before + 1);
    let status: String = sqlx::query_scalar("SELECT status FROM deliveries WHERE id = $1")
        .bind(&id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(status, "succeeded");
}

/// The same for a notification send (an SMS sent twice is what the payer
/// notices): claimed once while its lease runs; a late outcome under a lost
/// lease records nothing, the holder's is recorded.
#[tokio::test]
async fn a_send_under_a_lost_lease_records_nothing() {
    use paylink_server::store::sends::{self, Channels, SendResult};
    let dir = tempfile::tempdir().unwrap();
    let (target, db) = invoice_without_workers(dir.path(), "https://loja.example/h").await;
    let pool = raw_pool(&target).await;
    let email = Channels {
        email: true,
        whatsapp: false,
        sms: false,
    };
    // The invoice's INVOICE_GENERATED e-mail is due at once.
    let first = sends::claim_due_sends(&db, email).await.unwrap();
    assert_eq!(first.ids.len(), 1, "{first:?}");
    let id = first.ids[0].clone();
    assert!(sends::claim_due_sends(&db, email)
        .await
        .unwrap()
        .ids
        .is_empty());
    sqlx::query(
        "UPDATE notification_sends SET locked_until = '2000-01-01T00:00:00.000Z' WHERE id = $1",
    )
    .bind(&id)
    .execute(&pool)
    .await
    .unwrap();
    let second = sends::claim_due_sends(&db, email).await.unwrap();
    assert_eq!(second.ids, std::slice::from_ref(&id));
    let sent = SendResult {
        status: "sent",
        attempts: 1,
        next_attempt_at: None,
        error: None,
        sent_at: Some("2026-12-01T12:00:00.000Z"),
        recipient: None,
        provider_id: None,
    };
    assert!(!sends::record_send(&db, &id, &first.lease, &sent)
        .await
        .unwrap());
    let status = || {
        let (pool, id) = (pool.clone(), id.clone());
        async move {
            sqlx::query_as::<_, (String, i64)>(
                "SELECT status, attempts FROM notification_sends WHERE id = $1",
            )
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap()
        }
    };
    assert_eq!(status().await, ("pending".to_string(), 0));
    assert!(sends::record_send(&db, &id, &second.lease, &sent)
        .await
        .unwrap());
    assert_eq!(status().await, ("sent".to_string(), 1));
}
