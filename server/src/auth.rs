//! Tokens. A token is `Base64("{applicationId}:{secret}")`, sent as
//! `Authorization: Basic {token}` (so it is also valid HTTP Basic with the
//! application id as user name). The secret is 32 random bytes; only its
//! SHA-256 is stored. A fast hash is right for a high-entropy secret, and it
//! keeps authentication off the hot path's budget (a password hash would not).

use axum::extract::FromRequestParts;
use axum::http::{header, request::Parts};
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::db::{Application, Db};
use crate::error::{AppError, OrInternal, Reason};
use crate::extract::lang_of;
use crate::AppState;

pub fn hash_secret(secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Creates an application and returns it with its token (shown once).
pub async fn create_token(
    db: &Db,
    name: &str,
) -> Result<(Application, String), crate::db::DbError> {
    let mut raw = [0u8; 32];
    getrandom::getrandom(&mut raw).expect("the OS random source is available");
    let secret = URL_SAFE_NO_PAD.encode(raw);
    let app = db.create_application(name, &hash_secret(&secret)).await?;
    let token = STANDARD.encode(format!("{}:{}", app.id, secret));
    Ok((app, token))
}

/// Splits a token into (application id, secret) without touching storage.
pub fn parse_token(token: &str) -> Option<(String, String)> {
    let decoded = STANDARD.decode(token.trim()).ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    (paylink_model::br::uuid_is_valid(id) && !secret.is_empty())
        .then(|| (id.to_string(), secret.to_string()))
}

/// The authenticated application of a request to the invoicing service.
pub struct Authed(pub Application);

impl FromRequestParts<AppState> for Authed {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let lang = lang_of(&parts.headers);
        let unauthorized = || AppError::new(Reason::Unauthorized, lang);
        let header = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(unauthorized)?;
        let (scheme, token) = header.split_once(' ').ok_or_else(unauthorized)?;
        if !scheme.eq_ignore_ascii_case("basic") {
            return Err(unauthorized());
        }
        let (id, secret) = parse_token(token).ok_or_else(unauthorized)?;
        let app = state
            .db
            .find_application(&id)
            .await
            .or_internal(lang)?
            .ok_or_else(unauthorized)?;
        let presented = hash_secret(&secret);
        if presented
            .as_bytes()
            .ct_eq(app.secret_hash.as_bytes())
            .into()
        {
            Ok(Authed(app))
        } else {
            Err(unauthorized())
        }
    }
}
