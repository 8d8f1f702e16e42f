//! The bank's Pix callback (`serve --pix-api-url`): `POST /webhooks/pix/{token}/pix` with
//! `{"pix": [...]}`, as the webhook registered with `PUT /webhook/{chave}` receives it. The
//! callback carries no signature (the standard relies on mutual TLS at the receiver, which a
//! fronting proxy does: README, Settlement), so nothing in it is believed: each Pix is asked of the
//! bank (`GET /pix/{e2eid}`) and applied only when the bank's txid, key and amount match.
//! The Pix's devoluções (a refund, a MED return) are kept from the bank's answer too, never from
//! the callback's body (`pix_api::devolucao`).
//! Unknown txids and unconfirmed Pix are logged and answered 200 (the bank must not retry
//! forever); while the bank cannot be asked, 503, so it tries again.
//!
//! Pix Automático's callbacks (issue 31) come to the same URL, registered with `PUT /webhookrec`
//! and `PUT /webhookcobr`: `.../rec` with `{"recs": [...]}` and `.../cobr` with `{"cobsr": [...]}`.
//! Neither is believed either: each recurrence is read back (`GET /rec/{idRec}`) and its state
//! as the bank holds it recorded; each recurring charge is read back (`GET /cobr/{txid}`) and each
//! Pix of a paid attempt (`tentativas[].status` PAGA) applied once, by its endToEndId. In any
//! order, any number of times: what is recorded is what the bank says now.

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
    Router::new()
        .route("/webhooks/pix/{token}/pix", post(callback))
        .route("/webhooks/pix/{token}/rec", post(rec_callback))
        .route("/webhooks/pix/{token}/cobr", post(cobr_callback))
}

/// The callback's state when `token` is the one paylink registered (a wrong one is a 404), and
/// its body's `list` array.
fn accept(
    hook: Option<PixWebhook>,
    token: &str,
    body: &[u8],
    list: &str,
) -> Result<(PixWebhook, Vec<Value>), AppError> {
    use subtle::ConstantTimeEq;
    let Some(s) = hook else {
        return Err(Reason::RouteNotFound.into());
    };
    let expected = s.bank.webhook_token();
    if !bool::from(token.as_bytes().ct_eq(expected.as_bytes())) {
        return Err(Reason::RouteNotFound.into());
    }
    let body: Value = serde_json::from_slice(body)
        .map_err(|e| AppError::new(Reason::MalformedJson).because(e))?;
    let entries = body[list].as_array().cloned().ok_or(Reason::NotAnObject)?;
    Ok((s, entries))
}

/// A read-back the bank could not answer now: 503, so the bank sends the callback again.
fn unavailable(e: &BankError, what: &str) -> AppError {
    tracing::warn!(error = %e, what, "callback: cannot read it back from the bank now");
    Reason::Unavailable.into()
}

async fn rec_callback(
    State(hook): State<Option<PixWebhook>>,
    ApiPath(token): ApiPath<String>,
    RawBody(body): RawBody,
) -> Result<StatusCode, AppError> {
    let (s, entries) = accept(hook, &token, &body, "recs")?;
    for entry in entries {
        let Some(id_rec) = entry["idRec"].as_str() else {
            tracing::warn!("recurrence callback: an entry without idRec, ignored");
            continue;
        };
        let rec = match s.bank.get_rec(id_rec, None).await {
            Ok(rec) => rec,
            Err(e @ BankError::Unavailable(_)) => return Err(unavailable(&e, "recurrence")),
            Err(e) => {
                tracing::warn!(%id_rec, error = %e, "recurrence callback: the bank does not confirm it; nothing changed");
                continue;
            }
        };
        let Some(status) = rec["status"].as_str().filter(|_| rec["idRec"] == id_rec) else {
            tracing::warn!(%id_rec, "recurrence callback: the bank's answer is not that recurrence");
            continue;
        };
        if entry["status"].as_str() != Some(status) {
            tracing::warn!(%id_rec, claimed = %entry["status"], %status, "recurrence callback: the bank says otherwise; its state is recorded");
        }
        let closing = pix_api::rec::closing_of(&rec);
        if !crate::store::pix_recurrences::apply_bank_state(&s.db, id_rec, status, &closing).await?
        {
            tracing::warn!(%id_rec, "recurrence callback: not a recurrence of paylink's; nothing changed");
        }
    }
    Ok(StatusCode::OK)
}

async fn cobr_callback(
    State(hook): State<Option<PixWebhook>>,
    ApiPath(token): ApiPath<String>,
    RawBody(body): RawBody,
) -> Result<StatusCode, AppError> {
    let (s, entries) = accept(hook, &token, &body, "cobsr")?;
    for entry in entries {
        let Some(txid) = entry["txid"].as_str() else {
            tracing::warn!("recurring charge callback: an entry without txid, ignored");
            continue;
        };
        let cobr = match s.bank.get_cobr(txid).await {
            Ok(c) if c["txid"] == txid => c,
            Ok(_) => {
                tracing::warn!(%txid, "recurring charge callback: the bank's answer is not that charge");
                continue;
            }
            Err(e @ BankError::Unavailable(_)) => return Err(unavailable(&e, "recurring charge")),
            Err(e) => {
                tracing::warn!(%txid, error = %e, "recurring charge callback: the bank does not confirm it; nothing changed");
                continue;
            }
        };
        pix_api::rec::keep_cycle(&s.db, txid, &cobr, None).await?;
        for pix in pix_api::rec::paid(&cobr) {
            pix_api::apply(&s.db, &pix).await?;
        }
        match pix_api::rec::cycle(&cobr, crate::domain::today()) {
            pix_api::rec::Cycle::Waiting => {}
            pix_api::rec::Cycle::Retry(day) => match s.bank.retry_cobr(txid, day).await {
                Ok(retried) => {
                    tracing::info!(%txid, %day, "recurring charge: a rejected attempt is tried again");
                    if retried["txid"] == txid {
                        pix_api::rec::keep_cycle(&s.db, txid, &retried, None).await?;
                    }
                }
                Err(e @ BankError::Unavailable(_)) => return Err(unavailable(&e, "retry")),
                // Already asked (a replayed callback), or the bank will not: it says so next time.
                Err(e) => {
                    tracing::warn!(%txid, error = %e, "recurring charge: the bank refused the retry");
                }
            },
            pix_api::rec::Cycle::Ended(status, why) => {
                pix_api::rec::keep_cycle(&s.db, txid, &cobr, Some(&status)).await?;
                if crate::store::pix_charges::cycle_ended(&s.db, txid, &status).await? {
                    tracing::warn!(%txid, %status, reasons = ?why, "recurring charge ended unpaid; the installment goes back to the payer page");
                }
            }
        }
    }
    Ok(StatusCode::OK)
}

async fn callback(
    State(hook): State<Option<PixWebhook>>,
    ApiPath(token): ApiPath<String>,
    RawBody(body): RawBody,
) -> Result<StatusCode, AppError> {
    let (s, entries) = accept(hook, &token, &body, "pix")?;
    for entry in &entries {
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
                // Its devoluções as the bank holds them: never the callback's own.
                pix_api::devolucao::keep_all(&s.db, &confirmed).await?;
            }
            Err(why) => {
                tracing::warn!(%e2eid, why, "PIX callback: not what the bank says; nothing changed");
            }
        }
    }
    Ok(StatusCode::OK)
}
