//! How the widget lives on someone else's page, and the one place it talks
//! to that page.
//!
//! Three hosts ([`Host`]):
//! * `Page` — paylink's own `index.html` (hosted by paylink or any static
//!   host): events are DOM `CustomEvent`s on `document`, routes are the URL;
//! * `Frame` — the same page inside the `<iframe>` that `embed.js` creates,
//!   opened as `/l/{slug}?embed=1&parent={merchant origin}#{options}`:
//!   events are `postMessage`d to that origin only (never `*`), the height
//!   follows the content (`resize` messages), and messages are accepted only
//!   from that origin and from the parent window;
//! * `Element` — mounted straight into the merchant's page by [`mount`]
//!   (`import { mount } from "…/mount.js"`): events are bubbling
//!   `CustomEvent`s on the mount element, routes live in memory (the
//!   merchant's URL and history are never touched), the proxy is called
//!   cross-origin.
//!
//! Options (`locale`, `theme`, `screens`, `prefill`, see the README) are the
//! same in both embedded modes: `mount`'s second argument, or the JSON in
//! the iframe's URL fragment (a fragment is never sent to a server, so
//! prefilled personal data stays out of access logs and `Referer`s).

use js_sys::{Array, Object, Reflect};
use leptos::prelude::*;
use paylink_model::Lang;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use web_sys::HtmlElement;

use crate::{api, App};

/// Where the widget runs; see the module docs.
#[derive(Clone, Debug, PartialEq)]
pub enum Host {
    Page,
    Frame { parent: String },
    Element(HtmlElement),
}

/// The embedding options, read from a plain JS object.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    pub proxy: Option<String>,
    pub link: Option<String>,
    pub locale: Option<Lang>,
    /// Custom properties to set on the widget's root: (`--paylink-primary`, value).
    pub theme: Vec<(String, String)>,
    /// `None`: every screen.
    pub screens: Option<Vec<String>>,
    /// API field path → initial value.
    pub prefill: Vec<(String, String)>,
}

fn get(o: &JsValue, key: &str) -> JsValue {
    if !o.is_object() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A string, or a number written as one (`prefill: {installmentCount: 3}`).
/// Numbers are written by JS: Rust's float formatting costs kilobytes of wasm.
fn text_of(v: &JsValue) -> Option<String> {
    v.as_string()
        .or_else(|| {
            v.as_f64()
                .and_then(|_| {
                    js_sys::Number::from(v.clone())
                        .to_string_with_radix(10)
                        .ok()
                })
                .map(String::from)
        })
        .filter(|s| !s.trim().is_empty())
}

/// `en`, `en-US` → English; anything else pt-BR (the default). Not
/// `Lang::from_accept_language`: its `q=` weights need float parsing.
fn locale(s: &str) -> Lang {
    if s.trim().to_ascii_lowercase().starts_with("en") {
        Lang::En
    } else {
        Lang::PtBr
    }
}

fn entries(o: &JsValue) -> Vec<(String, String)> {
    if !o.is_object() {
        return Vec::new();
    }
    Object::entries(o.unchecked_ref())
        .iter()
        .filter_map(|pair| {
            let pair: Array = pair.unchecked_into();
            Some((pair.get(0).as_string()?, text_of(&pair.get(1))?))
        })
        .collect()
}

/// `primaryDark` / `primary-dark` / `--paylink-primary-dark` → `--paylink-primary-dark`;
/// `None` for anything that is not a plain name.
pub fn theme_property(key: &str) -> Option<String> {
    let key = key.strip_prefix("--paylink-").unwrap_or(key);
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return None;
    }
    let mut name = String::from("--paylink-");
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            name.push('-');
        }
        name.push(c.to_ascii_lowercase());
    }
    Some(name)
}

impl Options {
    /// Reads `{proxy, link, locale, theme: {…}, screens: [...] | "a b", prefill: {…}}`;
    /// what is missing or of the wrong type is left at its default.
    pub fn read(o: &JsValue) -> Options {
        let s = |k: &str| text_of(&get(o, k));
        let screens = get(o, "screens");
        let screens = if Array::is_array(&screens) {
            Some(
                Array::from(&screens)
                    .iter()
                    .filter_map(|v| v.as_string())
                    .collect(),
            )
        } else {
            screens.as_string().map(|s| {
                s.split([' ', ','])
                    .filter(|w| !w.is_empty())
                    .map(str::to_string)
                    .collect()
            })
        };
        Options {
            proxy: s("proxy").map(|p| p.trim_end_matches('/').to_string()),
            link: s("link"),
            locale: s("locale").map(|l| locale(&l)),
            theme: entries(&get(o, "theme"))
                .into_iter()
                .filter_map(|(k, v)| Some((theme_property(&k)?, v)))
                .collect(),
            screens,
            prefill: entries(&get(o, "prefill")),
        }
    }

