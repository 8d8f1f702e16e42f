//! `GET /c/{token}`: the payer's page of charges, every invoice of one customer with one
//! application (paylink's own service only: a remote upstream's invoices are not in this
//! database), from a link the merchant made or a notification carried
//! (`domain::charges_links`). Open invoices first, by their next due date; then the paid ones,
//! newest first. An unknown, expired or revoked link, or one of a deleted customer, gets one
//! and the same 404 page. Like the payer page: server HTML with no JavaScript, in the payer
//! page's language, its CSP, never kept by a shared cache.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use paylink_model::{InstallmentStatus, InvoiceDetail, Lang};
use paylink_payer::charges::{ChargeLine, Charges};
use paylink_payer::shell::{render, Assets};

use super::pages::{html_response, page_lang, PageQuery};
use super::Payer;
use crate::domain::charges_links::{token_hash, token_is_well_formed};
use crate::error::AppError;
use crate::http::extract::{ApiPath, ApiQuery};

/// The page's lines for invoice `d` on `today`: open (an installment waits) or paid.
fn line(d: &InvoiceDetail, today: paylink_model::Date) -> (bool, ChargeLine) {
    let next = d
        .installments
        .iter()
        .find(|i| i.status == InstallmentStatus::WaitingPayment);
    let shown = next.or(d.installments.last());
    let paid = d.installments.iter().map(|i| i.price_paid).sum();
    let status = if d
        .installments
        .iter()
        .any(|i| i.status == InstallmentStatus::Reversed)
    {
        InstallmentStatus::Reversed
    } else {
        InstallmentStatus::Confirmed
    };
    let line = ChargeLine {
        pay_path: format!("/pay/{}", d.id),
        description: d.description.clone(),
        installment_count: d.installments.len() as u32,
        installment: shown.map_or(1, |i| i.installment),
        due_date: shown.map_or_else(|| d.due_date.clone(), |i| i.due_date.clone()),
        amount_today: next
            .filter(|_| !d.price_by_customer)
            .map(|i| crate::domain::payer::amount_due_on(d, i, today).unwrap_or(i.price)),
        paid,
        status: next.map_or(status, |i| i.status),
    };
    (next.is_some(), line)
}

/// The page's content for the link whose token is `token`, if it opens one.
async fn charges(s: &Payer, token: &str) -> Result<Option<Charges>, AppError> {
    let Some(own) = s
        .proxy
        .as_deref()
        .and_then(crate::proxy::upstream::Proxy::local)
    else {
        return Ok(None);
    };
    if !token_is_well_formed(token) {
        return Ok(None);
    }
    let db = &own.db;
    let clock = s.config.clock;
    let now = paylink_model::date::iso_utc_from_millis(clock.now_ms());
    let Some((app, customer)) =
        crate::store::charges_links::live(db, &token_hash(token), &now).await?
    else {
        return Ok(None);
    };
    let Some(who) = crate::store::customers::find(db, &app, &customer, false).await? else {
        return Ok(None);
    };
    let today = clock.today();
    let mut open = Vec::new();
    let mut paid = Vec::new();
    for id in crate::store::charges_links::invoice_ids(db, &app, &customer).await? {
        let url = own.pay_url(&id);
        let Some(d) = crate::store::invoice_detail::find(db, &app, &id, &url).await? else {
            continue;
        };
        match line(&d, today) {
            (true, l) => open.push(l),
            (false, l) => paid.push(l),
        }
    }
    // The soonest due first (ISO dates sort as text).
    open.sort_by(|a, b| a.due_date.cmp(&b.due_date));
    Ok(Some(Charges {
        merchant_name: s.config.merchant_name.clone(),
        customer_name: who.full_name,
        open,
        paid,
    }))
}

/// `GET /c/{token}`.
pub(super) async fn charges_page(
    State(s): State<Payer>,
    headers: HeaderMap,
    ApiPath(token): ApiPath<String>,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Response {
    let l: Lang = page_lang(&q, &headers);
    let path = format!("/c/{token}");
    // No islands: the page is links and text.
    let assets = Assets {
        css: s.page.assets.css.clone(),
        islands: None,
    };
    let (found, failed) = match charges(&s, &token).await {
        Ok(found) => (found, None),
        Err(e) => {
            // Logged, never shown: the payer gets the page of a link that opens nothing.
            tracing::error!(error = ?e, "page of charges");
            (None, Some(e.status()))
        }
    };
    let chrome = q.chrome();
    let (status, html) = match found {
        Some(c) => {
            let title = format!("{} · {}", paylink_text::PAYMENT.t(l), c.merchant_name);
            let html = render(l, &title, &path, &assets, chrome, move || {
                leptos::view! { <paylink_payer::charges::ChargesPage l c /> }
            });
            (StatusCode::OK, html)
        }
        None => {
            let html = render(l, "paylink", &path, &assets, chrome, move || {
                leptos::view! { <paylink_payer::charges::NoCharges l /> }
            });
            (failed.unwrap_or(StatusCode::NOT_FOUND), html)
        }
    };
    html_response(
        status,
        html,
        &s.page.frame_ancestors,
        q.lang.is_some().then_some(l),
    )
}
