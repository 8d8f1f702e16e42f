//! One error type for every route, and the one place its messages are chosen (their words,
//! in both languages, are the catalog's: `paylink_text::service`).
//! Whatever goes wrong, a client gets the spec's envelope `{code, message, errors?}` with
//! the real HTTP status, in the language it asked for; axum's plain-text rejections never
//! leak out. An [`AppError`] is a [`Reason`] (or field errors, or an upstream's envelope)
//! plus its cause, which is logged and never shown. `?` converts the causes handlers meet
//! (the database, I/O, JSON, the store's and domain's refusals); the request's language
//! is applied once, when the error becomes a response ([`with_request_lang`]). The error
//! rides on its response as an extension and is logged once, by [`log_errors`], in the
//! request's span (its id), as axum's examples/error-handling does.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use paylink_model::{ErrorEnvelope, Lang, Msg, Violations};
use paylink_text as text;
use std::sync::Arc;

use crate::domain::payer::BoletoRefusal;
use crate::store::notifications::ResendError;
use crate::store::payments::LifecycleError;

/// What caused an error, for the log.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A refusal or a failure, as the client will get it, and why (for the log).
#[derive(Debug)]
pub struct AppError {
    answer: Answer,
    /// Logged by [`log_errors`] once the answer is made; never in the answer: it can name
    /// tables, hosts or the request's own data.
    source: Option<BoxError>,
}

#[derive(Debug)]
enum Answer {
    Reason(Reason),
    /// A 422 keyed by API field path.
    Invalid(Violations),
    /// An upstream's refusal, answered as it gave it (its status, its message already in
    /// the caller's language, since the proxy forwards `Accept-Language`).
    Relayed(StatusCode, ErrorEnvelope),
}

/// The fixed messages of the envelope, each a text of the catalog in both languages.
#[derive(Clone, Copy, Debug)]
pub enum Reason {
    Unauthorized,
    RouteNotFound,
    MethodNotAllowed,
    InvoiceNotFound,
    InvalidInvoiceId,
    CustomerNotFound,
    InvalidCustomerId,
    MalformedPath,
    MalformedJson,
    MalformedQuery,
    NotAnObject,
    UnsupportedMediaType,
    PayloadTooLarge,
    Validation,
    Internal,
    Unavailable,
    ProxyNotConfigured,
    UpstreamUnreachable,
    UpstreamTimeout,
    BadIdempotencyKey,
    IdempotencyKeyReused,
    LoginRequired,
    BadCredentials,
    LoginThrottled,
    CrossOrigin,
    LinkNotFound,
    TooManyRequests,
    /// The request's headers are over `app::MAX_HEADER_BYTES`.
    HeadersTooLarge,
    /// The server is serving as many connections as `serve --max-connections` lets it.
    TooManyConnections,
    InstallmentNotFound,
    /// No receipt: the installment is not paid, or the code is not one paylink issued.
    ReceiptNotFound,
    NoOpenBoleto,
    AlreadyPaid,
    InvoiceCancelled,
    NothingOpen,
    NoChannel,
    NothingToPay,
    NotPaid,
    MethodNotAccepted,
    WebhookNotFound,
    DeliveryNotFound,
    DeliveryPending,
    BadSignature,
}

impl Reason {
    pub fn status(self) -> StatusCode {
        use Reason::*;
        match self {
            Unauthorized | LoginRequired | BadCredentials => StatusCode::UNAUTHORIZED,
            RouteNotFound | InvoiceNotFound | CustomerNotFound | LinkNotFound
            | InstallmentNotFound | ReceiptNotFound | WebhookNotFound | DeliveryNotFound => {
                StatusCode::NOT_FOUND
            }
            NoOpenBoleto | AlreadyPaid | NothingOpen | NoChannel | NothingToPay | NotPaid
            | MethodNotAccepted | DeliveryPending => StatusCode::CONFLICT,
            InvoiceCancelled => StatusCode::GONE,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            InvalidInvoiceId | InvalidCustomerId | MalformedPath | MalformedJson
            | MalformedQuery | NotAnObject | BadIdempotencyKey => StatusCode::BAD_REQUEST,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Validation | IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
            Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Unavailable | ProxyNotConfigured | TooManyConnections => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            CrossOrigin | BadSignature => StatusCode::FORBIDDEN,
            TooManyRequests | LoginThrottled => StatusCode::TOO_MANY_REQUESTS,
            UpstreamUnreachable => StatusCode::BAD_GATEWAY,
            UpstreamTimeout => StatusCode::GATEWAY_TIMEOUT,
        }
    }