    /// Whether `screen` (`summary`, `pay`) is shown.
    pub fn shows(&self, screen: &str) -> bool {
        self.screens
            .as_ref()
            .is_none_or(|s| s.iter().any(|x| x == screen))
    }

    pub fn prefill(&self, path: &str) -> Option<&str> {
        self.prefill
            .iter()
            .find(|(k, _)| k == path)
            .map(|(_, v)| v.as_str())
    }
}

/// The element `index.html` mounts the widget in.
pub const ROOT_ID: &str = "paylink-app";

/// Entry point of `index.html` (the bin's `main`). Mounts the widget only
/// when the page has `<div id="paylink-app">`: a merchant page that imports
/// the module for [`mount`] must not get a widget on its `<body>`.
pub fn start() {
    start_app(|host, options| view! { <App host options /> });
}

/// Mounts `app(host, options)` on the page's `<div id="paylink-app">` (see
/// [`start`]).
pub fn start_app<V: IntoView + 'static>(app: fn(Host, Options) -> V) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(root) = doc
        .get_element_by_id(ROOT_ID)
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    else {
        // index.html starts the widget from a script in <head>; the wasm may
        // be ready before the parser has reached the element: try again
        // once it has.
        if doc.ready_state() == "loading" {
            let again = Closure::once_into_js(move || start_app(app));
            let _ = doc.add_event_listener_with_callback("DOMContentLoaded", again.unchecked_ref());
        }
        return;
    };
    // The proxy: the attribute, else `config.json` beside index.html (a static
    // host), else this origin. API calls wait for it; rendering does not.
    match root.get_attribute("data-paylink-proxy") {
        Some(p) if !p.trim().is_empty() => api::set_base(&p),
        _ => api::load_config("/config.json"),
    }
    let (host, options) = frame().unwrap_or((Host::Page, Options::default()));
    // index.html's "Carregando…" goes; the widget takes its place.
    root.replace_children_with_node_0();
    leptos::mount::mount_to(root, move || app(host, options)).forget();
}

/// `mount(element, options)` for merchant pages (exported by the bin).
pub fn mount(element: HtmlElement, options: JsValue) {
    let options = Options::read(&options);
    api::set_base(options.proxy.as_deref().unwrap_or(""));
    let host = Host::Element(element.clone());
    leptos::mount::mount_to(element, move || view! { <App host options /> }).forget();
}

/// `Frame` when this page was opened by embed.js inside a frame of the
/// origin it names (`?embed=1&parent=…`, checked against
/// `location.ancestorOrigins` where the browser has it).
fn frame() -> Option<(Host, Options)> {
    let w = web_sys::window()?;
    let loc = w.location();
    let search = loc.search().ok()?;
    // No query, no frame: the page's usual start skips the rest.
    if search.is_empty() {
        return None;
    }
    frame_of(&w, &loc, &search)
}

// Out of line: only a page in embed.js's frame runs it, and the browser
// compiles a wasm function whole the first time it is called.
#[inline(never)]
fn frame_of(w: &web_sys::Window, loc: &web_sys::Location, search: &str) -> Option<(Host, Options)> {
    let params = web_sys::UrlSearchParams::new_with_str(search).ok()?;
    if params.get("embed").as_deref() != Some("1") {
        return None;
    }
    let parent = params.get("parent")?;
    let top = w.parent().ok()??;
    if JsValue::from(top) == JsValue::from(w.clone()) {
        return None;
    }
    let ancestors = get(loc, "ancestorOrigins");
    if ancestors.is_object() && get(&ancestors, "0").as_string().as_deref() != Some(&parent) {
        return None;
    }
    let hash = loc.hash().ok().unwrap_or_default();
    let options = hash
        .strip_prefix('#')
        .filter(|h| !h.is_empty())
        .and_then(|h| js_sys::decode_uri_component(h).ok())
        .and_then(|h| js_sys::JSON::parse(&String::from(h)).ok())
        .map(|o| Options::read(&o))
        .unwrap_or_default();
    Some((Host::Frame { parent }, options))
}

/// The message every postMessage of the widget carries: `{source: "paylink", type, …}`.
fn message(kind: &str) -> Object {
    let m = Object::new();
    let _ = Reflect::set(&m, &"source".into(), &"paylink".into());
    let _ = Reflect::set(&m, &"type".into(), &kind.into());
    m
}

