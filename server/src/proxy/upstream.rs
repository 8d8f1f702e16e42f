//! The proxy's upstream: paylink's own service, whose handlers run in this
//! process as an application (the proxy token's, or the owner of what the
//! call is about), or a remote one, sent the call over HTTP with the proxy's
//! token (the one place that forwards; only the forwardable headers go).

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, MatchedPath, State};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{AppError, Reason};
use crate::http::auth::ActingAs;
use crate::http::extract::RawBody;
use crate::http::session::{self, AuditWritten, Sessions, TokenChecked};
use crate::http::Service;
use crate::store::Db;

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
    pub(crate) token: HeaderValue,
    pub(crate) upstream: Upstream,
}

#[derive(Clone)]
pub(crate) enum Upstream {
    /// paylink's own service: its handlers are called here, with its state.
    Local(Service),
    Remote {
        base: String,
        client: reqwest::Client,
    },
}

/// Whom a call to the upstream is made as.
#[derive(Clone)]
pub(crate) enum Caller {
    /// The application of the proxy's token: the merchant's screens, and
    /// whatever a remote upstream is asked (it knows no other).
    Token,
    /// The application that owns the payment link or the invoice the call
    /// is about, in-process only: its own customers, invoices, webhooks.
    Owner(crate::store::Application),
}

impl Proxy {
    /// Whether the upstream is paylink's own service in this process, where
    /// a call can be made as any of its applications ([`Caller::Owner`]).
    pub(crate) fn is_local(&self) -> bool {
        matches!(self.upstream, Upstream::Local(_))
    }

    /// paylink's own service, when it is the upstream: where the invoices are.
    pub(crate) fn local(&self) -> Option<&Service> {
        match &self.upstream {
            Upstream::Local(service) => Some(service),
            Upstream::Remote { .. } => None,
        }
    }

    /// The application a call is made as in-process: the owner, or the
    /// token's (checked as the service checks a token, on every call, so a
    /// revoked one is refused at once); `None` for a token in force no more.
    async fn application(
        &self,
        db: &Db,
        caller: &Caller,
    ) -> Result<Option<crate::store::Application>, AppError> {
        if let Caller::Owner(app) = caller {
            return Ok(Some(app.clone()));
        }
        let token = self.token.to_str().unwrap_or("");
        let token = token.strip_prefix("Basic ").unwrap_or(token);
        Ok(crate::http::auth::verify(db, token).await?)
    }
}

