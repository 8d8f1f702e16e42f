//! The application: its state, the router of everything `serve` answers
//! (service, proxy, widget), the layers every answer goes through, and
//! serving it until SIGTERM or Ctrl-C with a bounded drain.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{FromRef, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;

use crate::domain::payer;
use crate::error::{AppError, Reason};
use crate::http::{self, health};
use crate::http::{cors, ratelimit, session};
use crate::pay;
use crate::proxy;
use crate::store::Db;
use crate::web;
use crate::workers::Workers;

pub use crate::http::{Service, BODY_LIMIT};

/// How `serve` is configured beyond the service itself.
#[derive(Clone)]
pub struct Options {
    /// The proxy's upstream and token; `None` leaves `/api` answering 503.
    pub proxy: Option<proxy::ProxyConfig>,
    /// The built widget (`dist/`); `None` serves no pages.
    pub dist: Option<PathBuf>,
    /// Operator sessions' lifetimes and login throttling.
    pub sessions: crate::domain::operators::SessionConfig,
    /// Who may frame the widget's pages (CSP `frame-ancestors`); default `'self'`.
    pub frame_ancestors: Option<String>,
    /// Merchant identity, PIX key and boleto agreement for the payer page; sandbox mode.
    pub payer: payer::PayerConfig,
    /// Origins allowed to call `/api/*` cross-origin (CORS); `cli` also adds them to `frame_ancestors`.
    pub allowed_origins: Vec<String>,
    /// Payment links' creations per minute per client address.
    pub public_rate_limit: ratelimit::Budget,
    /// The payer's requests (`/api/pay/*`, boleto PDFs) per minute per client address.
    pub payer_rate_limit: ratelimit::Budget,
    /// Client address from `X-Forwarded-For` (behind a reverse proxy you run).
    pub trust_forwarded_for: bool,
    /// The bank's Pix callback (`serve --pix-api-url`); `None`: no such route.
    pub pix_webhook: Option<http::pix_webhook::PixWebhook>,
    /// The notification providers' status callbacks (`serve --whatsapp-*`, `--twilio-*`);
    /// `None`: no such routes.
    pub provider_hooks: Option<http::provider_webhooks::ProviderHooks>,
    /// What `/readyz` answers; [`serve`] turns it off when it begins to stop.
    pub readiness: health::Readiness,
    /// How long a request may take before it is answered with the 503 envelope.
    pub request_timeout: Duration,
    /// Count and time every request for `/metrics` (`serve --metrics-listen`, which installs
    /// the recorder); off, the layer is not there at all.
    pub metrics: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            proxy: None,
            dist: None,
            sessions: Default::default(),
            frame_ancestors: None,
            payer: Default::default(),
            allowed_origins: Vec::new(),
            public_rate_limit: ratelimit::Budget::LINK_CREATIONS,
            payer_rate_limit: ratelimit::Budget::PAYER,
            trust_forwarded_for: false,
            pix_webhook: None,
            provider_hooks: None,
            readiness: Default::default(),
            request_timeout: REQUEST_TIMEOUT,
            metrics: false,
        }
    }
}

/// Everything the routes read, made once by [`app`]: one state, of which each
/// route takes only the part it needs (`State<Db>`, `State<Service>`, ...)
/// through the `FromRef` impls below (the shape of axum's `examples/oauth`).
/// Routers below take any state with their parts (`Router<S>` where
/// `Part: FromRef<S>`), so the layers under `app` never name this one.
#[derive(Clone)]
pub struct AppState {
    /// The invoicing service's: database, public URL, outbound policy.
    service: Service,
    /// The proxy's upstream and token (`None`: `/api` answers 503).
    proxy: proxy::Handle,
    /// The payer routes': who is paid, the pages' assets.
    payer: pay::Payer,
    /// Operators' sessions (login, and every merchant call's check).
    sessions: Arc<session::Sessions>,
    /// What `/readyz` answers.
    readiness: health::Readiness,
    /// The bank's Pix callback, when `serve --pix-api-url` set one.
    pix_webhook: Option<http::pix_webhook::PixWebhook>,
    /// The notification providers' status callbacks, when a provider is configured.
    provider_hooks: Option<http::provider_webhooks::ProviderHooks>,
}

impl FromRef<AppState> for Service {
    fn from_ref(state: &AppState) -> Self {
        state.service.clone()
    }
}

