//! Typed calls to paylink's proxy (`/api/...`) through a [`Client`]: one per
//! mount of the app, provided as context by `App`, holding where the proxy is
//! (this origin, the one the page names, or the one a `config.json` names),
//! what to do when a merchant call answers 401, and the `Idempotency-Key` of
//! the creation not yet acknowledged. Two apps mounted on one page each have
//! their own, so neither's proxy, login or pending key leaks into the other.
//!
//! Requests go out through gloo-net. Bodies and answers use the model's own
//! serde types, so every wire key is spelled once (in `model/`). The JSON
//! text itself is parsed and written by the browser (`JSON.parse` /
//! `JSON.stringify`) and converted with serde-wasm-bindgen, which keeps a
//! JSON parser (serde_json) out of the wasm. A failed call decodes the
//! service's [`ErrorEnvelope`] into the one [`Error`] type.

use gloo_net::http::{Request, RequestBuilder};
use leptos::prelude::*;
use paylink_model::{ErrorEnvelope, Lang};
use paylink_ui::api::{self, Body, Keys, SendError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use std::cell::RefCell;
use std::rc::Rc;

mod invoices;
mod links;
mod session;
mod webhooks;

/// Why a call failed (shared with the forms, which show it).
pub use paylink_ui::Failure as Error;

/// Reads one parsed JSON answer into a model type, as every call does.
/// Public so tests prove the widget reads what the server writes.
pub fn read<T: DeserializeOwned>(json: JsValue) -> Result<T, Error> {
    serde_wasm_bindgen::from_value(json).map_err(|_| Error::BadResponse)
}

/// Where an app's calls go, as the page that mounts it says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Proxy {
    /// This origin (paylink's own page, the tests).
    #[default]
    Here,
    /// The proxy at this origin (`https://pay.example`; blank: this origin).
    At(String),
    /// The `proxy` of the JSON at this URL (`{"proxy": "https://…"}`), read at
    /// the first call, not at mount: the customer form needs no call until it
    /// is sent, and starting a `fetch` delays the first render
    /// (bench/first-render). This origin when it is missing, unreadable or has
    /// no `proxy`.
    Config(String),
}

/// Where calls go: known, or named by a `config.json` not read yet.
enum Base {
    /// Resolves to the proxy's origin (`""`: this origin). A promise so that
    /// every call started before the config arrives waits for the same read.
    Known(js_sys::Promise),
    /// The URL of the config to read at the first call.
    Config(String),
}

type LoginNeeded = Rc<dyn Fn()>;

/// One app's connection to the proxy (see the module's comment).
struct Inner {
    /// Every call waits for the base, so a `config.json` still on its way
    /// delays API calls, never rendering.
    base: RefCell<Base>,
    /// What the app does when a merchant call answers 401 (see [`Client::on_login_needed`]).
    login_needed: RefCell<Option<LoginNeeded>>,
    /// The keys of its creations: a double click or a retry after a network error sends the
    /// same request with the same key, so the server creates it once.
    keys: Keys,
}

/// An app's calls to the proxy; `Copy`, so closures and actions take it as
/// they take a signal. Made by `App` (with its [`Proxy`]) and read with
/// [`use_client`].
#[derive(Clone, Copy)]
pub struct Client {
    inner: StoredValue<Rc<Inner>, LocalStorage>,
    /// The proxy's origin once known (`""`: this origin): links that are not
    /// calls (the CSV export) are derived from it.
    resolved: RwSignal<Option<String>>,
}

/// The app's [`Client`] (provided by `App`).
pub fn use_client() -> Client {
    expect_context::<Client>()
}

/// A proxy's origin as calls append paths to it: no blanks, no trailing `/`
/// (from the page's attribute or `config.json` alike).
fn normalise_base(base: &str) -> &str {
    base.trim().trim_end_matches('/')
}

/// `config.json`: where the proxy is when the app is hosted elsewhere.
#[derive(Deserialize)]
struct Config {
    proxy: Option<String>,
}

fn read_config(url: String) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        let read = async {
            let resp = Request::get(&url).send().await.ok()?;
            if !resp.ok() {
                return None;
            }
            let json = js_sys::JSON::parse(&resp.text().await.ok()?).ok()?;
            read::<Config>(json).ok()?.proxy
        };
        let base = read.await.unwrap_or_default();
        Ok(JsValue::from_str(normalise_base(&base)))
    })
}

impl Client {
    /// A client for `proxy`, owned by the current reactive owner (the app).
    pub fn new(proxy: Proxy) -> Client {
        let (base, resolved) = match proxy {
            Proxy::Here => (Ok(String::new()), Some(String::new())),
            Proxy::At(b) => {
                let b = normalise_base(&b).to_string();
                (Ok(b.clone()), Some(b))
            }
            Proxy::Config(url) => (Err(url), None),
        };
        let base = match base {
            Ok(b) => Base::Known(js_sys::Promise::resolve(&JsValue::from_str(&b))),
            Err(url) => Base::Config(url),
        };
        Client {
            inner: StoredValue::new_local(Rc::new(Inner {
                base: RefCell::new(base),
                login_needed: RefCell::new(None),
                keys: Keys::new(uuid::Uuid::new_v4().to_string()),
            })),
            resolved: RwSignal::new(resolved),
        }
    }

