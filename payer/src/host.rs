//! Where a payer page runs in the browser, and the one place its islands
//! talk to the page around them (browser only: the server compiles it with
//! the islands but never calls it, see [`here`]):
//!
//! * `Page` — opened by its address: events are `CustomEvent`s on `document`;
//! * `Frame` — inside the `<iframe>` that `embed.js` makes, opened as
//!   `/l/{slug}?embed=1&parent={merchant origin}#{options}` (the payer page
//!   that follows keeps `?embed=1&parent=`): events are `postMessage`d to
//!   that origin only (never `*`), the height follows the content (`resize`
//!   messages), and `{type: "options"}` is taken from that origin and the
//!   parent window only;
//! * `Element` — put in a merchant's element by `mount.js` (the element
//!   carries `data-paylink-mount`, `data-paylink-proxy` and the options as
//!   JSON in `data-paylink-options`): events bubble from that element, calls
//!   go to the proxy's origin.
//!
//! The options are the same in every mode: `locale`, `theme` (custom
//! properties set through the CSSOM), `screens` (`summary`, `pay`) and
//! `prefill` (API field path → text). In a frame they travel in the URL's
//! fragment, which is never sent to a server.

use std::sync::OnceLock;

use js_sys::{Object, Reflect};
use paylink_model::Lang;
use paylink_ui::Failure;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use web_sys::HtmlElement;

mod options;

use options::get;
pub use options::{theme_property, Options};

/// Where the page runs; see the module docs.
#[derive(Clone, Debug, PartialEq)]
pub enum Host {
    Page,
    Frame { parent: String },
    Element(HtmlElement),
}

/// Where this page runs and with which options: detected once, the first
/// time an island asks, and kept for the page's life (its wasm's, which every
/// island of the page shares). Islands ask only from what the browser runs (an
/// effect, an event handler, a task): the server renders them but runs none of
/// those, so it never detects.
pub fn here() -> &'static (Host, Options) {
    static HERE: OnceLock<(Host, Options)> = OnceLock::new();
    HERE.get_or_init(detect)
}

/// Where this page's API calls go (see [`Host::api_base`]).
pub fn api_base() -> String {
    let (host, options) = here();
    host.api_base(options)
}

/// The one detection of the host and its options (see [`here`]).
fn detect() -> (Host, Options) {
    let Some(w) = web_sys::window() else {
        return (Host::Page, Options::default());
    };
    if let Some(el) = mount_element(&w) {
        let options = el
            .get_attribute("data-paylink-options")
            .and_then(|json| js_sys::JSON::parse(&json).ok())
            .map(|o| Options::read(&o))
            .unwrap_or_default();
        return (Host::Element(el), options);
    }
    frame(&w).unwrap_or((Host::Page, Options::default()))
}

fn mount_element(w: &web_sys::Window) -> Option<HtmlElement> {
    w.document()?
        .query_selector("[data-paylink-mount]")
        .ok()??
        .dyn_into()
        .ok()
}

