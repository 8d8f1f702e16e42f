//! The payer's side: the payer page (`/pay/{id}`, `pages`) and its API
//! (`/api/pay/{id}`: the view, the boleto PDF, a paid installment's receipt PDF, the
//! sandbox's payment), the receipts' verification page (`/r/{code}`), and
//! the payment links' page and public API (`/l/{slug}`, `/api/links/{slug}`).
//! No session: an invoice's id or a link's slug is what the payer holds, and
//! each route is rate-limited per client address. An invoice is read as its
//! owner from paylink's own service, or asked of the remote upstream.

pub mod again;
pub mod charges;
pub mod link_page;
pub mod links;
pub mod pages;

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRef, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::domain::payer::OurNumbers;
use crate::error::{AppError, Reason};
use crate::http::extract::ApiPath;
use crate::http::ratelimit::{self, RateLimiter};
use crate::proxy::upstream::{self, Handle, Proxy};

/// Answers about one person's charge are never kept by a shared cache.
const NO_STORE: (header::HeaderName, HeaderValue) =
    (header::CACHE_CONTROL, HeaderValue::from_static("no-store"));

/// The payer routes' part of the application's state: the proxy (where the
/// invoices are), who is paid, the pages' assets.
#[derive(Clone)]
pub(crate) struct Payer {
    proxy: Handle,
    config: Arc<crate::domain::payer::PayerConfig>,
    page: Arc<pages::PageConfig>,
}

impl Payer {
    pub(crate) fn new(
        proxy: &Handle,
        config: crate::domain::payer::PayerConfig,
        page: pages::PageConfig,
    ) -> Payer {
        Payer {
            proxy: proxy.clone(),
            config: Arc::new(config),
            page: Arc::new(page),
        }
    }

    /// The database of paylink's own service, where the invoices are, with
    /// what only it knows: owners, boleto numbers, bank codes, views, the
    /// sandbox's payments. `None` with a remote upstream (or none at all).
    fn books(&self) -> Option<&crate::store::Db> {
        self.proxy.as_deref().and_then(Proxy::local).map(|s| &s.db)
    }

    /// paylink's public URL, with its own service (where receipts are).
    fn public_url(&self) -> Option<&str> {
        self.proxy
            .as_deref()
            .and_then(Proxy::local)
            .map(|s| &*s.public_url)
    }
}

/// The payer's routes, for a state with their parts. Each limiter caps its
/// routes per client address: the payer's (ids are not guessed by the
/// thousand a second) and the payment links' creations.
pub(crate) fn router<S>(
    payer_limiter: Arc<RateLimiter>,
    link_limiter: Arc<RateLimiter>,
) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Handle: FromRef<S>,
    Payer: FromRef<S>,
    crate::store::Db: FromRef<S>,
{
    let payer_routes = Router::new()
        .route("/pay/{id}", get(pages::pay_page))
        .route("/pay/{id}/simulate", post(pages::simulate_form))
        .route(
            "/pay/{id}/pix-automatico",
            post(pages::pix_automatico_again),
        )
        .route("/c/{token}", get(charges::charges_page))
        .route(
            "/pay/{id}/installments/{n}/pay-again",
            post(again::pay_again_form),
        )
        .route("/api/pay/{id}", get(api_pay_get))
        .route("/api/pay/{id}/view", post(api_pay_view))
        .route(
            "/api/pay/{id}/installments/{n}/boleto.pdf",
            get(api_pay_boleto_pdf),
        )
        .route(
            "/api/pay/{id}/installments/{n}/receipt.pdf",
            get(api_pay_receipt_pdf),
        )
        .route("/r/{code}", get(pages::receipt_page))
        .route("/api/pay/{id}/simulate", post(api_pay_simulate))
        .route_layer(axum::middleware::from_fn_with_state(
            payer_limiter,
            ratelimit::limit,
        ));
    // Link-bound creations need no session: the link decides what they may
    // create. The page's form sent without JavaScript makes the same creations.
    let link_creations = Router::new()
        .route(
            "/api/links/{slug}/customers",
            post(links::link_customers_create),
        )
        .route(
            "/api/links/{slug}/invoices",
            post(links::link_invoices_create),
        )
        .route("/l/{slug}", post(link_page::link_form))
        .route_layer(axum::middleware::from_fn_with_state(
            link_limiter,
            ratelimit::limit,
        ));
    let link_routes = Router::new()
        .route("/api/links/{slug}", get(links::link_get))
        .route("/l/{slug}", get(link_page::link_page))
        .merge(link_creations);
    payer_routes.merge(link_routes)
}

