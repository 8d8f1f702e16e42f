//! Extractors whose rejections are our envelope: the request's language, the path's
//! parameters, the query string, and a JSON body that reports wrong types by API field
//! path. Every route takes these, never axum's own `Path`, `Query` or `Json`, whose
//! rejections are plain text.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::{header, request::Parts, StatusCode};
use paylink_model::{Lang, Msg, Violations};
use serde::de::DeserializeOwned;

pub use crate::error::lang_of;
use crate::error::{AppError, Reason};

/// The caller's language from `Accept-Language`: pt-BR unless English is preferred.
#[derive(Clone, Copy, Debug)]
pub struct ReqLang(pub Lang);

impl<S: Send + Sync> FromRequestParts<S> for ReqLang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ReqLang(lang_of(&parts.headers)))
    }
}

/// The path's parameters (`/invoices/{id}`); a segment that does not decode (`%FF`) → 400.
pub struct ApiPath<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for ApiPath<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let axum::extract::Path(value) =
            axum::extract::Path::from_request_parts(parts, state).await?;
        Ok(ApiPath(value))
    }
}

impl From<PathRejection> for AppError {
    fn from(rejection: PathRejection) -> Self {
        // Every route's parameters are text, so a rejection is a segment that is not
        // UTF-8 once decoded; anything else (a parameter the route lacks) is ours.
        match rejection {
            PathRejection::MissingPathParams(e) => AppError::internal(e),
            rejection => AppError::new(Reason::MalformedPath).because(rejection),
        }
    }
}

/// The query string's parameters; a malformed one (a parameter given twice) → 400.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let axum::extract::Query(value) =
            axum::extract::Query::from_request_parts(parts, state).await?;
        Ok(ApiQuery(value))
    }
}

impl From<QueryRejection> for AppError {
    fn from(rejection: QueryRejection) -> Self {
        AppError::new(Reason::MalformedQuery).because(rejection)
    }
}

/// A JSON request body. Missing/wrong Content-Type → 415, over the body
/// limit → 413, unparsable (or followed by anything but whitespace) → 400, a
/// value of the wrong type → 422 keyed by its path (`notifications[0].period`).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers()) {
            return Err(Reason::UnsupportedMediaType.into());
        }
        let RawBody(bytes) = RawBody::from_request(req, state).await?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// A request body as it came (the proxy forwards it, or checks it against a
/// payment link first): over the body limit → 413, unreadable → 400.
pub struct RawBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        Ok(RawBody(Bytes::from_request(req, state).await?))
    }
}

impl From<BytesRejection> for AppError {
    fn from(rejection: BytesRejection) -> Self {
        let reason = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Reason::PayloadTooLarge
        } else {
            Reason::MalformedJson
        };
        AppError::new(reason).because(rejection)
    }
}

pub fn is_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

/// A request body as one JSON object of `T`: the body extractor's parser, and the
/// proxy's for the bodies it reads before forwarding them.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    // Derived structs would also accept a JSON array (by position): refuse
    // anything but an object up front.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(
            match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
                Ok(_) => AppError::new(Reason::NotAnObject),
                Err(e) => AppError::new(Reason::MalformedJson).because(e),
            },
        );
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let parsed: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    let err = match parsed {
        // One value, then only whitespace: `{"fullName":"A"} xyz` is not JSON, and a
        // second object after the first would be read by nobody.
        Ok(value) => {
            return de
                .end()
                .map(|()| value)
                .map_err(|e| AppError::new(Reason::MalformedJson).because(e))
        }
        Err(err) => err,
    };
    let path = err.path().to_string();
    let inner = err.into_inner();
    match inner.classify() {
        serde_json::error::Category::Data if path != "." => {
            let mut v = Violations::default();
            v.add(path, Msg::WrongType(expected(&inner.to_string())));
            Err(AppError::from(v).because(inner))
        }
        serde_json::error::Category::Data => Err(AppError::new(Reason::NotAnObject).because(inner)),
        _ => Err(AppError::new(Reason::MalformedJson).because(inner)),
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

    #[test]
    fn one_object_then_only_whitespace() {
        let parse = |body: &str| parse_json::<CustomerRequest>(body.as_bytes()).map(|_| ());
        assert!(parse("{\"fullName\":\"A B\"} \r\n\t").is_ok());
        for body in [
            "{\"fullName\":\"A B\"} xyz",
            "{\"fullName\":\"A B\"}{}",
            "{\"fullName\":\"A B\"},",
            "{\"fullName\":\"A B\"}\u{0}",
        ] {
            let e = parse(body).unwrap_err();
            assert_eq!(e.status(), 400, "{body}");
            assert!(e.violations().is_none(), "{body}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        /// The body extractor's parser never panics, and whatever it refuses
        /// is a 400 or a 422 keyed by a field path, never a server error.
        #[test]
        fn parse_json_refuses_with_a_4xx_and_never_panics(bytes in body()) {
            for result in [
                parse_json::<CustomerRequest>(&bytes).map(|_| ()),
                parse_json::<InvoiceRequest>(&bytes).map(|_| ()),
            ] {
                if let Err(e) = result {
                    prop_assert!(e.status() == 400 || e.status() == 422, "{e:?}");
                    if e.status() == 422 {
                        let errors = e.violations().unwrap().render(Lang::En);
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
