//! The proxy the widget calls. It holds the token (the browser never sees
//! it), forwards exactly three operations (plus the payer page's and the
//! payment links' routes), and answers every failure of the
//! upstream with an envelope instead of hanging.

pub mod cors;
pub mod links;
pub mod ratelimit;
pub mod upstream;

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::error::{AppError, Reason};
use crate::http::extract::lang_of;
use upstream::{forward, Proxy, Upstream};
pub use upstream::{ProxyConfig, DEFAULT_UPSTREAM_TIMEOUT};

/// The payer page's needs: who is paid, and (with paylink's own service
/// as upstream) the database for view counts and sandbox payments.
#[derive(Clone)]
pub struct PayerOptions {
    pub config: crate::domain::payer::PayerConfig,
    pub db: Option<crate::store::Db>,
}

/// What the payment links' routes need besides the proxy.
pub struct LinkOptions {
    /// paylink's own database: links live there whichever the upstream.
    pub db: crate::store::Db,
    pub limiter: Arc<crate::proxy::ratelimit::RateLimiter>,
}

pub fn router(
    config: Option<ProxyConfig>,
    service: Router,
    payer: PayerOptions,
    public_only: bool,
    links: LinkOptions,
) -> Router {
    let proxy = config.and_then(|c| {
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
        Some(Arc::new(Proxy {
            token,
            upstream,
            public_only,
        }))
    });
    let local = proxy
        .as_ref()
        .is_some_and(|p| matches!(p.upstream, Upstream::Local(_)));
    let payer_state = PayerState {
        proxy: proxy.clone(),
        db: if local { payer.db } else { None },
        config: Arc::new(payer.config),
    };
    let payer_routes = Router::new()
        .route("/api/pay/{id}", get(api_pay_get))
        .route("/api/pay/{id}/view", post(api_pay_view))
        .route(
            "/api/pay/{id}/installments/{n}/boleto.pdf",
            get(api_pay_boleto_pdf),
        )
        .route("/api/pay/{id}/simulate", post(api_pay_simulate))
        .with_state(payer_state);
    // Link-bound creations are allowed even when `public_only`: the link
    // decides what they may create.
    let link_routes = crate::proxy::links::router(proxy.clone(), links.db, links.limiter);
    Router::new()
        .route("/api/customers", post(api_customers_create))
        .route("/api/invoices", post(api_invoices_create))
        .route("/api/invoices/{id}", get(api_invoices_get))
        .with_state(proxy)
        .merge(payer_routes)
        .merge(link_routes)
}

#[derive(Clone)]
struct PayerState {
    proxy: Option<Arc<Proxy>>,
    db: Option<crate::store::Db>,
    config: Arc<crate::domain::payer::PayerConfig>,
}

/// The invoice detail the payer routes are built from, or the envelope to answer.
async fn payer_detail(
    s: &PayerState,
    headers: HeaderMap,
    id: &str,
) -> Result<paylink_model::InvoiceDetail, Response> {
    let lang = lang_of(&headers);
    if !paylink_model::br::uuid_is_valid(id) {
        return Err(AppError::new(Reason::InvalidInvoiceId, lang).into_response());
    }
    let res = forward(
        s.proxy.clone(),
        Method::GET,
        format!("/invoices/applications/invoices/{id}"),
        headers,
        Bytes::new(),
    )
    .await;
    if !res.status().is_success() {
        return Err(res);
    }
    let bytes = axum::body::to_bytes(res.into_body(), 16 * 1024 * 1024)
        .await
        .map_err(|_| AppError::new(Reason::UpstreamUnreachable, lang).into_response())?;
    serde_json::from_slice(&bytes).map_err(|e| {
        AppError::internal(format!("upstream invoice detail: {e}"), lang).into_response()
    })
}

/// The payer page's view of an invoice (no private data; PIX and boleto codes).
async fn api_pay_get(
    State(s): State<PayerState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    match payer_detail(&s, headers, &id).await {
        Ok(detail) => {
            let mut out = axum::Json(crate::domain::payer::payer_view(
                &detail,
                &s.config,
                crate::domain::today(),
            ))
            .into_response();
            out.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            out
        }
        Err(res) => res,
    }
}

