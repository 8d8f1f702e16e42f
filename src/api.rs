//! Typed calls to paylink's proxy (`/api/...`): same origin, or the proxy
//! named by [`set_base`] / [`load_config`] (direct mount, static hosting).
//!
//! Requests go out through gloo-net. Bodies and answers use the model's own
//! serde types, so every wire key is spelled once (in `model/`). The JSON
//! text itself is parsed and written by the browser (`JSON.parse` /
//! `JSON.stringify`) and converted with serde-wasm-bindgen, which keeps a
//! JSON parser (serde_json) out of the wasm. A failed call decodes the
//! service's [`ErrorEnvelope`] into the one [`Error`] type.

use gloo_net::http::{Request, RequestBuilder};
use paylink_model::actions::{ManualPaymentRequest, Resent};
use paylink_model::operator::{LoginRequest, SessionInfo};
use paylink_model::{
    CustomerPage, CustomerRef, CustomerRequest, Dashboard, ErrorEnvelope, InvoiceCreated,
    InvoiceDetail, InvoicePage, InvoiceRequest, Lang, PayerView,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Why a call failed (shared with the forms, which show it).
pub use paylink_ui::Failure as Error;

/// Reads one parsed JSON answer into a model type, as every call does.
/// Public so tests prove the widget reads what the server writes.
pub fn read<T: DeserializeOwned>(json: JsValue) -> Result<T, Error> {
    serde_wasm_bindgen::from_value(json).map_err(|_| Error::BadResponse)
}

/// Where calls go: known, or named by a `config.json` not read yet.
enum Base {
    /// Resolves to the proxy's origin (`""`: this origin). A promise so that
    /// every call started before the config arrives waits for the same read.
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
        ))));
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
/// starting a `fetch` delays the first render (bench/first-render).
pub fn load_config(url: &str) {
    BASE.with(|b| *b.borrow_mut() = Some(Base::Config(url.to_string())));
}

/// `config.json`: where the proxy is when the widget is hosted elsewhere.
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

fn id_path(prefix: &str, id: &str, tail: &str) -> String {
    format!("{prefix}{}{tail}", js_sys::encode_uri_component(id))
}

/// `POST /api/customers`. The answer is the model's `Customer`; the widget
/// reads it as a `CustomerRef` (id and name: all it shows).
pub async fn create_customer(req: &CustomerRequest, lang: Lang) -> Result<CustomerRef, Error> {
    read(post("/api/customers", Some(encode(req)?), lang).await?)
}

/// `POST /api/invoices`.
pub async fn create_invoice(req: &InvoiceRequest, lang: Lang) -> Result<InvoiceCreated, Error> {
    read(post("/api/invoices", Some(encode(req)?), lang).await?)
}

