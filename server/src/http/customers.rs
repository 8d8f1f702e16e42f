//! The customers of the service: create and get one (the list is `lists.rs`'s).

use axum::extract::{FromRef, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use paylink_model::{Address, Customer, CustomerDetail, CustomerRequest, ErrorEnvelope};

use crate::error::{AppError, Reason};
use crate::http::auth::Authed;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::idempotency::{create_once, is_replay, request_hash, IdempotencyKey};
use crate::http::session::Audit;
use crate::http::Service;
use crate::store::{new_id, now_iso};

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Service: FromRef<S>,
    crate::store::Db: FromRef<S>,
{
    Router::new()
        .route(
            "/invoices/applications/customers",
            post(customers_create).get(crate::http::lists::customers_list),
        )
        .route("/invoices/applications/customers/{id}", get(customers_get))
}

/// One customer of the caller's application, as the list shows it (the
/// widget preselects it for a new charge: `/?customer={id}`); 404 for an
/// unknown, deleted or another application's customer.
#[utoipa::path(
    get,
    path = "/invoices/applications/customers/{id}",
    operation_id = "getCustomer",
    tag = "customers",
    summary = "Get customer",
    params(
        ("id" = String, Path, format = "uuid", description = "The id returned when the customer was created."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 200, description = "The customer, as the customer list shows it.", body = CustomerDetail),
        (status = 400, description = "The id is not a UUID.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "Unknown or deleted customer, or another application's.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn customers_get(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<CustomerDetail>, AppError> {
    if !paylink_model::br::uuid_is_valid(&id) {
        return Err(Reason::InvalidCustomerId.into());
    }
    crate::store::customers::find(&state.db, &app.id, &id.to_ascii_lowercase(), false)
        .await?
        .map(Json)
        .ok_or(Reason::CustomerNotFound.into())
}

/// Creates a customer of the caller's application: 201 with the customer.
#[utoipa::path(
    post,
    path = "/invoices/applications/customers",
    operation_id = "createCustomer",
    tag = "customers",
    summary = "Create customer",
    params(crate::http::idempotency::IdempotencyKeyHeader, crate::http::extract::AcceptLanguageHeader),
    request_body = CustomerRequest,
    responses(
        (status = 201, description = "The created customer; its address gets its own id.", body = Customer,
         headers(("Idempotent-Replayed" = String, description = "`true` when this is the stored answer to a retry")),
         links(("CreateInvoiceForCustomer" = (
             operation_id = "createInvoice",
             request_body = json!({
                 "customerId": "$response.body#/id", "externalId": "pedido-1",
                 "dueDate": "2027-01-31", "paymentTypes": ["PIX", "BOLETO"],
                 "installmentCount": 1, "price": 100.0
             }),
             description = "Invoices are created for an already registered customer \
                            (here a single charge of R$ 100,00)."
         )))),
        (status = 400, description = "Malformed JSON, a body that is not an object, or a bad Idempotency-Key.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 413, description = "Body over 1 MiB.", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json.", body = ErrorEnvelope),
        (status = 422, description = "Validation failure: `errors` maps each API field path to its messages (rules the schema cannot state, such as CPF/CNPJ check digits, answer here too). Also an Idempotency-Key already used within 24 h with a different request: no `errors` then, and nothing is created.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn customers_create(
    State(state): State<Service>,
    Authed(app): Authed,
    IdempotencyKey(key): IdempotencyKey,
    audit: Audit,
    ApiJson(req): ApiJson<CustomerRequest>,
) -> Result<Response, AppError> {
    let new = req.check()?;
    let customer = Customer {
        id: new_id(),
        full_name: new.full_name,
        document: new.document,
        business: new.business,
        email: new.email,
        phone: new.phone,
        observations: new.observations,
        address: new.address.map(|a| Address {
            id: new_id(),
            address: a.address,
            number: a.number,
            complement: a.complement,
            neighborhood: a.neighborhood,
            city: a.city,
            state: a.state,
            zipcode: a.zipcode,
        }),
        language: new.language,
        user_id: app.user_id.clone(),
        application_id: app.id.clone(),
        created_at: now_iso(),
        deleted_at: None,
    };
    let hash = request_hash("customers.create", &req);
    let (db, app, stored) = (&state.db, &app, &customer);
    let line = audit.0.as_ref();
    let res = create_once(
        db,
        &app.id,
        key,
        hash,
        StatusCode::CREATED,
        &customer,
        move |idem| async move {
            crate::store::customers::insert(db, app, stored, idem.as_ref(), line).await
        },
    )
    .await?;
    // A replay created nothing: its audit line is written after the answer.
    let written = !is_replay(&res);
    Ok(audit.mark(res, written))
}
