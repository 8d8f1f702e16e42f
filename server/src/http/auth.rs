//! Tokens. A token is `Base64("{applicationId}:{secret}")`, sent as
//! `Authorization: Basic {token}` (so it is also valid HTTP Basic with the
//! application id as user name). The secret is 32 random bytes; only its
//! SHA-256 is stored. A fast hash is right for a high-entropy secret, and it
//! keeps authentication off the hot path's budget (a password hash would not).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::{header, request::Parts};
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::error::{AppError, Reason};
use crate::http::AppState;
use crate::store::{Application, Db};

pub fn hash_secret(secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Creates an application and returns it with its token (shown once).
pub async fn create_token(
    db: &Db,
    name: &str,
) -> Result<(Application, String), crate::store::DbError> {
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

/// Tokens verified recently, so a repeated token costs no database query
/// (that lookup was most of authentication's cost: a round trip to the
/// database, against well under a microsecond for the hash). Keyed by the
/// SHA-256 of the whole token, so only the exact token that was verified
/// hits, and a lookup's timing says nothing about a stored token; any other
/// token, a wrong secret included, is checked against the database every
/// time. Bounded, and each entry lives `TTL`: there is no command that
/// revokes or rotates a token (applications are never changed or deleted),
/// and if one is added, a revoked token keeps working at most that long in a
/// running server unless it also clears this cache.
#[derive(Clone, Default)]
pub struct TokenCache(Arc<Mutex<HashMap<TokenDigest, (Application, Instant)>>>);

type TokenDigest = [u8; 32];

impl TokenCache {
    pub const TTL: Duration = Duration::from_secs(30);
    /// Far above the applications one server sees; bounds memory if many
    /// valid tokens are presented within one TTL.
    pub const MAX: usize = 1024;

    fn key(token: &str) -> TokenDigest {
        Sha256::digest(token.as_bytes()).into()
    }

    fn get(&self, token: &str) -> Option<Application> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match map.get(&Self::key(token)) {
            Some((app, at)) if at.elapsed() < Self::TTL => Some(app.clone()),
            _ => None,
        }
    }

    fn put(&self, token: &str, app: &Application) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= Self::MAX {
            map.retain(|_, (_, at)| at.elapsed() < Self::TTL);
            if map.len() >= Self::MAX {
                map.clear();
            }
        }
        map.insert(Self::key(token), (app.clone(), Instant::now()));
    }
}

/// The application a token belongs to, if its secret is right.
async fn verify(db: &Db, token: &str) -> Result<Option<Application>, crate::store::DbError> {
    let Some((id, secret)) = parse_token(token) else {
        return Ok(None);
    };
    let Some(app) = db.find_application(&id).await? else {
        return Ok(None);
    };
    let presented = hash_secret(&secret);
    let right: bool = presented
        .as_bytes()
        .ct_eq(app.secret_hash.as_bytes())
        .into();
    Ok(right.then_some(app))
}

/// The authenticated application of a request to the invoicing service.
pub struct Authed(pub Application);

impl FromRequestParts<AppState> for Authed {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
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
        let token = token.trim();
        if let Some(app) = state.tokens.get(token) {
            return Ok(Authed(app));
        }
        let app = verify(&state.db, token).await?.ok_or_else(unauthorized)?;
        state.tokens.put(token, &app);
        Ok(Authed(app))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(id: &str) -> Application {
        Application {
            id: id.into(),
            user_id: "u".into(),
            name: "n".into(),
            secret_hash: "h".into(),
        }
    }

    #[test]
    fn only_the_exact_token_hits_the_cache() {
        let cache = TokenCache::default();
        cache.put("dG9rZW4=", &app("a"));
        assert_eq!(cache.get("dG9rZW4=").map(|a| a.id), Some("a".into()));
        assert!(cache.get("dG9rZW5=").is_none());
        assert!(cache.get("dG9rZW4").is_none());
    }

    #[test]
    fn the_cache_stays_bounded() {
        let cache = TokenCache::default();
        for i in 0..TokenCache::MAX + 10 {
            cache.put(&format!("t{i}"), &app("a"));
        }
        assert!(cache.0.lock().unwrap().len() <= TokenCache::MAX);
        // The newest entry is always kept.
        assert!(cache.get(&format!("t{}", TokenCache::MAX + 9)).is_some());
    }

    #[test]
    fn an_entry_expires_after_the_ttl() {
        let cache = TokenCache::default();
        cache.put("t", &app("a"));
        let old = Instant::now().checked_sub(TokenCache::TTL).unwrap();
        cache
            .0
            .lock()
            .unwrap()
            .get_mut(&TokenCache::key("t"))
            .unwrap()
            .1 = old;
        assert!(cache.get("t").is_none());
    }
}
