//! The notification providers' status callbacks, under `--public-url`:
//!
//! - `GET /webhooks/whatsapp`: Meta's verification when the webhook is set up
//!   (`hub.mode=subscribe`, `hub.verify_token` equal to `--whatsapp-verify-token-file`'s) is
//!   answered with `hub.challenge`; anything else is a 403.
//! - `POST /webhooks/whatsapp`: the Cloud API's webhooks, believed only with an
//!   `X-Hub-Signature-256` that is the HMAC-SHA256 of the raw body with the app's secret
//!   (`--whatsapp-app-secret-file`); each message status (sent, delivered, read, failed) is
//!   recorded by its message id.
//! - `POST /webhooks/sms`: Twilio's `StatusCallback`, believed only with an
//!   `X-Twilio-Signature` made with the auth token over the URL paylink gave and the form's
//!   parameters; its `MessageStatus` is recorded by `MessageSid`.
//!
//! A callback without a valid signature changes nothing and is answered 403. Statuses are
//! recorded in any order and any number of times: only one further along replaces the last
//! (`store::sends::record_provider_status`). Ids paylink did not send (the merchant's other
//! messages on the same number) are kept by id and simply never shown.

use axum::extract::{FromRef, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::Router;
use paylink_model::Channel;

use crate::domain::providers::{self, Secret, TwilioConfig, WhatsAppConfig};
use crate::error::{AppError, Reason};
use crate::http::extract::RawBody;
use crate::store::Db;

/// What the callbacks need: the database and the secrets that sign them.
#[derive(Clone)]
pub struct ProviderHooks {
    pub db: Db,
    pub whatsapp: Option<WhatsAppHooks>,
    pub twilio: Option<TwilioHooks>,
}

impl ProviderHooks {
    /// The callbacks of the providers paylink sends through (`None` without WhatsApp or
    /// Twilio); `sms_callback_url` is the `StatusCallback` the notifier gives Twilio.
    pub fn of(
        db: &Db,
        whatsapp: Option<&WhatsAppConfig>,
        twilio: Option<&TwilioConfig>,
        sms_callback_url: String,
    ) -> Option<ProviderHooks> {
        if whatsapp.is_none() && twilio.is_none() {
            return None;
        }
        Some(ProviderHooks {
            db: db.clone(),
            whatsapp: whatsapp.map(|w| WhatsAppHooks {
                verify_token: w.verify_token.clone(),
                app_secret: w.app_secret.clone(),
            }),
            twilio: twilio.map(|t| TwilioHooks {
                auth_token: t.auth_token.clone(),
                url: sms_callback_url,
            }),
        })
    }
}

#[derive(Clone)]
pub struct WhatsAppHooks {
    /// `--whatsapp-verify-token-file`'s; without it the verification is refused.
    pub verify_token: Option<Secret>,
    /// `--whatsapp-app-secret-file`'s; without it no webhook is believed.
    pub app_secret: Option<Secret>,
}

#[derive(Clone)]
pub struct TwilioHooks {
    pub auth_token: Secret,
    /// The `StatusCallback` URL paylink gives Twilio (`{public-url}/webhooks/sms`): what
    /// Twilio signs.
    pub url: String,
}

/// The callbacks' routes, for a state whose `Option<ProviderHooks>` part is set (a WhatsApp
/// or Twilio account configured; without one the routes are not mounted).
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Option<ProviderHooks>: FromRef<S>,
{
    Router::new()
        .route(
            "/webhooks/whatsapp",
            get(whatsapp_verify).post(whatsapp_status),
        )
        .route("/webhooks/sms", post(sms_status))
}

fn pairs(text: &[u8]) -> Result<Vec<(String, String)>, AppError> {
    serde_urlencoded::from_bytes(text).map_err(|e| AppError::new(Reason::MalformedQuery).because(e))
}

fn same(given: &str, expected: &Secret) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(given.as_bytes().ct_eq(expected.expose().as_bytes()))
}

