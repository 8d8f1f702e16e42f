//! One error type for every route. Whatever goes wrong, a client gets the
//! spec's envelope `{code, message, errors?}` with the real HTTP status, in
//! the language it asked for; axum's plain-text rejections never leak out.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use paylink_model::{ErrorEnvelope, Errors, Lang, Violations};

#[derive(Debug)]
pub struct AppError {
    pub status: StatusCode,
    pub message: String,
    pub errors: Option<Errors>,
    /// Ask for credentials (`WWW-Authenticate`): only this service's own 401,
    /// never one relayed by the proxy, which would make the browser prompt.
    pub challenge: bool,
}

/// The fixed messages of the envelope, in both languages.
#[derive(Clone, Copy, Debug)]
pub enum Reason {
    Unauthorized,
    RouteNotFound,
    MethodNotAllowed,
    InvoiceNotFound,
    InvalidInvoiceId,
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
    InstallmentNotFound,
    NoOpenBoleto,
    AlreadyPaid,
    InvoiceCancelled,
    NothingOpen,
    NoChannel,
}

impl Reason {
    pub fn status(self) -> StatusCode {
        use Reason::*;
        match self {
            Unauthorized | LoginRequired | BadCredentials => StatusCode::UNAUTHORIZED,
            RouteNotFound | InvoiceNotFound | LinkNotFound | InstallmentNotFound => {
                StatusCode::NOT_FOUND
            }
            NoOpenBoleto | AlreadyPaid | NothingOpen | NoChannel => StatusCode::CONFLICT,
            InvoiceCancelled => StatusCode::GONE,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            InvalidInvoiceId | MalformedJson | MalformedQuery | NotAnObject | BadIdempotencyKey => {
                StatusCode::BAD_REQUEST
            }
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Validation | IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
            Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Unavailable | ProxyNotConfigured => StatusCode::SERVICE_UNAVAILABLE,
            CrossOrigin => StatusCode::FORBIDDEN,
            TooManyRequests | LoginThrottled => StatusCode::TOO_MANY_REQUESTS,
            UpstreamUnreachable => StatusCode::BAD_GATEWAY,
            UpstreamTimeout => StatusCode::GATEWAY_TIMEOUT,
        }
    }

    pub fn message(self, lang: Lang) -> &'static str {
        use Reason::*;
        let (pt, en) = match self {
            Unauthorized => ("Token ausente ou inválido.", "Missing or invalid token."),
            RouteNotFound => ("Rota não encontrada.", "Route not found."),
            MethodNotAllowed => (
                "Método não permitido nesta rota.",
                "Method not allowed on this route.",
            ),
            InvoiceNotFound => ("Fatura não encontrada.", "Invoice not found."),
            InvalidInvoiceId => (
                "O id da fatura deve ser um UUID.",
                "The invoice id must be a UUID.",
            ),
            MalformedJson => (
                "JSON malformado no corpo da requisição.",
                "Malformed JSON in the request body.",
            ),
            MalformedQuery => (
                "Parâmetros de consulta malformados (um deles repetido?).",
                "Malformed query parameters (one given twice?).",
            ),
            NotAnObject => (
                "O corpo deve ser um objeto JSON.",
                "The body must be a JSON object.",
            ),
            UnsupportedMediaType => (
                "Envie o corpo com Content-Type: application/json.",
                "Send the body with Content-Type: application/json.",
            ),
            PayloadTooLarge => (
                "Corpo da requisição maior que 1 MiB.",
                "Request body larger than 1 MiB.",
            ),
            Validation => (
                "Dados inválidos: confira os campos indicados.",
                "Invalid data: check the fields listed.",
            ),
            Internal => (
                "Erro interno. Tente novamente.",
                "Internal error. Please try again.",
            ),
            Unavailable => (
                "Serviço indisponível no momento. Tente novamente.",
                "Service unavailable right now. Please try again.",
            ),
            ProxyNotConfigured => (
                "O proxy não tem um token configurado.",
                "The proxy has no token configured.",
            ),
            UpstreamUnreachable => (
                "O serviço de cobrança não respondeu.",
                "The invoicing service could not be reached.",
            ),
            UpstreamTimeout => (
                "O serviço de cobrança demorou demais para responder.",
                "The invoicing service took too long to answer.",
            ),
            BadIdempotencyKey => (
                "Idempotency-Key inválida: use de 1 a 255 caracteres ASCII visíveis.",
                "Invalid Idempotency-Key: use 1 to 255 visible ASCII characters.",
            ),
            IdempotencyKeyReused => (
                "Esta Idempotency-Key já foi usada com outra requisição.",
                "This Idempotency-Key was already used with a different request.",
            ),
            LoginRequired => (
                "Faça login como operador para continuar.",
                "Log in as an operator to continue.",
            ),
            BadCredentials => (
                "E-mail ou senha incorretos.",
                "Wrong e-mail or password.",
            ),
            LoginThrottled => (
                "Muitas tentativas de login erradas. Aguarde alguns minutos e tente novamente.",
                "Too many failed logins. Wait a few minutes and try again.",
            ),
            CrossOrigin => (
                "Requisição recusada: ela não veio de uma página deste servidor.",
                "Request refused: it did not come from a page of this server.",
            ),
            LinkNotFound => (
                "Link de pagamento não encontrado.",
                "Payment link not found.",
            ),
            TooManyRequests => (
                "Muitas requisições deste endereço. Aguarde e tente novamente.",
                "Too many requests from this address. Wait and try again.",
            ),
            InstallmentNotFound => (
                "Esta fatura não tem parcela com esse número.",
                "This invoice has no installment with that number.",
            ),
            NoOpenBoleto => (
                "Esta parcela não tem boleto em aberto (já paga, cancelada ou sem boleto).",
                "This installment has no open boleto (already paid, cancelled or not by boleto).",
            ),
            AlreadyPaid => (
                "Esta parcela já está paga.",
                "This installment is already paid.",
            ),
            NothingOpen => (
                "Nenhuma parcela está aguardando pagamento: não há o que reenviar.",
                "No installment is waiting for payment: there is nothing to send again.",
            ),
            NoChannel => (
                "A fatura não tem notificações (e-mail, WhatsApp ou SMS) por onde reenviar.",
                "The invoice has no notifications (e-mail, WhatsApp or SMS) to send it again through.",
            ),
            InvoiceCancelled => (
                "Esta cobrança foi cancelada pelo lojista: não há nada a pagar.",
                "This charge was cancelled by the merchant: there is nothing to pay.",
            ),
        };
        match lang {
            Lang::PtBr => pt,
            Lang::En => en,
        }
    }
}