    pub fn message(self, lang: Lang) -> &'static str {
        use Reason::*;
        let tr = match self {
            Unauthorized => text::UNAUTHORIZED,
            RouteNotFound => text::ROUTE_NOT_FOUND,
            MethodNotAllowed => text::METHOD_NOT_ALLOWED,
            InvoiceNotFound => text::INVOICE_NOT_FOUND,
            CustomerNotFound => text::CUSTOMER_NOT_FOUND,
            InvalidCustomerId => text::INVALID_CUSTOMER_ID,
            InvalidInvoiceId => text::INVALID_INVOICE_ID,
            MalformedPath => text::MALFORMED_PATH,
            MalformedJson => text::MALFORMED_JSON,
            MalformedQuery => text::MALFORMED_QUERY,
            NotAnObject => text::NOT_AN_OBJECT,
            UnsupportedMediaType => text::UNSUPPORTED_MEDIA_TYPE,
            PayloadTooLarge => text::PAYLOAD_TOO_LARGE,
            Validation => text::INVALID_DATA,
            Internal => text::INTERNAL_ERROR,
            Unavailable => text::SERVICE_UNAVAILABLE,
            ProxyNotConfigured => text::PROXY_NOT_CONFIGURED,
            UpstreamUnreachable => text::UPSTREAM_UNREACHABLE,
            UpstreamTimeout => text::UPSTREAM_TIMEOUT,
            BadIdempotencyKey => text::BAD_IDEMPOTENCY_KEY,
            IdempotencyKeyReused => text::IDEMPOTENCY_KEY_REUSED,
            LoginRequired => text::LOGIN_REQUIRED,
            BadCredentials => text::BAD_CREDENTIALS,
            LoginThrottled => text::LOGIN_THROTTLED,
            CrossOrigin => text::CROSS_ORIGIN,
            LinkNotFound => text::LINK_NOT_FOUND,
            TooManyRequests => text::TOO_MANY_REQUESTS,
            HeadersTooLarge => text::HEADERS_TOO_LARGE,
            TooManyConnections => text::TOO_MANY_CONNECTIONS,
            InstallmentNotFound => text::INSTALLMENT_NOT_FOUND,
            ReceiptNotFound => text::NO_SUCH_RECEIPT,
            NoOpenBoleto => text::NO_OPEN_BOLETO,
            AlreadyPaid => text::ALREADY_PAID,
            NothingOpen => text::NOTHING_TO_RESEND,
            NoChannel => text::NO_CHANNEL,
            NothingToPay => text::NOTHING_TO_PAY,
            NotPaid => text::NOT_PAID,
            MethodNotAccepted => text::METHOD_NOT_ACCEPTED,
            InvoiceCancelled => text::INVOICE_CANCELLED,
            WebhookNotFound => text::WEBHOOK_NOT_FOUND,
            DeliveryNotFound => text::DELIVERY_NOT_FOUND,
            DeliveryPending => text::DELIVERY_IN_FLIGHT,
            BadSignature => text::BAD_SIGNATURE,
        };
        tr.t(lang)
    }
}

impl Reason {
    /// Whether the answer asks for credentials (`WWW-Authenticate`): only this service's
    /// own 401, never one relayed by the proxy, which would make the browser prompt.
    fn challenges(self) -> bool {
        matches!(self, Reason::Unauthorized)
    }
}

impl AppError {
    pub fn new(reason: Reason) -> Self {
        AppError {
            answer: Answer::Reason(reason),
            source: None,
        }
    }

    /// A 422 with one field error.
    pub fn field(path: impl Into<String>, msg: Msg) -> Self {
        let mut v = Violations::default();
        v.add(path, msg);
        v.into()
    }

