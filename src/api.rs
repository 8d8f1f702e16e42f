//! Typed calls to paylink's proxy (`/api/...`): same origin, or the proxy
//! named by [`set_base`] / [`load_config`] (direct mount, static hosting).
//!
//! JSON goes through the browser's own `JSON.stringify` / `Response.json()`,
//! so no JSON parser is compiled into the wasm: requests are serialized
//! with serde-wasm-bindgen, answers read by [`crate::decode`] into the
//! model's types. A failed call decodes the service's [`ErrorEnvelope`].

use paylink_model::{
    CustomerRef, CustomerRequest, ErrorEnvelope, InvoiceDetail, InvoiceRequest, Lang, PayerView,
    PaymentLink,
};
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, RequestInit, Response};

use crate::decode;

/// Why a call failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The service answered with its error envelope (or a bare HTTP error,
    /// turned into an envelope with the status text).
    Api(ErrorEnvelope),
    /// No answer: offline, DNS, CORS, aborted.
    Network,
    /// A 2xx answer whose body is not what the contract says.
    BadResponse,
}

/// Where calls go: known, or named by a `config.json` not read yet.
enum Base {
    /// Resolves to the proxy's origin (`""`: this origin).
    Known(js_sys::Promise),
    /// The URL of the config to read at the first call.
    Config(String),
}

thread_local! {
    /// Every call waits for the base, so a `config.json` still on its way
    /// delays API calls, never rendering.
    static BASE: std::cell::RefCell<Option<Base>> = const { std::cell::RefCell::new(None) };
}

/// Calls go to `base` (`https://pay.example`; `""` = this origin).
pub fn set_base(base: &str) {
    BASE.with(|b| {
        *b.borrow_mut() = Some(Base::Known(js_sys::Promise::resolve(&JsValue::from_str(
            normalise_base(base),
        ))))
    });
}

/// A proxy's origin as calls append paths to it: no blanks, no trailing `/`
/// (from the mount option, the element's attribute or `config.json` alike).
fn normalise_base(base: &str) -> &str {
    base.trim().trim_end_matches('/')
}

/// Calls go to the `proxy` of the JSON at `url` (`{"proxy": "https://…"}`);
/// this origin when it is missing, unreadable or has no `proxy`. Read at the
/// first call, not now: the customer form needs no call until it is sent, and
/// starting a `fetch` costs the first render a few milliseconds
/// (bench/first-render).
pub fn load_config(url: &str) {
    BASE.with(|b| *b.borrow_mut() = Some(Base::Config(url.to_string())));
}

fn read_config(url: String) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        let read = async {
            let w = web_sys::window()?;
            let resp: Response = JsFuture::from(w.fetch_with_str(&url))
                .await
                .ok()?
                .dyn_into()
                .ok()?;
            if !resp.ok() {
                return None;
            }
            let json = JsFuture::from(resp.json().ok()?).await.ok()?;
            js_sys::Reflect::get(&json, &"proxy".into())
                .ok()?
                .as_string()
        };
        let base = read.await.unwrap_or_default();
        Ok(JsValue::from_str(normalise_base(&base)))
    })
}

