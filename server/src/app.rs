//! The application: its state, the router of everything `serve` answers
//! (service, proxy, widget), the layers every answer goes through, and
//! serving it until SIGTERM or Ctrl-C with a bounded drain.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;

use crate::domain::payer;
use crate::error::{AppError, Reason};
use crate::http::{self, openapi};
use crate::proxy::{self, cors, ratelimit};
use crate::web;
use crate::workers::Workers;

pub use crate::http::{AppState, BODY_LIMIT};

/// How `serve` is configured beyond the service itself.
#[derive(Clone, Default)]
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
    /// Client address from `X-Forwarded-For` (behind a reverse proxy you run).
    pub trust_forwarded_for: bool,
    /// The bank's Pix callback (`serve --pix-api-url`); `None`: no such route.
    pub pix_webhook: Option<http::pix_webhook::PixWebhook>,
}

/// The invoicing service alone (what `--upstream` points at).
pub fn service(state: AppState) -> Router {
    Router::new()
        .merge(http::health::router())
        .merge(http::customers::router())
        .merge(http::invoices::router())
        .merge(openapi::router())
        .with_state(state)
}

/// Everything `paylink serve` answers: service, proxy, widget; every error an envelope.
pub fn app(state: AppState, options: Options) -> Router {
    let db = state.db.clone();
    let sessions = proxy::session::Sessions::new(
        db.clone(),
        options.sessions,
        &state.public_url,
        options.trust_forwarded_for,
    );
    let service = service(state);
    let payer = proxy::PayerOptions {
        config: options.payer,
        db: Some(db.clone()),
    };
    let links = proxy::LinkOptions {
        db,
        limiter: ratelimit::RateLimiter::new(
            options.public_rate_limit,
            options.trust_forwarded_for,
        ),
    };
    let proxy = proxy::router(options.proxy, service.clone(), payer, sessions, links);
    let router = service.merge(proxy);
    let router = match options.pix_webhook {
        Some(hook) => router.merge(http::pix_webhook::router(hook)),
        None => router,
    };
    // The widget's file server is the fallback when there is a widget;
    // whatever it does not have is the 404 envelope.
    let router = match options.dist {
        Some(dist) => router.merge(web::router(
            dist,
            options.frame_ancestors.as_deref().unwrap_or("'self'"),
        )),
        None => router.fallback(http::route_not_found),
    };
    let router = envelope_layers(router);
    let router = if options.allowed_origins.is_empty() {
        router
    } else {
        // Outside the rest, so preflights and every envelope (405, 413, 429) get the headers.
        router.layer(axum::middleware::from_fn_with_state(
            cors::Cors::new(&options.allowed_origins),
            cors::handle,
        ))
    };
    traced(router)
}

/// The request id header: taken from a reverse proxy in front when it set a
/// sane one, made here otherwise, and returned on every answer.
pub const REQUEST_ID: &str = "x-request-id";

/// Request tracing, outermost: every answer (CORS preflights and envelopes
/// included) carries `x-request-id`, and each request is one span with its
/// id, method and path. Never the query string, headers or body: they can
/// hold tokens and personal data (a document number, an e-mail).
pub fn traced(router: Router) -> Router {
    use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
    use tower_http::trace::{DefaultOnResponse, TraceLayer};
    let header = axum::http::HeaderName::from_static(REQUEST_ID);
    let trace = TraceLayer::new_for_http()
        .make_span_with(|req: &Request| {
            let id = req
                .headers()
                .get(REQUEST_ID)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            tracing::info_span!("request", id, method = %req.method(), path = req.uri().path())
        })
        .on_response(DefaultOnResponse::new().level(tracing::Level::INFO));
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
/// bodies) into envelopes, caps body size, and puts every envelope in the
/// request's language (outermost, so a caught panic's 500 is in it too).
pub fn envelope_layers(router: Router) -> Router {
    router
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .layer(CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| AppError::new(Reason::Internal).into_response(),
        ))
        .layer(axum::middleware::from_fn(crate::error::with_request_lang))
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

/// Serves `router` on `listener` until SIGTERM or Ctrl-C. Then it stops
/// accepting connections, lets the requests in flight finish and the workers
/// finish their current pass (each at most [`SHUTDOWN_GRACE`]), and returns.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    workers: Workers,
) -> std::io::Result<()> {
    let stop = tokio_util::sync::CancellationToken::new();
    // Connection info gives the rate limiter each client's address.
    let server = axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(stop.clone().cancelled_owned());
    let mut server = tokio::spawn(std::future::IntoFuture::into_future(server));
    tokio::select! {
        ended = &mut server => {
            workers.shutdown(SHUTDOWN_GRACE).await;
            return ended.unwrap_or_else(|e| Err(std::io::Error::other(e)));
        }
        () = shutdown_signal() => {}
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

/// Ctrl-C, or SIGTERM (`docker stop`, Kubernetes).
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
