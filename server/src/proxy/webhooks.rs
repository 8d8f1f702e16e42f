//! The widget's webhooks screen through the proxy: the application's
//! webhooks, its signing secret and its deliveries, forwarded to the service
//! under the proxy's token. Mounted with the other merchant calls, behind
//! the operator's session (`session::require_operator`), which audits the
//! changes: adding and removing a webhook, rotating the secret, redelivering.

use axum::body::Bytes;
use axum::extract::{FromRef, RawQuery, State};
use axum::http::{HeaderMap, Method};
use axum::response::Response;
use axum::routing::{delete, get, post};
use axum::Router;

use super::upstream::forward;
use super::Handle;
use crate::error::{AppError, Reason};
use crate::http::extract::{ApiPath, RawBody};

const HOOKS: &str = "/invoices/applications/webhooks";
const DELIVERIES: &str = "/invoices/applications/deliveries";

pub(crate) fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Handle: FromRef<S>,
{
    Router::new()
        .route("/api/webhooks", get(list).post(add))
        .route("/api/webhooks/secret", post(rotate_secret))
        .route("/api/webhooks/{id}", delete(remove))
        .route("/api/deliveries", get(deliveries))
        .route("/api/deliveries/{id}/redeliver", post(redeliver))
}

async fn list(State(p): State<Handle>, headers: HeaderMap) -> Result<Response, AppError> {
    forward(p, Method::GET, HOOKS.into(), headers, Bytes::new()).await
}

async fn add(
    State(p): State<Handle>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Response, AppError> {
    forward(p, Method::POST, HOOKS.into(), headers, body).await
}

async fn rotate_secret(State(p): State<Handle>, headers: HeaderMap) -> Result<Response, AppError> {
    forward(
        p,
        Method::POST,
        format!("{HOOKS}/secret"),
        headers,
        Bytes::new(),
    )
    .await
}

/// The upstream path is built only from a UUID (no `../` tricks).
async fn remove(
    State(p): State<Handle>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    if !paylink_model::br::uuid_is_valid(&id) {
        return Err(Reason::WebhookNotFound.into());
    }
    forward(
        p,
        Method::DELETE,
        format!("{HOOKS}/{id}"),
        headers,
        Bytes::new(),
    )
    .await
}

/// The list with the browser's query string as it came (axum has parsed it
/// as a URI's query, so it splices safely after the fixed path).
async fn deliveries(
    State(p): State<Handle>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    let path = match query {
        Some(q) if !q.is_empty() => format!("{DELIVERIES}?{q}"),
        _ => DELIVERIES.to_string(),
    };
    forward(p, Method::GET, path, headers, Bytes::new()).await
}

async fn redeliver(
    State(p): State<Handle>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    if !paylink_model::br::uuid_is_valid(&id) {
        return Err(Reason::DeliveryNotFound.into());
    }
    let path = format!("{DELIVERIES}/{id}/redeliver");
    forward(p, Method::POST, path, headers, Bytes::new()).await
}
