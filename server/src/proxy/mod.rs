//! The proxy the widget calls. It holds the token (the browser never sees
//! it), forwards the merchant's calls (only with an operator's session, see
//! `session`) plus the payer page's and the payment links' public routes, and
//! answers every failure of the upstream with an envelope instead of hanging.

pub mod cors;
pub mod link_page;
pub mod links;
pub mod pages;
pub mod ratelimit;
pub mod session;
pub mod upstream;
pub mod webhooks;

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{FromRef, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::domain::payer::OurNumbers;
use crate::error::{AppError, Reason};
use crate::http::extract::{ApiPath, RawBody};
pub(crate) use upstream::Handle;
use upstream::{forward, Proxy, Upstream};
pub use upstream::{ProxyConfig, DEFAULT_UPSTREAM_TIMEOUT};

/// Answers about one person's charge are never kept by a shared cache.
const NO_STORE: (header::HeaderName, HeaderValue) =
    (header::CACHE_CONTROL, HeaderValue::from_static("no-store"));

/// The payer routes' part of the application's state: the proxy, who is
/// paid, the pages' assets, and (with paylink's own service as upstream,
/// where the invoices are) the database for view counts and sandbox payments.
#[derive(Clone)]
pub(crate) struct Payer {
    proxy: Handle,
    db: Option<crate::store::Db>,
    config: Arc<crate::domain::payer::PayerConfig>,
    page: Arc<pages::PageConfig>,
}

impl Payer {
    pub(crate) fn new(
        proxy: &Handle,
        db: crate::store::Db,
        config: crate::domain::payer::PayerConfig,
        page: pages::PageConfig,
    ) -> Payer {
        let local = proxy
            .as_ref()
            .is_some_and(|p| matches!(p.upstream, Upstream::Local(_)));
        Payer {
            proxy: proxy.clone(),
            db: local.then_some(db),
            config: Arc::new(config),
            page: Arc::new(page),
        }
    }
}

/// The proxy's upstream: `service` in-process, or the remote one `config`
/// names; `None` (no token) leaves every proxied call a 503.
pub(crate) fn handle(config: Option<ProxyConfig>, service: Router) -> Handle {
    config.and_then(|c| {
        let mut token = HeaderValue::from_str(&format!("Basic {}", c.token.trim())).ok()?;
        token.set_sensitive(true);
        let upstream = match c.upstream {
            None => Upstream::Local(service),
            Some(base) => Upstream::Remote {
                base: base.trim_end_matches('/').to_string(),
                client: reqwest::Client::builder()
                    .connect_timeout(Duration::from_secs(5).min(c.timeout))
                    .timeout(c.timeout)
                    .build()
                    .ok()?,
            },
        };
        Some(Arc::new(Proxy { token, upstream }))
    })
}

/// Every route of the proxy, for a state with its parts (`state` is what
/// the operator check reads its sessions from). Each limiter caps its routes
/// per client address: the payer's (ids are not guessed by the thousand a
/// second) and the payment links' creations.
pub(crate) fn router<S>(
    state: &S,
    payer_limiter: Arc<ratelimit::RateLimiter>,
    link_limiter: Arc<ratelimit::RateLimiter>,
) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Handle: FromRef<S>,
    Payer: FromRef<S>,
    crate::store::Db: FromRef<S>,
    Arc<session::Sessions>: FromRef<S>,
{
    let payer_routes = Router::new()
        .route("/pay/{id}", get(pages::pay_page))
        .route("/pay/{id}/simulate", post(pages::simulate_form))
        .route(
            "/pay/{id}/pix-automatico",
            post(pages::pix_automatico_again),
        )
        .route("/api/pay/{id}", get(api_pay_get))
        .route("/api/pay/{id}/view", post(api_pay_view))
        .route(
            "/api/pay/{id}/installments/{n}/boleto.pdf",
            get(api_pay_boleto_pdf),
        )
        .route("/api/pay/{id}/simulate", post(api_pay_simulate))
        .route_layer(axum::middleware::from_fn_with_state(
            payer_limiter,
            ratelimit::limit,
        ));
    // Link-bound creations need no session: the link decides what they may create.
    let link_routes = links::router(link_limiter);
    Router::new()
        .route(
            "/api/customers",
            post(api_customers_create).get(api_customers_list),
        )
        .route(
            "/api/invoices",
            post(api_invoices_create).get(api_invoices_list),
        )
        .route("/api/customers/{id}", get(api_customers_get))
        .route("/api/invoices.csv", get(api_invoices_export))
        .route("/api/dashboard", get(api_dashboard))
        .route(
            "/api/invoices/{id}",
            get(api_invoices_get).delete(api_invoices_cancel),
        )
        .route(
            "/api/invoices/{id}/installments/{n}/payments",
            post(api_installments_pay),
        )
        .route("/api/invoices/{id}/resend", post(api_invoices_resend))
        .merge(webhooks::router())
        .route(
            "/api/payment-links",
            post(api_links_create).get(api_links_list),
        )
        .route("/api/payment-links/{slug}", get(api_links_get))
        .route(
            "/api/payment-links/{slug}/deactivate",
            post(api_links_deactivate),
        )
        .route(
            "/api/payment-links/{slug}/reactivate",
            post(api_links_reactivate),
        )
        // Every merchant call above: an operator's session, same-origin writes, the audit.
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            session::require_operator,
        ))
        .merge(session::router())
        .merge(payer_routes)
        .merge(link_routes)
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
    let res = forward(
        s.proxy.clone(),
        Method::GET,
        format!("/invoices/applications/invoices/{id}"),
        headers,
        Bytes::new(),
    )
    .await?;
    match upstream::read_json(res, 16 * 1024 * 1024).await {
        // With paylink's own service, a cancelled charge says so (410).
        Err(e) if e.status() == StatusCode::NOT_FOUND => match &s.db {
            Some(db) if crate::store::views::is_cancelled(db, &id.to_ascii_lowercase()).await? => {
                Err(Reason::InvoiceCancelled.into())
            }
            _ => Err(e),
        },
        read => read,
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
    let numbers = OurNumbers::of(&detail, s.db.as_ref()).await?;
    let mut view =
        crate::domain::payer::payer_view(&detail, &s.config, &numbers, crate::domain::today());
    if let (true, Some(db)) = (s.config.pix_api, &s.db) {
        crate::domain::payer::with_bank_codes(&mut view, &detail, db).await?;
        crate::domain::payer::with_pix_automatico(&mut view, &detail, db).await?;
    }
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
    let address = match (&s.db, &detail.customer.address_id) {
        (Some(db), Some(address_id)) => {
            crate::store::customers::payer_address(db, address_id).await?
        }
        _ => None,
    };
    let today = crate::domain::today();
    let numbers = OurNumbers::of(&detail, s.db.as_ref()).await?;
    let mut input =
        crate::domain::payer::boleto_pdf_input(&detail, n, &s.config, &numbers, address, today)?;
    // The hybrid boleto: an invoice that also takes PIX prints the bank's code for the same
    // installment once the bank has it (never the static code, which the bank cannot match).
    if let (true, Some(db)) = (s.config.pix_api, &s.db) {
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

/// Counts a view of the payer page (paylink's own service only).
async fn api_pay_view(
    State(s): State<Payer>,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    let Some(db) = s.db.filter(|_| paylink_model::br::uuid_is_valid(&id)) else {
        return Err(Reason::RouteNotFound.into());
    };
    match crate::store::views::record_view(&db, &id.to_ascii_lowercase()).await? {
        true => Ok(StatusCode::NO_CONTENT),
        false => Err(Reason::InvoiceNotFound.into()),
    }
}

/// Sandbox only: pays the next open installment as the bank would.
async fn simulate(s: &Payer, id: &str) -> Result<(), AppError> {
    let Some(db) =
        s.db.clone()
            .filter(|_| s.config.sandbox && paylink_model::br::uuid_is_valid(id))
    else {
        return Err(Reason::RouteNotFound.into());
    };
    crate::store::payments::simulate_pay(&db, &id.to_ascii_lowercase(), None, None).await?;
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
    if let (true, Some(db)) = (offered, &s.db) {
        if crate::store::pix_recurrences::renew(db, &id.to_ascii_lowercase()).await? {
            tracing::info!(invoice = %id, "Pix Automático: the payer asked for a new recurrence");
        }
    }
    Ok(())
}

type ProxyState = State<Handle>;

async fn api_customers_create(
    State(p): ProxyState,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Response, AppError> {
    create(p, "/invoices/applications/customers", headers, body).await
}

async fn api_invoices_create(
    State(p): ProxyState,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Response, AppError> {
    create(p, "/invoices/applications/invoices", headers, body).await
}

/// The merchant's lists, with the browser's query string as it came (axum
/// has parsed it as a URI's query, so it splices safely after the fixed path).
async fn api_invoices_list(
    State(p): ProxyState,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    list(p, "/invoices/applications/invoices", query, headers).await
}

/// The CSV export, streamed through from paylink's own service.
async fn api_invoices_export(
    State(p): ProxyState,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    list(p, "/invoices/applications/invoices.csv", query, headers).await
}

async fn api_dashboard(State(p): ProxyState, headers: HeaderMap) -> Result<Response, AppError> {
    list(p, "/invoices/applications/dashboard", None, headers).await
}

async fn api_customers_list(
    State(p): ProxyState,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    list(p, "/invoices/applications/customers", query, headers).await
}

/// A list: an operator screen, like the creations and the detail.
async fn list(
    proxy: Option<Arc<Proxy>>,
    path: &str,
    query: Option<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let path = match query {
        Some(q) if !q.is_empty() => format!("{path}?{q}"),
        _ => path.to_string(),
    };
    forward(proxy, Method::GET, path, headers, Bytes::new()).await
}

/// One customer (the new charge's preselection), behind the session as the
/// customer list is.
async fn api_customers_get(
    State(p): ProxyState,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    if !paylink_model::br::uuid_is_valid(&id) {
        return Err(Reason::InvalidCustomerId.into());
    }
    let path = format!("/invoices/applications/customers/{id}");
    forward(p, Method::GET, path, headers, Bytes::new()).await
}

async fn api_invoices_get(
    State(p): ProxyState,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    // The merchant's detail carries the customer's personal data and the
    // invoice's webhook URLs (which may hold the merchant's secrets): an
    // operator screen behind the session like the creations, while anyone
    // holding a payment link knows the id. The payer page reads `/api/pay/{id}`.
    let path = action_path(&id, None)?;
    forward(p, Method::GET, path, headers, Bytes::new()).await
}

/// The merchant's actions on an invoice's detail screen: cancel it, record
/// a payment received outside paylink. Operator screens, like the detail.
async fn api_invoices_cancel(
    State(p): ProxyState,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    let path = action_path(&id, None)?;
    forward(p, Method::DELETE, path, headers, Bytes::new()).await
}

async fn api_invoices_resend(
    State(p): ProxyState,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    let path = format!("{}/resend", action_path(&id, None)?);
    forward(p, Method::POST, path, headers, Bytes::new()).await
}

async fn api_installments_pay(
    State(p): ProxyState,
    headers: HeaderMap,
    ApiPath((id, n)): ApiPath<(String, String)>,
    RawBody(body): RawBody,
) -> Result<Response, AppError> {
    let path = action_path(&id, Some(&n))?;
    forward(p, Method::POST, path, headers, body).await
}

/// The merchant's payment links (the links screen): list, create, read one,
/// turn one off or on. Operator screens, like the invoices'.
async fn api_links_list(State(p): ProxyState, headers: HeaderMap) -> Result<Response, AppError> {
    list(p, LINKS, None, headers).await
}

async fn api_links_create(
    State(p): ProxyState,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Response, AppError> {
    create(p, LINKS, headers, body).await
}

async fn api_links_get(
    State(p): ProxyState,
    headers: HeaderMap,
    ApiPath(slug): ApiPath<String>,
) -> Result<Response, AppError> {
    forward(p, Method::GET, link_path(&slug)?, headers, Bytes::new()).await
}

async fn api_links_deactivate(
    State(p): ProxyState,
    headers: HeaderMap,
    ApiPath(slug): ApiPath<String>,
) -> Result<Response, AppError> {
    set_link_active(p, headers, &slug, false).await
}

async fn api_links_reactivate(
    State(p): ProxyState,
    headers: HeaderMap,
    ApiPath(slug): ApiPath<String>,
) -> Result<Response, AppError> {
    set_link_active(p, headers, &slug, true).await
}

const LINKS: &str = "/invoices/applications/payment-links";

/// The upstream's `PATCH {active}` of a link: one action each way here, so
/// each has its own audit line.
async fn set_link_active(
    p: Handle,
    mut headers: HeaderMap,
    slug: &str,
    active: bool,
) -> Result<Response, AppError> {
    let path = link_path(slug)?;
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let body = Bytes::from(format!("{{\"active\":{active}}}"));
    forward(p, Method::PATCH, path, headers, body).await
}

/// The upstream path of a link, built only from a valid slug.
fn link_path(slug: &str) -> Result<String, AppError> {
    if !crate::domain::links::slug_is_valid(slug) {
        return Err(Reason::LinkNotFound.into());
    }
    Ok(format!("{LINKS}/{slug}"))
}

/// The upstream path of an invoice's detail or of an action on it, built only
/// from a UUID and digits (no `../` tricks), or the envelope that refuses it.
fn action_path(id: &str, installment: Option<&str>) -> Result<String, AppError> {
    if !paylink_model::br::uuid_is_valid(id) {
        return Err(Reason::InvalidInvoiceId.into());
    }
    let base = format!("/invoices/applications/invoices/{id}");
    match installment {
        None => Ok(base),
        Some(n) if !n.is_empty() && n.len() <= 4 && n.bytes().all(|b| b.is_ascii_digit()) => {
            Ok(format!("{base}/installments/{n}/payments"))
        }
        Some(_) => Err(Reason::InstallmentNotFound.into()),
    }
}

/// The merchant's creations (behind the session, as every merchant call).
async fn create(
    proxy: Option<Arc<Proxy>>,
    path: &str,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    forward(proxy, Method::POST, path.into(), headers, body).await
}
