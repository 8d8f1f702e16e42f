//! Prometheus metrics (`serve --metrics-listen`): installing the recorder, the layer that
//! counts and times every request by its route template, and the metrics listener's router,
//! which reads the outbox queues and the connection pools at each scrape. Part of the app
//! layer, beside `app.rs`: the other layers record through the `metrics` facade alone
//! (`metrics::counter!`), which does nothing until [`install`] sets a recorder.
//!
//! The series (docs/operations.md, Metrics, has them with example alerts):
//! - `paylink_http_requests_total{route,method,status}`, `paylink_http_request_duration_seconds`
//!   (a histogram): recorded here, by [`track`];
//! - `paylink_outbox_due{queue}`, `paylink_outbox_oldest_due_seconds{queue}`,
//!   `paylink_db_connections{pool,state}`: read at each scrape (`store::metrics`);
//! - `paylink_outbox_attempts_total{queue,outcome}`: by each worker (`workers/`);
//! - `paylink_bank_requests_total{operation,outcome}`: by the API Pix client (`bank/`);
//! - `paylink_provider_requests_total{provider,outcome}`: by the notification sender;
//! - `paylink_build_info{version}`: set once, here.

use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder, PrometheusHandle};

use crate::store::{self, Db};

/// The route label of a request no route matched (the widget's files, a 404): a fixed
/// word, so a client cannot make a new series per path it invents.
pub const UNMATCHED: &str = "unmatched";

pub const HTTP_REQUESTS: &str = "paylink_http_requests_total";
pub const HTTP_DURATION: &str = "paylink_http_request_duration_seconds";
pub const OUTBOX_DUE: &str = "paylink_outbox_due";
pub const OUTBOX_OLDEST_DUE: &str = "paylink_outbox_oldest_due_seconds";
pub const OUTBOX_ATTEMPTS: &str = "paylink_outbox_attempts_total";
pub const BANK_REQUESTS: &str = "paylink_bank_requests_total";
pub const PROVIDER_REQUESTS: &str = "paylink_provider_requests_total";
pub const DB_CONNECTIONS: &str = "paylink_db_connections";
pub const BUILD_INFO: &str = "paylink_build_info";

/// The request histogram's buckets, in seconds: from a cached read (~1 ms) to the 20 s
/// request timeout (`app::REQUEST_TIMEOUT`), so a timed-out request lands in the last one.
const DURATION_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0,
];

/// How often the recorder drains its histograms' buffers when nobody scrapes, so their
/// memory stays bounded (axum's examples/prometheus-metrics does the same).
const UPKEEP: Duration = Duration::from_secs(5);

/// Why the recorder could not be installed.
#[derive(Debug, thiserror::Error)]
#[error("cannot install the metrics recorder: {0}")]
pub struct MetricsError(#[from] BuildError);

/// What the metrics listener needs: the recorder's handle, and the database it reads the
/// queues and pools of at each scrape.
#[derive(Clone)]
pub struct Metrics {
    handle: PrometheusHandle,
    db: Db,
}

/// Installs the process's Prometheus recorder (once; a second call fails) and starts its
/// upkeep. Must run inside the Tokio runtime.
pub fn install(db: Db) -> Result<Metrics, MetricsError> {
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(HTTP_DURATION.into()), DURATION_BUCKETS)?
        .install_recorder()?;
    describe();
    metrics::gauge!(BUILD_INFO, "version" => env!("CARGO_PKG_VERSION")).set(1.0);
    let upkeep = handle.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(UPKEEP).await;
            upkeep.run_upkeep();
        }
    });
    Ok(Metrics { handle, db })
}

/// The `# HELP` lines.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        HTTP_REQUESTS,
        "HTTP requests answered, by route template, method and status."
    );
    describe_histogram!(
        HTTP_DURATION,
        Unit::Seconds,
        "Time to answer an HTTP request, by route template, method and status."
    );
    describe_gauge!(
        OUTBOX_DUE,
        "Outbox rows pending whose next attempt is due now, by queue."
    );
    describe_gauge!(
        OUTBOX_OLDEST_DUE,
        Unit::Seconds,
        "How long the oldest due outbox row has been due, by queue (0: none due)."
    );
    describe_counter!(
        OUTBOX_ATTEMPTS,
        "Outbox rows handled by a worker, by queue and outcome."
    );
    describe_counter!(
        BANK_REQUESTS,
        "Calls to the bank's API Pix, by operation and outcome."
    );
    describe_counter!(
        PROVIDER_REQUESTS,
        "Notification provider calls (SMTP, WhatsApp, SMS), by provider and outcome."
    );
    describe_gauge!(
        DB_CONNECTIONS,
        "Database connections, by pool (read, write) and state (idle, in_use)."
    );
    describe_gauge!(BUILD_INFO, "Always 1; its label is paylink's version.");
}

/// The metrics listener's one route, `GET /metrics`; everything else is a 404.
pub fn router(metrics: Metrics) -> Router {
    Router::new()
        .route("/metrics", get(scrape))
        .with_state(metrics)
}

/// Serves [`router`] on `listener` until the task is dropped (`serve` aborts it once the
/// public listener has stopped, so Prometheus can scrape through a drain).
pub async fn serve(listener: tokio::net::TcpListener, metrics: Metrics) -> std::io::Result<()> {
    axum::serve(listener, router(metrics)).await
}

async fn scrape(State(metrics): State<Metrics>) -> Response {
    sample(&metrics.db).await;
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        metrics.handle.render(),
    )
        .into_response()
}

/// The gauges read at scrape time: nothing samples between scrapes, so with no scraper
/// there is no query.
async fn sample(db: &Db) {
    match store::metrics::outbox_due(db).await {
        Ok(queues) => {
            for q in queues {
                metrics::gauge!(OUTBOX_DUE, "queue" => q.queue).set(q.due as f64);
                metrics::gauge!(OUTBOX_OLDEST_DUE, "queue" => q.queue).set(q.oldest_due_seconds);
            }
        }
        // The last values stay; the scrape still answers with everything else.
        Err(e) => tracing::warn!(error = %e, "cannot read the outbox queues for /metrics"),
    }
    for p in store::metrics::pools(db) {
        metrics::gauge!(DB_CONNECTIONS, "pool" => p.pool, "state" => "idle").set(p.idle as f64);
        metrics::gauge!(DB_CONNECTIONS, "pool" => p.pool, "state" => "in_use").set(p.in_use as f64);
    }
}

/// The public router's layer (`app`, only with `--metrics-listen`): counts and times each
/// request under its route template (axum's `MatchedPath`), never the raw path.
pub async fn track(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| UNMATCHED.to_string(), |m| m.as_str().to_string());
    let method = method_label(req.method());
    let res = next.run(req).await;
    let labels = [
        ("route", route),
        ("method", method.to_string()),
        ("status", res.status().as_u16().to_string()),
    ];
    metrics::histogram!(HTTP_DURATION, &labels).record(started.elapsed().as_secs_f64());
    metrics::counter!(HTTP_REQUESTS, &labels).increment(1);
    res
}

/// The method as a label: the standard ones by name, any other `OTHER`, so a client
/// cannot make a series per method it invents.
fn method_label(m: &Method) -> &'static str {
    match *m {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "OTHER",
    }
}
