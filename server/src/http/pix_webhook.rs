//! The bank's Pix callback (`serve --pix-api-url`): `POST /webhooks/pix/{token}/pix` with
//! `{"pix": [...]}`, as the webhook registered with `PUT /webhook/{chave}` receives it. The
//! callback carries no signature (the standard relies on mutual TLS at the receiver, which a
//! fronting proxy does: README, Settlement), so nothing in it is believed: each Pix is asked of the
//! bank (`GET /pix/{e2eid}`) and applied only when the bank's txid, key and amount match.
//! Unknown txids and unconfirmed Pix are logged and answered 200 (the bank must not retry
//! forever); while the bank cannot be asked, 503, so it tries again.

use axum::extract::{FromRef, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::Router;
use serde_json::Value;

use crate::bank::{BankError, PixClient};
use crate::domain::pix_api;
use crate::error::{AppError, Reason};
use crate::http::extract::{ApiPath, RawBody};
use crate::store::Db;

#[derive(Clone)]
pub struct PixWebhook {
    pub db: Db,
    pub bank: PixClient,
}

/// The callback's route, for a state whose `Option<PixWebhook>` part is set
/// (`serve --pix-api-url`; without it the route is not mounted).
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Option<PixWebhook>: FromRef<S>,
{
    Router::new().route("/webhooks/pix/{token}/pix", post(callback))
}

async fn callback(
    State(hook): State<Option<PixWebhook>>,
    ApiPath(token): ApiPath<String>,
    RawBody(body): RawBody,
) -> Result<StatusCode, AppError> {
    use subtle::ConstantTimeEq;
    let Some(s) = hook else {
        return Err(Reason::RouteNotFound.into());
    };
    let expected = s.bank.webhook_token();
    if !bool::from(token.as_bytes().ct_eq(expected.as_bytes())) {
        return Err(Reason::RouteNotFound.into());
    }
    let body: Value = serde_json::from_slice(&body)
        .map_err(|e| AppError::new(Reason::MalformedJson).because(e))?;
    let entries = body["pix"].as_array().ok_or(Reason::NotAnObject)?;
    for entry in entries {
        let Some(e2eid) = entry["endToEndId"].as_str() else {
            tracing::warn!("PIX callback: an entry without endToEndId, ignored");
            continue;
        };
        let confirmed = match s.bank.get_pix(e2eid).await {
            Ok(Some(p)) => p,
            Ok(None) => {
                tracing::warn!(%e2eid, "PIX callback: the bank does not know this Pix; nothing changed");
                continue;
            }
            Err(e @ BankError::Unavailable(_)) => {
                tracing::warn!(%e2eid, error = %e, "PIX callback: cannot confirm at the bank now");
                return Err(Reason::Unavailable.into());
            }
            Err(e) => {
                tracing::warn!(%e2eid, error = %e, "PIX callback: the bank refused the confirmation");
                continue;
            }
        };
        match pix_api::check_confirmed(entry, &confirmed, s.bank.key()) {
            Ok(pix) => {
                pix_api::apply(&s.db, &pix).await?;
            }
            Err(why) => {
                tracing::warn!(%e2eid, why, "PIX callback: not what the bank says; nothing changed");
            }
        }
    }
    Ok(StatusCode::OK)
}