impl FromRef<AppState> for Db {
    fn from_ref(state: &AppState) -> Self {
        state.service.db.clone()
    }
}

impl FromRef<AppState> for proxy::Handle {
    fn from_ref(state: &AppState) -> Self {
        state.proxy.clone()
    }
}

impl FromRef<AppState> for pay::Payer {
    fn from_ref(state: &AppState) -> Self {
        state.payer.clone()
    }
}

impl FromRef<AppState> for Arc<session::Sessions> {
    fn from_ref(state: &AppState) -> Self {
        state.sessions.clone()
    }
}

impl FromRef<AppState> for health::Readiness {
    fn from_ref(state: &AppState) -> Self {
        state.readiness.clone()
    }
}

impl FromRef<AppState> for Option<http::provider_webhooks::ProviderHooks> {
    fn from_ref(state: &AppState) -> Self {
        state.provider_hooks.clone()
    }
}

impl FromRef<AppState> for Option<http::pix_webhook::PixWebhook> {
    fn from_ref(state: &AppState) -> Self {
        state.pix_webhook.clone()
    }
}

/// The invoicing service alone (what `--upstream` points at, and what the
/// proxy calls in-process when it is paylink's own).
pub fn service(service: Service) -> Router {
    http::routes()
        .with_state(service)
        .layer(axum::middleware::from_fn(crate::error::log_errors))
}

/// Everything `paylink serve` answers: service, proxy, widget; every error an envelope.
pub fn app(service: Service, options: Options) -> Router {
    let sessions = session::Sessions::new(
        service.db.clone(),
        options.sessions,
        &service.public_url,
        options.trust_forwarded_for,
        options
            .proxy
            .as_ref()
            .filter(|p| p.upstream.is_none())
            .map(|p| p.token.trim().to_string()),
    );
    let page = pay::pages::PageConfig {
        assets: web::payer_assets(options.dist.as_deref(), "payer"),
        link_assets: web::payer_assets(options.dist.as_deref(), "link"),
        frame_ancestors: options
            .frame_ancestors
            .clone()
            .unwrap_or_else(|| "'self'".into()),
    };
    let upstream = proxy::handle(options.proxy, service.clone());
    let state = AppState {
        payer: pay::Payer::new(&upstream, options.payer, page),
        proxy: upstream,
        service,
        sessions,
        readiness: options.readiness,
        pix_webhook: options.pix_webhook,
        provider_hooks: options.provider_hooks,
    };
    let payer_limiter =
        ratelimit::RateLimiter::new(options.payer_rate_limit, options.trust_forwarded_for);
    let link_limiter =
        ratelimit::RateLimiter::new(options.public_rate_limit, options.trust_forwarded_for);
    let router = Router::new()
        .merge(http::routes())
        .merge(proxy::router(&state))
        .merge(pay::router(payer_limiter, link_limiter))
        .merge(health::ready_router());
    #[cfg(feature = "fault-injection")]
    let router = router.route(
        FAULT_PANIC,
        axum::routing::get(|| async {
            if true {
                panic!("fault injection: {FAULT_PANIC}");
            }
            StatusCode::NO_CONTENT
        }),
    );
    let router = if state.pix_webhook.is_some() {
        router.merge(http::pix_webhook::router())
    } else {
        router
    };
    let router = if state.provider_hooks.is_some() {
        router.merge(http::provider_webhooks::router())
    } else {
        router
    };
    let router = router.with_state(state);
    // The widget's file server is the fallback when there is a widget;
    // whatever it does not have is the 404 envelope.
    let router = match options.dist {
        Some(dist) => router.merge(web::router(
            dist,
            options.frame_ancestors.as_deref().unwrap_or("'self'"),
        )),
        None => router.fallback(http::route_not_found),
    };
    // Inside the envelope layers, so the 431 is in the request's language.
    let router = router.layer(axum::middleware::from_fn(limit_head));
    let router = envelope_layers_timed(router, options.request_timeout);
    let router = if options.allowed_origins.is_empty() {
        router
    } else {
        // Outside the rest, so preflights and every envelope (405, 413, 429) get the headers.
        router.layer(axum::middleware::from_fn_with_state(
            cors::Cors::new(&options.allowed_origins),
            cors::handle,
        ))
    };
    // Inside `traced` and outside the rest, so every answer is counted (CORS preflights and
    // envelopes included); a `Router` layer, so it sees the route that matched.
    let router = if options.metrics {
        router.layer(axum::middleware::from_fn(crate::metrics::track))
    } else {
        router
    };
    traced(router)
}

