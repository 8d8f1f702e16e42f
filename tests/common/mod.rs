//! Helpers of the browser component tests: mount the app in a fresh `<div>`,
//! fire DOM events, fake `window.fetch`.

#![allow(dead_code)]

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement};

#[wasm_bindgen(inline_js = r#"
export function mock_fetch(status, body) {
  window.__paylinkCalls = [];
  // The widget calls fetch with a Request (gloo-net); a URL and init are read the same way.
  window.fetch = async (input, init) => {
    const req = new Request(input, init);
    // The navigation asks who is logged in on every merchant screen: an operator is, and
    // that call is not one of the screen's (not recorded).
    if (new URL(req.url).pathname === '/api/session' && req.method === 'GET') {
      const who = { id: 'op-1', email: 'operadora@loja.example', name: 'Operadora' };
      return new Response(JSON.stringify(who), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    const call = {
      // As the widget wrote it: a path on this origin, the whole URL on another.
      url: req.url.startsWith(location.origin + '/') ? req.url.slice(location.origin.length) : req.url,
      method: req.method,
      body: undefined,
      lang: req.headers.get('Accept-Language'),
    };
    window.__paylinkCalls.push(call);
    const sent = await req.text();
    call.body = sent === '' ? undefined : sent;
    // A 204 has no body (the Response constructor refuses one).
    return new Response(status === 204 ? null : body, { status, headers: { 'Content-Type': 'application/json' } });
  };
}
export function stub_clipboard() {
  window.__copied = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (t) => { window.__copied.push(t); } },
  });
}
export function copied() {
  return JSON.stringify(window.__copied || []);
}
export function press(el, key) {
  el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
}
export function fetch_count() {
  return window.__paylinkCalls ? window.__paylinkCalls.length : 0;
}
export function all_calls() {
  return JSON.stringify(window.__paylinkCalls || []);
}
export function last_call() {
  const c = window.__paylinkCalls || [];
  return c.length ? JSON.stringify(c[c.length - 1]) : '';
}
"#)]
extern "C" {
    /// Replaces `window.fetch` with a stub answering every call with `status` and `body`.
    pub fn mock_fetch(status: u16, body: &str);
    /// Replaces `navigator.clipboard` with one that records what is written.
    pub fn stub_clipboard();
    /// What was written to the stubbed clipboard, as a JSON array.
    pub fn copied() -> String;
    /// A `keydown` of `key` on `el`, bubbling and cancelable as a real one is.
    pub fn press(el: &web_sys::Element, key: &str);
    /// How many calls reached the stub.
    pub fn fetch_count() -> u32;
    /// The last call as JSON: `{url, method, body, lang}`.
    pub fn last_call() -> String;
    /// Every call as a JSON array.
    pub fn all_calls() -> String;
}

/// The app mounted at `path`, in its own `<div>`; unmounted and removed on drop.
pub struct Mounted {
    pub root: HtmlElement,
    _handle: Box<dyn std::any::Any>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

/// The router renders the matched route once the executor has run.
pub async fn mount_at(path: &str) -> Mounted {
    mount_app_at(path, || view! { <paylink_widget::App /> }.into_any()).await
}

/// [`mount_at`] with another app.
pub async fn mount_app_at(path: &str, app: fn() -> leptos::prelude::AnyView) -> Mounted {
    // Each test starts as a first visit: no language remembered from another.
    if let Ok(Some(s)) = window().local_storage() {
        let _ = s.remove_item(paylink_widget::components::lang_switch::STORAGE_KEY);
    }
    mount_again_at(path, app).await
}

/// [`mount_app_at`] keeping what the browser remembered: a reload, or the next visit.
pub async fn mount_again_at(path: &str, app: fn() -> leptos::prelude::AnyView) -> Mounted {
    let w = window();
    w.history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some(path))
        .unwrap();
    let doc = document();
    let root: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), app);
    let mounted = Mounted {
        root,
        _handle: Box::new(handle),
    };
    tick().await;
    mounted
}

/// Lets Leptos update the DOM after an event: a tick of its executor, then a
/// macrotask (so effects scheduled by effects, e.g. memo-driven attributes
/// or rows rebuilt in a list, have run too).
pub async fn tick() {
    leptos::task::tick().await;
    sleep(0).await;
    leptos::task::tick().await;
}

