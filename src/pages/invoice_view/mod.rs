//! `/invoices/:id`: the merchant's detail of an invoice, fetched with
//! `GET /api/invoices/{id}`: amount, customer, installments, payment types,
//! the payment link, and the notification and webhook settings; the PIX
//! charges the bank refused; the actions on it beside (`invoice_actions`),
//! and what a cancelled one shows.

mod payments;
mod settings;

use payments::{Devolucoes, PixCycles, PixProblems};
use settings::Settings;

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use paylink_model::br::{display_phone, mask_document};
use paylink_model::charges::ValueType;
use paylink_model::money::format_brl;
use paylink_model::{InstallmentStatus, InvoiceDetail, InvoiceState, Lang};
use paylink_text as text;
use paylink_ui::fetched::Fetched;

use crate::api;
use crate::components::installments::{date_for, Row};
use crate::components::poll::poll_while;
use crate::components::sections::{Accepted, CopyStatus, Facts, Installments, PaymentLinkSection};
use crate::i18n;
use crate::pages::invoice_actions::{InvoiceActions, Offer};
use crate::Ctx;

/// A fine's, interest's or discount's value as the language writes it:
/// `2 %`, `1,5 %` (a percentage, and interest's) or `R$ 5,00` (`FIXED`).
fn term_value(l: Lang, kind: Option<&str>, value: Option<f64>) -> Option<String> {
    let hundredths = (value? * 100.0).round() as i64;
    if kind == Some(ValueType::Fixed.name()) {
        return Some(format_brl(hundredths, l));
    }
    let sep = if l == Lang::PtBr { "," } else { "." };
    let (whole, frac) = (hundredths / 100, hundredths % 100);
    Some(match frac {
        0 => format!("{whole} %"),
        f if f % 10 == 0 => format!("{whole}{sep}{} %", f / 10),
        f => format!("{whole}{sep}{f:02} %"),
    })
}

/// The route: the invoice of the path's `:id`.
#[component]
pub fn InvoicePage() -> impl IntoView {
    let params = use_params_map();
    move || {
        let id = params.read().get("id").unwrap_or_default();
        view! { <InvoiceView id /> }
    }
}

/// What the detail's address holds: the invoice, or a charge that was
/// cancelled (the service's detail is then a 404; the payer page's 410 says
/// why, so a reload after cancelling still says it).
#[derive(Clone, Debug, PartialEq)]
pub enum Loaded {
    Live(Box<InvoiceDetail>),
    /// The 410's message.
    Cancelled(String),
}

async fn load(client: api::Client, id: String, l: Lang) -> Result<Loaded, api::Error> {
    match client.get_invoice(&id, l).await {
        Ok(d) => Ok(Loaded::Live(Box::new(d))),
        Err(api::Error::Api(env)) if env.code == 404 => match client.get_pay(&id, l).await {
            Err(api::Error::Api(gone)) if gone.code == 410 => Ok(Loaded::Cancelled(gone.message)),
            _ => Err(api::Error::Api(env)),
        },
        Err(e) => Err(e),
    }
}

/// The detail of invoice `id`, asked again while an installment is open (a
/// payment confirmed elsewhere shows up without a reload), and in the new
/// language after a switch; the merchant's actions beside it.
#[component]
pub fn InvoiceView(id: String) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let invoice = {
        let id = id.clone();
        LocalResource::new(move || load(client, id.clone(), lang.get()))
    };
    poll_while(
        move || invoice.refetch(),
        move || {
            invoice.with_untracked(|r| match r {
                None => true,
                Some(Ok(Loaded::Live(d))) => d
                    .installments
                    .iter()
                    .any(|i| i.status == InstallmentStatus::WaitingPayment),
                Some(_) => false,
            })
        },
    );
    let offer = Memo::new(move |_| {
        invoice.with(|r| match r {
            Some(Ok(Loaded::Live(d))) => Some(Offer::of(d)),
            _ => None,
        })
    });
    let refetch = Callback::new(move |()| invoice.refetch());
    view! {
        <Fetched lang data=invoice class="card muted" show=|l, answer| {
            answer.map(|loaded| match loaded {
                Loaded::Live(inv) => view! { <InvoiceBody l inv=*inv /> }.into_any(),
                Loaded::Cancelled(message) => view! { <CancelledBody l message /> }.into_any(),
            })
        } />
        <InvoiceActions id offer refetch />
    }
}

