//! `Idempotency-Key` on the two creations, with Stripe's semantics: a retry
//! with the same key and the same request within 24 h gets the first answer
//! (same ids, same status) and creates nothing; the same key with another
//! request is a 422; of concurrent requests with one key, one creates.

use std::future::Future;

use axum::body::Body;
use axum::extract::FromRequestParts;
use axum::http::{header, request::Parts, HeaderValue, StatusCode};
use axum::response::Response;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::{AppError, Reason};
use crate::store::{Db, DbError, Idem};

pub const HEADER: &str = "idempotency-key";

/// The request's `Idempotency-Key`, if any: 1 to 255 visible ASCII characters.
pub struct IdempotencyKey(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for IdempotencyKey {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let Some(value) = parts.headers.get(HEADER) else {
            return Ok(IdempotencyKey(None));
        };
        let key =
            value.to_str().ok().map(str::trim).filter(|k| {
                (1..=255).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic())
            });
        match key {
            Some(k) => Ok(IdempotencyKey(Some(k.to_string()))),
            None => Err(Reason::BadIdempotencyKey.into()),
        }
    }
}

/// Digest of the operation and the parsed request (not the raw bytes, so
/// whitespace and key order do not make two equal requests differ).
pub fn request_hash(operation: &str, request: &impl Serialize) -> String {
    let json = serde_json::to_string(request).unwrap_or_default();
    let digest = Sha256::new()
        .chain_update(operation)
        .chain_update(b"\n")
        .chain_update(json)
        .finalize();
    hex::encode(digest)
}

/// The answer stored for `key` by an earlier request (the same request:
/// replayed; another: a 422), for a creation that stores its record itself
/// rather than through [`create_once`]. `None`: nothing stored for it.
pub async fn replayed(
    db: &Db,
    app_id: &str,
    key: Option<&str>,
    request_hash: &str,
) -> Result<Option<Response>, AppError> {
    let Some(key) = key else { return Ok(None) };
    match crate::store::idempotency::find(db, app_id, key).await? {
        Some(stored) => replay(stored, request_hash).map(Some),
        None => Ok(None),
    }
}

/// The record keeping `response` as the answer to `key`.
pub fn record(
    key: &str,
    request_hash: &str,
    status: StatusCode,
    response: &impl Serialize,
) -> Idem {
    Idem {
        key: key.to_string(),
        request_hash: request_hash.to_string(),
        status: status.as_u16(),
        body: serde_json::to_string(response).unwrap_or_default(),
    }
}

fn json_response(status: StatusCode, body: String, replayed: bool) -> Response {
    let mut res = Response::new(Body::from(body));
    *res.status_mut() = status;
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if replayed {
        res.headers_mut()
            .insert(REPLAYED, HeaderValue::from_static("true"));
    }
    res
}

/// Whether `res` is a stored answer replayed (nothing created this time).
pub fn is_replay(res: &Response) -> bool {
    res.headers().contains_key(REPLAYED)
}

const REPLAYED: &str = "idempotent-replayed";

fn replay(stored: Idem, request_hash: &str) -> Result<Response, AppError> {
    if stored.request_hash != request_hash {
        return Err(Reason::IdempotencyKeyReused.into());
    }
    let status = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    Ok(json_response(status, stored.body, true))
}

/// Answers `response` after `insert` stores it, or replays the stored answer
/// of an earlier request with the same key.
pub async fn create_once<T, F, Fut>(
    db: &Db,
    app_id: &str,
    key: Option<String>,
    request_hash: String,
    status: StatusCode,
    response: &T,
    insert: F,
) -> Result<Response, AppError>
where
    T: Serialize,
    F: FnOnce(Option<Idem>) -> Fut,
    Fut: Future<Output = Result<(), DbError>>,
{
    let body = serde_json::to_string(response)?;
    let idem = key.map(|key| Idem {
        key,
        request_hash,
        status: status.as_u16(),
        body: body.clone(),
    });
    if let Some(i) = &idem {
        if let Some(stored) = crate::store::idempotency::find(db, app_id, &i.key).await? {
            return replay(stored, &i.request_hash);
        }
    }
    match insert(idem.clone()).await {
        Ok(()) => Ok(json_response(status, body, false)),
        // A concurrent request with the same key committed first: answer as it did.
        Err(e) if crate::store::is_unique_violation(&e) && idem.is_some() => {
            let i = idem.expect("checked above");
            match crate::store::idempotency::find(db, app_id, &i.key).await? {
                Some(stored) => replay(stored, &i.request_hash),
                None => Err(AppError::internal(e)),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// `Idempotency-Key` of the two creations (see `idempotency.rs`).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IdempotencyKeyHeader {
    /// A retry with the same key and request within 24 h gets the first answer and
    /// creates nothing; the same key with another request is a 422.
    #[param(
        rename = "Idempotency-Key",
        value_type = String,
        required = false,
        min_length = 1,
        max_length = 255,
        pattern = "^[!-~]+$"
    )]
    pub idempotency_key: Option<String>,
}
