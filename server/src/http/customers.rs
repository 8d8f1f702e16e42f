use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use paylink_model::{Customer, CustomerRequest};

use crate::auth::Authed;
use crate::error::{AppError, OrInternal};
use crate::extract::{ApiJson, ReqLang};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/invoices/applications/customers", post(customers_create))
}

/// Creates a customer of the caller's application: 201 with the customer.
async fn customers_create(
    State(state): State<AppState>,
    Authed(app): Authed,
    ReqLang(lang): ReqLang,
    ApiJson(req): ApiJson<CustomerRequest>,
) -> Result<(StatusCode, Json<Customer>), AppError> {
    let new = req.check().map_err(|v| AppError::validation(&v, lang))?;
    let customer = state
        .db
        .insert_customer(&app, &new)
        .await
        .or_internal(lang)?;
    Ok((StatusCode::CREATED, Json(customer)))
}