async fn whatsapp_verify(
    State(hooks): State<Option<ProviderHooks>>,
    RawQuery(query): RawQuery,
) -> Result<String, AppError> {
    let Some(wa) = hooks.and_then(|h| h.whatsapp) else {
        return Err(Reason::RouteNotFound.into());
    };
    let query = pairs(query.unwrap_or_default().as_bytes())?;
    let get = |k: &str| {
        query
            .iter()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.as_str())
    };
    let token_ok = match (&wa.verify_token, get("hub.verify_token")) {
        (Some(expected), Some(given)) => same(given, expected),
        _ => false,
    };
    match (get("hub.mode"), get("hub.challenge")) {
        (Some("subscribe"), Some(challenge)) if token_ok => Ok(challenge.to_string()),
        _ => {
            tracing::warn!("WhatsApp webhook verification refused: wrong or missing verify token");
            Err(Reason::BadSignature.into())
        }
    }
}

async fn whatsapp_status(
    State(hooks): State<Option<ProviderHooks>>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<StatusCode, AppError> {
    let Some(hooks) = hooks else {
        return Err(Reason::RouteNotFound.into());
    };
    let Some(wa) = &hooks.whatsapp else {
        return Err(Reason::RouteNotFound.into());
    };
    let Some(secret) = &wa.app_secret else {
        tracing::warn!(
            "a WhatsApp webhook came, but without --whatsapp-app-secret-file none is believed"
        );
        return Err(Reason::BadSignature.into());
    };
    let signature = headers
        .get("x-hub-signature-256")
        .and_then(|v| v.to_str().ok());
    if !providers::whatsapp_signature_ok(secret, &body, signature) {
        tracing::warn!("WhatsApp webhook refused: wrong or missing X-Hub-Signature-256");
        return Err(Reason::BadSignature.into());
    }
    let body: serde_json::Value = serde_json::from_slice(&body)
        .map_err(|e| AppError::new(Reason::MalformedJson).because(e))?;
    for s in providers::whatsapp_statuses(&body) {
        crate::store::sends::record_provider_status(
            &hooks.db,
            Channel::WhatsApp,
            &s.provider_id,
            s.status,
            s.error.as_deref(),
        )
        .await?;
    }
    Ok(StatusCode::OK)
}

async fn sms_status(
    State(hooks): State<Option<ProviderHooks>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<StatusCode, AppError> {
    let Some(hooks) = hooks else {
        return Err(Reason::RouteNotFound.into());
    };
    let Some(tw) = &hooks.twilio else {
        return Err(Reason::RouteNotFound.into());
    };
    let params = pairs(&body)?;
    // Twilio signs the URL it called, query string included.
    let url = match query {
        Some(q) => format!("{}?{q}", tw.url),
        None => tw.url.clone(),
    };
    let signature = headers
        .get("x-twilio-signature")
        .and_then(|v| v.to_str().ok());
    if !providers::twilio_signature_ok(&tw.auth_token, &url, &params, signature) {
        tracing::warn!("SMS status callback refused: wrong or missing X-Twilio-Signature");
        return Err(Reason::BadSignature.into());
    }
    let get = |k: &str| {
        params
            .iter()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.as_str())
    };
    let (Some(sid), Some(status)) = (
        get("MessageSid").or_else(|| get("SmsSid")),
        get("MessageStatus")
            .or_else(|| get("SmsStatus"))
            .and_then(providers::twilio_status),
    ) else {
        // Queued, sending, or not about a message: nothing to record.
        return Ok(StatusCode::OK);
    };
    let error = get("ErrorCode").filter(|c| !c.is_empty()).map(|c| {
        match get("ErrorMessage").filter(|m| !m.is_empty()) {
            Some(m) => format!("Twilio {c}: {m}"),
            None => format!("Twilio error {c}"),
        }
    });
    crate::store::sends::record_provider_status(
        &hooks.db,
        Channel::Sms,
        sid,
        status,
        error.as_deref(),
    )
    .await?;
    Ok(StatusCode::OK)
}