/// A cancelled charge: its state and what that means.
#[component]
fn CancelledBody(l: Lang, message: String) -> impl IntoView {
    view! {
        <article class="card invoice">
            <h1>{text::INVOICE.t(l)}</h1>
            <dl class="facts">
                <div>
                    <dt>{text::STATUS.t(l)}</dt>
                    <dd>
                        <span class="badge reversed" data-state="cancelled">
                            {i18n::state(l, InvoiceState::Cancelled)}
                        </span>
                    </dd>
                </div>
            </dl>
            <p>{message}</p>
            <p class="muted">{text::CANCELLED_NOTE.t(l)}</p>
            <p><a href="/invoices">{text::INVOICES.t(l)}</a></p>
        </article>
    }
}

#[component]
fn InvoiceBody(l: Lang, inv: InvoiceDetail) -> impl IntoView {
    let copied = RwSignal::new(None::<bool>);
    let c = &inv.customer;
    let contact: Vec<String> = [
        c.document.as_deref().map(mask_document),
        c.email.clone(),
        c.phone.as_deref().map(display_phone),
    ]
    .into_iter()
    .flatten()
    .collect();
    // (label, value, class) of the facts list, shown by one loop.
    let mut facts: Vec<(&'static str, String, &'static str)> = vec![
        (
            text::AMOUNT.t(l),
            if inv.price_by_customer {
                text::AMOUNT_BY_PAYER.t(l).to_string()
            } else {
                format_brl(inv.price, l)
            },
            "amount",
        ),
        (text::DUE_DATE.t(l), date_for(&inv.due_date, l), ""),
        (
            text::INVOICE_TYPE.t(l),
            i18n::invoice_type(l, inv.invoice_type).to_string(),
            "",
        ),
        (text::CUSTOMER.t(l), c.full_name.clone(), ""),
    ];
    if !contact.is_empty() {
        facts.push((text::CONTACT.t(l), contact.join(" · "), ""));
    }
    if let Some(d) = &inv.description {
        facts.push((text::DESCRIPTION.t(l), d.clone(), "wide description"));
    }
    // Fine, interest and discount, as they were stored.
    if let Some(v) = inv
        .fine
        .as_ref()
        .and_then(|f| term_value(l, f.kind.as_deref(), f.value))
    {
        facts.push((text::FINE.t(l), v, ""));
    }
    if let Some(v) = inv
        .interest
        .as_ref()
        .and_then(|i| term_value(l, None, i.value))
    {
        facts.push((
            text::INTEREST.t(l),
            format!("{v} {}", text::PER_MONTH.t(l)),
            "",
        ));
    }
    if let Some(d) = &inv.discount {
        if let Some(v) = term_value(l, d.kind.as_deref(), d.value) {
            let until = d
                .until_date
                .as_deref()
                .map(|u| date_for(u, l))
                .unwrap_or_default();
            facts.push((
                text::DISCOUNT.t(l),
                format!("{v} {} {until}", text::UNTIL.t(l)),
                "",
            ));
        }
    }

    // Pix Automático: where the recurrence stands, its id at the bank, and who ended it and why.
    if let Some(a) = &inv.pix_automatico {
        let mut v = i18n::pix_automatico_status(l, a.status).to_string();
        if let Some(id) = &a.id_rec {
            v += &format!(" · {id}");
        }
        if !a.reasons.is_empty() {
            v += &format!(" · {}", a.reasons.join("; "));
        }
        facts.push(("Pix Automático", v, "wide pix-automatico"));
    }

    let rows: Vec<Row> = inv
        .installments
        .iter()
        .map(|i| Row::stated(i.installment, &i.due_date, i.price, i.price_paid, i.status))
        .collect();
    let types = inv
        .payment_types
        .iter()
        .map(|p| p.payment_type_accepted)
        .collect();
    let url = inv.url.clone();
    view! {
        <article class="card invoice">
            <h1>{text::INVOICE.t(l)}</h1>
            <Facts items=facts />
            <PaymentLinkSection l url copied server_page=true />
            <CopyStatus l copied />
            <Accepted l types />
            <Installments l rows />
            <PixProblems l installments=inv.installments.clone() />
            <Devolucoes l installments=inv.installments.clone() />
            <PixCycles l cycles=inv.pix_automatico.as_ref().map(|a| a.cycles.clone()).unwrap_or_default() />
            <Settings l inv />
            <p><a href="/">{text::NEW_INVOICE.t(l)}</a></p>
        </article>
    }
}
