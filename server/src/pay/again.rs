//! `POST /pay/{id}/installments/{n}/pay-again`: the payer page's "pay again" form of a REVERSED
//! installment (offered unless a devolução of it was for fraud: `paylink_model::reversal`). The
//! installment waits for payment again with a fresh Pix charge (`store::pix_payments::pay_again`),
//! and the payer is sent back to the page (303), which shows how to pay it. Anything else (not
//! offered, paid again meanwhile) changes nothing.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::Payer;
use crate::error::{AppError, Reason};
use crate::http::extract::ApiPath;

async fn pay_again(s: &Payer, headers: HeaderMap, id: &str, n: &str) -> Result<(), AppError> {
    let n = n.parse::<u32>().map_err(|_| Reason::InstallmentNotFound)?;
    let (view, _) = super::payer_view(s, headers, id).await?;
    let offered = view
        .installments
        .iter()
        .find(|i| i.installment == n)
        .ok_or(Reason::InstallmentNotFound)?
        .pay_again;
    if let (true, Some(db)) = (offered, s.books()) {
        if crate::store::pix_payments::pay_again(db, &view.id, n).await? {
            tracing::info!(invoice = %view.id, installment = n, "the payer pays a reversed installment again");
        }
    }
    Ok(())
}

pub(super) async fn pay_again_form(
    State(s): State<Payer>,
    headers: HeaderMap,
    ApiPath((id, n)): ApiPath<(String, String)>,
) -> Response {
    let done = pay_again(&s, headers.clone(), &id, &n).await;
    super::pages::back_to_page(&s, &headers, &id, done)
}
