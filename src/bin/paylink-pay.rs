//! Entry point of `pay.html`, the payer's bundle: the same crate as
//! `paylink-widget` (src/main.rs), but `start` mounts only
//! [`paylink_widget::PayerApp`] (the payer page), so the merchant's screens
//! are not linked into this wasm. The server answers `/pay/:id` with
//! `pay.html`.

// No Rust `main` in the browser (see src/main.rs).
#![cfg_attr(all(target_arch = "wasm32", not(test)), no_main)]

#[cfg(all(target_arch = "wasm32", not(test)))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    use leptos::prelude::*;
    use paylink_widget::PayerApp;
    paylink_widget::embed::start_app(|host, options| view! { <PayerApp host options /> });
}

/// Natively the bundle compiles (and lints) but has nothing to run.
#[cfg(not(target_arch = "wasm32"))]
fn main() {}