    /// `path` on the proxy, once its origin is known (reactive: `None` until
    /// the first call has read a `config.json`).
    pub fn url(&self, path: &str) -> Option<String> {
        self.resolved.get().map(|b| b + path)
    }

    fn inner(&self) -> Option<Rc<Inner>> {
        self.inner.try_get_value()
    }

    async fn base(&self) -> String {
        let Some(inner) = self.inner() else {
            return String::new();
        };
        let p = {
            let mut b = inner.base.borrow_mut();
            if let Base::Config(url) = &*b {
                // The first call reads the config; the calls after it wait for the same answer.
                *b = Base::Known(read_config(url.clone()));
            }
            match &*b {
                Base::Known(p) => p.clone(),
                Base::Config(_) => unreachable!("replaced above"),
            }
        };
        let base = JsFuture::from(p)
            .await
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        if self.resolved.try_get_untracked().flatten().as_ref() != Some(&base) {
            self.resolved.try_set(Some(base.clone()));
        }
        base
    }

    /// `f` runs whenever a merchant call answers 401 (no session, or it
    /// ended): the app shows the login screen. The payer's calls
    /// (`/api/pay/`, the payment links') and `/api/session` itself never
    /// trigger it.
    pub fn on_login_needed(&self, f: impl Fn() + 'static) {
        if let Some(inner) = self.inner() {
            *inner.login_needed.borrow_mut() = Some(Rc::new(f));
        }
    }

    /// Runs the hook of [`Client::on_login_needed`] (a merchant screen found
    /// no session).
    pub fn login_needed(&self) {
        let f = self.inner().and_then(|i| i.login_needed.borrow().clone());
        if let Some(f) = f {
            f();
        }
    }
}

fn id_path(prefix: &str, id: &str, tail: &str) -> String {
    format!("{prefix}{}{tail}", js_sys::encode_uri_component(id))
}

/// `?status=…&q=…` of the given (name, value) pairs, empty values left out
/// (`""` when none): a list screen's URL and its proxy call alike.
pub fn query_string(pairs: &[(&str, Option<String>)]) -> String {
    let parts: Vec<String> = pairs
        .iter()
        .filter_map(|(k, v)| {
            let v = v.as_deref().map(str::trim).filter(|v| !v.is_empty())?;
            Some(format!("{k}={}", js_sys::encode_uri_component(v)))
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

impl Client {
    async fn get(self, path: &str, lang: Lang) -> Result<JsValue, Error> {
        let url = self.base().await + path;
        self.send(Request::get(&url), path, None, lang).await
    }

    async fn post(self, path: &str, body: Option<String>, lang: Lang) -> Result<JsValue, Error> {
        let url = self.base().await + path;
        self.send(Request::post(&url), path, body, lang).await
    }

    /// One request through the shared [`paylink_ui::api::send`]; the parsed JSON body of a
    /// 2xx answer (`null` for a 204), or the error, a 401 of a merchant call running the
    /// login hook.
    async fn send(
        self,
        req: RequestBuilder,
        path: &str,
        body: Option<String>,
        lang: Lang,
    ) -> Result<JsValue, Error> {
        // The app's state is gone once it is unmounted: a call still on its way goes without a key.
        let inner = self.inner();
        let body = body.map(|json| match &inner {
            Some(inner) => Body::creation(path, json, &inner.keys),
            None => Body::plain(json),
        });
        let answer = api::send(req, lang, body).await;
        if let Err(SendError::Refused(r)) = &answer {
            if r.status == 401 && is_merchant_call(path) {
                self.login_needed();
            }
        }
        parsed(answer)
    }
}

/// The parsed JSON of an answer (`null` for a 204), or the failure with the service's
/// envelope.
fn parsed(answer: Result<api::Answer, SendError>) -> Result<JsValue, Error> {
    match answer {
        Ok(answer) if answer.status == 204 => Ok(JsValue::NULL),
        Ok(answer) => js_sys::JSON::parse(&answer.text).map_err(|_| Error::BadResponse),
        Err(SendError::Network) => Err(Error::Network),
        Err(SendError::Refused(refused)) => {
            let envelope = js_sys::JSON::parse(&refused.text)
                .ok()
                .and_then(|j| read::<ErrorEnvelope>(j).ok());
            Err(refused.failure(envelope))
        }
    }
}

fn is_merchant_call(path: &str) -> bool {
    !(path.starts_with("/api/pay/")
        || path.starts_with("/api/links/")
        || path.starts_with("/api/session"))
}

/// A request body as JSON text: serde-wasm-bindgen to a JS object, then the
/// browser's `JSON.stringify`.
fn encode<T: Serialize>(body: &T) -> Result<String, Error> {
    let value = serde_wasm_bindgen::to_value(body).map_err(|_| Error::BadResponse)?;
    js_sys::JSON::stringify(&value)
        .map(String::from)
        .map_err(|_| Error::BadResponse)
}