    /// A 500 for a failure that is a bug of ours; `cause` is logged.
    pub fn internal(cause: impl Into<BoxError>) -> Self {
        AppError::new(Reason::Internal).because(cause)
    }

    /// Keeps `cause` for the log.
    pub fn because(mut self, cause: impl Into<BoxError>) -> Self {
        self.source = Some(cause.into());
        self
    }

    /// An upstream service's refusal, answered as it gave it: its status, and its
    /// envelope's message and field errors (a 502 if it is not one).
    pub fn relayed(status: StatusCode, body: &[u8]) -> Self {
        match serde_json::from_slice::<ErrorEnvelope>(body) {
            Ok(e) if !status.is_success() => AppError {
                answer: Answer::Relayed(status, e),
                source: None,
            },
            Ok(_) => AppError::new(Reason::UpstreamUnreachable),
            Err(e) => AppError::new(Reason::UpstreamUnreachable).because(e),
        }
    }

    pub fn status(&self) -> StatusCode {
        match &self.answer {
            Answer::Reason(r) => r.status(),
            Answer::Invalid(_) => Reason::Validation.status(),
            Answer::Relayed(status, _) => *status,
        }
    }

    /// The field errors of a 422, if this is one.
    pub fn violations(&self) -> Option<&Violations> {
        match &self.answer {
            Answer::Invalid(v) => Some(v),
            _ => None,
        }
    }

    /// The envelope in `lang`: the one place messages are chosen.
    pub fn envelope(&self, lang: Lang) -> ErrorEnvelope {
        let code = self.status().as_u16();
        match &self.answer {
            Answer::Reason(r) => ErrorEnvelope {
                code,
                message: r.message(lang).to_string(),
                errors: None,
            },
            Answer::Invalid(v) => ErrorEnvelope {
                code,
                message: Reason::Validation.message(lang).to_string(),
                errors: Some(v.render(lang)),
            },
            Answer::Relayed(_, e) => ErrorEnvelope { code, ..e.clone() },
        }
    }

    /// The log line of an answer: a server error with its cause; a client's with its
    /// cause only at debug level (a malformed body says what serde saw).
    fn log(&self, status: StatusCode) {
        let cause = self.source.as_deref().map(|e| Chain(e));
        if status == StatusCode::SERVICE_UNAVAILABLE {
            tracing::warn!(%status, cause = cause.map(tracing::field::display), "unavailable");
        } else if status.is_server_error() {
            tracing::error!(%status, cause = cause.map(tracing::field::display), "internal error");
        } else if let Some(cause) = cause {
            tracing::debug!(%status, %cause, "refused");
        }
    }
}

/// An error and its sources, one after the other.
struct Chain<'a>(&'a (dyn std::error::Error + 'static));

impl std::fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut next = self.0.source();
        while let Some(e) = next {
            write!(f, ": {e}")?;
            next = e.source();
        }
        Ok(())
    }
}

impl From<Reason> for AppError {
    fn from(reason: Reason) -> Self {
        AppError::new(reason)
    }
}

impl From<Violations> for AppError {
    fn from(v: Violations) -> Self {
        AppError {
            answer: Answer::Invalid(v),
            source: None,
        }
    }
}

/// A storage failure: the one place that maps the database's errors to answers. The
/// pool out of connections, or a database that went away, is a 503 the client may
/// retry; a broken constraint or anything else is a bug of ours (the rules in `model/`
/// run before any write), a 500.
impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        let reason = match e {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => {
                Reason::Unavailable
            }
            _ => Reason::Internal,
        };
        AppError::new(reason).because(e)
    }
}

/// Our own values that fail to serialise, or an upstream's answer that is not what it
/// should be. A client's body is read by the extractors, which answer 400 or 422.
impl From<serde_json::Error> for AppError {
    fn from(e: serde_json::Error) -> Self {
        AppError::internal(e)
    }
}

impl From<std::io::Error> for AppError {
    fn from(e: std::io::Error) -> Self {
        AppError::internal(e)
    }
}

/// A header value we built (a file name in `Content-Disposition`) that is not one.
impl From<header::InvalidHeaderValue> for AppError {
    fn from(e: header::InvalidHeaderValue) -> Self {
        AppError::internal(e)
    }
}

