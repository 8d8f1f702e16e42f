//! The application's webhooks and their deliveries (additive to the spec):
//! list, register and remove webhooks; rotate the signing secret (shown in
//! the answer that makes it, never readable again); list deliveries
//! (filtered by invoice and status, keyset-paginated) and send one again.
//! The rules are `paylink_model::webhooks` and `domain::webhooks`, which the
//! CLI (`paylink webhook`) uses too.

use axum::extract::{FromRef, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use paylink_model::webhooks::{
    AppWebhook, AppWebhookList, AppWebhookRequest, Delivery, DeliveryPage, DeliveryParams,
    SigningSecret,
};
use paylink_model::ErrorEnvelope;

use crate::error::{AppError, Reason};
use crate::http::auth::Authed;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};
use crate::http::Service;
use crate::store::webhooks::{self as store, Redelivery};

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Service: FromRef<S>,
    crate::store::Db: FromRef<S>,
{
    Router::new()
        .route(
            "/invoices/applications/webhooks",
            get(webhooks_list).post(webhooks_create),
        )
        .route(
            "/invoices/applications/webhooks/{id}",
            delete(webhooks_remove),
        )
        .route(
            "/invoices/applications/webhooks/secret",
            post(webhook_secret_rotate),
        )
        .route("/invoices/applications/deliveries", get(deliveries_list))
        .route(
            "/invoices/applications/deliveries/{id}/redeliver",
            post(deliveries_redeliver),
        )
}

/// Answers that may carry the signing secret, and the lists beside them, are
/// kept by no cache.
fn no_store(res: impl IntoResponse) -> Response {
    let mut res = res.into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// Lists the application's webhooks, and when its signing secret was made.
#[utoipa::path(
    get,
    path = "/invoices/applications/webhooks",
    operation_id = "listWebhooks",
    tag = "webhooks",
    summary = "List the application's webhooks",
    params(crate::http::extract::AcceptLanguageHeader),
    responses(
        (status = 200, description = "Every webhook of the application, oldest first (a disabled one answered 410 Gone); never the secret.", body = AppWebhookList),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
    )
)]
pub(crate) async fn webhooks_list(
    State(state): State<Service>,
    Authed(app): Authed,
) -> Result<Response, AppError> {
    let data = store::list_app_webhooks(&state.db, &app.id).await?;
    let (secret_created_at, previous_secret_valid_until) =
        crate::store::applications::webhook_secret_at(&state.db, &app.id).await?;
    Ok(no_store(Json(AppWebhookList {
        data,
        secret_created_at,
        previous_secret_valid_until,
    })))
}