/// Waits `ms` milliseconds (lets fetch promises and the executor run).
pub async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    JsFuture::from(p).await.unwrap();
}

pub fn q(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

pub fn q_opt(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).unwrap()
}

pub fn q_all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().unchecked_into())
        .collect()
}

/// The control with `name` (first match).
pub fn named(root: &Element, name: &str) -> Element {
    q(root, &format!("[name=\"{name}\"]"))
}

/// The control a user types into for the field at API path `name`: the element so named,
/// or, for a field whose value is kept in a hidden input (the customer picker's id), the
/// visible control beside it in the same `.field` (the one its label names).
pub fn control(root: &Element, name: &str) -> Element {
    let el = named(root, name);
    if el.get_attribute("type").as_deref() != Some("hidden") {
        return el;
    }
    el.closest(".field")
        .unwrap()
        .unwrap_or_else(|| panic!("the hidden {name} is in no .field"))
        .query_selector("input:not([type=hidden]), select, textarea")
        .unwrap()
        .unwrap_or_else(|| panic!("no control beside the hidden {name}"))
}

/// The value of the element named `name` itself, what a form's request carries.
pub fn named_value(root: &Element, name: &str) -> String {
    named(root, name)
        .unchecked_into::<HtmlInputElement>()
        .value()
}

/// The field a control belongs to: its name, or the hidden input's beside it.
pub fn field_of(el: &Element) -> Option<String> {
    el.get_attribute("name").or_else(|| {
        el.closest(".field")
            .ok()??
            .query_selector("input[type=hidden][name]")
            .ok()??
            .get_attribute("name")
    })
}

/// The control of field `name` (see [`control`]), what the user sees in it.
pub fn input(root: &Element, name: &str) -> HtmlInputElement {
    control(root, name).unchecked_into()
}

pub fn fire(el: &Element, event: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict(event, &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

/// Types `text` into an input or textarea (sets the value, fires `input`).
pub async fn type_text(root: &Element, name: &str, text: &str) {
    let el = control(root, name);
    js_sys::Reflect::set(&el, &"value".into(), &text.into()).unwrap();
    fire(&el, "input");
    tick().await;
}

/// Leaves a field (fires `blur`).
pub async fn blur(root: &Element, name: &str) {
    fire(&control(root, name), "blur");
    tick().await;
}

/// Chooses `value` in a `<select>` (fires `change`).
pub async fn choose(root: &Element, name: &str, value: &str) {
    let el: HtmlSelectElement = named(root, name).unchecked_into();
    el.set_value(value);
    fire(&el, "input");
    fire(&el, "change");
    tick().await;
}

pub async fn click(el: &Element) {
    el.unchecked_ref::<HtmlElement>().click();
    tick().await;
}

/// Clicks the button whose text contains `text`.
pub async fn click_button(root: &Element, text: &str) {
    let b = q_all(root, "button")
        .into_iter()
        .find(|b| b.text_content().unwrap_or_default().contains(text))
        .unwrap_or_else(|| panic!("no button with text {text}"));
    click(&b).await;
}

pub async fn submit(root: &Element, form_id: &str) {
    click(&q(root, &format!("#{form_id} button[type=submit]"))).await;
}

/// The message shown for a field: it must be invalid and described by a
/// non-empty message element.
pub fn error_of(root: &Element, name: &str) -> Option<String> {
    let el = control(root, name);
    if el.get_attribute("aria-invalid").as_deref() != Some("true") {
        return None;
    }
    let id = el
        .get_attribute("aria-describedby")
        .expect("an invalid field has aria-describedby");
    let msg = document()
        .get_element_by_id(&id)
        .unwrap_or_else(|| panic!("aria-describedby={id} names no element"));
    let text = msg.text_content().unwrap_or_default();
    assert!(!text.is_empty(), "the message of {name} is empty");
    Some(text)
}

pub fn text(el: &Element) -> String {
    el.text_content().unwrap_or_default()
}

/// The field of the focused element (see [`field_of`]).
pub fn focused_name() -> Option<String> {
    document().active_element().as_ref().and_then(field_of)
}

pub const CUSTOMER_ID: &str = "3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b";

/// `<html lang>`: the language the page says it is in.
pub fn html_lang() -> Option<String> {
    document().document_element()?.get_attribute("lang")
}
