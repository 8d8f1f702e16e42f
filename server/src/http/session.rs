//! Operator sessions over HTTP: login (`POST /api/session`), who is logged
//! in (`GET`), logout (`DELETE`), the cookie, and the middleware in front of
//! every merchant call: a live session (401 otherwise), the same origin for
//! anything that changes state (403 otherwise), and the audit line of each
//! operator action. The rules themselves are `domain::operators`.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request, State};
use axum::http::{header, request::Parts, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use paylink_model::operator::{LoginRequest, SessionInfo};

use crate::domain::operators::{self, LoginError, SessionConfig};
use crate::error::{AppError, Reason};
use crate::http::extract::{parse_json, RawBody};
use crate::store::operators::{self as rows, AuditLine};
use crate::store::{Application, Db, DbError};

/// The cookie's name where it can be `Secure`: the `__Host-` prefix makes the
/// browser refuse it unless it is Secure, host-only and `Path=/`, so neither
/// a sibling subdomain nor plain HTTP can plant or overwrite it.
const SECURE_COOKIE: &str = "__Host-paylink_session";
/// On plain-HTTP loopback (`./scripts/run`, the tests) the cookie cannot be
/// Secure everywhere: Chromium 156 does keep a Secure (and `__Host-`) cookie
/// from http://127.0.0.1 and http://localhost, as it counts loopback as a
/// secure context, but Safari refuses Secure cookies over plain HTTP even
/// there, and a `__Host-` cookie without Secure is refused by every browser.
/// So there, and only there, a plain name without Secure.
const PLAIN_COOKIE: &str = "paylink_session";

/// What the session routes and the middleware share.
pub struct Sessions {
    pub db: Db,
    pub config: SessionConfig,
    /// `Secure` and `__Host-` (all but plain-HTTP loopback).
    secure: bool,
    /// The origin of `--public-url` (scheme, host, port), the only one whose
    /// pages may change state; `None` when the URL has none.
    public_origin: Option<String>,
    /// The public URL is plain HTTP on loopback (`./scripts/run`): the same
    /// server is also reached as `localhost`, `127.0.0.1` or `[::1]` on its port.
    loopback_port: Option<u16>,
    trust_forwarded_for: bool,
    /// The proxy's token when its upstream is paylink's own service, as its
    /// application's id and its secret's hash: checked with the session in one
    /// statement ([`TokenChecked`]). Parsed and hashed once, here (`Some(None)`:
    /// not a token at all, refused on every call as `auth::verify` refuses it).
    proxy_token: Option<Option<(String, String)>>,
    /// The proxy token's application, read on its first call and kept: an
    /// application's id, owner and name are never changed nor deleted, and
    /// its tokens (what can be revoked) are still read on every call.
    proxy_application: tokio::sync::OnceCell<Application>,
}

impl Sessions {
    /// `proxy_token`: the proxy's token, when its upstream is this process's
    /// service (a remote one checks it itself).
    pub fn new(
        db: Db,
        config: SessionConfig,
        public_url: &str,
        trust_forwarded_for: bool,
        proxy_token: Option<String>,
    ) -> Arc<Self> {
        let url = reqwest::Url::parse(public_url).ok();
        let plain_loopback = url.as_ref().is_some_and(|u| {
            let host = u.host_str().unwrap_or("");
            let host = host.trim_start_matches('[').trim_end_matches(']');
            u.scheme() == "http"
                && (host.eq_ignore_ascii_case("localhost")
                    || host
                        .parse::<std::net::IpAddr>()
                        .is_ok_and(|ip| ip.is_loopback()))
        });
        let loopback_port = url
            .as_ref()
            .filter(|_| plain_loopback)
            .and_then(|u| u.port_or_known_default());
        Arc::new(Sessions {
            db,
            config,
            secure: !plain_loopback,
            public_origin: url
                .map(|u| u.origin())
                .filter(|o| o.is_tuple())
                .map(|o| o.ascii_serialization()),
            loopback_port,
            trust_forwarded_for,
            proxy_token: proxy_token.as_deref().map(|token| {
                let (app_id, secret) = crate::http::auth::parse_token(token)?;
                Some((app_id, crate::http::auth::hash_secret(&secret)))
            }),
            proxy_application: tokio::sync::OnceCell::new(),
        })
    }

    /// The application `id` (the proxy token's), or `None` when there is none.
    async fn proxy_application(&self, id: &str) -> Result<Option<&Application>, DbError> {
        if let Some(app) = self.proxy_application.get() {
            return Ok(Some(app));
        }
        let Some(app) = crate::store::applications::find(&self.db, id).await? else {
            return Ok(None);
        };
        Ok(Some(
            self.proxy_application.get_or_init(|| async { app }).await,
        ))
    }

    fn cookie_name(&self) -> &'static str {
        if self.secure {
            SECURE_COOKIE
        } else {
            PLAIN_COOKIE
        }
    }

    fn cookie(&self, value: &str, max_age_secs: u64) -> HeaderValue {
        let secure = if self.secure { "; Secure" } else { "" };
        let text = format!(
            "{}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age_secs}{secure}",
            self.cookie_name()
        );
        HeaderValue::from_str(&text).expect("a cookie of URL-safe characters")
    }

    /// The session id the request's cookie carries, if any.
    fn session_id(&self, headers: &HeaderMap) -> Option<String> {
        let name = self.cookie_name();
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(k, v)| *k == name && !v.is_empty())
            .map(|(_, v)| v.to_string())
    }

    /// Whether the request comes from a page of this server: its `Origin`
    /// or, when a browser sent none, its `Referer`, has `--public-url`'s
    /// origin: the same scheme, host and port (a page of another site can set
    /// neither header). The request's `Host` proves nothing (any client writes
    /// it, and an attacker's forged `Host` would match its own forged Origin).
    fn same_origin(&self, headers: &HeaderMap) -> bool {
        let source = match headers.get(header::ORIGIN) {
            // A browser writes an origin as its serialization: one equal to
            // ours is ours, without parsing it (every write through the proxy).
            Some(o) if self.public_origin.as_deref().map(str::as_bytes) == Some(o.as_bytes()) => {
                return true
            }
            Some(o) => o.to_str().ok(),
            None => headers.get(header::REFERER).and_then(|r| r.to_str().ok()),
        };
        let Some(url) = source.and_then(|s| reqwest::Url::parse(s).ok()) else {
            return false;
        };
        let origin = url.origin();
        if !origin.is_tuple() {
            return false;
        }
        if self.public_origin.as_deref() == Some(origin.ascii_serialization().as_str()) {
            return true;
        }
        // On plain-HTTP loopback, the same port under another loopback name.
        let host = url.host_str().unwrap_or("");
        let host = host.trim_start_matches('[').trim_end_matches(']');
        self.loopback_port.is_some()
            && url.scheme() == "http"
            && url.port_or_known_default() == self.loopback_port
            && (host == "localhost"
                || host
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback()))
    }

    fn client_addr(&self, req_headers: &HeaderMap, peer: Option<SocketAddr>) -> String {
        crate::http::ratelimit::client_ip(self.trust_forwarded_for, req_headers, peer).to_string()
    }
}

