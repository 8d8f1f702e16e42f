//! Sections the invoice detail and the payer page both show, built once:
//! the facts list, the payment link with its copy button, the accepted
//! payment types and the installments table; and what the fetched screens
//! (detail, payer page, link page) show while loading or after a failed call.

use leptos::prelude::*;
use paylink_model::{Lang, PaymentType};

use crate::api;
use crate::components::installments::{installment_table, Row};
use crate::i18n::{self, K};
use crate::pages::invoice_view::{copy, error_text};

/// `<dl class="facts">`: (label, value, class) per line.
pub fn facts(items: Vec<(&'static str, String, &'static str)>) -> AnyView {
    let items = items
        .into_iter()
        .map(|(dt, dd, class)| view! { <div class=class><dt>{dt}</dt><dd>{dd}</dd></div> })
        .collect_view();
    view! { <dl class="facts">{items}</dl> }.into_any()
}

/// What the last copy button did ("Copiado!"), announced to screen readers.
pub fn copy_status(l: Lang, copied: RwSignal<Option<bool>>) -> AnyView {
    view! {
        <p role="status" class="muted">
            {move || copied.get().map(|ok| if ok { K::Copied.t(l) } else { K::CopyFailed.t(l) })}
        </p>
    }
    .into_any()
}

/// The payment link (an `<a>` to the invoice url) and its copy button.
pub fn payment_link(l: Lang, url: String, copied: RwSignal<Option<bool>>) -> AnyView {
    let text = url.clone();
    view! {
        <section aria-label=K::PaymentLink.t(l)>
            <h2>{K::PaymentLink.t(l)}</h2>
            <p class="paylink"><a href=url.clone() class="url">{text}</a></p>
            <p>
                <button type="button" class="secondary" on:click=move |_| copy(url.clone(), copied)>{K::CopyLink.t(l)}</button>
            </p>
        </section>
    }
    .into_any()
}

/// The accepted payment types, as chips.
pub fn accepted(l: Lang, types: Vec<PaymentType>) -> AnyView {
    let chips = types
        .into_iter()
        .map(|t| view! { <li class="chip">{i18n::payment_type(l, t)}</li> })
        .collect_view();
    view! {
        <section aria-label=K::Accepted.t(l)>
            <h2>{K::Accepted.t(l)}</h2>
            <ul class="chips">{chips}</ul>
        </section>
    }
    .into_any()
}

/// The installments of a created invoice, with paid amounts and statuses.
pub fn installments(l: Lang, rows: Vec<Row>) -> AnyView {
    view! {
        <section aria-label=K::Installments.t(l)>
            <h2>{K::Installments.t(l)}</h2>
            {installment_table(l, K::Installments.t(l), rows, true)}
        </section>
    }
    .into_any()
}

/// While a screen's data loads. `class`: `"card muted"`, plus `skeleton`
/// where embed.js's frame needs the page's height before the answer.
pub fn loading(l: Lang, class: &'static str) -> AnyView {
    view! { <p class=class aria-busy="true">{K::Loading.t(l)}</p> }.into_any()
}

/// A screen whose call failed: the envelope's message (or why there is none).
pub fn failed(l: Lang, e: &api::Error) -> AnyView {
    view! {
        <div class="card">
            <div class="alert" role="alert"><p>{error_text(l, e)}</p></div>
        </div>
    }
    .into_any()
}
