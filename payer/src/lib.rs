//! The payer's pages, written once as Leptos components: rendered to HTML by
//! the server (feature `ssr`, `paylink-server`), so the page a payer opens
//! already shows every amount and code, and hydrated in the browser as
//! islands (feature `hydrate`, the small wasm trunk builds from
//! `payer/index.html`): only the copy buttons and the live payment status
//! run there. Everything else is server-only HTML that works without
//! JavaScript (the language switch and the sandbox payment are links and
//! forms).

// The page's view types nest deeply (tachys types each element).
#![recursion_limit = "256"]

#[cfg(all(feature = "ssr", feature = "hydrate"))]
compile_error!(
    "paylink-payer: `ssr` and `hydrate` must never meet in one build (leptos-rs/leptos#4586): \
     build the server and the islands' wasm with separate cargo invocations (-p)"
);

#[cfg(any(feature = "ssr", feature = "pay"))]
pub mod after;
#[cfg(feature = "ssr")]
pub mod charges;
// Compiled for the server too (the islands' code is), which never calls it.
pub mod host;
// The payer page: in the server, and in the payer page's bundle (`pay`), not the link page's,
// which never renders it (after the link's form the browser opens the payer page, with its own
// bundle; mount.js loads that bundle for it too).
#[cfg(any(feature = "ssr", feature = "pay"))]
pub mod islands;
// The link's form: in the server, and in the link page's bundle (`link`), not the payer page's.
#[cfg(any(feature = "ssr", feature = "link"))]
pub mod link;
#[cfg(any(feature = "ssr", feature = "pay"))]
pub mod pay;
#[cfg(any(feature = "ssr", feature = "pay"))]
pub mod pix_automatico;
#[cfg(any(feature = "ssr", feature = "pay"))]
pub mod receipt;
#[cfg(feature = "ssr")]
pub mod shell;

/// The islands' entry: trunk's loader instantiates the wasm, then leptos's
/// island script (in the page's `<head>`, see [`shell`]) calls this and
/// hydrates each `<leptos-island>` it finds.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    // A debug build says why it panicked (a hydration mismatch names the element); a release
    // build aborts at once (panic=immediate-abort) and carries no formatting for it.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_islands();
}

/// The stylesheet every paylink page shares, inlined into the payer pages'
/// `<head>` by [`shell`].
#[cfg(feature = "ssr")]
pub const STYLE: &str = include_str!("../../style/main.css");
