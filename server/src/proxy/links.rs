//! Payment links: a merchant creates one with `paylink link create`; its
//! public page (`/l/{slug}`) lets a payer register and create an invoice on
//! the link's terms only. The proxy holds the token, so it is the proxy that
//! compares every request with the link (`paylink_model::link`) and refuses
//! what the link does not allow, whatever the browser sends.
//!
//! These are the link's public routes, mounted by the proxy.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRef, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use paylink_model::{InvoiceRequest, Msg};

use crate::error::{AppError, Reason};
use crate::http::extract::{is_json, parse_json, ApiPath, RawBody};
use crate::proxy::ratelimit::RateLimiter;
use crate::store::Db;

use crate::domain::links::*;
use crate::store::links::{add_customer, find, has_customer};

// ---- Public routes (mounted by the proxy) ----

/// The links' routes, for a state with the proxy and paylink's own database
/// (links live there whichever the upstream); `limiter` caps the creations.
pub(crate) fn router<S>(limiter: Arc<RateLimiter>) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    crate::proxy::Handle: FromRef<S>,
    crate::proxy::Payer: FromRef<S>,
    Db: FromRef<S>,
{
    let creations = Router::new()
        .route("/api/links/{slug}/customers", post(link_customers_create))
        .route("/api/links/{slug}/invoices", post(link_invoices_create))
        // The page's form, sent without JavaScript: the same creations.
        .route("/l/{slug}", post(super::link_page::link_form))
        .route_layer(middleware::from_fn_with_state(
            limiter,
            crate::proxy::ratelimit::limit,
        ));
    Router::new()
        .route("/api/links/{slug}", get(link_get))
        .route("/l/{slug}", get(super::link_page::link_page))
        .merge(creations)
}

/// The active link of this slug, or the 404 envelope.
pub(super) async fn active_link(db: &Db, slug: &str) -> Result<Link, AppError> {
    if !slug_is_valid(slug) {
        return Err(Reason::LinkNotFound.into());
    }
    match find(db, slug).await? {
        Some(l) if l.active => Ok(l),
        _ => Err(Reason::LinkNotFound.into()),
    }
}

async fn link_get(
    State(db): State<Db>,
    ApiPath(slug): ApiPath<String>,
) -> Result<Response, AppError> {
    let link = active_link(&db, &slug).await?;
    let mut res = Json(link.public(crate::domain::today())).into_response();
    // The due date changes with the day.
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}

async fn link_customers_create(
    State(proxy): State<crate::proxy::Handle>,
    State(db): State<Db>,
    headers: HeaderMap,
    ApiPath(slug): ApiPath<String>,
    RawBody(body): RawBody,
) -> Result<Response, AppError> {
    let link = active_link(&db, &slug).await?;
    create_customer(proxy, &db, &link, headers, body).await
}

/// Creates the customer `body` states through the upstream and records it
/// as the link's; the upstream's answer.
pub(super) async fn create_customer(
    proxy: crate::proxy::Handle,
    db: &Db,
    link: &Link,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let res = crate::proxy::upstream::forward(
        proxy,
        Method::POST,
        "/invoices/applications/customers".into(),
        headers,
        body,
    )
    .await?;
    if !res.status().is_success() {
        return Ok(res);
    }
    let (parts, body) = res.into_parts();
    let bytes = axum::body::to_bytes(body, crate::http::BODY_LIMIT)
        .await
        .map_err(|e| AppError::new(Reason::UpstreamUnreachable).because(e))?;
    let id = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|v| v["id"].as_str().map(str::to_ascii_lowercase))
        .filter(|id| paylink_model::br::uuid_is_valid(id))
        .ok_or_else(|| AppError::internal("upstream customer without an id"))?;
    // If this fails the payer retries; with the same Idempotency-Key the
    // service answers with the same customer, recorded then.
    add_customer(db, &link.slug, &id).await?;
    Ok(Response::from_parts(parts, Body::from(bytes)))
}

async fn link_invoices_create(
    State(proxy): State<crate::proxy::Handle>,
    State(db): State<Db>,
    headers: HeaderMap,
    ApiPath(slug): ApiPath<String>,
    RawBody(body): RawBody,
) -> Result<Response, AppError> {
    let link = active_link(&db, &slug).await?;
    if !is_json(&headers) {
        return Err(Reason::UnsupportedMediaType.into());
    }
    let req: InvoiceRequest = parse_json(&body)?;
    create_invoice(proxy, &db, &link, headers, &req).await
}

/// Creates the invoice `req` asks for, if the link allows it (its terms
/// filled in, a customer made through it), through the upstream; the
/// upstream's answer, or the link's refusal.
pub(super) async fn create_invoice(
    proxy: crate::proxy::Handle,
    db: &Db,
    link: &Link,
    headers: HeaderMap,
    req: &InvoiceRequest,
) -> Result<Response, AppError> {
    let today = crate::domain::today();
    let mut bound = link.public(today).bind(req);
    // A page opened before midnight still shows yesterday's due date.
    if bound.as_ref().is_err_and(|v| v.has("dueDate")) {
        if let Some(yesterday) = today.add_days(-1) {
            let earlier = link.public(yesterday);
            if req.due_date.as_deref().map(str::trim) == Some(earlier.due_date.as_str()) {
                bound = earlier.bind(req);
            }
        }
    }
    let mut violations = bound.as_ref().err().cloned().unwrap_or_default();
    match req.customer_id.as_deref().map(str::trim) {
        None | Some("") => violations.add("customerId", Msg::Required),
        Some(id) if !paylink_model::br::uuid_is_valid(id) => {
            violations.add("customerId", Msg::Uuid);
        }
        Some(id) => {
            if !has_customer(db, &link.slug, &id.to_ascii_lowercase()).await? {
                violations.add("customerId", Msg::CustomerNotFromLink);
            }
        }
    }
    let mut bound = match bound {
        Ok(b) if violations.is_empty() => b,
        _ => return Err(violations.into()),
    };
    crate::domain::links::not_before_today(&mut bound, today);
    let body = serde_json::to_vec(&bound)?;
    crate::proxy::upstream::forward(
        proxy,
        Method::POST,
        "/invoices/applications/invoices".into(),
        headers,
        Bytes::from(body),
    )
    .await
}
