//! `paylink serve --metrics-listen` as an operator runs it: scraped by a real Prometheus
//! server (Debian's `prometheus`, started here on loopback, scraping every second) and
//! queried through its HTTP API. Also: the public listener has no `/metrics`, and a
//! malformed `--metrics-listen` or `--log-format` is refused at start, by name.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::helpers::{
    cli_token, cli_webhook, invoice_body, merchant_settings_beside, migrated_database, Running,
    MERCHANT_SETTINGS,
};

const BIN: &str = env!("CARGO_BIN_EXE_paylink");
/// Debian's, which `scripts/setup` installs; `PAYLINK_PROMETHEUS` names another.
const PROMETHEUS: &str = "/usr/bin/prometheus";
/// How long Prometheus gets to start, scrape and answer (it scrapes every second).
const DEADLINE: Duration = Duration::from_secs(60);

/// `serve` with a metrics listener on a free port: the public and the metrics base URLs,
/// each read from the line `serve` prints on stdout. With `log`, its JSON log (info) there.
fn serve_with_metrics(db: &str, extra: &[String], log: Option<&Path>) -> (Running, String, String) {
    let (filter, stderr, format) = match log {
        Some(path) => (
            "info",
            Stdio::from(std::fs::File::create(path).unwrap()),
            "json",
        ),
        None => ("warn", Stdio::null(), "text"),
    };
    let mut child = Command::new(BIN)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--metrics-listen",
            "127.0.0.1:0",
        ])
        .args([
            "--db",
            db,
            "--drain-delay",
            "0",
            "--allow-insecure-webhooks",
        ])
        // A production server's merchant, beside what `extra` brings (the bank's PIX key).
        .args(merchant_settings_beside(extra))
        .args(extra)
        .args(["--log-format", format])
        .env("RUST_LOG", filter)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = |prefix: &str| {
        let line = lines.next().unwrap().unwrap();
        line.strip_prefix(prefix)
            .unwrap_or_else(|| panic!("serve printed {line:?}, not {prefix}…"))
            .to_string()
    };
    let public = next("paylink listening on ");
    let metrics = next("paylink metrics on ");
    (Running(child), public, metrics)
}

/// Prometheus on a free loopback port, scraping `target` (host:port) every second, its
/// data in `dir`. `None` when it is not installed (`scripts/setup` installs it), which
/// fails the test on CI.
fn start_prometheus(dir: &Path, target: &str) -> Option<(Running, String)> {
    let bin = std::env::var("PAYLINK_PROMETHEUS").unwrap_or_else(|_| PROMETHEUS.into());
    if !Path::new(&bin).is_file() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{bin} is missing on CI: scripts/setup installs Debian's prometheus"
        );
        eprintln!("SKIPPED the Prometheus half: {bin} is missing; run scripts/setup");
        return None;
    }
    let config = dir.join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n\
             scrape_configs:\n  - job_name: paylink\n    static_configs:\n\
             \x20     - targets: ['{target}']\n"
        ),
    )
    .unwrap();
    // A port the kernel just gave and took back: free unless another process grabs it in
    // between, in which case Prometheus exits and the wait below says so.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let log = std::fs::File::create(dir.join("prometheus.log")).unwrap();
    let child = Command::new(&bin)
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.join("data").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    Some((Running(child), format!("http://127.0.0.1:{port}")))
}

