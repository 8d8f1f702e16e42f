//! The merchant's payment links under the service's token (issue 32): list
//! them with what each brought in, create one (the rules of
//! `paylink_model::link_spec`, as `paylink link create` applies them), read
//! one (with the QR code of its page) and turn one off or on. A link's page
//! and the payer's creations through it are `pay::links`'.

use axum::extract::{FromRef, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use paylink_model::link_spec::{LinkList, LinkRequest, LinkStateRequest, MerchantLink};
use paylink_model::ErrorEnvelope;

use crate::domain::links::{create, merchant_view, slug_is_valid, Link};
use crate::error::{AppError, Reason};
use crate::http::auth::Authed;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::idempotency::{record, replayed, request_hash, IdempotencyKey};
use crate::http::Service;
use crate::store::links::{find_for, list_for, set_active_for, stats_for};

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Service: FromRef<S>,
    crate::store::Db: FromRef<S>,
{
    Router::new()
        .route(
            "/invoices/applications/payment-links",
            get(links_list).post(links_create),
        )
        .route(
            "/invoices/applications/payment-links/{slug}",
            get(links_get).patch(links_set_active),
        )
}

/// Every link the caller's application sees, newest first.
#[utoipa::path(
    get,
    path = "/invoices/applications/payment-links",
    operation_id = "listPaymentLinks",
    tag = "payment links",
    summary = "List payment links",
    params(crate::http::extract::AcceptLanguageHeader),
    responses(
        (status = 200, description = "The application's links (made with its token, or with \
`paylink link create --application`), newest first, each with the invoices made through it and \
the amount paid on them.", body = LinkList),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
    )
)]
pub(crate) async fn links_list(
    State(state): State<Service>,
    Authed(app): Authed,
) -> Result<Json<LinkList>, AppError> {
    let data = list_for(&state.db, &app.id)
        .await?
        .iter()
        .map(|(link, stats)| merchant_view(link, *stats, &state.public_url))
        .collect();
    Ok(Json(LinkList { data }))
}

