//! The proxy's upstream: paylink's own service called in-process, or a remote
//! one over HTTP, with the proxy's token and only the forwardable headers.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::response::Response;
use axum::Router;
use tower::ServiceExt;

use crate::error::{AppError, Reason};

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
    header::HeaderName::from_static(crate::http::idempotency::HEADER),
];

/// Sends one request to the upstream with the proxy's token and the
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
    let Some(proxy) = proxy else {
        return Err(Reason::ProxyNotConfigured.into());
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
    result.map(pass_through)
}

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
    for name in [header::CONTENT_TYPE, header::CONTENT_DISPOSITION] {
        if let Some(v) = parts.headers.get(&name) {
            out.headers_mut().insert(name, v.clone());
        }
    }
    out.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    out
}