/// Built with the `fault-injection` feature only (never in the normal
/// binary): a route whose handler panics, answered by [`envelope_layers`]'
/// catch with the 500 envelope while the process serves on.
#[cfg(feature = "fault-injection")]
pub const FAULT_PANIC: &str = "/fault/panic";

/// The request id header: taken from a reverse proxy in front when it set a
/// sane one, made here otherwise, and returned on every answer.
pub const REQUEST_ID: &str = "x-request-id";

/// Request tracing, outermost: every answer (CORS preflights and envelopes
/// included) carries `x-request-id`, and each request is one span with its
/// id, method, route template (`/invoices/applications/invoices/{id}`, axum's
/// `MatchedPath`; `unmatched` when no route did), then its status and latency,
/// ending in one line. Never the raw path (it can hold a payer page's id or the
/// bank callback's secret segment), the query string, headers or body: they can
/// hold tokens and personal data (a document number, an e-mail).
pub fn traced(router: Router) -> Router {
    use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
    use tower_http::trace::TraceLayer;
    let header = axum::http::HeaderName::from_static(REQUEST_ID);
    let trace = TraceLayer::new_for_http()
        .make_span_with(|req: &Request| {
            let id = req
                .headers()
                .get(REQUEST_ID)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            let route = req
                .extensions()
                .get::<axum::extract::MatchedPath>()
                .map_or(crate::metrics::UNMATCHED, |m| m.as_str());
            tracing::info_span!(
                "request",
                id,
                method = %req.method(),
                route,
                status = tracing::field::Empty,
                latency_ms = tracing::field::Empty,
            )
        })
        .on_response(|res: &Response, latency: Duration, span: &tracing::Span| {
            // On the span, so every line of the request (and the JSON log's `span`) has them.
            span.record("status", res.status().as_u16());
            span.record("latency_ms", latency.as_micros() as f64 / 1000.0);
            tracing::info!("finished processing request");
        });
    // Errors are logged inside the span, so their line has the request's id.
    let router = router.layer(axum::middleware::from_fn(crate::error::log_errors));
    router.layer(
        tower::ServiceBuilder::new()
            .map_request(drop_unfit_request_id)
            .layer(SetRequestIdLayer::new(header.clone(), MakeRequestUuid))
            .layer(trace)
            .layer(PropagateRequestIdLayer::new(header)),
    )
}

/// An incoming `x-request-id` is kept only if it is short and plain (letters,
/// digits, `-`, `_`, `.`), so a client cannot write what it likes into the logs.
fn drop_unfit_request_id(mut req: Request) -> Request {
    let fit = req.headers().get(REQUEST_ID).is_some_and(|v| {
        let b = v.as_bytes();
        !b.is_empty()
            && b.len() <= 64
            && b.iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
    });
    if !fit {
        req.headers_mut().remove(REQUEST_ID);
    }
    req
}

/// Turns the last non-envelope answers (wrong method, panics, over-limit
/// bodies, requests past [`REQUEST_TIMEOUT`]) into envelopes, caps body size,
/// and puts every envelope in the request's language (outermost, so a caught
/// panic's 500 and a timeout's 503 are in it too).
pub fn envelope_layers(router: Router) -> Router {
    envelope_layers_timed(router, REQUEST_TIMEOUT)
}

/// [`envelope_layers`] with a request timeout of `limit`.
pub fn envelope_layers_timed(router: Router, limit: Duration) -> Router {
    router
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .layer(CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| AppError::new(Reason::Internal).into_response(),
        ))
        .layer(
            tower::ServiceBuilder::new()
                .layer(axum::error_handling::HandleErrorLayer::new(timed_out))
                .timeout(limit),
        )
        .layer(axum::middleware::from_fn(crate::error::with_request_lang))
}

/// How long a request may take. Above the upstream's and the bank's 15 s, so
/// their own timeouts answer first with what went wrong; within
/// [`SHUTDOWN_GRACE`], so a stop never cuts a request that could still end.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// A request past the timeout is answered with the 503 envelope and its work
/// dropped (tower's `TimeoutLayer` under axum's `HandleErrorLayer`, as axum's
/// error-handling example has it), not tower's bare error.
async fn timed_out(error: tower::BoxError) -> Response {
    if error.is::<tower::timeout::error::Elapsed>() {
        AppError::new(Reason::Unavailable)
            .because(error)
            .into_response()
    } else {
        AppError::internal(error).into_response()
    }
}

