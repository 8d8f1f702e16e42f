//! Entry point of the browser bundle. `main` mounts the widget on
//! index.html's `<div id="paylink-app">` (and does nothing on a merchant's
//! page that imports the module); `mount` is the direct-mount API that
//! `mount.js` re-exports (see the README, "Embed paylink").

use wasm_bindgen::prelude::*;

fn main() {
    paylink_widget::embed::start();
}

/// `mount(element, {link, proxy, locale, theme, screens, prefill})`.
#[wasm_bindgen]
pub fn mount(element: web_sys::HtmlElement, options: JsValue) {
    paylink_widget::embed::mount(element, options);
}