/// `/api/session`, for a state with the [`Sessions`] part.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Sessions>: FromRef<S>,
{
    Router::new().route(
        "/api/session",
        post(login).get(who_is_logged_in).delete(logout),
    )
}

fn peer_of(req: &Request) -> Option<SocketAddr> {
    req.extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0)
}

/// `POST /api/session` {email, password}: 204 and the cookie, or one 401 for
/// every wrong login (unknown e-mail, wrong password, disabled account).
async fn login(State(s): State<Arc<Sessions>>, req: Request) -> Result<Response, AppError> {
    if !s.same_origin(req.headers()) {
        return Err(Reason::CrossOrigin.into());
    }
    let client_addr = s.client_addr(req.headers(), peer_of(&req));
    if !crate::http::extract::is_json(req.headers()) {
        return Err(Reason::UnsupportedMediaType.into());
    }
    let RawBody(body) = RawBody::from_request(req, &()).await?;
    let form: LoginRequest = parse_json(&body)?;
    let (email, password) = form.check()?;
    let session = match operators::login(&s.db, &s.config, &email, &password, &client_addr).await {
        Ok(session) => session,
        Err(LoginError::BadCredentials) => {
            tracing::info!(%client_addr, "failed operator login");
            return Err(Reason::BadCredentials.into());
        }
        Err(LoginError::Throttled(secs)) => {
            tracing::warn!(%client_addr, "operator login throttled");
            let mut res = AppError::new(Reason::LoginThrottled).into_response();
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
            return Ok(res);
        }
        Err(LoginError::Db(e)) => return Err(e.into()),
        Err(LoginError::Internal(e)) => return Err(AppError::internal(e)),
    };
    audit(&s.db, &session.operator.id, "login", None, &client_addr).await;
    let cookie = s.cookie(&session.id, s.config.absolute.as_secs());
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

/// `GET /api/session`: the operator of the request's session, or 401.
async fn who_is_logged_in(
    State(s): State<Arc<Sessions>>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let operator = live_operator(&s, &headers).await?;
    let info = SessionInfo {
        id: operator.id,
        email: operator.email,
        name: operator.name,
    };
    Ok((
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        axum::Json(info),
    )
        .into_response())
}

/// `DELETE /api/session`: ends the session (if any) and clears the cookie; 204 either way.
async fn logout(State(s): State<Arc<Sessions>>, req: Request) -> Result<Response, AppError> {
    if !s.same_origin(req.headers()) {
        return Err(Reason::CrossOrigin.into());
    }
    if let Some(id) = s.session_id(req.headers()) {
        if let Some(op) = operators::session_operator(&s.db, &s.config, &id).await? {
            let addr = s.client_addr(req.headers(), peer_of(&req));
            audit(&s.db, &op.id, "logout", None, &addr).await;
        }
        operators::logout(&s.db, &id).await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, s.cookie("", 0))],
    )
        .into_response())
}