async fn base() -> String {
    let p = BASE.with(|b| {
        let mut b = b.borrow_mut();
        if let Some(Base::Config(url)) = b.as_ref() {
            // The first call reads the config; the calls after it wait for the same answer.
            *b = Some(Base::Known(read_config(url.clone())));
        }
        match b.as_ref() {
            Some(Base::Known(p)) => Some(p.clone()),
            _ => None,
        }
    });
    match p {
        Some(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default(),
        None => String::new(),
    }
}

/// What a creation through a link answers: the invoice's id, payment url
/// and `externalId` (the link's slug, set by the proxy).
#[derive(Clone, Debug, PartialEq)]
pub struct Created {
    pub id: String,
    pub url: String,
    pub external_id: String,
}

fn link_path(slug: &str, tail: &str) -> String {
    format!("/api/links/{}{tail}", js_sys::encode_uri_component(slug))
}

pub async fn get_link(slug: &str, lang: Lang) -> Result<PaymentLink, Error> {
    decode(
        call("GET", &link_path(slug, ""), None, lang).await?,
        decode::link_view,
    )
}

/// `POST /api/links/{slug}/customers`: the payer, as the link's customer.
pub async fn create_link_customer(
    slug: &str,
    req: &CustomerRequest,
    lang: Lang,
) -> Result<CustomerRef, Error> {
    decode(
        call(
            "POST",
            &link_path(slug, "/customers"),
            Some(encode(req)?),
            lang,
        )
        .await?,
        decode::customer_ref,
    )
}

/// `POST /api/links/{slug}/invoices`: the proxy checks it against the link.
pub async fn create_link_invoice(
    slug: &str,
    req: &InvoiceRequest,
    lang: Lang,
) -> Result<Created, Error> {
    decode(
        call(
            "POST",
            &link_path(slug, "/invoices"),
            Some(encode(req)?),
            lang,
        )
        .await?,
        decode::created,
    )
}

/// `POST /api/customers`. The answer is the model's `Customer`; the widget
/// reads its id and name only (see [`crate::decode`] on why not more).
pub async fn create_customer(req: &CustomerRequest, lang: Lang) -> Result<CustomerRef, Error> {
    decode(
        call("POST", "/api/customers", Some(encode(req)?), lang).await?,
        decode::customer_ref,
    )
}

/// `POST /api/invoices`. The answer is the model's `InvoiceCreated`; the
/// widget needs its id only, to open the detail (`GET`, the complete form).
pub async fn create_invoice(req: &InvoiceRequest, lang: Lang) -> Result<String, Error> {
    decode(
        call("POST", "/api/invoices", Some(encode(req)?), lang).await?,
        decode::created_id,
    )
}

pub async fn get_invoice(id: &str, lang: Lang) -> Result<InvoiceDetail, Error> {
    let path = format!("/api/invoices/{}", js_sys::encode_uri_component(id));
    decode(
        call("GET", &path, None, lang).await?,
        decode::invoice_detail,
    )
}

/// `GET /api/pay/{id}`: the public payer page's data.
pub async fn get_pay(id: &str, lang: Lang) -> Result<PayerView, Error> {
    let path = format!("/api/pay/{}", js_sys::encode_uri_component(id));
    decode(call("GET", &path, None, lang).await?, decode::payer_view)
}

/// `POST /api/pay/{id}/view`: counts a view of the payer page (best effort).
pub async fn record_view(id: &str) {
    let path = format!("/api/pay/{}/view", js_sys::encode_uri_component(id));
    let _ = call("POST", &path, None, Lang::PtBr).await;
}

/// `POST /api/pay/{id}/simulate` (sandbox servers only): pays the next open
/// installment as the bank would, and returns the updated page data.
pub async fn simulate_payment(id: &str, lang: Lang) -> Result<PayerView, Error> {
    let path = format!("/api/pay/{}/simulate", js_sys::encode_uri_component(id));
    decode(call("POST", &path, None, lang).await?, decode::payer_view)
}

fn encode<T: Serialize>(body: &T) -> Result<JsValue, Error> {
    serde_wasm_bindgen::to_value(body).map_err(|_| Error::BadResponse)
}

fn decode<T>(value: JsValue, read: fn(decode::Obj) -> Option<T>) -> Result<T, Error> {
    decode::Obj::new(value)
        .and_then(read)
        .ok_or(Error::BadResponse)
}

thread_local! {
    /// The key of the last creation that has not succeeded yet: (path, body, key).
    static PENDING: std::cell::RefCell<Option<(String, String, String)>> = const { std::cell::RefCell::new(None) };
}

/// One `Idempotency-Key` per creation: a double click or a retry after a
/// network error sends the same request with the same key, so the server
/// creates it once; after a success the next submit gets a new key.
fn idempotency_key(path: &str, body: &str) -> String {
    PENDING.with(|p| {
        let mut p = p.borrow_mut();
        if let Some((pp, pb, key)) = p.as_ref() {
            if pp == path && pb == body {
                return key.clone();
            }
        }
        let key = random_uuid();
        *p = Some((path.to_string(), body.to_string(), key.clone()));
        key
    })
}

/// `crypto.randomUUID()` (every browser that runs wasm has it).
fn random_uuid() -> String {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &"crypto".into())
        .and_then(|crypto| {
            let f: js_sys::Function =
                js_sys::Reflect::get(&crypto, &"randomUUID".into())?.dyn_into()?;
            f.call0(&crypto)
        })
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| format!("{:x}", (js_sys::Math::random() * 1e16) as u64))
}

/// One request; the JSON body of a 2xx answer, or the error. Not generic, so
/// the fetch state machine exists once in the wasm whatever the endpoint.
async fn call(
    method: &str,
    path: &str,
    body: Option<JsValue>,
    lang: Lang,
) -> Result<JsValue, Error> {
    let init = RequestInit::new();
    init.set_method(method);
    let headers = Headers::new().map_err(|_| Error::Network)?;
    let _ = headers.set("Accept", "application/json");
    let _ = headers.set("Accept-Language", lang.code());
    let mut sent: Option<String> = None;
    if let Some(body) = body {
        let text: String = js_sys::JSON::stringify(&body)
            .map_err(|_| Error::BadResponse)?
            .into();
        let _ = headers.set("Content-Type", "application/json");
        let _ = headers.set("Idempotency-Key", &idempotency_key(path, &text));
        init.set_body(&JsValue::from_str(&text));
        sent = Some(text);
    }
    init.set_headers(&headers);

    let url = base().await + path;
    let window = web_sys::window().ok_or(Error::Network)?;
    let resp: Response = JsFuture::from(window.fetch_with_str_and_init(&url, &init))
        .await
        .map_err(|_| Error::Network)?
        .unchecked_into();
    let json: Option<JsValue> = match resp.json() {
        Ok(p) => JsFuture::from(p).await.ok(),
        Err(_) => None,
    };
    if resp.ok() {
        if sent.is_some() {
            PENDING.with(|p| p.borrow_mut().take());
        }
        json.ok_or(Error::BadResponse)
    } else {
        let envelope = json
            .and_then(decode::Obj::new)
            .and_then(decode::error_envelope)
            .unwrap_or_else(|| ErrorEnvelope {
                code: resp.status(),
                message: format!("HTTP {} {}", resp.status(), resp.status_text()),
                errors: None,
            });
        Err(Error::Api(envelope))
    }
}
