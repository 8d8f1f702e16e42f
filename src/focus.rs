//! Moving the keyboard focus: to an element, to one the view draws next,
//! and to the app's `<main>` after a navigation ([`use_go`]: the router's
//! navigation with the focus moved to the new screen).

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
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

/// The router's navigation for a component inside `<Router>` to call later
/// (after an action, in a row's button): goes to `path` within the app and
/// moves the focus to the new screen, so a screen reader hears where it is.
pub fn use_go() -> impl Fn(&str) + Clone + 'static {
    let navigate = use_navigate();
    move |path: &str| {
        navigate(path, Default::default());
        request_animation_frame(focus_main);
    }
}