/// A creation of the service (`handler`, at `path` under
/// `/invoices/applications`) made as `caller`: in-process, the service's own
/// handler, its extractors reading `headers` and `body` as they would the
/// request's; a remote upstream is sent it with the token.
pub(crate) async fn create<H, T>(
    proxy: Handle,
    caller: &Caller,
    handler: H,
    path: &str,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError>
where
    H: Handler<T, Service>,
    T: 'static,
{
    let Some(service) = proxy.as_deref().and_then(Proxy::local).cloned() else {
        let path = format!("{SERVICE}{path}");
        return forward(proxy, Method::POST, path, headers, body).await;
    };
    let Some(app) = proxy_of(&proxy)?.application(&service.db, caller).await? else {
        return Ok(pass_through(
            AppError::new(Reason::Unauthorized).into_response(),
        ));
    };
    let mut req = Request::builder().method(Method::POST);
    for name in FORWARDED {
        if let Some(v) = headers.get(&name) {
            req = req.header(name, v);
        }
    }
    let req = req
        .extension(ActingAs(app))
        .body(Body::from(body))
        .map_err(AppError::internal)?;
    Ok(pass_through(handler.call(req, service).await))
}

fn proxy_of(proxy: &Handle) -> Result<&Proxy, AppError> {
    proxy
        .as_deref()
        .ok_or_else(|| Reason::ProxyNotConfigured.into())
}

/// What [`merchant_call`] reads of the server's state.
#[derive(Clone)]
pub(crate) struct CallState {
    pub(crate) proxy: Handle,
    pub(crate) sessions: Arc<Sessions>,
}

/// Request headers worth forwarding; everything else (cookies, the browser's
/// own Authorization) stays behind.
const FORWARDED: [header::HeaderName; 3] = [
    header::CONTENT_TYPE,
    header::ACCEPT_LANGUAGE,
    header::HeaderName::from_static(crate::http::idempotency::HEADER),
];

/// Sends one request to the remote upstream with the proxy's token and the
/// forwardable headers. Whatever the upstream answers (its envelopes
/// included) comes back as [`pass_through`] makes it; the error is for when
/// there is no answer (no token configured, unreachable, too slow).
pub(crate) async fn forward(
    proxy: Handle,
    method: Method,
    path: String,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    match &proxy_of(&proxy)?.upstream {
        Upstream::Remote { base, client } => {
            let token = &proxy_of(&proxy)?.token;
            remote(client, base, method, &path, &headers, token, body)
                .await
                .map(pass_through)
        }
        Upstream::Local(_) => Err(AppError::internal(
            "paylink's own service is called, not sent requests",
        )),
    }
}

/// The one middleware of every merchant call (`/api/customers`,
/// `/api/invoices`, ..., each the service's own handler), inside the
/// operator's session ([`session::as_operator`]: its checks and audit): with
/// paylink's own service the handler runs as the application of the
/// proxy's token ([`ActingAs`], the token checked as the service would), a
/// remote upstream is sent the call instead; either answer as
/// [`pass_through`] makes it.
pub(crate) async fn merchant_call(
    State(CallState { proxy, sessions }): State<CallState>,
    req: Request<Body>,
    next: Next,
) -> Result<Response, AppError> {
    let db = &sessions.db;
    session::as_operator(&sessions, req, |mut req, token| async move {
        let Some(proxy) = proxy else {
            return Err(Reason::ProxyNotConfigured.into());
        };
        if let Upstream::Remote { .. } = proxy.upstream {
            let template = req.extensions().get::<MatchedPath>().cloned();
            let template = template.as_ref().map_or("", |m| m.as_str());
            check_params(template, req.uri().path())?;
            let (method, path, headers, body) = remote_call(req).await?;
            return forward(Some(proxy), method, path, headers, body).await;
        }
        // Checked with the operator's session when it was (one statement), else here.
        let app = match token {
            Some(TokenChecked(app)) => app,
            None => proxy.application(db, &Caller::Token).await?,
        };
        let res = match app {
            Some(app) => {
                req.extensions_mut().insert(ActingAs(app));
                next.run(req).await
            }
            None => AppError::new(Reason::Unauthorized).into_response(),
        };
        Ok(pass_through(res))
    })
    .await
}

/// A remote upstream's path is built only from UUIDs, slugs and digits (no
/// `../` tricks): each parameter of the route is checked, or the envelope
/// that refuses it.
fn check_params(template: &str, path: &str) -> Result<(), AppError> {
    let resource = path.split('/').nth(2).unwrap_or("");
    for (name, value) in template.split('/').zip(path.split('/')) {
        let ok = match name {
            "{slug}" => crate::domain::links::slug_is_valid(value),
            "{n}" => (1..=4).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit()),
            "{id}" => paylink_model::br::uuid_is_valid(value),
            _ => true,
        };
        if !ok {
            return Err(match (name, resource) {
                ("{slug}", _) => Reason::LinkNotFound,
                ("{n}", _) => Reason::InstallmentNotFound,
                (_, "customers") => Reason::InvalidCustomerId,
                (_, "webhooks") => Reason::WebhookNotFound,
                (_, "deliveries") => Reason::DeliveryNotFound,
                _ => Reason::InvalidInvoiceId,
            }
            .into());
        }
    }
    Ok(())
}