pub async fn get_invoice(id: &str, lang: Lang) -> Result<InvoiceDetail, Error> {
    read(get(&id_path("/api/invoices/", id, ""), lang).await?)
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

/// `GET /api/invoices?…`: one page of the invoice list (`query` from
/// [`query_string`]).
pub async fn list_invoices(query: &str, lang: Lang) -> Result<InvoicePage, Error> {
    read(get(&format!("/api/invoices{query}"), lang).await?)
}

/// `GET /api/customers?…`: one page of the customer list.
pub async fn list_customers(query: &str, lang: Lang) -> Result<CustomerPage, Error> {
    read(get(&format!("/api/customers{query}"), lang).await?)
}

/// `DELETE /api/invoices/{id}`: cancels the invoice (204).
pub async fn cancel_invoice(id: &str, lang: Lang) -> Result<(), Error> {
    let path = id_path("/api/invoices/", id, "");
    let url = base().await + &path;
    send(Request::delete(&url), &path, None, lang)
        .await
        .map(|_| ())
}

/// `POST /api/invoices/{id}/installments/{n}/payments`: installment `n`
/// paid outside paylink; the answer is the updated detail.
pub async fn record_payment(
    id: &str,
    n: u32,
    req: &ManualPaymentRequest,
    lang: Lang,
) -> Result<InvoiceDetail, Error> {
    let path = id_path("/api/invoices/", id, &format!("/installments/{n}/payments"));
    read(post(&path, Some(encode(req)?), lang).await?)
}

/// `POST /api/invoices/{id}/resend`: the charge sent to the payer again.
pub async fn resend_invoice(id: &str, lang: Lang) -> Result<Resent, Error> {
    read(post(&id_path("/api/invoices/", id, "/resend"), None, lang).await?)
}

/// `GET /api/dashboard`: the month's totals and the last 12 months.
pub async fn get_dashboard(lang: Lang) -> Result<Dashboard, Error> {
    read(get("/api/dashboard", lang).await?)
}

/// `GET /api/pay/{id}`: the public payer page's data.
pub async fn get_pay(id: &str, lang: Lang) -> Result<PayerView, Error> {
    read(get(&id_path("/api/pay/", id, ""), lang).await?)
}

/// `GET /api/invoices.csv{query}`: the list's filters as a spreadsheet file,
/// through the proxy (which may be another origin when mounted).
pub async fn invoices_csv_url(query: &str) -> String {
    base().await + "/api/invoices.csv" + query
}

/// `POST /api/session`: logs the operator in (the answer is a 204 and the
/// session cookie). Sent apart from [`send`], so the password is never kept
/// as a pending creation's body.
pub async fn login(req: &LoginRequest, lang: Lang) -> Result<(), Error> {
    let url = base().await + "/api/session";
    let body = encode(req)?;
    let resp = Request::post(&url)
        .header("Accept", "application/json")
        .header("Accept-Language", lang.code())
        .header("Content-Type", "application/json")
        .body(body)
        .map_err(|_| Error::Network)?
        .send()
        .await
        .map_err(|_| Error::Network)?;
    if resp.ok() {
        return Ok(());
    }
    let json = resp
        .text()
        .await
        .ok()
        .and_then(|t| js_sys::JSON::parse(&t).ok());
    Err(Error::Api(envelope_of(&resp, json)))
}

/// `GET /api/session`: who is logged in (an error when no one is; it does
/// not send the widget to the login screen, the merchant calls do).
pub async fn get_session(lang: Lang) -> Result<SessionInfo, Error> {
    read(get("/api/session", lang).await?)
}

/// `DELETE /api/session`: logs out (204 whether or not there was a session).
pub async fn logout() -> Result<(), Error> {
    let url = base().await + "/api/session";
    let resp = Request::delete(&url)
        .send()
        .await
        .map_err(|_| Error::Network)?;
    match resp.ok() {
        true => Ok(()),
        false => Err(Error::Api(envelope_of(&resp, None))),
    }
}

type LoginNeeded = std::rc::Rc<dyn Fn()>;

thread_local! {
    /// What the app does when a merchant call answers 401 (see [`on_login_needed`]).
    static LOGIN_NEEDED: std::cell::RefCell<Option<LoginNeeded>> = const { std::cell::RefCell::new(None) };
}

/// `f` runs whenever a merchant call answers 401 (no session, or it ended):
/// the app shows the login screen. The payer's calls (`/api/pay/`, the
/// payment links') and `/api/session` itself never trigger it.
pub fn on_login_needed(f: impl Fn() + 'static) {
    LOGIN_NEEDED.with(|l| *l.borrow_mut() = Some(std::rc::Rc::new(f)));
}

/// Runs the hook of [`on_login_needed`] (a merchant screen found no session).
pub fn login_needed() {
    if let Some(f) = LOGIN_NEEDED.with(|l| l.borrow().clone()) {
        f();
    }
}

fn is_merchant_call(path: &str) -> bool {
    !(path.starts_with("/api/pay/")
        || path.starts_with("/api/links/")
        || path.starts_with("/api/session"))
}

fn envelope_of(resp: &gloo_net::http::Response, json: Option<JsValue>) -> ErrorEnvelope {
    json.and_then(|j| read::<ErrorEnvelope>(j).ok())
        .unwrap_or_else(|| ErrorEnvelope {
            code: resp.status(),
            message: format!("HTTP {} {}", resp.status(), resp.status_text()),
            errors: None,
        })
}

/// A request body as JSON text: serde-wasm-bindgen to a JS object, then the
/// browser's `JSON.stringify`.
fn encode<T: Serialize>(body: &T) -> Result<String, Error> {
    let value = serde_wasm_bindgen::to_value(body).map_err(|_| Error::BadResponse)?;
    js_sys::JSON::stringify(&value)
        .map(String::from)
        .map_err(|_| Error::BadResponse)
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
        let key = uuid::Uuid::new_v4().to_string();
        *p = Some((path.to_string(), body.to_string(), key.clone()));
        key
    })
}

async fn get(path: &str, lang: Lang) -> Result<JsValue, Error> {
    let url = base().await + path;
    send(Request::get(&url), path, None, lang).await
}

async fn post(path: &str, body: Option<String>, lang: Lang) -> Result<JsValue, Error> {
    let url = base().await + path;
    send(Request::post(&url), path, body, lang).await
}

/// One request; the parsed JSON body of a 2xx answer, or the error. Not
/// generic, so the fetch state machine exists once in the wasm whatever the
/// endpoint.
async fn send(
    req: RequestBuilder,
    path: &str,
    body: Option<String>,
    lang: Lang,
) -> Result<JsValue, Error> {
    let req = req
        .header("Accept", "application/json")
        .header("Accept-Language", lang.code());
    let sent = body.is_some();
    let req = match body {
        Some(text) => req
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", &idempotency_key(path, &text))
            .body(text),
        None => req.build(),
    }
    .map_err(|_| Error::Network)?;
    let resp = req.send().await.map_err(|_| Error::Network)?;
    // No content (a cancellation): nothing to parse.
    if resp.status() == 204 {
        return Ok(JsValue::NULL);
    }
    let json = match resp.text().await {
        Ok(text) => js_sys::JSON::parse(&text).ok(),
        Err(_) => None,
    };
    if resp.ok() {
        if sent {
            PENDING.with(|p| p.borrow_mut().take());
        }
        json.ok_or(Error::BadResponse)
    } else {
        if resp.status() == 401 && is_merchant_call(path) {
            login_needed();
        }
        Err(Error::Api(envelope_of(&resp, json)))
    }
}