async fn live_operator(s: &Sessions, headers: &HeaderMap) -> Result<rows::OperatorRow, AppError> {
    let Some(id) = s.session_id(headers) else {
        return Err(Reason::LoginRequired.into());
    };
    operators::session_operator(&s.db, &s.config, &id)
        .await?
        .ok_or(Reason::LoginRequired.into())
}

/// The proxy's token, checked beside the operator's session (its upstream
/// in this process): its application, or `None` for a token in force no
/// more. A request extension only this process sets; `proxy::upstream`
/// takes it in place of checking the token again.
#[derive(Clone)]
pub(crate) struct TokenChecked(pub Option<Application>);

/// [`live_operator`] and, when the proxy's upstream is in this process, its
/// token checked by the same statement (as `auth::verify` checks it).
/// The operator is given by its id (all the audit needs).
async fn live_operator_and_token(
    s: &Sessions,
    headers: &HeaderMap,
) -> Result<(String, Option<TokenChecked>), AppError> {
    let token = match &s.proxy_token {
        None => return Ok((live_operator(s, headers).await?.id, None)),
        Some(None) => None,
        Some(Some((app_id, secret_hash))) => s
            .proxy_application(app_id)
            .await?
            .map(|app| (app, secret_hash)),
    };
    // Not a token at all, or one of no application (so none of its tokens is
    // in force): refused as `auth::verify` refuses it.
    let Some((app, secret_hash)) = token else {
        let operator = live_operator(s, headers).await?;
        return Ok((operator.id, Some(TokenChecked(None))));
    };
    let Some(id) = s.session_id(headers) else {
        return Err(Reason::LoginRequired.into());
    };
    let now_ms = crate::domain::now_ms();
    let (operator, live) =
        operators::session_operator_and_tokens(&s.db, &s.config, &id, app, now_ms).await?;
    let operator = operator.ok_or(AppError::from(Reason::LoginRequired))?;
    let app = crate::http::auth::accept(&s.db, &live, secret_hash, now_ms).await?;
    Ok((operator, Some(TokenChecked(app))))
}

/// A creation's audit line, for its handler to write in the creation's own
/// transaction (a request extension set by [`as_operator`]); a handler
/// that does marks its answer with [`AuditWritten`], and the others' lines
/// are written after the answer, as a transaction of their own.
pub(crate) struct Audit(pub Option<AuditLine>);

#[derive(Clone)]
struct PendingAudit(AuditLine);

/// On an answer: its handler wrote the operator's audit line already.
#[derive(Clone, Copy)]
pub(crate) struct AuditWritten;

impl Audit {
    /// `res` marked as audited when this line was written with the creation
    /// (`written`: its insert ran, the answer is no replay).
    pub(crate) fn mark(&self, mut res: Response, written: bool) -> Response {
        if self.0.is_some() && written {
            res.extensions_mut().insert(AuditWritten);
        }
        res
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Audit {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Audit(
            parts
                .extensions
                .remove::<PendingAudit>()
                .map(|PendingAudit(line)| line),
        ))
    }
}

