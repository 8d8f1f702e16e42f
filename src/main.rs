//! Entry point of the merchant's app's bundle: `start` mounts it on
//! index.html's `<div id="paylink-app">`.

// No Rust `main` in the browser: `start` runs when the module is instantiated,
// without std's runtime set-up and clean-up around it (thread info, stdout's
// buffer), code the browser would compile for nothing at every start-up.
#![cfg_attr(all(target_arch = "wasm32", not(test)), no_main)]

#[cfg(all(target_arch = "wasm32", not(test)))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    paylink_widget::start::start();
}

/// Natively the widget compiles (and lints) but has nothing to run.
#[cfg(not(target_arch = "wasm32"))]
fn main() {}