/// The remote upstream's call for a merchant call: `/api/{rest}` is the
/// service's `/invoices/applications/{rest}` (with the query as it came);
/// a link's deactivate and reactivate are its `PATCH {active}`.
async fn remote_call(req: Request<Body>) -> Result<(Method, String, HeaderMap, Bytes), AppError> {
    let rest = req.uri().path().trim_start_matches("/api/").to_string();
    let query = req
        .uri()
        .query()
        .map(|q| format!("?{q}"))
        .unwrap_or_default();
    let (method, mut headers) = (req.method().clone(), req.headers().clone());
    let RawBody(body) = RawBody::from_request(req, &()).await?;
    for (suffix, active) in [("/deactivate", false), ("/reactivate", true)] {
        if let Some(link) = rest.strip_suffix(suffix) {
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            let body = Bytes::from(format!("{{\"active\":{active}}}"));
            return Ok((Method::PATCH, format!("{SERVICE}/{link}"), headers, body));
        }
    }
    Ok((method, format!("{SERVICE}/{rest}{query}"), headers, body))
}

/// Where the service's merchant routes are.
pub(crate) const SERVICE: &str = "/invoices/applications";

async fn remote(
    client: &reqwest::Client,
    base: &str,
    method: Method,
    path: &str,
    headers: &HeaderMap,
    token: &HeaderValue,
    body: Bytes,
) -> Result<Response, AppError> {
    let mut req = client
        .request(method, format!("{base}{path}"))
        .header(header::AUTHORIZATION, token.clone());
    for name in FORWARDED {
        if let Some(v) = headers.get(&name) {
            req = req.header(name, v);
        }
    }
    let res = req.body(body).send().await.map_err(upstream_reason)?;
    let status = StatusCode::from_u16(res.status().as_u16())
        .map_err(|e| AppError::new(Reason::UpstreamUnreachable).because(e))?;
    let kept: Vec<_> = [header::CONTENT_TYPE, header::CONTENT_DISPOSITION]
        .into_iter()
        .filter_map(|name| res.headers().get(&name).cloned().map(|v| (name, v)))
        .collect();
    let bytes = res.bytes().await.map_err(upstream_reason)?;
    let mut out = Response::new(Body::from(bytes));
    *out.status_mut() = status;
    for (name, v) in kept {
        out.headers_mut().insert(name, v);
    }
    Ok(out)
}

fn upstream_reason(e: reqwest::Error) -> AppError {
    let reason = if e.is_timeout() {
        Reason::UpstreamTimeout
    } else {
        Reason::UpstreamUnreachable
    };
    AppError::new(reason).because(e)
}

/// An upstream answer read as `R` (its body up to `limit` bytes), or its
/// refusal as the error: the upstream's own envelope and status.
pub(crate) async fn read_json<R: serde::de::DeserializeOwned>(
    res: Response,
    limit: usize,
) -> Result<R, AppError> {
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), limit)
        .await
        .map_err(|e| AppError::new(Reason::UpstreamUnreachable).because(e))?;
    if !status.is_success() {
        return Err(AppError::relayed(status, &bytes));
    }
    Ok(serde_json::from_slice(&bytes)?)
}

/// Status and body go back unchanged (envelopes included); of the headers
/// only Content-Type and Content-Disposition (the export's file name) do, so
/// no `WWW-Authenticate` prompts the browser.
pub(crate) fn pass_through(res: Response) -> Response {
    let (parts, body) = res.into_parts();
    let mut out = Response::new(body);
    *out.status_mut() = parts.status;
    if let Some(&written) = parts.extensions.get::<AuditWritten>() {
        out.extensions_mut().insert(written);
    }
    for name in [header::CONTENT_TYPE, header::CONTENT_DISPOSITION] {
        if let Some(v) = parts.headers.get(&name) {
            out.headers_mut().insert(name, v.clone());
        }
    }
    out.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    out
}
