//! The proxy the widget calls: it holds the token (the browser never sees
//! it) and serves the merchant's screens (`/api/customers`, `/api/invoices`,
//! ...) with the service's own handlers, only with an operator's session
//! (`http::session`), as the token's application; or, with a remote
//! `--upstream`, sends them there (`upstream`, the one place that forwards),
//! answering every failure of the upstream with an envelope instead of hanging.

pub mod upstream;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;
use axum::http::HeaderValue;
use axum::routing::{delete, get, post};
use axum::Router;

use crate::http::session::{self, Sessions};
pub(crate) use upstream::Handle;
use upstream::{Proxy, Upstream};
pub use upstream::{ProxyConfig, DEFAULT_UPSTREAM_TIMEOUT};

/// The proxy's upstream: paylink's own `service` in-process, or the remote
/// one `config` names; `None` (no token) leaves every proxied call a 503.
pub(crate) fn handle(config: Option<ProxyConfig>, service: crate::http::Service) -> Handle {
    config.and_then(|c| {
        let mut token = HeaderValue::from_str(&format!("Basic {}", c.token.trim())).ok()?;
        token.set_sensitive(true);
        let upstream = match c.upstream {
            None => Upstream::Local(service),
            Some(base) => Upstream::Remote {
                base: base.trim_end_matches('/').to_string(),
                client: reqwest::Client::builder()
                    .connect_timeout(Duration::from_secs(5).min(c.timeout))
                    .timeout(c.timeout)
                    .build()
                    .ok()?,
            },
        };
        Some(Arc::new(Proxy { token, upstream }))
    })
}

/// The merchant's routes and the operators' sessions, for a state with
/// their parts (`state` is what the operator check reads its sessions from).
pub(crate) fn router<S>(state: &S) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Handle: FromRef<S>,
    crate::http::Service: FromRef<S>,
    crate::store::Db: FromRef<S>,
    Arc<Sessions>: FromRef<S>,
{
    // Each layer is given only the parts it reads: `from_fn_with_state` clones its state
    // for every request, and the whole state is every part of the server.
    let call = upstream::CallState {
        proxy: Handle::from_ref(state),
        sessions: Arc::<Sessions>::from_ref(state),
    };
    merchant_routes()
        // Each after an operator's session and same-origin writes, as the proxy's
        // application (or sent to the remote upstream); then the audit.
        .route_layer(axum::middleware::from_fn_with_state(
            call,
            upstream::merchant_call,
        ))
        .merge(session::router())
}

/// The merchant's screens: the service's own handlers (`crate::http`), under
/// `/api` instead of `/invoices/applications`, and a link's deactivate and
/// reactivate as two actions (each its own audit line) instead of a `PATCH`.
fn merchant_routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    crate::http::Service: FromRef<S>,
    crate::store::Db: FromRef<S>,
{
    use crate::http::{actions, charges_links, customers, invoices, links, lists, webhooks};
    Router::new()
        .route(
            "/api/customers",
            post(customers::customers_create).get(lists::customers_list),
        )
        .route("/api/customers/{id}", get(customers::customers_get))
        .route(
            "/api/customers/{id}/charges-link",
            post(charges_links::charges_link_create).delete(charges_links::charges_link_revoke),
        )
        .route(
            "/api/invoices",
            post(invoices::invoices_create).get(lists::invoices_list),
        )
        .route("/api/invoices.csv", get(lists::invoices_export))
        .route("/api/dashboard", get(lists::dashboard_get))
        .route(
            "/api/invoices/{id}",
            get(invoices::invoices_get).delete(actions::invoices_cancel),
        )
        .route(
            "/api/invoices/{id}/installments/{n}/payments",
            post(actions::installments_pay),
        )
        .route("/api/invoices/{id}/resend", post(actions::invoices_resend))
        .route(
            "/api/webhooks",
            get(webhooks::webhooks_list).post(webhooks::webhooks_create),
        )
        .route(
            "/api/webhooks/secret",
            post(webhooks::webhook_secret_rotate),
        )
        .route("/api/webhooks/{id}", delete(webhooks::webhooks_remove))
        .route("/api/deliveries", get(webhooks::deliveries_list))
        .route(
            "/api/deliveries/{id}/redeliver",
            post(webhooks::deliveries_redeliver),
        )
        .route(
            "/api/payment-links",
            post(links::links_create).get(links::links_list),
        )
        .route("/api/payment-links/{slug}", get(links::links_get))
        .route(
            "/api/payment-links/{slug}/deactivate",
            post(links::links_deactivate),
        )
        .route(
            "/api/payment-links/{slug}/reactivate",
            post(links::links_reactivate),
        )
}
