//! The invoicing service of the spec: one module per resource, each exporting `router()`.

pub mod actions;
pub mod auth;
pub mod charges_links;
pub mod cors;
pub mod customers;
pub mod extract;
pub mod health;
pub mod idempotency;
pub mod invoices;
pub mod links;
pub mod lists;
pub mod openapi;
pub mod pix_webhook;
pub mod provider_webhooks;
pub mod ratelimit;
pub mod session;
pub mod webhooks;

use std::sync::Arc;

use crate::store as db;

/// Request bodies above this are refused with a 413 envelope.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// The invoicing service's part of the application's state (`app::AppState`):
/// what its routes read, as `State<Service>`. Alone, it is the whole state of
/// the service served by itself (`app::service`).
#[derive(Clone)]
pub struct Service {
    pub db: db::Db,
    /// Base of payment links: `{public_url}/pay/{invoice id}`.
    pub public_url: Arc<str>,
    /// Where webhook URLs may lead (public HTTPS addresses unless
    /// `--allow-insecure-webhooks`), judged when they are registered.
    pub outbound: crate::domain::outbound::Outbound,
    /// What decides whether an invoice may ask for Pix Automático beyond its own request.
    pub merchant: crate::domain::payer::MerchantSetup,
}

impl Service {
    pub fn pay_url(&self, invoice_id: &str) -> String {
        format!("{}/pay/{invoice_id}", self.public_url.trim_end_matches('/'))
    }
}

impl axum::extract::FromRef<Service> for db::Db {
    fn from_ref(service: &Service) -> db::Db {
        service.db.clone()
    }
}

/// Every route of the service, for any state that has its [`Service`] part.
pub fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    Service: axum::extract::FromRef<S>,
    db::Db: axum::extract::FromRef<S>,
{
    // Every answer of the token API says `no-store`: most carry personal data (a
    // customer's document and e-mail, an invoice's payer, the lists and the export),
    // and one rule for all of them, refusals included, cannot miss a new route.
    let token_api = axum::Router::new()
        .merge(customers::router())
        .merge(charges_links::router())
        .merge(invoices::router())
        .merge(webhooks::router())
        .merge(links::router())
        .layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("no-store"),
        ));
    axum::Router::new()
        .merge(health::router())
        .merge(token_api)
        .merge(openapi::router())
}

/// The 404 envelope of a path nobody answers (the router's fallback, and the
/// widget's file server's when a file is missing).
pub async fn route_not_found() -> axum::response::Response {
    use axum::response::IntoResponse;
    crate::error::AppError::new(crate::error::Reason::RouteNotFound).into_response()
}