/// Around every merchant call: 401 without a live session, 403 for a
/// state-changing call from another origin, then `call` (given the proxy's
/// token when it was checked with the session), and the call's audit line
/// when it succeeded. A function the proxy's one middleware calls, not a
/// middleware of its own: a layer is a state clone and a boxed future more
/// on every merchant call.
pub(crate) async fn as_operator<F, Fut>(
    s: &Sessions,
    mut req: Request,
    call: F,
) -> Result<Response, AppError>
where
    F: FnOnce(Request, Option<TokenChecked>) -> Fut,
    Fut: std::future::Future<Output = Result<Response, AppError>>,
{
    let (operator_id, token) = live_operator_and_token(s, req.headers()).await?;
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes_state && !s.same_origin(req.headers()) {
        return Err(Reason::CrossOrigin.into());
    }
    let action = Action::of(req.method(), req.uri().path());
    // Only an audited action's line names the client.
    let client_addr = match action {
        Some(_) => s.client_addr(req.headers(), peer_of(&req)),
        None => String::new(),
    };
    if let Some((name, Target::CreatedId | Target::CreatedSlug)) = &action {
        req.extensions_mut().insert(PendingAudit(AuditLine {
            operator_id: operator_id.clone(),
            action: name,
            client_addr: client_addr.clone(),
        }));
    }
    let res = call(req, token).await?;
    let Some((action, target)) = action.filter(|_| res.status().is_success()) else {
        return Ok(res);
    };
    if res.extensions().get::<AuditWritten>().is_some() {
        return Ok(res);
    }
    let (res, target) = match target {
        Target::Path(id) => (res, Some(id)),
        Target::None => (res, None),
        Target::CreatedId => created_id(res, "id").await,
        Target::CreatedSlug => created_id(res, "slug").await,
    };
    audit(&s.db, &operator_id, action, target.as_deref(), &client_addr).await;
    Ok(res)
}

enum Target {
    Path(String),
    CreatedId,
    /// A created payment link: its slug.
    CreatedSlug,
    None,
}

struct Action;

impl Action {
    /// The audited action of a merchant call (lists and reads are not).
    fn of(method: &Method, path: &str) -> Option<(&'static str, Target)> {
        // In place, not collected: this runs on every merchant call.
        let mut parts = [""; 6];
        let mut n = 0;
        for part in path.trim_start_matches("/api/").split('/') {
            *parts.get_mut(n)? = part; // deeper than any merchant route: not an action
            n += 1;
        }
        match (method.as_str(), &parts[..n]) {
            ("POST", ["customers"]) => Some(("create_customer", Target::CreatedId)),
            ("POST", ["invoices"]) => Some(("create_invoice", Target::CreatedId)),
            ("GET", ["invoices.csv"]) => Some(("export", Target::None)),
            ("DELETE", ["invoices", id]) => Some(("cancel", Target::Path(id.to_string()))),
            ("POST", ["invoices", id, "resend"]) => Some(("resend", Target::Path(id.to_string()))),
            ("POST", ["invoices", id, "installments", _, "payments"]) => {
                Some(("mark_paid", Target::Path(id.to_string())))
            }
            ("POST", ["webhooks"]) => Some(("add_webhook", Target::CreatedId)),
            ("POST", ["webhooks", "secret"]) => Some(("rotate_webhook_secret", Target::None)),
            ("DELETE", ["webhooks", id]) => Some(("remove_webhook", Target::Path(id.to_string()))),
            ("POST", ["deliveries", id, "redeliver"]) => {
                Some(("redeliver", Target::Path(id.to_string())))
            }
            ("POST", ["payment-links"]) => Some(("create_link", Target::CreatedSlug)),
            ("POST", ["payment-links", slug, "deactivate"]) => {
                Some(("deactivate_link", Target::Path(slug.to_string())))
            }
            ("POST", ["payment-links", slug, "reactivate"]) => {
                Some(("reactivate_link", Target::Path(slug.to_string())))
            }
            _ => None,
        }
    }
}

/// The `id` (or `key`) of a creation's answer (a small JSON body, read and put back).
async fn created_id(res: Response, key: &str) -> (Response, Option<String>) {
    let (parts, body) = res.into_parts();
    match axum::body::to_bytes(body, crate::http::BODY_LIMIT).await {
        Ok(bytes) => {
            let id = serde_json::from_slice::<serde_json::Value>(&bytes)
                .ok()
                .and_then(|v| v.get(key)?.as_str().map(str::to_string));
            (Response::from_parts(parts, Body::from(bytes)), id)
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot read a creation's answer for the audit");
            (
                AppError::new(Reason::UpstreamUnreachable).into_response(),
                None,
            )
        }
    }
}

/// Writes an audit line; a failure is logged, not answered: the action
/// itself is done by then.
async fn audit(db: &Db, operator_id: &str, action: &str, target: Option<&str>, addr: &str) {
    if let Err(e) = rows::insert_audit(db, operator_id, action, target, addr).await {
        tracing::error!(error = %e, action, "cannot write the operator audit");
    }
}
