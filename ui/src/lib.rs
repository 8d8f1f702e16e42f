//! The form contract's controls, shared by the merchant's app (built with
//! leptos's `csr`) and the payer pages (rendered with `ssr`, hydrated as
//! islands): a field's `name` is its API path, a visible `<label for>`,
//! `aria-invalid` + `aria-describedby` on an invalid field, the form-level
//! alert and `<button type="submit">` — written once, so a payment link's
//! server-rendered form and the merchant's forms keep the same contract.
//!
//! * [`api`] — the calls to the proxy: headers, idempotency keys, the refusal's envelope;
//! * [`form`] — when errors are shown (blur, submit, edits, the server's);
//! * [`field`] — the controls (text, select, checkbox, date, alert, submit);
//! * [`clipboard`] — copy to the clipboard;
//! * [`confirm`] — an action's inline confirm step;
//! * [`customer`] — the customer's fields and their controls;
//! * [`payment_types`] — the payment types' fieldset;
//! * [`terms`] — the fine, interest and discount fieldset;
//! * [`preview`] — the installment preview;
//! * [`status`] — an installment's status: its name and badge;
//! * [`fetched`] — a screen's fetched data: loading, failure, drawn;
//! * [`Failure`] — why a call failed, as the forms show it.
//!
//! The rules themselves are `paylink_model`'s.

use paylink_model::{ErrorEnvelope, Lang};
use paylink_text as text;

pub mod api;
pub mod clipboard;
pub mod confirm;
pub mod customer;
pub mod fetched;
pub mod field;
pub mod form;
pub mod payment_types;
pub mod preview;
pub mod status;
pub mod terms;

/// Why a call failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The service answered with its error envelope (or a bare HTTP error,
    /// turned into an envelope with the status text).
    Api(ErrorEnvelope),
    /// No answer: offline, DNS, CORS, aborted.
    Network,
    /// A 2xx answer whose body is not what the contract says.
    BadResponse,
}

impl Failure {
    /// What a person is told, in `l`.
    pub fn text(&self, l: Lang) -> String {
        match self {
            Failure::Api(env) => env.message.clone(),
            Failure::Network => text::NETWORK.t(l).to_string(),
            Failure::BadResponse => text::BAD_RESPONSE.t(l).to_string(),
        }
    }
}

/// The envelope's message, or what went wrong (screens show [`Failure::text`]).
impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Api(env) => f.write_str(&env.message),
            Failure::Network => f.write_str("network error"),
            Failure::BadResponse => f.write_str("bad response"),
        }
    }
}

/// So a failed load can be thrown to an `<ErrorBoundary>`.
impl std::error::Error for Failure {}
