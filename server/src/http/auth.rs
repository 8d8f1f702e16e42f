//! Tokens. A token is `Base64("{applicationId}:{secret}")`, sent as
//! `Authorization: Basic {token}` (so it is also valid HTTP Basic with the
//! application id as user name). The secret is 32 random bytes; only its
//! SHA-256 is stored. A fast hash is right for a high-entropy secret, and it
//! keeps authentication off the hot path's budget (a password hash would not).
//!
//! An application may hold several tokens (a rotation keeps the old one for a
//! grace period); each is checked against the database on every request,
//! with no cache, so a token revoked by `paylink token revoke` is refused at
//! once by every server on that database. The cost is one indexed query.

use std::time::Duration;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::{header, request::Parts};
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::error::{AppError, Reason};
use crate::store::{tokens, Application, Db, DbError};

pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// 32 random bytes, URL-safe base64.
fn new_secret() -> String {
    let mut raw = [0u8; 32];
    getrandom::getrandom(&mut raw).expect("the OS random source is available");
    URL_SAFE_NO_PAD.encode(raw)
}

fn token_of(application_id: &str, secret: &str) -> String {
    STANDARD.encode(format!("{application_id}:{secret}"))
}

/// Creates an application and returns it with its token (shown once).
pub async fn create_token(db: &Db, name: &str) -> Result<(Application, String), DbError> {
    let secret = new_secret();
    let app = crate::store::applications::create(db, name, &hash_secret(&secret)).await?;
    let token = token_of(&app.id, &secret);
    Ok((app, token))
}

/// A rotation's outcome: the new token (shown once) and until when the old ones work.
pub struct Rotated {
    pub token: String,
    pub token_id: String,
    pub old_until: String,
    pub old_tokens: u64,
}

/// Rotation's default grace: a day to put the new token everywhere the old one is.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(24 * 3600);

/// A new token for `app`; its other tokens keep working for `grace`, then are refused.
pub async fn rotate_token(db: &Db, app: &Application, grace: Duration) -> Result<Rotated, DbError> {
    let secret = new_secret();
    let now_ms = crate::domain::now_ms();
    let iso = paylink_model::date::iso_utc_from_millis;
    let grace_ms = i64::try_from(grace.as_millis()).unwrap_or(i64::MAX);
    let old_until = iso(now_ms.saturating_add(grace_ms));
    let token_id = crate::store::new_id();
    let old_tokens = tokens::rotate(
        db,
        &app.id,
        &token_id,
        &hash_secret(&secret),
        &iso(now_ms),
        &old_until,
    )
    .await?;
    Ok(Rotated {
        token: token_of(&app.id, &secret),
        token_id,
        old_until,
        old_tokens,
    })
}

/// Splits a token into (application id, secret) without touching storage.
pub fn parse_token(token: &str) -> Option<(String, String)> {
    let decoded = STANDARD.decode(token.trim()).ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    (paylink_model::br::uuid_is_valid(id) && !secret.is_empty())
        .then(|| (id.to_string(), secret.to_string()))
}

/// A token's last use is written when the stored one is older than this:
/// at most one write a minute per token, however many requests it makes.
pub const LAST_USED_EVERY: Duration = Duration::from_secs(60);

/// The application a token belongs to, if its secret is that of one of the
/// application's tokens still in force (not revoked, not past a rotation's grace).
pub(crate) async fn verify(db: &Db, token: &str) -> Result<Option<Application>, DbError> {
    let Some((id, secret)) = parse_token(token) else {
        return Ok(None);
    };
    let now_ms = crate::domain::now_ms();
    let live = tokens::live(db, &id, &paylink_model::date::iso_utc_from_millis(now_ms)).await?;
    accept(db, &live, &hash_secret(&secret), now_ms).await
}

/// The application of the token among `live` (its application's tokens in
/// force at `now_ms`) whose secret's [`hash_secret`] is `presented`, its
/// last use recorded.
pub(crate) async fn accept(
    db: &Db,
    live: &[tokens::LiveToken],
    presented: &str,
    now_ms: i64,
) -> Result<Option<Application>, DbError> {
    let iso = paylink_model::date::iso_utc_from_millis;
    let now = iso(now_ms);
    let Some(found) = live
        .iter()
        .find(|t| bool::from(presented.as_bytes().ct_eq(t.secret_hash.as_bytes())))
    else {
        return Ok(None);
    };
    let stale_before = iso(now_ms - LAST_USED_EVERY.as_millis() as i64);
    if found
        .last_used_at
        .as_deref()
        .is_none_or(|at| at < stale_before.as_str())
    {
        // Bookkeeping: a failed write must not refuse a good token.
        if let Err(e) = tokens::touch(db, &found.token_id, &now, &stale_before).await {
            tracing::warn!(error = %e, "cannot record the token's last use");
        }
    }
    Ok(Some(found.application()))
}

/// The authenticated application of a request to the invoicing service.
pub struct Authed(pub Application);

/// A request made inside this process on behalf of `0` (the proxy acting
/// as its token's application behind an operator's session, or as the
/// application that owns a payment link or an invoice): a request
/// extension, which only this process's code can set (nothing from the
/// network becomes one), so it stands for the token that application would
/// send.
#[derive(Clone)]
pub(crate) struct ActingAs(pub Application);

impl<S> FromRequestParts<S> for Authed
where
    S: Send + Sync,
    Db: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if let Some(ActingAs(app)) = parts.extensions.get::<ActingAs>() {
            return Ok(Authed(app.clone()));
        }
        let unauthorized = || AppError::new(Reason::Unauthorized);
        let header = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(unauthorized)?;
        let (scheme, token) = header.split_once(' ').ok_or_else(unauthorized)?;
        if !scheme.eq_ignore_ascii_case("basic") {
            return Err(unauthorized());
        }
        let app = verify(&Db::from_ref(state), token.trim())
            .await?
            .ok_or_else(unauthorized)?;
        Ok(Authed(app))
    }
}