async fn method_not_allowed() -> Response {
    let mut res = AppError::new(Reason::MethodNotAllowed).into_response();
    *res.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    res
}

/// How long a shutdown waits for the requests in flight, and for the
/// workers' current passes, before it cuts them off. Under Kubernetes'
/// default 30 s termination grace period, so the exit is ours, not a SIGKILL.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);

/// After SIGTERM, how long `serve` keeps accepting and answering while
/// `/readyz` says 503, so a load balancer sees it and sends new clients
/// elsewhere before the listener closes (`serve --drain-delay`). Load
/// balancers poll readiness every few seconds; with [`SHUTDOWN_GRACE`] it
/// stays under Kubernetes' 30 s.
pub const DRAIN_DELAY: Duration = Duration::from_secs(5);

/// A connection accepted before the stop that has not sent its request yet
/// gets this long to send it: hyper's graceful shutdown would close it at
/// once, unanswered, as an idle one.
pub const FIRST_REQUEST_WAIT: Duration = Duration::from_secs(2);

/// How `serve` stops: the signals, what `/readyz` reads, and the drain delay.
pub struct Shutdown {
    pub signals: StopSignals,
    pub readiness: health::Readiness,
    pub drain_delay: Duration,
}

/// Serves `router` on `listener` until SIGTERM or Ctrl-C. On SIGTERM,
/// `/readyz` turns 503 and the listener keeps serving for the drain delay
/// (Ctrl-C, a person at a terminal, skips it; a second signal ends it).
/// Then it stops accepting (connections the kernel has already queued are
/// still taken), answers every connection it has (one that has not sent its
/// request yet gets [`FIRST_REQUEST_WAIT`] to send it), lets the workers
/// finish their current pass (each at most [`SHUTDOWN_GRACE`]), and returns.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    workers: Workers,
    shutdown: Shutdown,
    limits: Limits,
) -> std::io::Result<()> {
    let stop = tokio_util::sync::CancellationToken::new();
    let mut server = tokio::spawn(accept_loop(listener, router, stop.clone(), limits));
    let mut signals = shutdown.signals;
    let signal = tokio::select! {
        ended = &mut server => {
            workers.shutdown(SHUTDOWN_GRACE).await;
            return ended.unwrap_or_else(|e| Err(std::io::Error::other(e)));
        }
        signal = signals.next() => signal,
    };
    shutdown.readiness.set_draining();
    if signal == Signal::Terminate && !shutdown.drain_delay.is_zero() {
        tracing::info!(delay = ?shutdown.drain_delay, "draining: /readyz answers 503, still serving");
        tokio::select! {
            () = tokio::time::sleep(shutdown.drain_delay) => {}
            _ = signals.next() => {}
        }
    }
    tracing::info!("shutting down: finishing the requests in flight and the workers' passes");
    stop.cancel();
    let (served, ()) = tokio::join!(
        tokio::time::timeout(SHUTDOWN_GRACE, &mut server),
        workers.shutdown(SHUTDOWN_GRACE),
    );
    match served {
        Ok(ended) => ended.unwrap_or_else(|e| Err(std::io::Error::other(e)))?,
        Err(_) => {
            tracing::warn!(grace = ?SHUTDOWN_GRACE, "requests still in flight; closing them");
            server.abort();
        }
    }
    tracing::info!("stopped");
    Ok(())
}

/// How `serve` bounds its connections (`--header-timeout`, `--idle-timeout`,
/// `--max-connections`), so that clients that connect and then send slowly, or
/// nothing, cannot hold the server's sockets and memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a request's head (request line and headers) may take to
    /// arrive in full: counted from the accept for a connection's first
    /// request, from its first byte for the next ones. Past it the connection
    /// is closed.
    pub header_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request after
    /// an answer (hyper's header-read timer, which starts as soon as the
    /// connection waits for a request) before it is closed.
    pub idle_timeout: Duration,
    /// Connections served at once. The ones past it are answered with the 503
    /// envelope and closed, at most [`REFUSING`] at a time (the rest closed unanswered).
    pub max_connections: usize,
}

