//! The proxy the widget calls. It holds the token (the browser never sees
//! it), forwards exactly three operations (plus the payer page's and the
//! payment links' routes), and answers every failure of the
//! upstream with an envelope instead of hanging.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tower::ServiceExt;

use crate::error::{AppError, Reason};
use crate::extract::lang_of;

/// Where the proxy sends requests, and with which token.
#[derive(Clone)]
pub struct ProxyConfig {
    pub token: String,
    /// `None`: paylink's own service, called in-process.
    pub upstream: Option<String>,
    /// Total time allowed to a remote upstream before a 504 envelope.
    pub timeout: Duration,
}

/// A remote upstream gets this long to answer before the browser gets a 504.
pub const DEFAULT_UPSTREAM_TIMEOUT: Duration = Duration::from_secs(15);

/// The configured proxy, or `None` (no token: every call is a 503).
pub(crate) type Handle = Option<Arc<Proxy>>;

#[derive(Clone)]
pub(crate) struct Proxy {
    token: HeaderValue,
    upstream: Upstream,
    /// The merchant's screens (creations, invoice detail) are off (see `Options::public_only`).
    public_only: bool,
}

#[derive(Clone)]
enum Upstream {
    Local(Router),
    Remote {
        base: String,
        client: reqwest::Client,
    },
}

/// Request headers worth forwarding; everything else (cookies, the browser's
/// own Authorization) stays behind.
const FORWARDED: [header::HeaderName; 3] = [
    header::CONTENT_TYPE,
    header::ACCEPT_LANGUAGE,
    header::HeaderName::from_static(crate::idempotency::HEADER),
];

/// The payer page's needs: who is paid, and (with paylink's own service
/// as upstream) the database for view counts and sandbox payments.
#[derive(Clone)]
pub struct PayerOptions {
    pub config: crate::payer::PayerConfig,
    pub db: Option<crate::db::Db>,
}

/// What the payment links' routes need besides the proxy.
pub struct LinkOptions {
    /// paylink's own database: links live there whichever the upstream.
    pub db: crate::db::Db,
    pub limiter: Arc<crate::ratelimit::RateLimiter>,
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
    let link_routes = crate::links::router(proxy.clone(), links.db, links.limiter);
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
    db: Option<crate::db::Db>,
    config: Arc<crate::payer::PayerConfig>,
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
            let mut out = axum::Json(crate::payer::payer_view(&detail, &s.config)).into_response();
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
        (Some(db), Some(address_id)) => match crate::payer::payer_address(db, address_id).await {
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
    let input = match crate::payer::boleto_pdf_input(&detail, n, &s.config, address, today) {
        Ok(i) => i,
        Err(crate::payer::BoletoRefusal::NotFound) => {
            return AppError::new(Reason::InstallmentNotFound, lang).into_response()
        }
        Err(crate::payer::BoletoRefusal::NotOpenBoleto) => {
            return AppError::new(Reason::NoOpenBoleto, lang).into_response()
        }
    };
    let pdf = match crate::boleto_pdf::render(&input) {
        Ok(pdf) => pdf,
        Err(e) => return AppError::internal(e, lang).into_response(),
    };
    let print = query.is_some_and(|q| q.split('&').any(|p| p == "print=1"));
    let disposition = format!(
        "{}; filename=\"boleto-{}-{n}.pdf\"",
        if print { "inline" } else { "attachment" },
        crate::payer::file_name_part(&detail.external_id, &detail.id)
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
    match crate::payer::record_view(&db, &id.to_ascii_lowercase()).await {
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
    match crate::payments::simulate_pay(&db, &id.to_ascii_lowercase(), None, None).await {
        Ok(_) => api_pay_get(State(s), headers, Path(id)).await,
        Err(crate::payments::LifecycleError::InvoiceNotFound) => {
            AppError::new(Reason::InvoiceNotFound, lang).into_response()
        }
        Err(crate::payments::LifecycleError::Db(e)) => AppError::internal(e, lang).into_response(),
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

/// Sends one request to the upstream with the proxy's token and the
/// forwardable headers; the answer comes back as [`pass_through`] makes it.
pub(crate) async fn forward(
    proxy: Handle,
    method: Method,
    path: String,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let lang = lang_of(&headers);
    let Some(proxy) = proxy else {
        return AppError::new(Reason::ProxyNotConfigured, lang).into_response();
    };
    let result = match &proxy.upstream {
        Upstream::Local(service) => {
            let mut req = Request::builder().method(method).uri(path);
            for name in FORWARDED {
                if let Some(v) = headers.get(&name) {
                    req = req.header(name, v);
                }
            }
            let req = req
                .header(header::AUTHORIZATION, proxy.token.clone())
                .body(Body::from(body))
                .expect("a request built from valid parts");
            Ok(service
                .clone()
                .oneshot(req)
                .await
                .unwrap_or_else(|never| match never {}))
        }
        Upstream::Remote { base, client } => {
            remote(client, base, method, &path, &headers, &proxy.token, body).await
        }
    };
    match result {
        Ok(res) => pass_through(res),
        Err(reason) => AppError::new(reason, lang).into_response(),
    }
}

async fn remote(
    client: &reqwest::Client,
    base: &str,
    method: Method,
    path: &str,
    headers: &HeaderMap,
    token: &HeaderValue,
    body: Bytes,
) -> Result<Response, Reason> {
    let mut req = client
        .request(method, format!("{base}{path}"))
        .header(header::AUTHORIZATION, token.clone());
    for name in FORWARDED {
        if let Some(v) = headers.get(&name) {
            req = req.header(name, v);
        }
    }
    let res = req.body(body).send().await.map_err(upstream_reason)?;
    let status =
        StatusCode::from_u16(res.status().as_u16()).map_err(|_| Reason::UpstreamUnreachable)?;
    let content_type = res.headers().get(header::CONTENT_TYPE).cloned();
    let bytes = res.bytes().await.map_err(upstream_reason)?;
    let mut out = Response::new(Body::from(bytes));
    *out.status_mut() = status;
    if let Some(ct) = content_type {
        out.headers_mut().insert(header::CONTENT_TYPE, ct);
    }
    Ok(out)
}

fn upstream_reason(e: reqwest::Error) -> Reason {
    if e.is_timeout() {
        Reason::UpstreamTimeout
    } else {
        Reason::UpstreamUnreachable
    }
}

/// Status and body go back unchanged (envelopes included); of the headers
/// only Content-Type does, so no `WWW-Authenticate` prompts the browser.
fn pass_through(res: Response) -> Response {
    let (parts, body) = res.into_parts();
    let mut out = Response::new(body);
    *out.status_mut() = parts.status;
    if let Some(ct) = parts.headers.get(header::CONTENT_TYPE) {
        out.headers_mut().insert(header::CONTENT_TYPE, ct.clone());
    }
    out.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    out
}