/// The instant vector of `query`, asked of Prometheus until `accept` takes it or the
/// deadline passes (then the last answer and Prometheus' log are in the panic).
async fn wait_for(
    prometheus: &mut Running,
    base: &str,
    dir: &Path,
    query: &str,
    accept: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let client = reqwest::Client::new();
    let started = Instant::now();
    let mut last = Value::Null;
    while started.elapsed() < DEADLINE {
        if let Some(status) = prometheus.0.try_wait().unwrap() {
            let log = std::fs::read_to_string(dir.join("prometheus.log")).unwrap_or_default();
            panic!("prometheus exited ({status}):\n{log}");
        }
        let answer = client
            .get(format!("{base}/api/v1/query"))
            .query(&[("query", query)])
            .send()
            .await;
        if let Ok(res) = answer {
            if let Ok(v) = res.json::<Value>().await {
                let result = v["data"]["result"].as_array().cloned().unwrap_or_default();
                if accept(&result) {
                    return result;
                }
                last = v;
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let log = std::fs::read_to_string(dir.join("prometheus.log")).unwrap_or_default();
    panic!("no acceptable answer to {query} within {DEADLINE:?}; last: {last}\n{log}");
}

/// The value of the series `name` with (at least) `labels` in a `/metrics` text.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")))
        .find(|l| {
            labels
                .iter()
                .all(|(k, v)| l.contains(&format!("{k}=\"{v}\"")))
        })
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
}

/// `/metrics` read until `done` holds for it (or the deadline passes).
async fn scrape_until(metrics: &str, done: impl Fn(&str) -> bool) -> String {
    let client = reqwest::Client::new();
    let started = Instant::now();
    loop {
        let text = client
            .get(metrics)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if done(&text) {
            return text;
        }
        assert!(started.elapsed() < DEADLINE, "not there in time:\n{text}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn label<'a>(series: &'a Value, name: &str) -> &'a str {
    series["metric"][name].as_str().unwrap_or("")
}

fn value(series: &Value) -> f64 {
    series["value"][1].as_str().unwrap().parse().unwrap()
}

/// Requests through the public listener, one of them with an id in its path and one a
/// 404, then Prometheus scrapes the metrics listener: each request is counted under its
/// route template with its status (never the id), every outbox queue has its gauges, and
/// the build info, the pools and the durations' histogram are there, and the webhook
/// delivered to a local receiver is one `ok` attempt of its queue. The public listener
/// answers 404 for `/metrics`.
#[tokio::test]
async fn prometheus_scrapes_routes_statuses_outbox_queues_and_build_info() {
    let dir = tempfile::tempdir().unwrap();
    let db = migrated_database(dir.path(), "metrics.db").await;
    let token = cli_token(&db);
    let rx = crate::receiver::Receiver::start().await;
    cli_webhook(&db, &rx.url);
    let (_server, public, metrics) = serve_with_metrics(&db, &[], None);
    let auth = format!("Basic {token}");
    let client = reqwest::Client::new();

    let customer: Value = client
        .post(format!("{public}/invoices/applications/customers"))
        .header("authorization", &auth)
        .json(
            &json!({"fullName": "Maria da Silva", "document": "529.982.247-25",
                      "email": "maria@example.com.br"}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let customer_id = customer["id"].as_str().unwrap();
    let invoice = client
        .post(format!("{public}/invoices/applications/invoices"))
        .header("authorization", &auth)
        .json(&invoice_body(customer_id))
        .send()
        .await
        .unwrap();
    assert_eq!(invoice.status(), 200);
    let invoice: Value = invoice.json().await.unwrap();
    let invoice_id = invoice["id"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let read = client
            .get(format!(
                "{public}/invoices/applications/invoices/{invoice_id}"
            ))
            .header("authorization", &auth)
            .send()
            .await
            .unwrap();
        assert_eq!(read.status(), 200);
    }
    let missing = client
        .get(format!("{public}/nada/123"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    // Never on the public listener, whatever it is asked.
    let public_metrics = client
        .get(format!("{public}/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(public_metrics.status(), 404);

    // The exposition itself, before Prometheus: the template, never the id.
    let text = client
        .get(&metrics)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        text.contains(r#"route="/invoices/applications/invoices/{id}""#),
        "{text}"
    );
    assert!(!text.contains(&invoice_id), "an id in a label:\n{text}");

    let target = metrics
        .trim_start_matches("http://")
        .trim_end_matches("/metrics")
        .to_string();
    let Some((mut prometheus, base)) = start_prometheus(dir.path(), &target) else {
        return;
    };
    let p = &mut prometheus;
    let d = dir.path();

    let up = wait_for(p, &base, d, r#"up{job="paylink"}"#, |r| {
        r.first().is_some_and(|s| value(s) == 1.0)
    })
    .await;
    assert_eq!(up.len(), 1);

    let reads = wait_for(
        p,
        &base,
        d,
        r#"paylink_http_requests_total{route="/invoices/applications/invoices/{id}",method="GET"}"#,
        |r| !r.is_empty(),
    )
    .await;
    assert_eq!(reads.len(), 1, "{reads:?}");
    assert_eq!(label(&reads[0], "status"), "200");
    assert_eq!(value(&reads[0]), 2.0);

    let created = wait_for(
        p,
        &base,
        d,
        r#"paylink_http_requests_total{method="POST"}"#,
        |r| r.len() >= 2,
    )
    .await;
    let mut posts: Vec<(&str, &str)> = created
        .iter()
        .map(|s| (label(s, "route"), label(s, "status")))
        .collect();
    posts.sort();
    assert_eq!(
        posts,
        [
            ("/invoices/applications/customers", "201"),
            ("/invoices/applications/invoices", "200")
        ]
    );

    let unmatched = wait_for(
        p,
        &base,
        d,
        r#"paylink_http_requests_total{route="unmatched"}"#,
        |r| !r.is_empty(),
    )
    .await;
    assert_eq!(unmatched.len(), 1, "{unmatched:?}");
    assert_eq!(label(&unmatched[0], "status"), "404");
    assert_eq!(
        value(&unmatched[0]),
        2.0,
        "/nada/123 and the public /metrics"
    );

    // No series anywhere carries an id or a raw path.
    let all = wait_for(p, &base, d, "paylink_http_requests_total", |r| r.len() >= 4).await;
    for s in &all {
        let route = label(s, "route");
        assert!(
            !route.contains(&invoice_id) && !route.contains("nada"),
            "{s}"
        );
    }

    let buckets = wait_for(
        p,
        &base,
        d,
        r#"paylink_http_request_duration_seconds_bucket{route="/invoices/applications/invoices/{id}",le="+Inf"}"#,
        |r| !r.is_empty(),
    )
    .await;
    assert_eq!(value(&buckets[0]), 2.0);

    let queues = ["bank_calls", "notifications", "pix_automatico", "webhooks"];
    for gauge in ["paylink_outbox_due", "paylink_outbox_oldest_due_seconds"] {
        let series = wait_for(p, &base, d, gauge, |r| r.len() >= 4).await;
        let mut seen: Vec<&str> = series.iter().map(|s| label(s, "queue")).collect();
        seen.sort();
        assert_eq!(seen, queues, "{gauge}");
        assert!(series.iter().all(|s| value(s) >= 0.0), "{series:?}");
    }
    // The invoice's e-mail, SMS and WhatsApp sends wait for providers this server lacks.
    let notifications = wait_for(
        p,
        &base,
        d,
        r#"paylink_outbox_due{queue="notifications"}"#,
        |r| r.first().is_some_and(|s| value(s) >= 1.0),
    )
    .await;
    assert_eq!(notifications.len(), 1);

    rx.wait_for(20, "INVOICE_CREATED", |got| !got.is_empty())
        .await;
    let attempts = wait_for(
        p,
        &base,
        d,
        r#"paylink_outbox_attempts_total{queue="webhooks"}"#,
        |r| !r.is_empty(),
    )
    .await;
    assert_eq!(attempts.len(), 1, "{attempts:?}");
    assert_eq!(label(&attempts[0], "outcome"), "ok");
    assert_eq!(value(&attempts[0]), 1.0);

    let build = wait_for(p, &base, d, "paylink_build_info", |r| !r.is_empty()).await;
    assert_eq!(label(&build[0], "version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(value(&build[0]), 1.0);

    let pools = wait_for(p, &base, d, "paylink_db_connections", |r| r.len() >= 4).await;
    let mut kinds: Vec<(&str, &str)> = pools
        .iter()
        .map(|s| (label(s, "pool"), label(s, "state")))
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        [
            ("read", "idle"),
            ("read", "in_use"),
            ("write", "idle"),
            ("write", "in_use")
        ]
    );
}

/// A malformed `--metrics-listen` or `--log-format` ends `serve` before it listens, with
/// exit code 2 and a message naming the setting; an address already taken, with exit
/// code 1 and the setting's name too.
#[tokio::test]
async fn a_malformed_metrics_listen_or_log_format_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("refused.db");
    let db = db.to_str().unwrap();
    for (flag, bad) in [
        ("--metrics-listen", "localhost:nine"),
        ("--log-format", "xml"),
    ] {
        let out = Command::new(BIN)
            .args(["serve", "--listen", "127.0.0.1:0", "--db", db, flag, bad])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {bad}: {stderr}");
        assert!(stderr.contains(flag) && stderr.contains(bad), "{stderr}");
        assert!(
            out.stdout.is_empty(),
            "it said it listens: {:?}",
            out.stdout
        );
    }
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let at = taken.local_addr().unwrap().to_string();
    let out = Command::new(BIN)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--db",
            db,
            "--metrics-listen",
            &at,
        ])
        .args(MERCHANT_SETTINGS)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("--metrics-listen") && stderr.contains(&at),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "it said it listens: {:?}",
        out.stdout
    );
}

/// The API Pix client's calls are counted by operation (the method and first path segment,
/// never a txid) and outcome, and the charges' outbox by queue: against the local bank, an
/// invoice of PIX installments makes `put_cobv` calls after a `token`, each charge one `ok`
/// attempt of `bank_calls`. Read straight from `/metrics` (Prometheus' part is above). The
/// JSON log of the same run has each charge's line in its worker row's span (queue, row id).
#[tokio::test]
async fn bank_calls_are_counted_by_operation_and_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let db = migrated_database(dir.path(), "bank.db").await;
    let token = cli_token(&db);
    let (bank, pki) = crate::settlement_pix::start_bank().await;
    let pix = crate::settlement_pix_serve::pix_options(&bank, &pki, dir.path());
    let log = dir.path().join("serve.log");
    let (server, public, metrics) = serve_with_metrics(&db, &pix, Some(&log));
    let client = reqwest::Client::new();
    let auth = format!("Basic {token}");
    let customer: Value = client
        .post(format!("{public}/invoices/applications/customers"))
        .header("authorization", &auth)
        .json(&json!({"fullName": "Maria da Silva", "document": "529.982.247-25"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut body = invoice_body(customer["id"].as_str().unwrap());
    body["paymentTypes"] = json!(["PIX"]);
    body["notifications"] = json!([]);
    body["webhooks"] = json!([]);
    let made = client
        .post(format!("{public}/invoices/applications/invoices"))
        .header("authorization", &auth)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 200);

    let text = scrape_until(&metrics, |text| {
        let charges = sample(
            text,
            "paylink_outbox_attempts_total",
            &[("queue", "bank_calls"), ("outcome", "ok")],
        );
        charges == Some(3.0)
    })
    .await;
    let bank_ok = |op: &str| {
        sample(
            &text,
            "paylink_bank_requests_total",
            &[("operation", op), ("outcome", "ok")],
        )
    };
    assert!(bank_ok("token").is_some_and(|n| n >= 1.0), "{text}");
    assert_eq!(bank_ok("put_cobv"), Some(3.0), "{text}");
    for line in text
        .lines()
        .filter(|l| l.starts_with("paylink_bank_requests_total{"))
    {
        // The txids (26 to 35 letters and digits) never become a label.
        let operation = line.split("operation=\"").nth(1).unwrap();
        let operation = operation.split('"').next().unwrap();
        assert!(operation.len() < 20, "{line}");
    }

    // Each charge's call is logged inside its row's span, with the queue and the row's id.
    drop(server);
    let log = std::fs::read_to_string(&log).unwrap();
    let rows: Vec<Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["message"] == "PIX charge done at the bank")
        .collect();
    assert_eq!(rows.len(), 3, "{log}");
    for row in &rows {
        assert_eq!(row["span"]["name"], "row", "{row}");
        assert_eq!(row["span"]["queue"], "bank_calls", "{row}");
        assert!(
            row["span"]["id"].as_str().is_some_and(|id| !id.is_empty()),
            "{row}"
        );
    }
}

/// A notification sent through a provider is counted under the provider and its outcome,
/// and as an attempt of the notifications queue: an SMS through `--notify-http-url` (a
/// local receiver that answers 200) is one `ok` of `http`.
#[tokio::test]
async fn provider_sends_are_counted_by_provider_and_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let db = migrated_database(dir.path(), "providers.db").await;
    let token = cli_token(&db);
    let rx = crate::receiver::Receiver::start().await;
    let extra = ["--notify-http-url".to_string(), rx.url.clone()];
    let (_server, public, metrics) = serve_with_metrics(&db, &extra, None);
    let client = reqwest::Client::new();
    let auth = format!("Basic {token}");
    let customer: Value = client
        .post(format!("{public}/invoices/applications/customers"))
        .header("authorization", &auth)
        .json(&json!({"fullName": "Maria da Silva", "phone": "(11) 98765-4321"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut body = invoice_body(customer["id"].as_str().unwrap());
    body["notifications"] = json!([{ "type": "INVOICE_GENERATED", "channel": "SMS" }]);
    body["webhooks"] = json!([]);
    let made = client
        .post(format!("{public}/invoices/applications/invoices"))
        .header("authorization", &auth)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 200);
    rx.wait_for(20, "the SMS", |got| !got.is_empty()).await;
    let text = scrape_until(&metrics, |text| {
        let sends = sample(
            text,
            "paylink_outbox_attempts_total",
            &[("queue", "notifications"), ("outcome", "ok")],
        );
        sends == Some(1.0)
    })
    .await;
    let provider = |p: &str, outcome: &str| {
        sample(
            &text,
            "paylink_provider_requests_total",
            &[("provider", p), ("outcome", outcome)],
        )
    };
    assert_eq!(provider("http", "ok"), Some(1.0), "{text}");
    assert_eq!(provider("http", "error"), None, "{text}");
}
