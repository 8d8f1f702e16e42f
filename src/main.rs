//! Entry point of the browser bundle. `start` mounts the widget on
//! index.html's `<div id="paylink-app">` (and does nothing on a merchant's
//! page that imports the module); `mount` is the direct-mount API that
//! `mount.js` re-exports (see the README, "Embed paylink").

// No Rust `main` in the browser: `start` runs when the module is instantiated,
// without std's runtime set-up and clean-up around it (thread info, stdout's
// buffer), code the browser would compile for nothing at every start-up.
#![cfg_attr(all(target_arch = "wasm32", not(test)), no_main)]

use wasm_bindgen::prelude::*;

#[cfg(all(target_arch = "wasm32", not(test)))]
#[wasm_bindgen(start)]
fn start() {
    paylink_widget::embed::start();
}

/// Natively the widget compiles (and lints) but has nothing to run.
#[cfg(not(target_arch = "wasm32"))]
fn main() {}

/// `mount(element, {link, proxy, locale, theme, screens, prefill})`.
#[wasm_bindgen]
pub fn mount(element: web_sys::HtmlElement, options: JsValue) {
    paylink_widget::embed::mount(element, options);
}
