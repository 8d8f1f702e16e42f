//! Payment links' public API (`/api/links/{slug}...`, mounted by the proxy)
//! and the creations it shares with the link's page (`/l/{slug}`): a
//! merchant's application makes a link (the API, or `paylink link create`);
//! a payer registers and creates an invoice through it on the link's terms
//! only. The proxy, not the browser, calls the service, so it is the proxy
//! that compares every request with the link (`paylink_model::link`) and
//! refuses what the link does not allow, whatever the browser sends; and it
//! calls as the application that owns the link, whose customers, invoices,
//! webhooks and counts they become.

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use paylink_model::{InvoiceRequest, Msg};

use crate::error::{AppError, Reason};
use crate::http::extract::{is_json, parse_json, ApiPath, RawBody};
use crate::proxy::upstream::{self, Caller, Handle};
use crate::store::Db;

use crate::domain::links::*;
use crate::store::links::{add_customer, find, has_customer};

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

/// Whom `link`'s calls are made as: in-process, the application that owns
/// it. A remote upstream knows only the proxy's token, and a link from before
/// links had owners is the token's application's, as it always was.
pub(super) async fn caller_of(proxy: &Handle, db: &Db, link: &Link) -> Result<Caller, AppError> {
    let local = proxy.as_ref().is_some_and(|p| p.is_local());
    match &link.application_id {
        Some(owner) if local => match crate::store::applications::find(db, owner).await? {
            Some(app) => Ok(Caller::Owner(app)),
            // No application, no one to file the payer's data under.
            None => Err(Reason::LinkNotFound.into()),
        },
        _ => Ok(Caller::Token),
    }
}

pub(super) async fn link_get(
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

pub(super) async fn link_customers_create(
    State(proxy): State<Handle>,
    State(db): State<Db>,
    headers: HeaderMap,
    ApiPath(slug): ApiPath<String>,
    RawBody(body): RawBody,
) -> Result<Response, AppError> {
    let link = active_link(&db, &slug).await?;
    create_customer(proxy, &db, &link, headers, body).await
}

/// Creates the customer `body` states through the upstream, as the link's
/// owner, and records it as the link's; the upstream's answer.
pub(super) async fn create_customer(
    proxy: Handle,
    db: &Db,
    link: &Link,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let caller = caller_of(&proxy, db, link).await?;
    let create = crate::http::customers::customers_create;
    let res = upstream::create(proxy, &caller, create, "/customers", headers, body).await?;
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

pub(super) async fn link_invoices_create(
    State(proxy): State<Handle>,
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
/// filled in, a customer made through it), through the upstream as the
/// link's owner; the upstream's answer, or the link's refusal.
pub(super) async fn create_invoice(
    proxy: Handle,
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
    let caller = caller_of(&proxy, db, link).await?;
    let create = crate::http::invoices::invoices_create;
    upstream::create(proxy, &caller, create, "/invoices", headers, body.into()).await
}
