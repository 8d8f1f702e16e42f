//! The merchant's actions on an invoice (additive to the spec): cancel it
//! (soft delete, `INVOICE_DELETED`; its payer page then says it was
//! cancelled) and record an installment paid outside paylink (cash, a
//! transfer, a check), with the same events as any payment; send the charge
//! to the payer again.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use paylink_model::actions::{ManualPaymentRequest, Resent};
use paylink_model::{br, ErrorEnvelope, InvoiceDetail};

use crate::error::{AppError, Reason};
use crate::http::auth::Authed;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::Service;
use crate::store::payments;
use paylink_model::installment_due::{check_manual_payment, PaymentRefused};

/// The caller's invoice `id` (lower-cased), or the 400/404 envelope.
async fn own_invoice(state: &Service, app_id: &str, id: &str) -> Result<String, AppError> {
    if !br::uuid_is_valid(id) {
        return Err(Reason::InvalidInvoiceId.into());
    }
    let id = id.to_ascii_lowercase();
    if !crate::store::invoices::exists(&state.db, app_id, &id).await? {
        return Err(Reason::InvoiceNotFound.into());
    }
    Ok(id)
}

/// Cancels an invoice: it leaves the lists (but `status=cancelled`), its
/// detail is a 404, its payer page says it was cancelled, and
/// `INVOICE_DELETED` goes to the webhooks.
#[utoipa::path(
    delete,
    path = "/invoices/applications/invoices/{id}",
    operation_id = "cancelInvoice",
    tag = "invoices",
    summary = "Cancel invoice",
    params(
        ("id" = String, Path, format = "uuid", description = "The invoice's id."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 204, description = "Cancelled."),
        (status = 400, description = "The id is not a UUID.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "Unknown or already cancelled invoice, or another application's.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn invoices_cancel(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    let id = own_invoice(&state, &app.id, &id).await?;
    payments::delete_invoice(&state.db, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Records installment `n` as paid outside paylink: CONFIRMED with the
/// amount received and that day, `PAYMENT_CONFIRMED` to the webhooks and
/// the payer's payment notice, as for a PIX or boleto payment.
#[utoipa::path(
    post,
    path = "/invoices/applications/invoices/{id}/installments/{n}/payments",
    operation_id = "recordPayment",
    tag = "invoices",
    summary = "Record a payment received outside paylink",
    params(
        ("id" = String, Path, format = "uuid", description = "The invoice's id."),
        ("n" = u32, Path, minimum = 1, description = "The installment's number (1, 2, ...)."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    request_body = ManualPaymentRequest,
    responses(
        (status = 200, description = "The invoice in the detail form, the installment CONFIRMED.", body = InvoiceDetail),
        (status = 400, description = "The id is not a UUID, or malformed JSON.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "Unknown invoice or installment.", body = ErrorEnvelope),
        (status = 409, description = "The installment is already paid.", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json.", body = ErrorEnvelope),
        (status = 422, description = "`amount` (more than zero, at most 2 decimals, at most what the installment costs that day: its price, or more with fine and interest) or `paidOn` (YYYY-MM-DD, from the day the invoice was created to today) is wrong: `errors` says which.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn installments_pay(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath((id, n)): ApiPath<(String, String)>,
    ApiJson(req): ApiJson<ManualPaymentRequest>,
) -> Result<Json<InvoiceDetail>, AppError> {
    let id = own_invoice(&state, &app.id, &id).await?;
    let n = n.parse::<u32>().map_err(|_| Reason::InstallmentNotFound)?;
    let detail = crate::store::invoice_detail::find(&state.db, &app.id, &id, &state.pay_url(&id))
        .await?
        .ok_or(Reason::InvoiceNotFound)?;
    let today = crate::domain::today();
    let paid = match check_manual_payment(&detail, n, &req, today) {
        Ok(paid) => paid,
        Err(PaymentRefused::NoInstallment) => return Err(Reason::InstallmentNotFound.into()),
        Err(PaymentRefused::Invalid(v)) => return Err(v.into()),
    };
    payments::mark_paid(&state.db, &id, n, paid.cents, paid.paid_on).await?;
    crate::store::invoice_detail::find(&state.db, &app.id, &id, &state.pay_url(&id))
        .await?
        .map(Json)
        .ok_or(Reason::InvoiceNotFound.into())
}

/// Sends the charge to the payer again, now: the next open installment, on
/// each channel the invoice's notifications use (e-mail, WhatsApp, SMS).
#[utoipa::path(
    post,
    path = "/invoices/applications/invoices/{id}/resend",
    operation_id = "resendInvoice",
    tag = "invoices",
    summary = "Send the charge again",
    params(
        ("id" = String, Path, format = "uuid", description = "The invoice's id."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 202, description = "Queued; the sends show in the invoice's notifications.", body = Resent),
        (status = 400, description = "The id is not a UUID.", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 404, description = "Unknown or cancelled invoice, or another application's.", body = ErrorEnvelope),
        (status = 409, description = "Nothing is waiting for payment, or the invoice has no notification channel.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn invoices_resend(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiPath(id): ApiPath<String>,
) -> Result<(StatusCode, Json<Resent>), AppError> {
    let id = own_invoice(&state, &app.id, &id).await?;
    let queued = crate::store::notifications::resend_now(&state.db, &id).await?;
    Ok((StatusCode::ACCEPTED, Json(Resent { queued })))
}
