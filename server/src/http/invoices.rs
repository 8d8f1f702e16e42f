use axum::extract::{FromRef, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use paylink_model::*;

use crate::error::{AppError, Reason};
use crate::http::auth::Authed;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::idempotency::{create_once, is_replay, request_hash, IdempotencyKey};
use crate::http::session::Audit;
use crate::http::Service;
use crate::store::{initial_plan, new_id, now_iso};

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Service: FromRef<S>,
    crate::store::Db: FromRef<S>,
{
    Router::new()
        .route(
            "/invoices/applications/invoices",
            post(invoices_create).get(crate::http::lists::invoices_list),
        )
        .route(
            "/invoices/applications/invoices/{id}",
            get(invoices_get).delete(crate::http::actions::invoices_cancel),
        )
        .route(
            "/invoices/applications/invoices/{id}/resend",
            post(crate::http::actions::invoices_resend),
        )
        .route(
            "/invoices/applications/invoices/{id}/installments/{n}/payments",
            post(crate::http::actions::installments_pay),
        )
        .route(
            "/invoices/applications/dashboard",
            get(crate::http::lists::dashboard_get),
        )
        .route(
            "/invoices/applications/invoices.csv",
            get(crate::http::lists::invoices_export),
        )
}

/// Creates an invoice with its installments: 200 with the creation form.
#[utoipa::path(
    post,
    path = "/invoices/applications/invoices",
    operation_id = "createInvoice",
    tag = "invoices",
    summary = "Create invoice",
    params(crate::http::idempotency::IdempotencyKeyHeader, crate::http::extract::AcceptLanguageHeader),
    request_body = InvoiceRequest,
    responses(
        (status = 200, description = "The created invoice in the creation form (`status`, `type`), with its installments and payment url.", body = InvoiceCreated,
         headers(("Idempotent-Replayed" = String, description = "`true` when this is the stored answer to a retry")),
         links(("GetInvoice" = (
             operation_id = "getInvoice",
             parameters(("id" = "$response.body#/id")),
             description = "The created invoice in the detail form."
         )))),
        (status = 400, description = "Malformed JSON, a body that is not an object, or a bad Idempotency-Key.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 413, description = "Body over 1 MiB.", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json.", body = ErrorEnvelope),
        (status = 422, description = "Validation failure: `errors` maps each API field path to its messages, including the rules the schema cannot state (an unknown or other application's `customerId`, each installment at least R$ 5,00, `endDate` after `dueDate`, a `dueDate` or `discount.untilDate` before today in Brasília, `discount.untilDate` after `dueDate`, a fine above 2 % when the customer's document is a CPF or above 20 % otherwise, a fixed discount not below the smallest installment; `pixAutomatico` when the server has no API Pix, the merchant's `--merchant-document` is not a CNPJ or the customer has no CPF or CNPJ). Also an Idempotency-Key already used within 24 h with a different request: no `errors` then, and nothing is created.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn invoices_create(
    State(state): State<Service>,
    Authed(app): Authed,
    IdempotencyKey(key): IdempotencyKey,
    audit: Audit,
    ApiJson(req): ApiJson<InvoiceRequest>,
) -> Result<Response, AppError> {
    let opts = CheckOptions {
        allow_insecure_webhooks: state.outbound.allows_private(),
        // A charge due before today (in Brasília) would be late at birth.
        today: Some(crate::domain::today()),
    };
    let mut inv = req.check_with(opts)?;
    // The webhooks' names as they resolve now (the model judged the text).
    let verdicts = futures_util::future::join_all(
        inv.webhooks
            .iter()
            .map(|w| state.outbound.check_new(&w.url)),
    )
    .await;
    let mut v = Violations::default();
    for (i, verdict) in verdicts.into_iter().enumerate() {
        if let Err(msg) = verdict {
            v.add(format!("webhooks[{i}].url"), msg);
        }
    }
    if !v.is_empty() {
        return Err(v.into());
    }
    // Rule 4: the customer must exist and be this application's.
    let Some(customer) =
        crate::store::customers::find(&state.db, &app.id, &inv.customer_id, false).await?
    else {
        return Err(AppError::field("customerId", Msg::CustomerNotFound));
    };
    // The customer's document decides the fine's cap (2 % for a CPF).
    inv.terms = inv.check_terms_for_payer(&req, customer.document.as_deref())?;
    // Only what this merchant offers (`serve --payment-types`).
    inv.check_offered(state.merchant.not_offered)?;
    // Pix Automático needs a bank, a company receiving it and a payer with a document.
    inv.check_pix_automatico(state.merchant.pix_automatico(customer.document.as_deref()))?;
    let (fine, interest, discount) = inv.terms.to_wire();
    let id = new_id();
    let created_at = now_iso();
    let plan = initial_plan(&inv);
    let created = InvoiceCreated {
        url: state.pay_url(&id),
        description: inv.description.clone(),
        invoice_type: inv.invoice_type,
        price: inv.price_cents,
        due_date: inv.due_date.to_iso_midnight_utc(),
        installment_count: plan.len() as u32,
        customer: CustomerRef {
            id: customer.id,
            full_name: customer.full_name,
        },
        installments: plan
            .iter()
            .map(|p| InstallmentCreated {
                id: new_id(),
                installment: p.number,
                price: p.price_cents,
                price_paid: 0,
                status: InstallmentStatus::WaitingPayment,
                due_date: p.due_date.to_iso_midnight_utc(),
            })
            .collect(),
        payment_types: inv
            .payment_types
            .iter()
            .map(|&kind| PaymentTypeCreated {
                invoice_id: id.clone(),
                kind,
            })
            .collect(),
        external_id: inv.external_id.clone(),
        created_at,
        price_by_customer: inv.price_by_customer,
        fine,
        interest,
        discount,
        id,
    };
    let hash = request_hash("invoices.create", &req);
    let (db, app, inv, stored, plan) = (&state.db, &app, &inv, &created, &plan);
    let line = audit.0.as_ref();
    let res = create_once(
        db,
        &app.id,
        key,
        hash,
        StatusCode::OK,
        &created,
        move |idem| async move {
            crate::store::invoices::insert(db, app, inv, stored, plan, idem.as_ref(), line).await
        },
    )
    .await?;
    // A replay created nothing: its audit line is written after the answer.
    let written = !is_replay(&res);
    Ok(audit.mark(res, written))
}

/// The invoice in the detail form; 404 for unknown, deleted, or another
/// application's invoice (the caller cannot tell them apart).
#[utoipa::path(
    get,
    path = "/invoices/applications/invoices/{id}",
    operation_id = "getInvoice",
    tag = "invoices",
    summary = "Get invoice",
    params(
        ("id" = String, Path, format = "uuid", description = "The id returned when the invoice was created."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 200, description = "The invoice in the detail form (`_status`, `paymentTypeAccepted`).", body = InvoiceDetail),
        (status = 400, description = "The id is not a UUID.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "Unknown or deleted invoice, or another application's.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn invoices_get(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<InvoiceDetail>, AppError> {
    if !br::uuid_is_valid(&id) {
        return Err(Reason::InvalidInvoiceId.into());
    }
    let id = id.to_ascii_lowercase();
    crate::store::invoice_detail::find(&state.db, &app.id, &id, &state.pay_url(&id))
        .await?
        .map(Json)
        .ok_or(Reason::InvoiceNotFound.into())
}