/// The invoice detail the payer routes are built from; the upstream's
/// refusal (its envelope: 404, 401, ...) is the answer otherwise.
async fn payer_detail(
    s: &Payer,
    headers: HeaderMap,
    id: &str,
) -> Result<paylink_model::InvoiceDetail, AppError> {
    if !paylink_model::br::uuid_is_valid(id) {
        return Err(Reason::InvalidInvoiceId.into());
    }
    let id = id.to_ascii_lowercase();
    // Any application's invoice, read as its owner's, as the service's
    // `GET` reads it; a remote upstream is asked with the token, and answers
    // for that token's application only.
    let Some(own) = s.proxy.as_deref().and_then(Proxy::local) else {
        let path = format!("{}/invoices/{id}", upstream::SERVICE);
        let res = upstream::forward(s.proxy.clone(), Method::GET, path, headers, Bytes::new());
        return upstream::read_json(res.await?, 16 * 1024 * 1024).await;
    };
    let found = match crate::store::invoices::owner(&own.db, &id).await? {
        Some(app) => {
            let url = own.pay_url(&id);
            crate::store::invoice_detail::find(&own.db, &app.id, &id, &url).await?
        }
        None => None,
    };
    match found {
        Some(detail) => Ok(detail),
        // A cancelled charge says so (410).
        None if crate::store::views::is_cancelled(&own.db, &id).await? => {
            Err(Reason::InvoiceCancelled.into())
        }
        None => Err(Reason::InvoiceNotFound.into()),
    }
}

/// The payer's view of invoice `id` (no private data; PIX and boleto
/// codes), and the detail it was made from.
async fn payer_view(
    s: &Payer,
    headers: HeaderMap,
    id: &str,
) -> Result<(paylink_model::PayerView, paylink_model::InvoiceDetail), AppError> {
    let detail = payer_detail(s, headers, id).await?;
    let numbers = OurNumbers::of(&detail, s.books()).await?;
    let clock = s.config.clock;
    let mut view = crate::domain::payer::payer_view(&detail, &s.config, &numbers, clock.today());
    if let (true, Some(db)) = (s.config.pix_api, s.books()) {
        crate::domain::payer::with_bank_codes(&mut view, &detail, db).await?;
        crate::domain::payer::with_pix_automatico(&mut view, &detail, db).await?;
    }
    if let Some(db) = s.books() {
        crate::domain::receipts::with_receipts(&mut view, &detail, db, &s.config).await?;
    }
    crate::domain::payer::with_pix_at_night(&mut view, &detail, clock.now_ms());
    Ok((view, detail))
}

/// The payer page's view of an invoice, as JSON (the page's live status and
/// the widget read it).
async fn api_pay_get(
    State(s): State<Payer>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    let (view, _) = payer_view(&s, headers, &id).await?;
    Ok(([NO_STORE], axum::Json(view)).into_response())
}

/// The printable boleto of one open BOLETO installment, as a PDF download
/// (`?print=1`: shown inline, for the browser's print view).
async fn api_pay_boleto_pdf(
    State(s): State<Payer>,
    headers: HeaderMap,
    ApiPath((id, n)): ApiPath<(String, String)>,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    let detail = payer_detail(&s, headers, &id).await?;
    let n = n.parse::<u32>().map_err(|_| Reason::InstallmentNotFound)?;
    // With paylink's own service the address comes from its database; a
    // remote upstream's detail has none, and the boleto leaves it out.
    let address = match (s.books(), &detail.customer.address_id) {
        (Some(db), Some(address_id)) => {
            crate::store::customers::payer_address(db, address_id).await?
        }
        _ => None,
    };
    let today = crate::domain::today();
    let numbers = OurNumbers::of(&detail, s.books()).await?;
    let mut input =
        crate::domain::payer::boleto_pdf_input(&detail, n, &s.config, &numbers, address, today)?;
    // The hybrid boleto: an invoice that also takes PIX prints the bank's code for the same
    // installment once the bank has it (never the static code, which the bank cannot match).
    if let (true, Some(db)) = (s.config.pix_api, s.books()) {
        input.pix = crate::domain::payer::bank_pix_for_boleto(&detail, n, db).await?;
    }
    // Tens of milliseconds of CPU (the font subset, the barcode): off the
    // async threads, which would otherwise stall every other request meanwhile.
    let pdf = tokio::task::spawn_blocking(move || crate::domain::boleto_pdf::render(&input))
        .await
        .map_err(AppError::internal)?
        .map_err(AppError::internal)?;
    let print = query.is_some_and(|q| q.split('&').any(|p| p == "print=1"));
    let disposition = format!(
        "{}; filename=\"boleto-{}-{n}.pdf\"",
        if print { "inline" } else { "attachment" },
        crate::domain::payer::file_name_part(&detail.external_id, &detail.id)
    );
    let disposition = HeaderValue::from_str(&disposition)?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            NO_STORE,
            (header::CONTENT_DISPOSITION, disposition),
        ],
        Body::from(pdf),
    )
        .into_response())
}

