//! The merchant's lists (additive to the spec): `GET` on the invoices' and
//! customers' collections, filtered and keyset-paginated, answered as
//! `{"data": [...], "nextCursor": "..." | null}`; the invoice list as a
//! CSV file, streamed; and the home screen's totals. The parameters' rules are
//! `paylink_model::list`, which the widget's list screens use too.

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use paylink_model::list::ListParams;
use paylink_model::{CustomerPage, ErrorEnvelope, InvoicePage};

use crate::domain::export;
use crate::error::AppError;
use crate::http::auth::Authed;
use crate::http::extract::ApiQuery;
use crate::http::Service;

/// Lists the caller's invoices, newest first, each in the detail form.
#[utoipa::path(
    get,
    path = "/invoices/applications/invoices",
    operation_id = "listInvoices",
    tag = "invoices",
    summary = "List invoices",
    params(
        ("status" = Option<paylink_model::InvoiceState>, Query, description = "open (an installment waiting, none overdue), paid (none waiting, none reversed), overdue (an installment waiting past its due date, in Brasília), cancelled (deleted) or reversed (a payment returned in full: an installment REVERSED)."),
        ("dueFrom" = Option<String>, Query, format = Date, description = "Due date (the first installment's) on or after, YYYY-MM-DD."),
        ("dueTo" = Option<String>, Query, format = Date, description = "Due date on or before, YYYY-MM-DD; not before dueFrom."),
        ("q" = Option<String>, Query, max_length = 100, pattern = r"^[\s\u0085]*[^\u0000-\u001F\u007F-\u009F]*[\s\u0085]*$", description = "Text found in the customer's name, document or e-mail, or the externalId (case- and accent-insensitive: joao finds João; at most 100 characters, no control characters)."),
        ("pixAutomatico" = Option<paylink_model::PixAutomaticoStatus>, Query, description = "Only invoices whose Pix Automático recurrence is in this state: pending, created (waiting for the payer), approved, rejected (declined by the payer), expired, cancelled (by the payer in their bank app, or with the invoice) or refused (by the bank)."),
        ("cursor" = Option<String>, Query, description = "The nextCursor of the previous page."),
        ("limit" = Option<u32>, Query, minimum = 1, maximum = 100, description = "Rows per page, 1 to 100 (default 50)."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 200, description = "One page; `nextCursor` is null on the last.", body = InvoicePage),
        (status = 400, description = "A malformed query string (a parameter given twice).", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 422, description = "A bad parameter: `errors` maps its name to its messages.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn invoices_list(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Json<InvoicePage>, AppError> {
    let filter = params.invoice_filter()?;
    let pay_url = |id: &str| state.pay_url(id);
    let page = crate::store::lists::invoice_page(
        &state.db,
        &app.id,
        &filter,
        crate::domain::today(),
        &pay_url,
    )
    .await?;
    Ok(Json(page))
}

/// Lists the caller's customers, newest first.
#[utoipa::path(
    get,
    path = "/invoices/applications/customers",
    operation_id = "listCustomers",
    tag = "customers",
    summary = "List customers",
    params(
        ("q" = Option<String>, Query, max_length = 100, pattern = r"^[\s\u0085]*[^\u0000-\u001F\u007F-\u009F]*[\s\u0085]*$", description = "Text found in the name, document or e-mail (case- and accent-insensitive: joao finds João; at most 100 characters, no control characters)."),
        ("cursor" = Option<String>, Query, description = "The nextCursor of the previous page."),
        ("limit" = Option<u32>, Query, minimum = 1, maximum = 100, description = "Rows per page, 1 to 100 (default 50)."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 200, description = "One page; `nextCursor` is null on the last.", body = CustomerPage),
        (status = 400, description = "A malformed query string (a parameter given twice).", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 422, description = "A bad parameter (or an invoice-only one): `errors` maps its name to its messages.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn customers_list(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Json<CustomerPage>, AppError> {
    let filter = params.customer_filter()?;
    let page = crate::store::lists::customer_page(&state.db, &app.id, &filter).await?;
    Ok(Json(page))
}

/// How many rows may wait between the database and a slow client: the
/// export's memory, whatever the number of rows.
const EXPORT_BUFFER: usize = 256;

/// The invoice list's rows as a CSV file for a spreadsheet, one line per
/// installment: every invoice matching the list's filters, streamed.
#[utoipa::path(
    get,
    path = "/invoices/applications/invoices.csv",
    operation_id = "exportInvoices",
    tag = "invoices",
    summary = "Export invoices (CSV)",
    params(
        ("status" = Option<paylink_model::InvoiceState>, Query, description = "As in the list."),
        ("dueFrom" = Option<String>, Query, format = Date, description = "As in the list."),
        ("dueTo" = Option<String>, Query, format = Date, description = "As in the list."),
        ("q" = Option<String>, Query, max_length = 100, pattern = r"^[\s\u0085]*[^\u0000-\u001F\u007F-\u009F]*[\s\u0085]*$", description = "As in the list."),
        ("pixAutomatico" = Option<paylink_model::PixAutomaticoStatus>, Query, description = "As in the list."),
        crate::http::extract::AcceptLanguageHeader,
    ),
    responses(
        (status = 200, description = "UTF-8 with a BOM, `;`-separated, decimal comma, dates dd/mm/aaaa, a header row, one line per installment (CRLF).", content_type = "text/csv", body = String),
        (status = 400, description = "A malformed query string (a parameter given twice).", body = ErrorEnvelope),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
        (status = 422, description = "A bad parameter, or `cursor`/`limit` (the export has every row): `errors` maps its name to its messages.", body = ErrorEnvelope),
    )
)]
pub(crate) async fn invoices_export(
    State(state): State<Service>,
    Authed(app): Authed,
    ApiQuery(params): ApiQuery<ListParams>,
) -> Result<Response, AppError> {
    let filter = params.export_filter()?;
    let today = crate::domain::today();
    let (tx, rx) = tokio::sync::mpsc::channel(EXPORT_BUFFER);
    let db = state.db;
    tokio::spawn(async move {
        crate::store::lists::export_installments(&db, &app.id, &filter, today, tx).await;
    });
    let header = futures_util::stream::once(async { Ok(Bytes::from(export::header())) });
    let lines = futures_util::stream::unfold(rx, move |mut rx| async move {
        let line = match rx.recv().await? {
            Ok(row) => Ok(Bytes::from(export::line(&row, today))),
            // The status line is gone: cut the body, so the download shows
            // as failed instead of a file that looks complete.
            Err(e) => {
                tracing::error!(error = %e, "CSV export failed");
                Err(std::io::Error::other("export failed"))
            }
        };
        Some((line, rx))
    });
    let file = format!("attachment; filename=\"faturas-{today}.csv\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (header::CONTENT_DISPOSITION, HeaderValue::from_str(&file)?),
        ],
        Body::from_stream(futures_util::StreamExt::chain(header, lines)),
    )
        .into_response())
}

/// The merchant's home screen: this month's received, open and overdue
/// totals, and the last 12 months' received.
#[utoipa::path(
    get,
    path = "/invoices/applications/dashboard",
    operation_id = "getDashboard",
    tag = "invoices",
    summary = "Totals for the home screen",
    params(crate::http::extract::AcceptLanguageHeader),
    responses(
        (status = 200, description = "The month of today in Brasília: `received` (paid this month), `open` (waiting, due this month from today on), `overdue` (waiting, due this month before today); `months`: received per month, the last 12, oldest first.", body = paylink_model::Dashboard),
        (status = 401, description = "Missing or invalid token.", body = ErrorEnvelope,
         headers(("WWW-Authenticate" = String))),
    )
)]
pub(crate) async fn dashboard_get(
    State(state): State<Service>,
    Authed(app): Authed,
) -> Result<Json<paylink_model::Dashboard>, AppError> {
    let dashboard =
        crate::store::dashboard::load(&state.db, &app.id, crate::domain::today()).await?;
    Ok(Json(dashboard))
}