impl From<LifecycleError> for AppError {
    fn from(e: LifecycleError) -> Self {
        match e {
            LifecycleError::InvoiceNotFound => Reason::InvoiceNotFound.into(),
            LifecycleError::InstallmentNotFound(_) => Reason::InstallmentNotFound.into(),
            LifecycleError::NothingToPay => Reason::NothingToPay.into(),
            LifecycleError::AlreadyPaid(_) => Reason::AlreadyPaid.into(),
            LifecycleError::NotPaid(_) => Reason::NotPaid.into(),
            LifecycleError::MethodNotAccepted(_) => Reason::MethodNotAccepted.into(),
            LifecycleError::Db(e) => e.into(),
        }
    }
}

impl From<ResendError> for AppError {
    fn from(e: ResendError) -> Self {
        match e {
            ResendError::NothingOpen => Reason::NothingOpen.into(),
            ResendError::NoChannel => Reason::NoChannel.into(),
            ResendError::Db(e) => e.into(),
        }
    }
}

impl From<BoletoRefusal> for AppError {
    fn from(e: BoletoRefusal) -> Self {
        match e {
            BoletoRefusal::NotFound => Reason::InstallmentNotFound.into(),
            BoletoRefusal::NotOpenBoleto => Reason::NoOpenBoleto.into(),
        }
    }
}

impl From<std::convert::Infallible> for AppError {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let challenge = matches!(self.answer, Answer::Reason(r) if r.challenges());
        let mut res = (status, Json(self.envelope(request_lang()))).into_response();
        if challenge {
            res.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"paylink\""),
            );
        }
        // For `log_errors`: not logged here, outside the request's span.
        res.extensions_mut().insert(Arc::new(self));
        res
    }
}

/// Middleware, inside the request's span (`app::traced`, so each line carries the request's
/// id): logs the error an answer was made from, once, and takes it off the response, so a
/// router called in-process (the proxy's local upstream, `app::service`) logs its own and
/// nothing further out logs it again.
pub async fn log_errors(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    if let Some(err) = res.extensions_mut().remove::<Arc<AppError>>() {
        err.log(err.status());
    }
    res
}

tokio::task_local! {
    /// The language of the request being answered, for its envelopes.
    static REQUEST_LANG: Lang;
}

/// The caller's language from `Accept-Language`: pt-BR unless English is preferred.
pub fn lang_of(headers: &HeaderMap) -> Lang {
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(Lang::from_accept_language)
        .unwrap_or_default()
}

/// The language envelopes are rendered in: the request's, inside
/// [`with_request_lang`]; pt-BR, the default, anywhere else.
pub fn request_lang() -> Lang {
    REQUEST_LANG.try_with(|l| *l).unwrap_or_default()
}

/// Middleware, outside every route and layer that can answer an error: the request's
/// `Accept-Language` decides the language of every envelope made while it is answered,
/// so errors are made without one and put into words once. A task-local rather than a
/// response extension read by a later layer: the in-process proxy (`Upstream::Local`)
/// reads its service's envelopes as bytes, and those must already be in words.
pub async fn with_request_lang(req: Request, next: Next) -> Response {
    let lang = lang_of(req.headers());
    REQUEST_LANG.scope(lang, next.run(req)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    // The envelope's words are the catalog's now: the same, in both languages, as this file
    // had them.
    #[test]
    fn the_envelopes_messages_are_the_catalogs_and_unchanged() {
        let said = |r: Reason| (r.message(Lang::PtBr), r.message(Lang::En));
        assert_eq!(
            said(Reason::Unauthorized),
            ("Token ausente ou inválido.", "Missing or invalid token.")
        );
        assert_eq!(
            said(Reason::DeliveryPending),
            (
                "Esta entrega ainda não foi tentada ou está sendo enviada agora: aguarde o resultado.",
                "This delivery has not been tried yet or is being sent right now: wait for its outcome."
            )
        );
        assert_eq!(
            said(Reason::Validation),
            (
                "Dados inválidos: confira os campos indicados.",
                "Invalid data: check the fields listed."
            )
        );
    }
}