/// `serve --header-timeout`'s default: a browser or an API client sends its
/// headers in one write; ten seconds leave room for a slow mobile link.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// `serve --idle-timeout`'s default: above the 60 s idle timeout of the usual
/// load balancers, which must close an idle connection before the server does
/// (else the balancer may send a request on a connection the server is closing).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(75);
/// `serve --max-connections`'s default.
pub const MAX_CONNECTIONS: usize = 1024;
/// Refusals past `--max-connections` answered at once; each lasts until the
/// client has sent its request (at most the header timeout).
pub const REFUSING: usize = 64;

/// The most a request's head may weigh (request line and headers, as
/// [`head_size`] counts it); over it, the 431 envelope.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;
/// hyper's read buffer per connection: past it hyper itself refuses the head
/// with a bare 431 (no body) before any of our code sees the request, so it
/// is well above [`MAX_HEADER_BYTES`], which answers the envelope first.
const HYPER_BUFFER: usize = 1024 * 1024;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: HEADER_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
        }
    }
}

/// The weight of a request's head: its request line and each header as sent
/// (`name: value` and the line break).
pub fn head_size(req: &Request) -> usize {
    let line = req.method().as_str().len() + req.uri().to_string().len() + 12;
    line + req
        .headers()
        .iter()
        .map(|(k, v)| k.as_str().len() + v.len() + 4)
        .sum::<usize>()
}

/// The 431 envelope for a head over [`MAX_HEADER_BYTES`] (one that hyper's
/// buffer still took: see [`HYPER_BUFFER`]).
pub async fn limit_head(req: Request, next: axum::middleware::Next) -> Response {
    if head_size(&req) > MAX_HEADER_BYTES {
        return AppError::new(Reason::HeadersTooLarge).into_response();
    }
    next.run(req).await
}