/// Registers a webhook of the application: every invoice's event of this
/// type goes to it, unless the invoice has webhooks of its own for it.
#[utoipa::path(
    post,
    path = "/invoices/applications/webhooks",
    operation_id = "createWebhook",
    tag = "webhooks",
    summary = "Register an application webhook",
    params(crate::http::extract::AcceptLanguageHeader),
    request_body = AppWebhookRequest,
    responses(
        (status = 201, description = "The webhook. The application's first also carries `secret`, the signing secret made now: it is never shown again (rotate it to get a new one).", body = AppWebhook),
        (status = 400, description = "Malformed JSON, or a body that is not an object.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 413, description = "Body over 1 MiB.", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json.", body = ErrorEnvelope),
        (status = 422, description = "`hookType` missing or unknown; `url` missing, not HTTPS, on an internal host (as written, or as its name resolves now), over 2000 characters, already receiving this event, or the application already has 20 enabled webhooks.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn webhooks_create(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiJson(req): ApiJson<AppWebhookRequest>,
) -> Result<Response, AppError> {
    let hook =
        crate::domain::webhooks::register(&state.db, &state.outbound, &app.id, &req).await??;
    Ok(no_store((StatusCode::CREATED, Json(hook))))
}

/// Removes a webhook of the application; its deliveries still waiting are not attempted again.
#[utoipa::path(
    delete,
    path = "/invoices/applications/webhooks/{id}",
    operation_id = "removeWebhook",
    tag = "webhooks",
    summary = "Remove an application webhook",
    params(
        ("id" = String, Path, format = "uuid", description = "The webhook's id."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 204, description = "Removed; its pending deliveries became `disabled`."),
        (status = 400, description = "A path segment that is not UTF-8.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "No such webhook of this application.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn webhooks_remove(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    let id = id.to_ascii_lowercase();
    if !paylink_model::br::uuid_is_valid(&id)
        || !store::remove_app_webhook(&state.db, &app.id, &id).await?
    {
        return Err(Reason::WebhookNotFound.into());
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Replaces the application's signing secret.
#[utoipa::path(
    post,
    path = "/invoices/applications/webhooks/secret",
    operation_id = "rotateWebhookSecret",
    tag = "webhooks",
    summary = "Rotate the signing secret",
    params(crate::http::extract::AcceptLanguageHeader),
    responses(
        (status = 200, description = "The new secret, shown this once: every delivery from now on (retries included) is signed with it, and for 24 hours (`previousValidUntil`) with the old one too, as a second signature.", body = SigningSecret),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
    )
)]
pub(crate) async fn webhook_secret_rotate(
    State(state): State<Service>,
    Authed(app): Authed,
) -> Result<Response, AppError> {
    let r = crate::store::applications::rotate_webhook_secret(&state.db, &app.id).await?;
    Ok(no_store(Json(SigningSecret {
        secret: r.secret,
        created_at: r.created_at,
        previous_valid_until: r.previous_until,
    })))
}

/// Lists the deliveries of the application's events (to its webhooks and to
/// its invoices' own), newest first.
#[utoipa::path(
    get,
    path = "/invoices/applications/deliveries",
    operation_id = "listDeliveries",
    tag = "webhooks",
    summary = "List webhook deliveries",
    params(
        ("invoiceId" = Option<String>, Query, format = "uuid", description = "Only the deliveries of this invoice's events."),
        ("status" = Option<paylink_model::webhooks::DeliveryStatus>, Query, description = "Only deliveries in this state."),
        ("cursor" = Option<String>, Query, description = "The nextCursor of the previous page."),
        ("limit" = Option<u32>, Query, minimum = 1, maximum = 100, description = "Rows per page, 1 to 100 (default 50)."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 200, description = "One page; `nextCursor` is null on the last.", body = DeliveryPage),
        (status = 400, description = "A malformed query string (a parameter given twice).", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 422, description = "A bad parameter: `errors` maps its name to its messages.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn deliveries_list(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiQuery(params): ApiQuery<DeliveryParams>,
) -> Result<Response, AppError> {
    let filter = params.filter()?;
    let page = store::delivery_page(&state.db, &app.id, &filter).await?;
    Ok(no_store(Json(page)))
}

/// Sends a delivery's event again to the same endpoint, now (also one
/// waiting for its retry).
#[utoipa::path(
    post,
    path = "/invoices/applications/deliveries/{id}/redeliver",
    operation_id = "redeliver",
    tag = "webhooks",
    summary = "Send a delivery again",
    params(
        ("id" = String, Path, format = "uuid", description = "The delivery's id."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 202, description = "The delivery, due again now: one more attempt of the same event (same `webhook-id`) to the same URL, signed with the current secret (and a rotated one during its 24 hours), then retried on the schedule while attempts remain (10 in all).", body = Delivery),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 400, description = "A path segment that is not UTF-8.", body = ErrorEnvelope),
        (status = 404, description = "No such delivery of this application.", body = ErrorEnvelope),
        (status = 409, description = "The delivery was never tried yet, or an attempt is under way.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn deliveries_redeliver(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    let id = id.to_ascii_lowercase();
    if !paylink_model::br::uuid_is_valid(&id) {
        return Err(Reason::DeliveryNotFound.into());
    }
    match store::redeliver_one(&state.db, &app.id, &id).await? {
        Redelivery::Queued(d) => Ok(no_store((StatusCode::ACCEPTED, Json(*d)))),
        Redelivery::NotFound => Err(Reason::DeliveryNotFound.into()),
        Redelivery::Pending => Err(Reason::DeliveryPending.into()),
    }
}