impl AppError {
    pub fn new(reason: Reason, lang: Lang) -> Self {
        AppError {
            status: reason.status(),
            message: reason.message(lang).to_string(),
            errors: None,
            challenge: matches!(reason, Reason::Unauthorized),
        }
    }

    pub fn validation(violations: &Violations, lang: Lang) -> Self {
        AppError {
            errors: Some(violations.render(lang)),
            ..AppError::new(Reason::Validation, lang)
        }
    }

    /// An upstream service's refusal, answered as it gave it: its status, and
    /// its envelope's message and field errors (a 502 if it is not one).
    pub fn from_envelope(status: StatusCode, body: &[u8], lang: Lang) -> Self {
        match serde_json::from_slice::<ErrorEnvelope>(body) {
            Ok(e) => AppError {
                status,
                message: e.message,
                errors: e.errors,
                challenge: false,
            },
            Err(_) => AppError::new(Reason::UpstreamUnreachable, lang),
        }
    }

    /// A storage failure: the one place that maps the database's errors to
    /// answers. The pool out of connections, or a database that went away,
    /// is a 503 the client may retry; a broken constraint or anything else
    /// is a bug of ours (the rules in `model/` run before any write), a 500.
    pub fn from_db(e: sqlx::Error, lang: Lang) -> Self {
        match e {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => {
                tracing::warn!(error = %e, "database unavailable");
                AppError::new(Reason::Unavailable, lang)
            }
            e => AppError::internal(e, lang),
        }
    }

    /// Logs the cause (never the request's secrets) and answers a plain 500.
    pub fn internal(cause: impl std::fmt::Display, lang: Lang) -> Self {
        tracing::error!(%cause, "internal error");
        AppError::new(Reason::Internal, lang)
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let mut res = (
            self.status,
            Json(ErrorEnvelope {
                code: self.status.as_u16(),
                message: self.message,
                errors: self.errors,
            }),
        )
            .into_response();
        if self.challenge {
            res.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"paylink\""),
            );
        }
        res
    }
}

/// Storage failures are internal errors; the handler picks the language.
pub trait OrInternal<T> {
    fn or_internal(self, lang: Lang) -> Result<T, AppError>;
}

impl<T, E: std::fmt::Display> OrInternal<T> for Result<T, E> {
    fn or_internal(self, lang: Lang) -> Result<T, AppError> {
        self.map_err(|e| AppError::internal(e, lang))
    }
}

/// `?` on a storage call in a handler that has no language at hand answers in
/// pt-BR, the default; handlers that know the caller's use [`AppError::from_db`].
impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        AppError::from_db(e, Lang::default())
    }
}
