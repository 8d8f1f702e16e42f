//! `/c/{token}`: the payer's page of charges, every invoice of one customer with one merchant,
//! rendered by the server (no islands, no JavaScript at all): the open ones first, each with
//! its next installment's due date and what it costs today, then the paid ones; each a link to
//! its payer page, where the codes, the terms and the receipts are. Nothing here that the payer
//! pages do not show. And the page an unknown, expired or revoked link gets, the same for all.

use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::{Date, InstallmentStatus, Lang};
use paylink_text as text;
use paylink_ui::status::status_name;

/// One invoice on the page, as its payer page shows it.
#[derive(Clone, Debug)]
pub struct ChargeLine {
    /// `/pay/{id}`.
    pub pay_path: String,
    pub description: Option<String>,
    pub installment_count: u32,
    /// Open: the next installment to pay, its due date (`YYYY-MM-DD…`) and what it costs today
    /// (`None`: the payer sets the amount). Paid: the last installment.
    pub installment: u32,
    pub due_date: String,
    pub amount_today: Option<i64>,
    /// Paid: what was paid in all, and whether a payment came back.
    pub paid: i64,
    pub status: InstallmentStatus,
}

/// What the page lists.
#[derive(Clone, Debug)]
pub struct Charges {
    pub merchant_name: String,
    pub customer_name: String,
    pub open: Vec<ChargeLine>,
    pub paid: Vec<ChargeLine>,
}

fn date(l: Lang, iso: &str) -> String {
    Date::parse_iso_prefix(iso).map_or_else(|| iso.to_string(), |d| d.format_for(l))
}

fn what(l: Lang, c: &ChargeLine) -> String {
    let description = c
        .description
        .clone()
        .unwrap_or_else(|| text::CHARGE.t(l).into());
    if c.installment_count > 1 {
        format!(
            "{description} · {}",
            text::installment_of(l, c.installment, c.installment_count)
        )
    } else {
        description
    }
}

/// The page's body (the shell wraps it in the document).
#[component]
pub fn ChargesPage(l: Lang, c: Charges) -> impl IntoView {
    let open = c
        .open
        .iter()
        .map(|i| {
            let amount = i
                .amount_today
                .map_or_else(|| text::AMOUNT_BY_PAYER.t(l).to_string(), |a| format_brl(a, l));
            view! {
                <li class="charge open" data-charge="open">
                    <a href=i.pay_path.clone()>{what(l, i)}</a>
                    <p>
                        {text::DUE_DATE.t(l)} ": " <span data-due="">{date(l, &i.due_date)}</span>
                        " · " {text::DUE_TODAY.t(l)} ": " <strong data-amount-today="">{amount}</strong>
                    </p>
                </li>
            }
        })
        .collect_view();
    let paid = c
        .paid
        .iter()
        .map(|i| {
            view! {
                <li class="charge paid" data-charge="paid">
                    <a href=i.pay_path.clone()>{what(l, i)}</a>
                    <p>
                        <span class="badge">{status_name(l, i.status)}</span>
                        " · " {text::PAID.t(l)} ": " {format_brl(i.paid, l)}
                    </p>
                </li>
            }
        })
        .collect_view();
    let none_open = c
        .open
        .is_empty()
        .then(|| view! { <p>{text::NOTHING_OPEN.t(l)}</p> });
    let paid_section = (!c.paid.is_empty()).then(|| {
        view! {
            <section aria-label=text::PAID_CHARGES.t(l)>
                <h2>{text::PAID_CHARGES.t(l)}</h2>
                <ul class="charges">{paid}</ul>
            </section>
        }
    });
    view! {
        <article class="card charges">
            <p class="muted">{text::INVOICE_FROM.t(l)} " " <strong>{c.merchant_name}</strong></p>
            <h1>{text::YOUR_CHARGES.t(l)}</h1>
            <p>{text::CUSTOMER.t(l)} ": " {c.customer_name}</p>
            <section aria-label=text::STATE_OPEN.t(l)>
                <h2>{text::STATE_OPEN.t(l)}</h2>
                {none_open}
                <ul class="charges">{open}</ul>
            </section>
            {paid_section}
        </article>
    }
}

/// The page of a link that opens nothing (unknown, expired or revoked: the same words for
/// all, so none tells which).
#[component]
pub fn NoCharges(l: Lang) -> impl IntoView {
    view! {
        <div class="card">
            <h1>{text::PAGE_UNAVAILABLE.t(l)}</h1>
            <div class="alert" role="alert">
                <p>
                    {text::LINK_OPENS_NOTHING.t(l)}
                </p>
            </div>
        </div>
    }
}
