//! How the merchant's app starts on paylink's page (`index.html`): mounted
//! on `<div id="paylink-app">`, its API calls sent to the proxy that page
//! names (`data-paylink-proxy`), else to the one `config.json` beside it
//! names (a static host of `dist/`), else to this origin.

use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::HtmlElement;

use leptos::prelude::*;

use crate::api::Proxy;
use crate::App;

/// The element `index.html` mounts the app in.
pub const ROOT_ID: &str = "paylink-app";

/// Entry point of `index.html` (the bin's `start`). Mounts the app only
/// when the page has `<div id="paylink-app">`.
pub fn start() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(root) = doc
        .get_element_by_id(ROOT_ID)
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    else {
        // index.html starts the app from a script in <head>; the wasm may be
        // ready before the parser has reached the element: try again once it
        // has.
        if doc.ready_state() == "loading" {
            let again = Closure::once_into_js(start);
            let _ = doc.add_event_listener_with_callback("DOMContentLoaded", again.unchecked_ref());
        }
        return;
    };
    // The proxy: the attribute, else `config.json` beside index.html (a static
    // host), else this origin. API calls wait for it; rendering does not.
    let proxy = match root.get_attribute("data-paylink-proxy") {
        Some(p) if !p.trim().is_empty() => Proxy::At(p),
        _ => Proxy::Config("/config.json".into()),
    };
    // index.html's "Carregando…" goes; the app takes its place.
    root.replace_children_with_node_0();
    leptos::mount::mount_to(root, move || view! { <App proxy /> }).forget();
}
