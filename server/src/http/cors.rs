//! CORS for the proxy (`/api/*`) and the payer pages' content (`/l/*`,
//! `/pay/*`, which `mount.js` puts in a merchant's page), only for the merchant's configured origins
//! (`serve --allowed-origin`): a merchant page may then call the proxy
//! directly. Any other origin gets no CORS header, so browsers keep
//! refusing it; the proxy still answers same-origin and non-browser calls.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub const ALLOWED_METHODS: &str = "GET, POST";
pub const ALLOWED_HEADERS: &str = "Content-Type, Accept-Language, Idempotency-Key";

/// The allowed origins, lower case, without a trailing slash.
#[derive(Clone, Debug, Default)]
pub struct Cors {
    origins: Vec<String>,
}

impl Cors {
    pub fn new(origins: &[String]) -> Arc<Self> {
        Arc::new(Cors {
            origins: origins
                .iter()
                .map(|o| o.trim().trim_end_matches('/').to_ascii_lowercase())
                .collect(),
        })
    }

    fn allows(&self, origin: &str) -> bool {
        let origin = origin.to_ascii_lowercase();
        self.origins.contains(&origin)
    }
}

/// The paths a merchant's page may read: the proxy, and the payer pages
/// (`mount.js` fetches their content).
fn is_cors_path(path: &str) -> bool {
    ["/api/", "/l/", "/pay/"]
        .iter()
        .any(|p| path.starts_with(p))
}

/// Middleware over the whole app; acts on those paths' requests from an allowed origin.
pub async fn handle(State(cors): State<Arc<Cors>>, req: Request, next: Next) -> Response {
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .filter(|o| o.to_str().is_ok_and(|o| cors.allows(o)))
        .cloned();
    let Some(origin) = origin.filter(|_| is_cors_path(req.uri().path())) else {
        return next.run(req).await;
    };
    let preflight = req.method() == Method::OPTIONS
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    let mut res = if preflight {
        let mut res = StatusCode::NO_CONTENT.into_response();
        let h = res.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static(ALLOWED_METHODS),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static(ALLOWED_HEADERS),
        );
        h.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
        res
    } else {
        next.run(req).await
    };
    let h = res.headers_mut();
    h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    h.append(header::VARY, HeaderValue::from_static("Origin"));
    // A 429's Retry-After is not readable cross-origin unless exposed.
    h.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("Retry-After"),
    );
    res
}