/// Accepts connections until `stop`, then takes those the kernel has already
/// queued, closes the listener and waits for every connection to be answered.
/// `axum::serve` is not used because its graceful shutdown closes a connection
/// whose request has not arrived yet, and drops the queued ones: clients that
/// connected just before the stop got no answer.
async fn accept_loop(
    listener: tokio::net::TcpListener,
    router: Router,
    stop: tokio_util::sync::CancellationToken,
    limits: Limits,
) -> std::io::Result<()> {
    use axum::serve::Listener;
    let mut listener = listener;
    let mut connections = tokio::task::JoinSet::new();
    let serving = Arc::new(tokio::sync::Semaphore::new(limits.max_connections));
    let refusing = Arc::new(tokio::sync::Semaphore::new(REFUSING));
    let admit = |connections: &mut tokio::task::JoinSet<()>,
                 io: tokio::net::TcpStream,
                 peer: SocketAddr| {
        if let Ok(permit) = serving.clone().try_acquire_owned() {
            connections.spawn(connection(
                io,
                peer,
                router.clone(),
                stop.clone(),
                limits,
                permit,
            ));
        } else if let Ok(permit) = refusing.clone().try_acquire_owned() {
            connections.spawn(refuse(io, limits, permit));
        } else {
            tracing::warn!(
                "too many connections, and too many being refused: one closed unanswered"
            );
        }
    };
    loop {
        tokio::select! {
            (io, peer) = Listener::accept(&mut listener) => admit(&mut connections, io, peer),
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            () = stop.cancelled() => break,
        }
    }
    // Straight from the socket, not through the runtime's readiness, which
    // may not have seen the last ones yet.
    let listener = listener.into_std()?;
    while let Ok((io, peer)) = listener.accept() {
        if io.set_nonblocking(true).is_ok() {
            if let Ok(io) = tokio::net::TcpStream::from_std(io) {
                admit(&mut connections, io, peer);
            }
        }
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// hyper's HTTP/1.1 settings for a connection whose head must arrive within
/// `head_within` of its wait for one (hyper's timer starts when it waits).
fn http1(head_within: Duration) -> hyper::server::conn::http1::Builder {
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(head_within)
        .max_buf_size(HYPER_BUFFER);
    builder
}

/// A connection past `--max-connections`: its request is read and answered
/// with the 503 envelope (in its language), and the connection closed.
async fn refuse(
    io: tokio::net::TcpStream,
    limits: Limits,
    _permit: tokio::sync::OwnedSemaphorePermit,
) {
    use hyper_util::rt::TokioIo;
    use tower::ServiceExt;
    let refusal = Router::new()
        .fallback(|| async {
            let mut res = AppError::new(Reason::TooManyConnections).into_response();
            res.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from_static("1"),
            );
            res
        })
        .layer(axum::middleware::from_fn(crate::error::with_request_lang))
        .map_request(|req: axum::http::Request<hyper::body::Incoming>| {
            req.map(axum::body::Body::new)
        });
    let conn = http1(limits.header_timeout)
        .keep_alive(false)
        .serve_connection(
            TokioIo::new(io),
            hyper_util::service::TowerToHyperService::new(refusal),
        );
    let _ = conn.await;
}

/// What one connection is doing, as its socket's reads, its service and its
/// watcher in [`connection`] see it: whether a request is being answered, and
/// since when a head is awaited.
struct Watch {
    epoch: std::time::Instant,
    /// Requests whose head has arrived and whose answer is not made yet.
    answering: std::sync::atomic::AtomicUsize,
    /// Since when (ms after `epoch`) the head of the next request is awaited:
    /// the accept for the first one, the first byte read after an answer for
    /// the next ones; [`Watch::NONE`] while none is.
    head_since: std::sync::atomic::AtomicU64,
    changed: tokio::sync::Notify,
}

impl Watch {
    const NONE: u64 = u64::MAX;

    fn new() -> Watch {
        Watch {
            epoch: std::time::Instant::now(),
            answering: Default::default(),
            head_since: std::sync::atomic::AtomicU64::new(0),
            changed: tokio::sync::Notify::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Bytes came in: with no request being answered, the next one's head begins.
    fn read(&self) {
        if self.answering.load(Ordering::Acquire) == 0
            && self
                .head_since
                .compare_exchange(
                    Self::NONE,
                    self.now_ms(),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                )
                .is_ok()
        {
            self.changed.notify_one();
        }
    }

    fn head_arrived(&self) {
        self.answering.fetch_add(1, Ordering::AcqRel);
        self.head_since.store(Self::NONE, Ordering::Release);
    }

    fn answered(&self) {
        self.answering.fetch_sub(1, Ordering::AcqRel);
    }

    /// When the awaited head must have arrived, if one is awaited.
    fn head_deadline(&self, within: Duration) -> Option<tokio::time::Instant> {
        let since = self.head_since.load(Ordering::Acquire);
        (since != Self::NONE && self.answering.load(Ordering::Acquire) == 0).then(|| {
            tokio::time::Instant::from_std(self.epoch + Duration::from_millis(since) + within)
        })
    }
}

/// A connection's socket, telling its [`Watch`] when bytes come in.
struct Watched {
    io: tokio::net::TcpStream,
    watch: Arc<Watch>,
}

impl tokio::io::AsyncRead for Watched {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = std::pin::Pin::new(&mut this.io).poll_read(cx, buf);
        if matches!(polled, std::task::Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.watch.read();
        }
        polled
    }
}

impl tokio::io::AsyncWrite for Watched {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// One HTTP/1.1 connection, with its peer's address for the rate limiters
/// (`ConnectInfo`, as `into_make_service_with_connect_info` gives it), closed
/// when a request's head takes longer than the header timeout or the
/// connection idles past the idle timeout (see [`Limits`]).
async fn connection(
    io: tokio::net::TcpStream,
    peer: SocketAddr,
    router: Router,
    stop: tokio_util::sync::CancellationToken,
    limits: Limits,
    _permit: tokio::sync::OwnedSemaphorePermit,
) {
    use axum::extract::ConnectInfo;
    use hyper_util::rt::TokioIo;
    use tower::ServiceExt;
    let watch = Arc::new(Watch::new());
    let begun = Arc::new((AtomicBool::new(false), tokio::sync::Notify::new()));
    let marks = begun.clone();
    let heads = watch.clone();
    let answers = watch.clone();
    let service = router
        .map_request(move |mut req: axum::http::Request<hyper::body::Incoming>| {
            heads.head_arrived();
            if !marks.0.swap(true, Ordering::Relaxed) {
                marks.1.notify_one();
            }
            req.extensions_mut().insert(ConnectInfo(peer));
            req.map(axum::body::Body::new)
        })
        .map_response(move |res| {
            answers.answered();
            res
        });
    let io = Watched {
        io,
        watch: watch.clone(),
    };
    // hyper's timer bounds the wait for a request (idle); the watcher below, the head's own time.
    let conn = http1(limits.idle_timeout).serve_connection(
        TokioIo::new(io),
        hyper_util::service::TowerToHyperService::new(service),
    );
    let mut conn = std::pin::pin!(conn);
    loop {
        let deadline = watch.head_deadline(limits.header_timeout);
        let late = async move {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = conn.as_mut() => return,
            () = stop.cancelled() => break,
            () = watch.changed.notified() => {}
            () = late => {
                if watch
                    .head_deadline(limits.header_timeout)
                    .is_some_and(|at| at <= tokio::time::Instant::now())
                {
                    tracing::info!(%peer, "a request's head did not arrive within the header timeout: connection closed");
                    return;
                }
            }
        }
    }
    if !begun.0.load(Ordering::Relaxed) {
        // `notify_one` keeps its permit, so a request that began just now is not missed.
        let first = tokio::time::timeout(FIRST_REQUEST_WAIT, begun.1.notified());
        tokio::select! {
            _ = conn.as_mut() => return,
            _ = first => {}
        }
    }
    conn.as_mut().graceful_shutdown();
    let _ = conn.await;
}

/// Which signal stopped the server.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Signal {
    Interrupt,
    Terminate,
}

/// Ctrl-C (SIGINT) and SIGTERM (`docker stop`, Kubernetes), caught from the
/// moment [`StopSignals::listen`] returns: `serve` makes them before it says
/// it listens, so a SIGTERM right after that line is a drain, not the
/// default action (an exit that answers no one).
pub struct StopSignals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl StopSignals {
    pub fn listen() -> std::io::Result<StopSignals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(StopSignals {
                interrupt: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        Ok(StopSignals {})
    }

    /// The next stop signal.
    async fn next(&mut self) -> Signal {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.interrupt.recv() => Signal::Interrupt,
                _ = self.terminate.recv() => Signal::Terminate,
            }
        }
        #[cfg(not(unix))]
        {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
            Signal::Interrupt
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::ServiceExt;

    /// A request past the limit is answered with the 503 envelope in JSON,
    /// not tower's bare error or plain text.
    #[tokio::test]
    async fn a_slow_request_gets_the_envelope() {
        let slow = Router::new().route(
            "/slow",
            axum::routing::get(|| async {
                tokio::time::sleep(Duration::from_secs(5)).await;
                "late"
            }),
        );
        let res = envelope_layers_timed(slow, Duration::from_millis(50))
            .oneshot(
                Request::get("/slow")
                    .header("accept-language", "en")
                    .body(axum::body::Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(res.headers()["content-type"], "application/json");
        let body = axum::body::to_bytes(res.into_body(), 1 << 16)
            .await
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["code"], 503, "{v}");
        assert!(
            v["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("Service")),
            "in the request's language: {v}"
        );
    }

    /// A failure's cause is logged once, inside the request's span (so with its id), and
    /// never in the answer; an in-process router's error (the proxy's local upstream) is
    /// logged by that router's own layer and not again further out.
    #[tokio::test]
    async fn an_error_is_logged_once_with_the_request_id() {
        #[derive(Clone, Default)]
        struct Lines(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl std::io::Write for Lines {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let lines = Lines::default();
        let writer = lines.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        let failing = || {
            Router::new().route(
                "/boom",
                axum::routing::get(|| async {
                    Err::<(), _>(AppError::internal("disk on fire (cause-7f3a)"))
                }),
            )
        };
        // The outer router answers through an inner one, as the proxy's local upstream does.
        let inner = failing().layer(axum::middleware::from_fn(crate::error::log_errors));
        let outer = traced(Router::new().route(
            "/boom",
            axum::routing::get(
                move |req: Request| async move { inner.oneshot(req).await.unwrap() },
            ),
        ));
        for (router, id) in [(traced(failing()), "req-direct-1"), (outer, "req-nested-2")] {
            let res = router
                .oneshot(
                    Request::get("/boom")
                        .header(REQUEST_ID, id)
                        .body(axum::body::Body::empty())
                        .unwrap(),
                )
                .await
                .unwrap();
            assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
            let body = axum::body::to_bytes(res.into_body(), 1 << 16)
                .await
                .unwrap();
            assert!(
                !String::from_utf8_lossy(&body).contains("cause-7f3a"),
                "the cause is not shown"
            );
            let log = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
            let logged: Vec<&str> = log
                .lines()
                .filter(|l| l.contains("cause-7f3a") && l.contains(id))
                .collect();
            assert_eq!(
                logged.len(),
                1,
                "logged once, with the request id {id}:\n{log}"
            );
            assert!(logged[0].contains("internal error"), "{}", logged[0]);
        }
    }
}