/// Creates a link of the caller's application: 201 with the link.
#[utoipa::path(
    post,
    path = "/invoices/applications/payment-links",
    operation_id = "createPaymentLink",
    tag = "payment links",
    summary = "Create payment link",
    params(crate::http::idempotency::IdempotencyKeyHeader, crate::http::extract::AcceptLanguageHeader),
    request_body = LinkRequest,
    responses(
        (status = 201, description = "The created link, on; its page is `url`.", body = MerchantLink,
         headers(("Idempotent-Replayed" = String, description = "`true` when this is the stored answer to a retry")),
         links(("GetPaymentLink" = (
             operation_id = "getPaymentLink",
             parameters(("slug" = "$response.body#/slug")),
             description = "The link just created, with its QR code."
         )))),
        (status = 400, description = "Malformed JSON, a body that is not an object, or a bad Idempotency-Key.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 413, description = "Body over 1 MiB.", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json.", body = ErrorEnvelope),
        (status = 422, description = "Validation failure: `errors` maps each API field path to its \
messages (rules the schema cannot state, such as each installment being at least R$ 5,00, a fine \
within 2 % of the smallest installment, `discount.daysBeforeDue` within `dueInDays`, or a chosen \
`slug` another link has, answer here too). Also an Idempotency-Key already used within 24 h \
with a different request: no `errors` then, and nothing is created.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn links_create(
    State(state): State<Service>,
    Authed(app): Authed,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(req): ApiJson<LinkRequest>,
) -> Result<Response, AppError> {
    let new = req.check()?;
    // Only what this merchant offers (`serve --payment-types`).
    paylink_model::invoice::check_offered(&new.payment_types, state.merchant.not_offered)?;
    let hash = request_hash("links.create", &req);
    let (db, key) = (&state.db, key.as_deref());
    if let Some(answer) = replayed(db, &app.id, key, &hash).await? {
        return Ok(answer);
    }
    let view = |link: &Link| merchant_view(link, Default::default(), &state.public_url);
    let answer = |link: &Link| key.map(|k| record(k, &hash, StatusCode::CREATED, &view(link)));
    match create(db, &new, Some(&app.id), answer).await? {
        Ok(link) => Ok((StatusCode::CREATED, Json(view(&link))).into_response()),
        // A request with the same key made its link meanwhile (its record
        // took the key): answer as it was answered.
        Err(refused) => match replayed(db, &app.id, key, &hash).await? {
            Some(answer) => Ok(answer),
            None => Err(refused.into()),
        },
    }
}

/// One link the caller sees, with the QR code of its page.
#[utoipa::path(
    get,
    path = "/invoices/applications/payment-links/{slug}",
    operation_id = "getPaymentLink",
    tag = "payment links",
    summary = "Get payment link",
    params(
        ("slug" = String, Path, description = "The link's slug (`/l/{slug}`)."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 200, description = "The link, with `qrSvg`: the QR code of `url` as SVG markup.", body = MerchantLink),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such link, or another application's.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn links_get(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(slug): ApiPath<String>,
) -> Result<Json<MerchantLink>, AppError> {
    Ok(Json(one(&state, &app.id, &slug).await?))
}

async fn one(state: &Service, app_id: &str, slug: &str) -> Result<MerchantLink, AppError> {
    if !slug_is_valid(slug) {
        return Err(Reason::LinkNotFound.into());
    }
    let link = find_for(&state.db, app_id, slug)
        .await?
        .ok_or(Reason::LinkNotFound)?;
    let stats = stats_for(&state.db, app_id, slug).await?;
    let mut view = merchant_view(&link, stats, &state.public_url);
    view.qr_svg = crate::domain::payer::qr_svg(&view.url);
    Ok(view)
}

/// Turns a link off (its page and creations answer 404; its invoices stay) or on again.
#[utoipa::path(
    patch,
    path = "/invoices/applications/payment-links/{slug}",
    operation_id = "setPaymentLinkActive",
    tag = "payment links",
    summary = "Deactivate or reactivate payment link",
    params(
        ("slug" = String, Path, description = "The link's slug (`/l/{slug}`)."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    request_body = LinkStateRequest,
    responses(
        (status = 200, description = "The link after the change.", body = MerchantLink),
        (status = 400, description = "Malformed JSON or a body that is not an object.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such link, or another application's.", body = ErrorEnvelope),
        (status = 413, description = "Body over 1 MiB.", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json.", body = ErrorEnvelope),
        (status = 422, description = "`active` missing or not a boolean.", body = ErrorEnvelope),
    )
)]
async fn links_set_active(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(slug): ApiPath<String>,
    ApiJson(req): ApiJson<LinkStateRequest>,
) -> Result<Json<MerchantLink>, AppError> {
    set_active(&state, &app.id, &slug, req.check()?).await
}

/// The merchant's screen (`/api/payment-links/{slug}/deactivate`, behind an
/// operator's session): the same change as `PATCH {"active": false}`, one
/// action each way, so each has its own audit line.
pub(crate) async fn links_deactivate(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(slug): ApiPath<String>,
) -> Result<Json<MerchantLink>, AppError> {
    set_active(&state, &app.id, &slug, false).await
}

/// [`links_deactivate`]'s other way.
pub(crate) async fn links_reactivate(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(slug): ApiPath<String>,
) -> Result<Json<MerchantLink>, AppError> {
    set_active(&state, &app.id, &slug, true).await
}

async fn set_active(
    state: &Service,
    app_id: &str,
    slug: &str,
    active: bool,
) -> Result<Json<MerchantLink>, AppError> {
    if !slug_is_valid(slug) || !set_active_for(&state.db, app_id, slug, active).await? {
        return Err(Reason::LinkNotFound.into());
    }
    Ok(Json(one(state, app_id, slug).await?))
}
