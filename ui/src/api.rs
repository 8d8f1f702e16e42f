//! How both front ends call paylink's proxy: the merchant's app (`src/api`) and the payment
//! link's island (`payer/src/link/browser.rs`) send every request through [`send`], which sets
//! the headers the service reads (`Accept`, `Accept-Language`, and on a creation
//! `Content-Type` and the `Idempotency-Key` of [`Keys`]) and turns an answer into the body's
//! text or a [`Failure`] with the service's envelope.
//!
//! The JSON itself is each bundle's to parse: the merchant's app lets the browser parse it and
//! reads it with serde-wasm-bindgen (no serde_json in its wasm), the islands read it with the
//! serde_json leptos already ships to read their props: each bundle keeps the reader it has
//! anyway (bench/README.md, "bench/widget-size", lists what serde_json saved the islands).

use std::cell::{Cell, RefCell};

use gloo_net::http::RequestBuilder;
use paylink_model::{ErrorEnvelope, Lang};

use crate::Failure;

/// The `Idempotency-Key`s of one page's (or one app's) creations: a creation sent again
/// unchanged (a double click, a retry after a network error or a refusal) goes with the
/// same key, so the service creates it once; a changed one, or any creation after one
/// succeeded, gets the next key (`{base}-1`, `{base}-2`, …).
pub struct Keys {
    /// Unique to the page: the link page's is rendered by the server (its form also posts
    /// without JavaScript), the merchant's app makes one when it is mounted.
    base: String,
    made: Cell<u32>,
    /// (path, body, key) of the creation not acknowledged yet.
    pending: RefCell<Option<(String, String, String)>>,
}

impl Keys {
    pub fn new(base: String) -> Keys {
        Keys {
            base,
            made: Cell::new(0),
            pending: RefCell::new(None),
        }
    }

    /// The key of `body` sent to `path`.
    pub fn key_for(&self, path: &str, body: &str) -> String {
        let mut pending = self.pending.borrow_mut();
        if let Some((p, b, key)) = pending.as_ref() {
            if p == path && b == body {
                return key.clone();
            }
        }
        self.made.set(self.made.get() + 1);
        let key = format!("{}-{}", self.base, self.made.get());
        *pending = Some((path.to_string(), body.to_string(), key.clone()));
        key
    }

    /// The pending creation succeeded: the next one is another.
    pub fn acknowledged(&self) {
        self.pending.borrow_mut().take();
    }
}

/// A 2xx answer: its status and body (empty for a 204).
pub struct Answer {
    pub status: u16,
    pub text: String,
}

/// A refused call's answer, for the caller to read its envelope.
pub struct Refused {
    pub status: u16,
    status_text: String,
    pub text: String,
}

impl Refused {
    /// The failure: the service's `envelope` as the caller read it from [`Refused::text`],
    /// or one made of the HTTP status when the body is not one (a proxy in between, a crash).
    pub fn failure(&self, envelope: Option<ErrorEnvelope>) -> Failure {
        Failure::Api(envelope.unwrap_or_else(|| ErrorEnvelope {
            code: self.status,
            message: format!("HTTP {} {}", self.status, self.status_text),
            errors: None,
        }))
    }
}

/// Why [`send`] got no 2xx answer.
pub enum SendError {
    /// No answer (offline, DNS, CORS, aborted).
    Network,
    /// The service answered with an error status.
    Refused(Refused),
}

/// A request's JSON body, and on a creation where its key comes from.
pub struct Body<'a> {
    pub json: String,
    /// The creation's path and its page's keys; `None`: a body sent without a key (the
    /// login's, whose password no [`Keys`] keeps).
    pub creation: Option<(&'a str, &'a Keys)>,
}

impl<'a> Body<'a> {
    /// A body sent without a key.
    pub fn plain(json: String) -> Body<'a> {
        Body {
            json,
            creation: None,
        }
    }

    /// A creation's body, sent with its key.
    pub fn creation(path: &'a str, json: String, keys: &'a Keys) -> Body<'a> {
        Body {
            json,
            creation: Some((path, keys)),
        }
    }
}

/// Sends `req` in `lang` (with `body`, and a creation's key) and reads the answer. A 2xx
/// acknowledges the creation ([`Keys::acknowledged`]). Not generic over the answer's type,
/// so the request's state machine is in each wasm once, whatever the endpoint.
pub async fn send(
    req: RequestBuilder,
    lang: Lang,
    body: Option<Body<'_>>,
) -> Result<Answer, SendError> {
    let req = req
        .header("Accept", "application/json")
        .header("Accept-Language", lang.code());
    let keys = body.as_ref().and_then(|b| b.creation).map(|(_, keys)| keys);
    let req = match body {
        Some(Body { json, creation }) => {
            let req = req.header("Content-Type", "application/json");
            match creation {
                Some((path, keys)) => req.header("Idempotency-Key", &keys.key_for(path, &json)),
                None => req,
            }
            .body(json)
        }
        None => req.build(),
    }
    .map_err(|_| SendError::Network)?;
    let resp = req.send().await.map_err(|_| SendError::Network)?;
    let status = resp.status();
    // An unreadable body reads as none: a refusal's envelope made of its status, a 2xx the
    // caller's to refuse as not what the contract says.
    let text = if status == 204 {
        String::new()
    } else {
        resp.text().await.unwrap_or_default()
    };
    if resp.ok() {
        if let Some(keys) = keys {
            keys.acknowledged();
        }
        Ok(Answer { status, text })
    } else {
        Err(SendError::Refused(Refused {
            status,
            status_text: resp.status_text(),
            text,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::Keys;

    #[test]
    fn a_creation_sent_again_unchanged_keeps_its_key_until_it_succeeds() {
        let keys = Keys::new("page".into());
        let first = keys.key_for("/api/customers", "{\"a\":1}");
        assert_eq!(first, "page-1");
        assert_eq!(keys.key_for("/api/customers", "{\"a\":1}"), first);
        // Changed: another creation.
        assert_eq!(keys.key_for("/api/customers", "{\"a\":2}"), "page-2");
        keys.acknowledged();
        // The same body after a success is a new creation.
        assert_eq!(keys.key_for("/api/customers", "{\"a\":2}"), "page-3");
        assert_eq!(keys.key_for("/api/invoices", "{\"a\":2}"), "page-4");
    }
}
