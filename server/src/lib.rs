//! paylink's server: the invoicing service of the spec, the proxy the widget
//! calls, the built widget as static files, and the CLI.

pub mod auth;
pub mod boleto_pdf;
pub mod cli;
pub mod cors;
pub mod db;
pub mod error;
pub mod events;
pub mod extract;
pub mod http;
pub mod idempotency;
pub mod links;
pub mod notifications;
pub mod openapi;
pub mod outbox;
pub mod payer;
pub mod payments;
pub mod proxy;
pub mod ratelimit;
pub mod scheduler;
pub mod web;
pub mod webhooks;

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;

use crate::error::{AppError, Reason};
use crate::extract::lang_of;

/// Request bodies above this are refused with a 413 envelope.
pub const BODY_LIMIT: usize = 1024 * 1024;

#[derive(Clone)]
pub struct AppState {
    pub db: db::Db,
    /// Base of payment links: `{public_url}/pay/{invoice id}`.
    pub public_url: Arc<str>,
    /// Accept http:// and internal webhook hosts (local tests only).
    pub allow_insecure_webhooks: bool,
    /// Tokens verified in the last few seconds (authentication without a query).
    pub tokens: auth::TokenCache,
}

impl AppState {
    pub fn pay_url(&self, invoice_id: &str) -> String {
        format!("{}/pay/{invoice_id}", self.public_url.trim_end_matches('/'))
    }
}

/// How `serve` is configured beyond the service itself.
#[derive(Clone, Default)]
pub struct Options {
    /// The proxy's upstream and token; `None` leaves `/api` answering 503.
    pub proxy: Option<proxy::ProxyConfig>,
    /// The built widget (`dist/`); `None` serves no pages.
    pub dist: Option<PathBuf>,
    /// Refuse the merchant's screens through the proxy (creations, invoice
    /// detail): `serve` on a non-loopback address without `--operator-ui`
    /// (anyone could reach them).
    pub public_only: bool,
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
    let proxy = proxy::router(
        options.proxy,
        service.clone(),
        payer,
        options.public_only,
        links,
    );
    let router = service.merge(proxy);
    // The widget's file server is the fallback when there is a widget;
    // whatever it does not have is the 404 envelope.
    let router = match options.dist {
        Some(dist) => router.merge(web::router(
            dist,
            options.frame_ancestors.as_deref().unwrap_or("'self'"),
        )),
        None => router.fallback(route_not_found),
    };
    let router = envelope_layers(router);
    if options.allowed_origins.is_empty() {
        router
    } else {
        // Outermost, so preflights and every envelope (405, 413, 429) get the headers.
        router.layer(axum::middleware::from_fn_with_state(
            cors::Cors::new(&options.allowed_origins),
            cors::handle,
        ))
    }
}

/// Turns the last non-envelope answers (wrong method, panics, over-limit
/// bodies) into envelopes, and caps body size.
pub fn envelope_layers(router: Router) -> Router {
    router
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .layer(CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                AppError::new(Reason::Internal, paylink_model::Lang::PtBr).into_response()
            },
        ))
}

pub async fn route_not_found(req: Request) -> Response {
    AppError::new(Reason::RouteNotFound, lang_of(req.headers())).into_response()
}

async fn method_not_allowed(req: Request) -> Response {
    let mut res = AppError::new(Reason::MethodNotAllowed, lang_of(req.headers())).into_response();
    *res.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    res
}
