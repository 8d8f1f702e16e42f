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
        let RawBody(bytes) = RawBody::from_request(req, state).await?;
        parse_json(&bytes, lang).map(ApiJson)
    }
}

/// A request body as it came (the proxy forwards it, or checks it against a
/// payment link first): over the body limit → 413, unreadable → 400.
pub struct RawBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let lang = lang_of(req.headers());
        Bytes::from_request(req, state)
            .await
            .map(RawBody)
            .map_err(|rejection| {
                if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    AppError::new(Reason::PayloadTooLarge, lang)
                } else {
                    AppError::new(Reason::MalformedJson, lang)
                }
            })
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

#[cfg(test)]
mod tests {
    use paylink_model::{CustomerRequest, InvoiceRequest};
    use proptest::prelude::*;

    use super::*;

    /// Bytes that are, or nearly are, request bodies: JSON objects with the
    /// spec's keys and values of the wrong type, cut short, or anything.
    fn body() -> impl Strategy<Value = Vec<u8>> {
        let key = prop::sample::select(vec![
            "fullName",
            "address",
            "zipcode",
            "price",
            "installmentCount",
            "paymentTypes",
            "notifications",
            "period",
            "webhooks",
            "url",
            "priceByCustomer",
            "dueDate",
        ]);
        let value = prop::sample::select(vec![
            "null",
            "true",
            "1",
            "-1",
            "5.5",
            "1e400",
            "\"x\"",
            "[]",
            "[1,\"PIX\"]",
            "{}",
            "{\"type\":1}",
            "[{\"period\":\"5\"}]",
            "18446744073709551616",
        ]);
        let object = prop::collection::vec((key, value), 0..6).prop_map(|kv| {
            let fields: Vec<String> = kv.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            format!("{{{}}}", fields.join(",")).into_bytes()
        });
        prop_oneof![
            2 => object.clone(),
            // Cut short anywhere.
            1 => (object, any::<prop::sample::Index>())
                .prop_map(|(b, i)| b[..i.index(b.len() + 1)].to_vec()),
            1 => prop::collection::vec(any::<u8>(), 0..64),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        /// The body extractor's parser never panics, and whatever it refuses
        /// is a 400 or a 422 keyed by a field path, never a server error.
        #[test]
        fn parse_json_refuses_with_a_4xx_and_never_panics(bytes in body()) {
            for result in [
                parse_json::<CustomerRequest>(&bytes, Lang::PtBr).map(|_| ()),
                parse_json::<InvoiceRequest>(&bytes, Lang::En).map(|_| ()),
            ] {
                if let Err(e) = result {
                    prop_assert!(e.status == 400 || e.status == 422, "{e:?}");
                    if e.status == 422 {
                        let errors = e.errors.unwrap();
                        prop_assert_eq!(errors.len(), 1);
                        prop_assert!(errors.keys().all(|k| !k.is_empty() && k != "."));
                    }
                }
            }
        }
    }
}

/// The language of the envelope's messages.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct AcceptLanguageHeader {
    /// English messages when English is preferred (`en`); pt-BR otherwise.
    #[param(
        rename = "Accept-Language",
        value_type = String,
        required = false,
        example = "en"
    )]
    pub accept_language: Option<String>,
}