/// The receipt of paid installment `n`, as a PDF download in the page's language (`?lang=`,
/// else the cookie, else `Accept-Language`): 404 while it is unpaid, and with a remote
/// upstream, whose payments paylink does not vouch for.
async fn api_pay_receipt_pdf(
    State(s): State<Payer>,
    headers: HeaderMap,
    ApiPath((id, n)): ApiPath<(String, String)>,
    crate::http::extract::ApiQuery(q): crate::http::extract::ApiQuery<pages::PageQuery>,
) -> Result<Response, AppError> {
    let l = pages::page_lang(&q, &headers);
    let detail = payer_detail(&s, headers, &id).await?;
    let n = n.parse::<u32>().map_err(|_| Reason::InstallmentNotFound)?;
    let (Some(db), Some(public_url)) = (s.books(), s.public_url()) else {
        return Err(Reason::ReceiptNotFound.into());
    };
    let receipt = crate::domain::receipts::of(db, &detail, n, &s.config)
        .await?
        .ok_or(Reason::ReceiptNotFound)?;
    let pdf = crate::domain::receipts::pdf(receipt, l, public_url)
        .await
        .map_err(AppError::internal)?;
    let disposition = format!(
        "attachment; filename=\"{}\"",
        crate::domain::receipts::file_name(&detail, n, l)
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            NO_STORE,
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition)?,
            ),
        ],
        Body::from(pdf),
    )
        .into_response())
}

/// The receipt whose verification code is `code`: only one paylink issued, of an installment
/// still paid or reversed since; anything else is [`Reason::ReceiptNotFound`], whatever the
/// reason (a malformed code, an unknown one, a remote upstream), so the answer tells nothing.
async fn receipt_by_code(
    s: &Payer,
    headers: HeaderMap,
    code: &str,
) -> Result<paylink_model::receipt::Receipt, AppError> {
    let not_found = || AppError::from(Reason::ReceiptNotFound);
    let (Some(code), Some(db)) = (paylink_model::receipt::parse_code(code), s.books()) else {
        return Err(not_found());
    };
    let Some((invoice_id, n)) = crate::store::receipts::by_code(db, &code).await? else {
        return Err(not_found());
    };
    let detail = match payer_detail(s, headers, &invoice_id).await {
        Ok(d) => d,
        Err(e) if e.status() == StatusCode::NOT_FOUND || e.status() == StatusCode::GONE => {
            return Err(not_found())
        }
        Err(e) => return Err(e),
    };
    // Not paid any more (nothing else makes a receipt go): nothing to vouch for.
    crate::domain::receipts::of(db, &detail, n, &s.config)
        .await?
        .ok_or_else(not_found)
}

/// Counts a view of the payer page (paylink's own service only).
async fn api_pay_view(
    State(s): State<Payer>,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    let Some(db) = s.books().filter(|_| paylink_model::br::uuid_is_valid(&id)) else {
        return Err(Reason::RouteNotFound.into());
    };
    match crate::store::views::record_view(db, &id.to_ascii_lowercase()).await? {
        true => Ok(StatusCode::NO_CONTENT),
        false => Err(Reason::InvoiceNotFound.into()),
    }
}

/// Sandbox only: pays the next open installment as the bank would.
async fn simulate(s: &Payer, id: &str) -> Result<(), AppError> {
    let Some(db) = s
        .books()
        .filter(|_| s.config.sandbox && paylink_model::br::uuid_is_valid(id))
    else {
        return Err(Reason::RouteNotFound.into());
    };
    crate::store::payments::simulate_pay(db, &id.to_ascii_lowercase(), None, None).await?;
    Ok(())
}

/// The sandbox's payment as an API call: the payer view after it.
async fn api_pay_simulate(
    State(s): State<Payer>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    simulate(&s, &id).await?;
    api_pay_get(State(s), headers, ApiPath(id)).await
}

/// The payer asks for a new Pix Automático recurrence in place of one they declined or let
/// expire (the payer page offers it only then): made by the recurrences worker, its code on the
/// page a moment later. Anything else (already asked for, authorized, no cycle left) changes
/// nothing.
async fn ask_pix_automatico_again(s: &Payer, headers: HeaderMap, id: &str) -> Result<(), AppError> {
    let (view, _) = payer_view(s, headers, id).await?;
    let offered = matches!(
        view.pix_automatico_again,
        Some(
            paylink_model::PixAutomaticoAgain::Declined
                | paylink_model::PixAutomaticoAgain::Expired
        )
    );
    if let (true, Some(db)) = (offered, s.books()) {
        if crate::store::pix_recurrences::renew(db, &id.to_ascii_lowercase()).await? {
            tracing::info!(invoice = %id, "Pix Automático: the payer asked for a new recurrence");
        }
    }
    Ok(())
}
