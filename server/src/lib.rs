//! paylink's server: the invoicing service of the spec, the proxy the widget
//! calls, the built widget as static files, and the CLI.

pub mod auth;
pub mod cli;
pub mod db;
pub mod error;
pub mod events;
pub mod extract;
pub mod http;
pub mod idempotency;
pub mod notifications;
pub mod openapi;
pub mod outbox;
pub mod payer;
pub mod payments;
pub mod proxy;
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
    /// Refuse the merchant's creations through the proxy: `serve` on a
    /// non-loopback address without `--operator-ui` (anyone could reach them).
    pub public_only: bool,
    /// Who may frame the widget's pages (CSP `frame-ancestors`); default `'self'`.
    pub frame_ancestors: Option<String>,
    /// Merchant identity, PIX key and boleto agreement for the payer page; sandbox mode.
    pub payer: payer::PayerConfig,
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
        db: Some(db),
    };
    let proxy = proxy::router(options.proxy, service.clone(), payer, options.public_only);
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
    envelope_layers(router)
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
