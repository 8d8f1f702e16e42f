//! Moving the keyboard focus: to an element, to one the view draws next,
//! and to the app's `<main>` after a navigation.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Focuses the first element matching `selector`, if there is one.
pub fn focus(selector: &str) {
    if let Ok(Some(el)) = document().query_selector(selector) {
        if let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() {
            let _ = el.focus();
        }
    }
}

/// Focuses the element matching `selector` once the view has drawn it.
pub fn focus_later(selector: String) {
    request_animation_frame(move || focus(&selector));
}

/// Focuses the widget's `<main>` (by class, not id: mounted in a merchant's
/// page, an id of ours could clash with theirs).
pub fn focus_main() {
    focus(".paylink-widget > main");
}
