//! Sections the invoice detail and the payer page both show: the facts
//! list, the payment link with its copy button, the accepted payment types
//! and the installments table (what a fetched screen shows while loading or
//! after a failed call is `paylink_ui::fetched`'s).

use leptos::prelude::*;
use paylink_model::{Lang, PaymentType};
use paylink_text as text;
use paylink_ui::clipboard::copy;

use crate::api;
use crate::components::installments::{InstallmentTable, Row};
use crate::i18n;

/// The text shown for a failed call.
pub fn error_text(l: Lang, e: &api::Error) -> String {
    e.text(l)
}

/// `<dl class="facts">`: (label, value, class) per line.
#[component]
pub fn Facts(items: Vec<(&'static str, String, &'static str)>) -> impl IntoView {
    let items = items
        .into_iter()
        .map(|(dt, dd, class)| {
            view! {
                <div class=(!class.is_empty()).then_some(class)>
                    <dt>{dt}</dt>
                    <dd>{dd}</dd>
                </div>
            }
        })
        .collect_view();
    view! { <dl class="facts">{items}</dl> }
}

/// What the last copy button did ("Copiado!"), announced to screen readers.
#[component]
pub fn CopyStatus(l: Lang, copied: RwSignal<Option<bool>>) -> impl IntoView {
    view! {
        <p role="status" class="muted">
            {move || match copied.get() {
                Some(true) => text::COPIED.t(l),
                Some(false) => text::COPY_FAILED.t(l),
                None => "",
            }}
        </p>
    }
}

/// A button that copies `text`.
#[component]
pub fn CopyButton(
    text: String,
    label: &'static str,
    copied: RwSignal<Option<bool>>,
) -> impl IntoView {
    view! {
        <button type="button" class="secondary" on:click=move |_| copy(text.clone(), copied)>
            {label}
        </button>
    }
}

/// The payment link (an `<a>` to the invoice url) and its copy button.
/// `server_page`: the link loads the page the server renders (what the payer
/// gets), not this app's route (`rel="external"`, which leptos_router leaves
/// to the browser); the merchant's detail sets it.
#[component]
pub fn PaymentLinkSection(
    l: Lang,
    url: String,
    copied: RwSignal<Option<bool>>,
    #[prop(optional)] server_page: bool,
) -> impl IntoView {
    view! {
        <section aria-label=text::PAYMENT_LINK.t(l)>
            <h2>{text::PAYMENT_LINK.t(l)}</h2>
            <p class="paylink">
                <a href=url.clone() class="url" rel=server_page.then_some("external")>{url.clone()}</a>
            </p>
            <p>
                <CopyButton text=url label=text::COPY_LINK.t(l) copied />
            </p>
        </section>
    }
}

/// The accepted payment types, as chips.
#[component]
pub fn Accepted(l: Lang, types: Vec<PaymentType>) -> impl IntoView {
    view! {
        <section aria-label=text::ACCEPTED.t(l)>
            <h2>{text::ACCEPTED.t(l)}</h2>
            <ul class="chips">
                {types
                    .into_iter()
                    .map(|t| view! { <li class="chip">{i18n::payment_type(l, t)}</li> })
                    .collect_view()}
            </ul>
        </section>
    }
}

/// The installments of a created invoice, with paid amounts and statuses.
#[component]
pub fn Installments(l: Lang, rows: Vec<Row>) -> impl IntoView {
    view! {
        <section aria-label=text::INSTALLMENTS.t(l)>
            <h2>{text::INSTALLMENTS.t(l)}</h2>
            <InstallmentTable l caption=text::INSTALLMENTS.t(l) rows />
        </section>
    }
}
