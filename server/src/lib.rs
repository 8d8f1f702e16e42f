//! paylink's server: the invoicing service of the spec, the proxy the widget
//! calls, the built widget as static files, and the CLI.
//!
//! Layers, each depending only on those below it:
//! `cli` (commands, printing) → `app` (state, router, serve) → `pay` (the payer
//! page and the payment links' pages and public API) → `http` (the service's
//! API, the operators' sessions), `proxy` (the widget's `/api/*`: the service's
//! handlers, or a remote upstream), `web` (the widget's files), `workers`
//! (outbox and scheduler loops) → `domain` (rules not in
//! `paylink_model`) → `store` (all SQL) → `paylink_model`. `error` is the one
//! error type, used by the layers that answer requests; it knows the refusals of
//! `domain` and `store`, so `?` turns them into answers. `bank` (the client of a bank's API Pix) sits
//! below `workers`, `http` and `cli`. The local bank for tests and demos is its own crate
//! (`banksim/`), so this one carries no TLS server and makes no certificates.

// A panic in a handler must be a 500 (CatchPanicLayer in `app`) and the process must live;
// with `panic = "abort"` the first one would end every request in flight. So no profile
// that aborts (the widget's, say) can build the server.
#[cfg(panic = "abort")]
compile_error!(
    "paylink-server must unwind on panic: build it with a profile without panic = \"abort\" \
     (`cargo build --profile server -p paylink-server`, or `--release`)"
);

pub mod app;
pub mod bank;
pub mod cli;
pub mod domain;
pub mod error;
pub mod http;
pub mod metrics;
pub mod pay;
pub mod proxy;
pub mod store;
pub mod web;
pub mod workers;

pub use app::{app, envelope_layers, service, AppState, Options, Service, BODY_LIMIT};
pub use http::route_not_found;
