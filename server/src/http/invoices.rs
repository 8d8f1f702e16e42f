use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use paylink_model::*;
use sqlx::Row;

use crate::error::{AppError, OrInternal, Reason};
use crate::http::auth::Authed;
use crate::http::extract::{ApiJson, ReqLang};
use crate::http::idempotency::{create_once, request_hash, IdempotencyKey};
use crate::http::AppState;
use crate::store::{initial_plan, new_id, now_iso, InvoiceRows};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/invoices/applications/invoices", post(invoices_create))
        .route("/invoices/applications/invoices/{id}", get(invoices_get))
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
        (status = 422, description = "Validation failure: `errors` maps each API field path to its messages, including the rules the schema cannot state (an unknown or other application's `customerId`, each installment at least R$ 5,00, `endDate` after `dueDate`, a `dueDate` or `discount.untilDate` before today in Brasília, `discount.untilDate` after `dueDate`, a fine above 2 % when the customer's document is a CPF or above 20 % otherwise, a fixed discount not below the smallest installment). Also an Idempotency-Key already used within 24 h with a different request: no `errors` then, and nothing is created.", body = ErrorEnvelope),
    )
)]
async fn invoices_create(
    State(state): State<AppState>,
    Authed(app): Authed,
    ReqLang(lang): ReqLang,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(req): ApiJson<InvoiceRequest>,
) -> Result<Response, AppError> {
    let opts = CheckOptions {
        allow_insecure_webhooks: state.allow_insecure_webhooks,
        // A charge due before today (in Brasília) would be late at birth.
        today: Some(crate::domain::today()),
    };
    let mut inv = req
        .check_with(opts)
        .map_err(|v| AppError::validation(&v, lang))?;
    // Rule 4: the customer must exist and be this application's.
    let Some(customer) = state
        .db
        .find_customer(&app.id, &inv.customer_id, false)
        .await
        .or_internal(lang)?
    else {
        let mut v = Violations::default();
        v.add("customerId", Msg::CustomerNotFound);
        return Err(AppError::validation(&v, lang));
    };
    // The customer's document decides the fine's cap (2 % for a CPF).
    inv.terms = inv
        .check_terms_for_payer(&req, customer.document.as_deref())
        .map_err(|v| AppError::validation(&v, lang))?;
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
    create_once(
        db,
        &app.id,
        lang,
        key,
        hash,
        StatusCode::OK,
        &created,
        move |idem| async move {
            db.insert_invoice(app, inv, stored, plan, idem.as_ref())
                .await
        },
    )
    .await
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
async fn invoices_get(
    State(state): State<AppState>,
    Authed(app): Authed,
    ReqLang(lang): ReqLang,
    Path(id): Path<String>,
) -> Result<Json<InvoiceDetail>, AppError> {
    if !br::uuid_is_valid(&id) {
        return Err(AppError::new(Reason::InvalidInvoiceId, lang));
    }
    let rows = state
        .db
        .load_invoice(&app.id, &id.to_ascii_lowercase())
        .await
        .or_internal(lang)?
        .ok_or_else(|| AppError::new(Reason::InvoiceNotFound, lang))?;
    detail_from_rows(&state, rows)
        .map(Json)
        .map_err(|e| AppError::internal(e, lang))
}

/// Turns stored rows into the detail form. Stored enum text that does not
/// parse is a storage fault, reported as such rather than guessed at.
pub fn detail_from_rows(state: &AppState, rows: InvoiceRows) -> Result<InvoiceDetail, String> {
    fn parse<T>(text: &str, f: fn(&str) -> Option<T>) -> Result<T, String> {
        f(text).ok_or_else(|| format!("unexpected stored value {text:?}"))
    }
    let due = |s: String| {
        Date::parse_iso(&s)
            .map(Date::to_iso_midnight_utc)
            .ok_or_else(|| format!("bad stored date {s:?}"))
    };
    let r = &rows.invoice;
    let id: String = r.get("id");
    let (fine, interest, discount) = rows.terms.to_wire();

    let installments = rows
        .installments
        .iter()
        .map(|i| {
            Ok(Installment {
                id: i.get("i_id"),
                invoice_id: id.clone(),
                installment: i.get::<i64, _>("i_number") as u32,
                price: i.get("i_price_cents"),
                price_paid: i.get("i_price_paid_cents"),
                due_date: due(i.get("i_due_date"))?,
                status: parse(i.get::<&str, _>("i_status"), InstallmentStatus::parse)?,
                created_at: i.get("i_created_at"),
                updated_at: i.get("i_updated_at"),
                deleted_at: i.get("i_deleted_at"),
                last_view_at: i.get("i_last_view_at"),
                paid_at: i.get("i_paid_at"),
                payment_received_at: i.get("i_payment_received_at"),
                views_count: i.get::<i64, _>("i_views_count") as u32,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;

    let (mut before, mut after, mut paid, mut send) = (vec![], vec![], vec![], vec![]);
    for n in &rows.notifications {
        let kind = parse(&n.kind, NotificationType::parse)?;
        let config_id = n.id.clone();
        let config = NotificationConfig {
            sends: rows
                .notification_sends
                .iter()
                .filter(|(of, _)| *of == config_id)
                .map(|(_, send)| send.clone())
                .collect(),
            id: config_id,
            kind,
            channel: parse(&n.channel, Channel::parse)?,
            period: n.period.map(|p| p as u32),
            created_at: n.created_at.clone(),
        };
        match kind.group() {
            NotificationGroup::BeforeDueDate => before.push(config),
            NotificationGroup::AfterDueDate => after.push(config),
            NotificationGroup::AfterPayment => paid.push(config),
            NotificationGroup::SendTypes => send.push(config),
        }
    }
    let webhooks = rows
        .webhooks
        .into_iter()
        .map(|w| {
            Ok(WebhookConfig {
                hook_type: parse(&w.hook_type, HookType::parse)?,
                id: w.id,
                url: w.url,
                created_at: w.created_at,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let payment_types = rows
        .payment_types
        .iter()
        .map(|t| {
            Ok(PaymentTypeDetail {
                invoice_id: id.clone(),
                payment_type_accepted: parse(t, PaymentType::parse)?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;

    Ok(InvoiceDetail {
        url: state.pay_url(&id),
        external_id: r.get("external_id"),
        description: r.get("description"),
        invoice_type: parse(r.get::<&str, _>("invoice_type"), InvoiceType::parse)?,
        price: r.get("price_cents"),
        price_by_customer: r.get::<i64, _>("price_by_customer") != 0,
        due_date: due(r.get("due_date"))?,
        end_date: r
            .get::<Option<String>, _>("end_date")
            .map(due)
            .transpose()?,
        end_installment: r.get::<Option<i64>, _>("end_installment").map(|n| n as u32),
        end_subscription: r.get("end_subscription"),
        frequency: r
            .get::<Option<&str>, _>("frequency")
            .map(|f| parse(f, Frequency::parse))
            .transpose()?,
        installment_count: r.get::<i64, _>("installment_count") as u32,
        customer: rows.customer,
        redirect_to: r.get("redirect_to"),
        installments,
        items: Vec::new(),
        notification_before_due_date: before,
        notification_after_due_date: after,
        notification_after_payment: paid,
        notification_send_types: send,
        webhooks,
        payment_types,
        created_at: r.get("created_at"),
        fine,
        interest,
        discount,
        id,
    })
}