/// Tells the host page: `kind` is `paylink:ready`, `paylink:paid`…
pub fn emit(host: &Host, kind: &str, detail: &JsValue) {
    match host {
        Host::Frame { parent } => {
            let m = message(kind);
            let _ = Reflect::set(&m, &"detail".into(), detail);
            post(parent, &m);
        }
        Host::Element(el) => dispatch(el, kind, detail),
        Host::Page => {
            if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
                dispatch(&doc, kind, detail);
            }
        }
    }
}

fn post(parent: &str, m: &JsValue) {
    if let Some(p) = web_sys::window().and_then(|w| w.parent().ok().flatten()) {
        let _ = p.post_message(m, parent);
    }
}

fn dispatch(target: &web_sys::EventTarget, kind: &str, detail: &JsValue) {
    let init = web_sys::CustomEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_detail(detail);
    if let Ok(ev) = web_sys::CustomEvent::new_with_event_init_dict(kind, &init) {
        let _ = target.dispatch_event(&ev);
    }
}

/// A detail object from key/value pairs.
pub fn detail(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

/// `paylink:error` for a failed call: `{severity, cause, message}`.
/// `critical`: the widget cannot go on (the link does not load).
pub fn emit_error(host: &Host, critical: bool, e: &api::Error, message: &str) {
    let cause = match e {
        api::Error::Network => "network",
        api::Error::BadResponse => "bad_response",
        api::Error::Api(env) => match env.code {
            404 => "not_found",
            422 => "validation",
            429 => "rate_limited",
            400..=499 => "refused",
            _ => "server",
        },
    };
    let severity = if critical { "critical" } else { "non_critical" };
    emit(
        host,
        "paylink:error",
        &detail(&[
            ("severity", severity.into()),
            ("cause", cause.into()),
            ("message", message.into()),
        ]),
    );
}

/// Sets the theme's custom properties on the widget's root, through the
/// CSSOM (one property at a time: a value cannot smuggle in another
/// declaration, and a strict `style-src` on a merchant page allows it).
pub fn apply_theme(root: &HtmlElement, theme: &[(String, String)]) {
    let style = root.style();
    for (k, v) in theme {
        let _ = style.set_property(k, v);
    }
}

/// Frame mode: reports the content's height to embed.js whenever it
/// changes, and takes `{type: "options", options: {locale, theme}}` from the
/// parent (its origin and its window only; anything else is ignored).
// Out of line: only the frame runs it (see `frame_of`).
#[inline(never)]
pub fn connect_frame(parent: String, root: HtmlElement, lang: RwSignal<Lang>) {
    let Some(w) = web_sys::window() else { return };
    {
        let parent = parent.clone();
        let el = root.clone();
        let last = std::cell::Cell::new(-1.0);
        let report = Closure::<dyn FnMut()>::new(move || {
            let h = el.get_bounding_client_rect().height().ceil();
            if h != last.get() {
                last.set(h);
                let m = message("resize");
                let _ = Reflect::set(&m, &"height".into(), &h.into());
                post(&parent, &m);
            }
        });
        if let Ok(obs) = web_sys::ResizeObserver::new(report.as_ref().unchecked_ref()) {
            obs.observe(&root);
        }
        report.forget();
    }
    let from_parent = w.parent().ok().flatten().map(JsValue::from);
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            if ev.origin() != parent || ev.source().map(JsValue::from) != from_parent {
                return;
            }
            let data = ev.data();
            if get(&data, "source").as_string().as_deref() != Some("paylink")
                || get(&data, "type").as_string().as_deref() != Some("options")
            {
                return;
            }
            let o = Options::read(&get(&data, "options"));
            if let Some(l) = o.locale {
                lang.set(l);
            }
            apply_theme(&root, &o.theme);
        });
    let _ = w.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    on_message.forget();
}

#[cfg(test)]
mod tests {
    use super::theme_property;

    #[test]
    fn theme_keys_become_paylink_custom_properties() {
        assert_eq!(
            theme_property("primary").as_deref(),
            Some("--paylink-primary")
        );
        assert_eq!(
            theme_property("primaryDark").as_deref(),
            Some("--paylink-primary-dark")
        );
        assert_eq!(
            theme_property("--paylink-radius").as_deref(),
            Some("--paylink-radius")
        );
        assert_eq!(theme_property("a;b"), None);
        assert_eq!(theme_property(""), None);
    }
}
