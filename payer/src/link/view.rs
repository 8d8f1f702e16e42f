//! The link page's view: the form island ([`LinkForm`]) with its
//! installment preview, the island that says why a link has no form
//! ([`LinkRefused`]), and the page's body around them ([`LinkPage`]).

// `#[island]`'s hydration entry forgets the mounted view on purpose: an island lives as long
// as the page.
#![allow(clippy::mem_forget)]

use leptos::either::Either;
use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::{InvoiceType, Lang, PaymentLink, PaymentType};
use paylink_text as text;
use paylink_ui::customer::CustomerFieldset;
use paylink_ui::field::{AlertBox, AmountField, Select, SubmitButton};
use paylink_ui::form::Alert;
use paylink_ui::payment_types::PaymentTypes;
use paylink_ui::preview::InstallmentPreview;

use super::browser;
use super::state::{Payer, Posted};

/// The link's form. `key` makes the page's creations idempotent (a second
/// submit of the same form creates nothing new).
#[island]
pub fn LinkForm(l: Lang, link: PaymentLink, posted: Posted, key: String) -> impl IntoView {
    let lang = RwSignal::new(l);
    let p = Payer::new(lang, link, &posted.values);
    if let Some(env) = &posted.refused {
        p.form.show_envelope(env);
        // Sent back without JavaScript, nothing can move the focus: the alert
        // at the top says there is something to fix, even when every message
        // is on its field.
        if !p.form.has_alert() {
            p.form.set_alert(Some(Alert {
                message: env.message.clone(),
                details: Vec::new(),
            }));
        }
    }
    let summary = RwSignal::new(true);
    let done = RwSignal::new(None::<String>);
    browser::start(p, lang, summary, done, key.clone());
    // `Either`, not `.into_any()`: an `AnyView` keeps every render mode of the view it erases
    // (async hydration and HTML streaming among them), an `Either` only those the island calls
    // (bench/README.md, "bench/wasm-attribution").
    move || {
        let l = lang.get();
        match done.get() {
            Some(url) => {
                let text = url.clone();
                Either::Left(view! {
                    <section class="card">
                        <h1>{text::INVOICE_READY.t(l)}</h1>
                        <p class="paylink"><a href=url target="_top" class="url">{text}</a></p>
                    </section>
                })
            }
            None => Either::Right(view! { <LinkFormView l p summary key=key.clone() /> }),
        }
    }
}

#[component]
fn LinkFormView(l: Lang, p: Payer, summary: RwSignal<bool>, key: String) -> impl IntoView {
    let form = p.form;
    let link = p.link.get_value();
    let busy = RwSignal::new(false);
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // A second submit while the first is on its way is ignored.
        if !busy.get_untracked() && form.submit() {
            browser::send(p, busy);
        }
    };
    let price = match link.price {
        Some(c) => format_brl(c, l),
        None => text::AMOUNT_BY_PAYER.t(l).to_string(),
    };
    let description = (!link.description.is_empty())
        .then(|| view! { <p class="description">{link.description.clone()}</p> });
    let amount = link.price_by_customer.then(|| {
        view! {
            <AmountField form name="price" label=text::PRICE.t(l) value=p.amount />
        }
    });
    let offers = |t| link.payment_types.contains(&t);
    let (pix, boleto) = (
        offers(PaymentType::Pix).then_some(p.pix),
        offers(PaymentType::Boleto).then_some(p.boleto),
    );
    let installments = (link.invoice_type == InvoiceType::Installment).then(|| {
        // 1 is paying at once (the proxy makes it a SINGLE invoice).
        let counts = (1..=link.max_installments.max(1))
            .map(|n| {
                let n = n.to_string();
                (n.clone(), n)
            })
            .collect();
        view! {
            <Select
                form
                name="installmentCount"
                label=text::INSTALLMENT_COUNT.t(l)
                value=p.count
                options=counts
                required=true
            />
            <InstallmentPreview l rows=Memo::new(move |_| p.plan()) empty=text::PAYER_PREVIEW_EMPTY.t(l) />
        }
    });
    view! {
        <form
            id="link-form"
            class="card"
            method="post"
            action=format!("/l/{}", link.slug)
            novalidate
            on:submit=on_submit
        >
            <div hidden=move || !summary.get()>
                <h1>{link.name.clone()}</h1>
                {description}
                <p class="amount">{price}</p>
            </div>
            // Sent back by a browser without JavaScript: the same form twice is one invoice.
            <input type="hidden" name="idempotencyKey" value=key />
            <AlertBox form />
            {amount}
            <PaymentTypes l form pix=pix boleto=boleto />
            {installments}
            <h2>{text::YOUR_DATA.t(l)}</h2>
            <CustomerFieldset form f=p.customer l merchant=false />
            <div class="actions">
                <SubmitButton busy label=text::TO_PAYMENT.t(l) l />
            </div>
        </form>
    }
}

/// Why a link's page has no form (an unknown or inactive link): the
/// service's message and, for the page around, `paylink:error` (critical:
/// nothing can go on there).
#[island]
pub fn LinkRefused(l: Lang, code: u16, message: String) -> impl IntoView {
    browser::refused(code, message.clone());
    view! {
        <div class="card">
            <h1>{text::LINK_UNAVAILABLE.t(l)}</h1>
            <div class="alert" role="alert">
                <p>{message}</p>
            </div>
        </div>
    }
}

/// The link page's body: the form, then the link's terms (fine, interest,
/// discount), one sentence each as the model states them.
#[component]
pub fn LinkPage(
    l: Lang,
    link: PaymentLink,
    posted: Posted,
    key: String,
    terms: Vec<String>,
    /// A sandbox's server: the page says its payment settings are demo ones.
    #[prop(optional)]
    sandbox: bool,
) -> impl IntoView {
    let test_banner = sandbox.then(|| {
        view! { <p class="sandbox-banner" role="note">{text::TEST_ENVIRONMENT.t(l)}</p> }
    });
    let terms = (!terms.is_empty()).then(|| {
        view! {
            <section class="card terms" aria-label=text::PAYER_TERMS.t(l)>
                <h2>{text::PAYER_TERMS.t(l)}</h2>
                <ul>{terms.into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}</ul>
            </section>
        }
    });
    view! {
        {test_banner}
        <LinkForm l link posted key />
        {terms}
    }
}
