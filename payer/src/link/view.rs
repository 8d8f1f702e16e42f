//! The link page's view: the form island ([`LinkForm`]) with its
//! installment preview, the island that says why a link has no form
//! ([`LinkRefused`]), and the page's body around them ([`LinkPage`]).

// `#[island]`'s hydration entry forgets the mounted view on purpose: an island lives as long
// as the page.
#![allow(clippy::mem_forget)]

use leptos::either::Either;
use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::{Date, InvoiceType, Lang, PaymentLink, PaymentType};
use paylink_ui::customer::CustomerFieldset;
use paylink_ui::field::{AlertBox, AmountField, Checkbox, ErrorText, Select, SubmitButton};
use paylink_ui::form::Alert;

use super::browser;
use super::state::{Payer, Posted};
use crate::i18n::T;

/// `n` as an option's text, for the installment select (made once).
fn count_str(n: u32) -> &'static str {
    static NUMS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NUMS.get_or_init(|| {
        (0..=paylink_model::MAX_INSTALLMENTS)
            .map(|i| i.to_string())
            .collect()
    })
    .get(n as usize)
    .map_or("", String::as_str)
}

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
                        <h1>{T::InvoiceReady.t(l)}</h1>
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
        None => T::AmountByPayer.t(l).to_string(),
    };
    let description = (!link.description.is_empty())
        .then(|| view! { <p class="description">{link.description.clone()}</p> });
    let amount = link.price_by_customer.then(|| {
        view! {
            <AmountField form name="price" label=T::Price.t(l) value=p.amount />
        }
    });
    let checks = link
        .payment_types
        .iter()
        .map(|t| match t {
            PaymentType::Pix => view! {
                <Checkbox form name="paymentTypes" value="PIX" id="f-paymentTypes-PIX" label="PIX" checked=p.pix />
            },
            PaymentType::Boleto => view! {
                <Checkbox
                    form
                    name="paymentTypes"
                    value="BOLETO"
                    id="f-paymentTypes-BOLETO"
                    label="Boleto"
                    checked=p.boleto
                />
            },
        })
        .collect_view();
    let installments = (link.invoice_type == InvoiceType::Installment).then(|| {
        // 1 is paying at once (the proxy makes it a SINGLE invoice).
        let counts = (1..=link.max_installments.max(1))
            .map(|n| (count_str(n), count_str(n)))
            .collect();
        view! {
            <Select
                form
                name="installmentCount"
                label=T::InstallmentCount.t(l)
                value=p.count
                options=counts
                required=true
            />
            <Preview l p />
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
            <fieldset class="group">
                <legend>{T::PaymentTypes.t(l)}<span class="req" aria-hidden="true">" *"</span></legend>
                <div class="checks">{checks}</div>
                <ErrorText form name="paymentTypes" />
            </fieldset>
            {installments}
            <h2>{T::YourData.t(l)}</h2>
            <CustomerFieldset form f=p.customer l merchant=false />
            <div class="actions">
                <SubmitButton busy label=T::ToPayment.t(l) l />
            </div>
        </form>
    }
}

/// The installment preview: its table, or why there is none yet.
#[component]
fn Preview(l: Lang, p: Payer) -> impl IntoView {
    let rows = Memo::new(move |_| p.plan());
    let body = move || {
        let rows = rows.get();
        if rows.is_empty() {
            return Either::Left(view! { <p class="muted">{T::PreviewEmpty.t(l)}</p> });
        }
        let total: i64 = rows.iter().map(|r| r.2).sum();
        let rows = rows
            .into_iter()
            .map(|(n, due, cents)| {
                let due = match l {
                    Lang::PtBr => due,
                    Lang::En => Date::parse_for(Lang::PtBr, &due)
                        .map(|d| d.format_for(l))
                        .unwrap_or(due),
                };
                view! {
                    <tr>
                        <td>{n}</td>
                        <td>{due}</td>
                        <td class="num">{format_brl(cents, l)}</td>
                    </tr>
                }
            })
            .collect_view();
        Either::Right(view! {
            <table class="installments">
                <caption>{T::Preview.t(l)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{T::InstallmentNo.t(l)}</th>
                        <th scope="col">{T::DueDate.t(l)}</th>
                        <th scope="col" class="num">{T::Amount.t(l)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
                <tfoot>
                    <tr>
                        <th scope="row">{T::Total.t(l)}</th>
                        <td></td>
                        <td class="num">{format_brl(total, l)}</td>
                    </tr>
                </tfoot>
            </table>
        })
    };
    view! {
        <section class="preview" aria-label=T::Preview.t(l)>
            <h2>{T::Preview.t(l)}</h2>
            {body}
        </section>
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
            <h1>{T::LinkUnavailable.t(l)}</h1>
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
        view! { <p class="sandbox-banner" role="note">{T::TestEnvironment.t(l)}</p> }
    });
    let terms = (!terms.is_empty()).then(|| {
        view! {
            <section class="card terms" aria-label=T::Terms.t(l)>
                <h2>{T::Terms.t(l)}</h2>
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
