//! Links to a customer's page of charges (paylink's addition to the spec): the merchant makes
//! one to copy (`POST …/customers/{id}/charges-link`, shown once) and revokes all of the
//! customer's (`DELETE`), the payer's `/c/{token}` (`pay::charges`) then a 404 page.

use axum::extract::{FromRef, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use paylink_model::{ChargesLink, ErrorEnvelope};

use crate::error::{AppError, Reason};
use crate::http::auth::Authed;
use crate::http::extract::ApiPath;
use crate::http::Service;

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Service: FromRef<S>,
    crate::store::Db: FromRef<S>,
{
    Router::new().route(
        "/invoices/applications/customers/{id}/charges-link",
        post(charges_link_create).delete(charges_link_revoke),
    )
}

/// The customer `id` of the caller's application, lower-cased; 400 for an id that is not a
/// UUID, 404 for an unknown, deleted or another application's customer.
async fn own_customer(state: &Service, application_id: &str, id: &str) -> Result<String, AppError> {
    if !paylink_model::br::uuid_is_valid(id) {
        return Err(Reason::InvalidCustomerId.into());
    }
    let id = id.to_ascii_lowercase();
    match crate::store::customers::find(&state.db, application_id, &id, false).await? {
        Some(_) => Ok(id),
        None => Err(Reason::CustomerNotFound.into()),
    }
}

/// A new link to the customer's page of charges.
#[utoipa::path(
    post,
    path = "/invoices/applications/customers/{id}/charges-link",
    operation_id = "createChargesLink",
    tag = "customers",
    summary = "Make a link to the customer's page of charges",
    description = "paylink's addition to the spec. The page (`/c/{token}`, HTML for the payer, \
no token needed) lists every invoice of this customer with the caller's application: the open \
ones first (amount due today, due date, a link to each payer page), then the paid ones. The link \
is random (256 bits), kept only as its hash, and opens the page for 30 days unless revoked; each \
call makes a new one (earlier ones keep working until they end).",
    params(
        ("id" = String, Path, format = "uuid", description = "The customer's id."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 201, description = "The link, shown this once.", body = ChargesLink),
        (status = 400, description = "The id is not a UUID.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "Unknown or deleted customer, or another application's.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn charges_link_create(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(id): ApiPath<String>,
) -> Result<(StatusCode, Json<ChargesLink>), AppError> {
    let customer = own_customer(&state, &app.id, &id).await?;
    let minted = crate::domain::charges_links::mint(
        &state.db,
        &state.public_url,
        &app.id,
        &customer,
        crate::domain::now_ms(),
        None,
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(ChargesLink {
            url: minted.url,
            expires_at: minted.expires_at,
        }),
    ))
}

/// Revokes every link to the customer's page of charges.
#[utoipa::path(
    delete,
    path = "/invoices/applications/customers/{id}/charges-link",
    operation_id = "revokeChargesLinks",
    tag = "customers",
    summary = "Revoke the customer's links to their page of charges",
    description = "paylink's addition to the spec. Every link made for this customer (by this \
call's application, or by its notifications) stops opening the page at once: it answers the \
same 404 page as an unknown link. Revoking when there is none is not an error.",
    params(
        ("id" = String, Path, format = "uuid", description = "The customer's id."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 204, description = "Revoked (or there was none)."),
        (status = 400, description = "The id is not a UUID.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "Unknown or deleted customer, or another application's.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn charges_link_revoke(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    let customer = own_customer(&state, &app.id, &id).await?;
    let n = crate::store::charges_links::revoke_all(
        &state.db,
        &app.id,
        &customer,
        &crate::store::now_iso(),
    )
    .await?;
    tracing::info!(customer = %customer, links = n, "charges links revoked");
    Ok(StatusCode::NO_CONTENT)
}
