//! Extractors whose rejections are our envelope: the request's language and a
//! JSON body that reports wrong types by API field path.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::{header, request::Parts};
use paylink_model::{Lang, Msg, Violations};
use serde::de::DeserializeOwned;

use crate::error::{AppError, Reason};

/// The caller's language from `Accept-Language`: pt-BR unless English is preferred.
#[derive(Clone, Copy, Debug)]
pub struct ReqLang(pub Lang);

pub fn lang_of(headers: &axum::http::HeaderMap) -> Lang {
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(Lang::from_accept_language)
        .unwrap_or_default()
}

impl<S: Send + Sync> FromRequestParts<S> for ReqLang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ReqLang(lang_of(&parts.headers)))
    }
}

/// A JSON request body. Missing/wrong Content-Type → 415, over the body
/// limit → 413, unparsable → 400, a value of the wrong type → 422 keyed by
/// its path (`notifications[0].period`).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let lang = lang_of(req.headers());
        if !is_json(req.headers()) {
            return Err(AppError::new(Reason::UnsupportedMediaType, lang));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                AppError::new(Reason::PayloadTooLarge, lang)
            } else {
                AppError::new(Reason::MalformedJson, lang)
            }
        })?;
        parse_json(&bytes, lang).map(ApiJson)
    }
}

pub fn is_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

pub fn parse_json<T: DeserializeOwned>(bytes: &[u8], lang: Lang) -> Result<T, AppError> {
    // Derived structs would also accept a JSON array (by position): refuse
    // anything but an object up front.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        let valid = serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok();
        return Err(AppError::new(
            if valid {
                Reason::NotAnObject
            } else {
                Reason::MalformedJson
            },
            lang,
        ));
    }
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    let parsed: Result<T, _> = serde_path_to_error::deserialize(de);
    let err = match parsed {
        Ok(value) => return Ok(value),
        Err(err) => err,
    };
    let path = err.path().to_string();
    let inner = err.into_inner();
    match inner.classify() {
        serde_json::error::Category::Data if path != "." => {
            let mut v = Violations::default();
            v.add(path, Msg::WrongType(expected(&inner.to_string())));
            Err(AppError::validation(&v, lang))
        }
        serde_json::error::Category::Data => Err(AppError::new(Reason::NotAnObject, lang)),
        _ => Err(AppError::new(Reason::MalformedJson, lang)),
    }
}

/// What serde expected, in words a client can act on.
fn expected(serde_message: &str) -> &'static str {
    let expected = serde_message.split("expected").nth(1).unwrap_or("");
    if expected.contains("f64") || expected.contains("f32") {
        "a number"
    } else if expected.contains("i64") || expected.contains("u32") || expected.contains("integer") {
        "a whole number"
    } else if expected.contains("string") {
        "a string"
    } else if expected.contains("bool") {
        "a boolean"
    } else if expected.contains("sequence") {
        "an array"
    } else if expected.contains("struct") || expected.contains("map") {
        "an object"
    } else {
        "a valid value"
    }
}
