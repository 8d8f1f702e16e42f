//! Copy to the clipboard, for every copy button of the merchant's app and the payer pages.

use leptos::prelude::*;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Copies `text` with the asynchronous clipboard API and sets `done` to whether it worked
/// (`false` where the browser has none: an insecure origin, an old browser). `#[inline]`, so
/// that LTO may put it in its one caller in the payer page's bundle: 0.1 KB less there
/// (bench/README.md).
#[inline]
pub fn copy(text: String, done: RwSignal<Option<bool>>) {
    leptos::task::spawn_local(async move {
        let nav = window().navigator();
        let has_clipboard = js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard"))
            .is_ok_and(|c| !c.is_undefined() && !c.is_null());
        let ok = has_clipboard
            && JsFuture::from(nav.clipboard().write_text(&text))
                .await
                .is_ok();
        done.try_set(Some(ok));
    });
}