/// `?embed=1&parent=…`, inside a frame whose parent is that origin (checked
/// against `location.ancestorOrigins` where the browser has it).
fn frame(w: &web_sys::Window) -> Option<(Host, Options)> {
    let loc = w.location();
    let params = web_sys::UrlSearchParams::new_with_str(&loc.search().ok()?).ok()?;
    if params.get("embed").as_deref() != Some("1") {
        return None;
    }
    let parent = params.get("parent")?;
    let top = w.parent().ok()??;
    if JsValue::from(top) == JsValue::from(w.clone()) {
        return None;
    }
    let ancestors = get(&loc, "ancestorOrigins");
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

impl Host {
    /// Where API calls go: the proxy's origin when mounted elsewhere, else
    /// this origin (`""`).
    pub fn api_base(&self, options: &Options) -> String {
        match self {
            Host::Element(el) => options
                .proxy
                .clone()
                .or_else(|| el.get_attribute("data-paylink-proxy"))
                .unwrap_or_default(),
            _ => String::new(),
        }
    }

    /// What a payer page keeps in a frame: the query (`?embed=1&parent=…`),
    /// so the page after this one still talks to the merchant's page, and
    /// the fragment with the options (its theme), never sent to a server.
    pub fn query(&self) -> String {
        match self {
            Host::Frame { parent } => {
                let hash = web_sys::window()
                    .and_then(|w| w.location().hash().ok())
                    .unwrap_or_default();
                format!(
                    "?embed=1&parent={}{hash}",
                    String::from(js_sys::encode_uri_component(parent))
                )
            }
            _ => String::new(),
        }
    }

    /// Tells the page around: `kind` is `paylink:ready`, `paylink:paid`…
    pub fn emit(&self, kind: &str, detail: &[(&str, JsValue)]) {
        let d = Object::new();
        for (k, v) in detail {
            let _ = Reflect::set(&d, &JsValue::from_str(k), v);
        }
        match self {
            Host::Frame { parent } => {
                let m = message(kind);
                let _ = Reflect::set(&m, &"detail".into(), &d);
                post(parent, &m);
            }
            Host::Element(el) => dispatch(el, kind, &d),
            Host::Page => {
                if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
                    dispatch(&doc, kind, &d);
                }
            }
        }
    }

    /// `paylink:error` for a failed call: `{severity, cause, message}`.
    /// `critical`: the page cannot go on.
    pub fn emit_error(&self, critical: bool, e: &Failure, message: &str) {
        let cause = match e {
            Failure::Network => "network",
            Failure::BadResponse => "bad_response",
            Failure::Api(env) => match env.code {
                404 => "not_found",
                422 => "validation",
                429 => "rate_limited",
                400..=499 => "refused",
                _ => "server",
            },
        };
        let severity = if critical { "critical" } else { "non_critical" };
        self.emit(
            "paylink:error",
            &[
                ("severity", severity.into()),
                ("cause", cause.into()),
                ("message", message.into()),
            ],
        );
    }

    /// Goes to `path` on paylink's origin: the page's (or frame's) own
    /// navigation. Mounted in a merchant's element the merchant's URL is
    /// never touched: the server's page is put in the element instead
    /// (`mount.js` listens for `paylink-navigate`).
    pub fn go(&self, path: &str) {
        match self {
            Host::Element(el) => {
                // Not a `paylink:*` event: mount.js's own, it does not bubble to the merchant.
                let init = web_sys::CustomEventInit::new();
                init.set_detail(&JsValue::from_str(path));
                if let Ok(ev) =
                    web_sys::CustomEvent::new_with_event_init_dict("paylink-navigate", &init)
                {
                    let _ = el.dispatch_event(&ev);
                }
            }
            _ => {
                let Some(w) = web_sys::window() else { return };
                let loc = w.location();
                // This very page: a reload (an address that differs only by its
                // fragment, or not at all, would not load it again).
                if loc.pathname().is_ok_and(|p| p == path) {
                    let _ = loc.reload();
                } else {
                    let _ = loc.assign(&format!("{path}{}", self.query()));
                }
            }
        }
    }
}

/// The message every postMessage carries: `{source: "paylink", type, …}`.
fn message(kind: &str) -> Object {
    let m = Object::new();
    let _ = Reflect::set(&m, &"source".into(), &"paylink".into());
    let _ = Reflect::set(&m, &"type".into(), &kind.into());
    m
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

/// The root every paylink page draws in (`.paylink-widget`; inside the
/// mount element on a merchant's page).
fn root(host: &Host) -> Option<HtmlElement> {
    let found = match host {
        Host::Element(el) => el.query_selector(".paylink-widget"),
        _ => web_sys::window()?
            .document()?
            .query_selector(".paylink-widget"),
    };
    found.ok()??.dyn_into().ok()
}

/// Sets the theme's custom properties on the root, through the CSSOM (one
/// property at a time: a value cannot smuggle in another declaration, and a
/// strict `style-src` on a merchant page allows it).
pub fn apply_theme(host: &Host, theme: &[(String, String)]) {
    let Some(root) = root(host) else { return };
    let style = root.style();
    for (k, v) in theme {
        let _ = style.set_property(k, v);
    }
}

/// Once per page: the theme, and in a frame the height reports and the
/// parent's options (`on_locale` follows a language the parent sets).
pub fn connect(host: &Host, options: &Options, on_locale: impl Fn(Lang) + 'static) {
    apply_theme(host, &options.theme);
    let Host::Frame { parent } = host else { return };
    let (Some(w), Some(root)) = (web_sys::window(), root(host)) else {
        return;
    };
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
        // The observer calls it for as long as the page lives.
        report.forget();
    }
    let frame = host.clone();
    let parent = parent.clone();
    let from_parent = w.parent().ok().flatten().map(JsValue::from);
    // For the page's whole life.
    let _ = leptos::prelude::window_event_listener(leptos::ev::message, move |ev| {
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
            on_locale(l);
        }
        apply_theme(&frame, &o.theme);
    });
}
