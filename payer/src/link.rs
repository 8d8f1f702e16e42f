//! `/l/{slug}`: a payment link's page. The payer fills the customer form
//! (the form contract of `paylink-ui`) and chooses only what the link
//! leaves open: the payment types it allows, the number of installments up
//! to its maximum (with the live preview), or the amount when the link lets
//! the payer state it.
//!
//! The form is one island, [`LinkForm`]: the server renders it (with what
//! was posted and the server's errors when a form sent without JavaScript
//! comes back), and it is a real `<form method="post">` to the page's own
//! address, which the server checks with [`verdict`]: the same state and
//! the browser's rules, then the whole check (the link's `bind` and the
//! invoice's rules). Hydrated, it validates what the payer sets as the
//! payer types ([`PaymentLink::check_choice`] and the customer's rules:
//! what the link fixes is the server's to check), masks, previews the
//! installments and submits through the proxy's link API (gloo-net), which
//! runs the whole check again, then opens the payer page.
//!
//! The module by concern, as leptos's islands examples lay theirs out: the
//! payer's state and the rules over it ([`state`]), the islands and the page
//! ([`view`]), and what only the browser does ([`browser`]).

mod browser;
mod state;
mod view;

#[cfg(feature = "ssr")]
pub use state::verdict;
pub use state::Posted;
pub use view::{LinkForm, LinkPage, LinkRefused};