/// The printable boleto of one open BOLETO installment, as a PDF download
/// (`?print=1`: shown inline, for the browser's print view).
async fn api_pay_boleto_pdf(
    State(s): State<PayerState>,
    headers: HeaderMap,
    Path((id, n)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Response {
    let lang = lang_of(&headers);
    let detail = match payer_detail(&s, headers, &id).await {
        Ok(d) => d,
        Err(res) => return res,
    };
    let Ok(n) = n.parse::<u32>() else {
        return AppError::new(Reason::InstallmentNotFound, lang).into_response();
    };
    // With paylink's own service the address comes from its database; a
    // remote upstream's detail has none, and the boleto leaves it out.
    let address = match (&s.db, &detail.customer.address_id) {
        (Some(db), Some(address_id)) => match db.payer_address(address_id).await {
            Ok(a) => a,
            Err(e) => return AppError::internal(e, lang).into_response(),
        },
        _ => None,
    };
    let Some(today) = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .and_then(|t| paylink_model::date::brasilia_date(t.as_secs() as i64))
    else {
        return AppError::internal("the clock is before 1970", lang).into_response();
    };
    let input = match crate::domain::payer::boleto_pdf_input(&detail, n, &s.config, address, today)
    {
        Ok(i) => i,
        Err(crate::domain::payer::BoletoRefusal::NotFound) => {
            return AppError::new(Reason::InstallmentNotFound, lang).into_response()
        }
        Err(crate::domain::payer::BoletoRefusal::NotOpenBoleto) => {
            return AppError::new(Reason::NoOpenBoleto, lang).into_response()
        }
    };
    let pdf = match crate::domain::boleto_pdf::render(&input) {
        Ok(pdf) => pdf,
        Err(e) => return AppError::internal(e, lang).into_response(),
    };
    let print = query.is_some_and(|q| q.split('&').any(|p| p == "print=1"));
    let disposition = format!(
        "{}; filename=\"boleto-{}-{n}.pdf\"",
        if print { "inline" } else { "attachment" },
        crate::domain::payer::file_name_part(&detail.external_id, &detail.id)
    );
    let mut res = Response::new(Body::from(pdf));
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/pdf"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    res
}

/// Counts a view of the payer page (paylink's own service only).
async fn api_pay_view(
    State(s): State<PayerState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let lang = lang_of(&headers);
    let Some(db) = s.db.filter(|_| paylink_model::br::uuid_is_valid(&id)) else {
        return AppError::new(Reason::RouteNotFound, lang).into_response();
    };
    match crate::store::views::record_view(&db, &id.to_ascii_lowercase()).await {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => AppError::new(Reason::InvoiceNotFound, lang).into_response(),
        Err(e) => AppError::internal(e, lang).into_response(),
    }
}

/// Sandbox only: pays the next open installment as the bank would.
async fn api_pay_simulate(
    State(s): State<PayerState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let lang = lang_of(&headers);
    let Some(db) =
        s.db.clone()
            .filter(|_| s.config.sandbox && paylink_model::br::uuid_is_valid(&id))
    else {
        return AppError::new(Reason::RouteNotFound, lang).into_response();
    };
    match crate::store::payments::simulate_pay(&db, &id.to_ascii_lowercase(), None, None).await {
        Ok(_) => api_pay_get(State(s), headers, Path(id)).await,
        Err(crate::store::payments::LifecycleError::InvoiceNotFound) => {
            AppError::new(Reason::InvoiceNotFound, lang).into_response()
        }
        Err(crate::store::payments::LifecycleError::Db(e)) => {
            AppError::internal(e, lang).into_response()
        }
        Err(e) => AppError {
            status: StatusCode::CONFLICT,
            message: e.to_string(),
            errors: None,
        }
        .into_response(),
    }
}

type ProxyState = State<Option<Arc<Proxy>>>;

async fn api_customers_create(State(p): ProxyState, headers: HeaderMap, body: Bytes) -> Response {
    create(p, "/invoices/applications/customers", headers, body).await
}

async fn api_invoices_create(State(p): ProxyState, headers: HeaderMap, body: Bytes) -> Response {
    create(p, "/invoices/applications/invoices", headers, body).await
}

async fn api_invoices_get(
    State(p): ProxyState,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    // The merchant's detail carries the customer's personal data and the
    // invoice's webhook URLs (which may hold the merchant's secrets): an
    // operator screen like the creations, while anyone holding a payment
    // link knows the id. The payer page reads `/api/pay/{id}` instead.
    if p.as_ref().is_some_and(|p| p.public_only) {
        return AppError::new(Reason::OperatorUiOff, lang_of(&headers)).into_response();
    }
    // Only a UUID may be spliced into the upstream path (no `../` tricks).
    if !paylink_model::br::uuid_is_valid(&id) {
        return AppError::new(Reason::InvalidInvoiceId, lang_of(&headers)).into_response();
    }
    forward(
        p,
        Method::GET,
        format!("/invoices/applications/invoices/{id}"),
        headers,
        Bytes::new(),
    )
    .await
}

/// The merchant's creations, refused on a public address without `--operator-ui`
/// (as the merchant's invoice detail, [`api_invoices_get`]).
async fn create(
    proxy: Option<Arc<Proxy>>,
    path: &str,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if proxy.as_ref().is_some_and(|p| p.public_only) {
        return AppError::new(Reason::OperatorUiOff, lang_of(&headers)).into_response();
    }
    forward(proxy, Method::POST, path.into(), headers, body).await
}
