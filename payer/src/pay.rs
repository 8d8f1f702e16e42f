//! `/pay/{id}`: the payer page, rendered by the server from the model's
//! `PayerView` (no e-mail, phone, notifications or webhooks; the payer's document
//! only masked, on a receipt): who is paid, what is owed and due today with its
//! terms, how to pay the next open installment (PIX QR and copia e cola, boleto
//! line, barcode and PDF), each paid installment's receipt, the installments and
//! the payment link. Server-only except the islands.

use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::{Date, Lang, PayerInstallment, PayerView, PaymentType};
use paylink_text as text;
use paylink_ui::status::{status_badge, status_name};

use crate::islands::{CopyButton, PaymentStatus, Simulate};

/// The page's body (the shell wraps it in the document).
#[component]
pub fn PayPage(
    l: Lang,
    p: PayerView,
    /// The terms of the next open installment (fine, interest, discount),
    /// one sentence each, as the model states them (`charges::instructions`).
    terms: Vec<String>,
) -> impl IntoView {
    let amount = if p.price_by_customer {
        text::AMOUNT_BY_PAYER.t(l).to_string()
    } else {
        format_brl(p.price, l)
    };
    let description = p.description.clone().map(|d| {
        view! {
            <div class="wide description">
                <dt>{text::LINK_DESCRIPTION.t(l)}</dt>
                <dd>{d}</dd>
            </div>
        }
    });
    let next = p
        .next_open
        .and_then(|n| p.installments.iter().find(|i| i.installment == n))
        .cloned();
    let paid: Vec<u32> = p
        .installments
        .iter()
        .filter(|i| i.status == paylink_model::InstallmentStatus::Confirmed)
        .map(|i| i.installment)
        .collect();
    let pending = next
        .as_ref()
        .is_some_and(|i| i.pix.is_none() && i.pix_pending);
    let night = p.pix_at_night;
    let how = next.map(|i| {
        let night = night.then(|| crate::after::pix_at_night(l, i.boleto.is_some()));
        let sandbox = p.sandbox.then(|| {
            view! {
                <Simulate l id=p.id.clone() />
            }
        });
        view! {
            {night}
            <HowToPay l id=p.id.clone() i terms />
            {sandbox}
        }
    });
    // Each paid installment's receipt, before the table of them all.
    let receipts = p
        .installments
        .iter()
        .filter_map(|i| i.receipt.clone())
        .map(|r| view! { <crate::receipt::ReceiptCard l id=p.id.clone() r /> })
        .collect_view();
    // A sandbox's PIX key and boleto agreement pay nobody: the page says so first.
    let test_banner = p.sandbox.then(|| {
        view! { <p class="sandbox-banner" role="note">{text::TEST_ENVIRONMENT.t(l)}</p> }
    });
    view! {
        <article class="card invoice pay">
            {test_banner}
            <p class="muted">{text::INVOICE_FROM.t(l)} " " <strong>{p.merchant_name.clone()}</strong></p>
            <h1>{text::PAYMENT.t(l)}</h1>
            <dl class="facts">
                <div class="amount">
                    <dt>{text::AMOUNT.t(l)}</dt>
                    <dd>{amount}</dd>
                </div>
                <div>
                    <dt>{text::CUSTOMER.t(l)}</dt>
                    <dd>{p.customer_name.clone()}</dd>
                </div>
                {description}
            </dl>
            <section aria-label=text::HOW_TO_PAY.t(l)>
                <PaymentStatus
                    l
                    id=p.id.clone()
                    open=p.next_open.is_some()
                    paid
                    pending
                    redirect_to=p.redirect_to.clone()
                >
                    {how}
                </PaymentStatus>
            </section>
            {p.pix_automatico.clone().map(|a| view! { <crate::pix_automatico::PixAutomaticoOffer l a /> })}
            {p.pix_automatico_again.map(|again| crate::pix_automatico::again(l, &p.id, again))}
            {receipts}
            {p.installments.iter().filter(|i| i.pay_again).map(|i| crate::after::pay_again(l, &p.id, i.installment)).collect_view()}
            <Installments l p=&p />
            <section aria-label=text::ACCEPTED.t(l)>
                <h2>{text::ACCEPTED.t(l)}</h2>
                <ul class="chips">
                    {p.payment_types
                        .iter()
                        .map(|t| view! { <li class="chip">{payment_type(*t)}</li> })
                        .collect_view()}
                </ul>
            </section>
            <section aria-label=text::PAYMENT_LINK.t(l)>
                <h2>{text::PAYMENT_LINK.t(l)}</h2>
                <p class="paylink">
                    <a href=p.url.clone() class="url">{p.url.clone()}</a>
                </p>
                <p>
                    <CopyButton l text=p.url.clone() label=text::COPY_LINK.t(l).to_string() />
                </p>
            </section>
        </article>
    }
}

fn payment_type(t: PaymentType) -> &'static str {
    match t {
        PaymentType::Pix => "PIX",
        PaymentType::Boleto => "Boleto",
    }
}

/// A date of the API as the language writes it (`dd/mm/aaaa`, `yyyy-mm-dd`).
fn date_for(iso: &str, l: Lang) -> String {
    Date::parse_iso_prefix(iso).map_or_else(|| iso.to_string(), |d| d.format_for(l))
}

/// The amount due today when fine, interest or discount change it, with
/// why in one line: `R$ 33,34 − desconto de R$ 5,00`.
fn due_today(l: Lang, i: &PayerInstallment) -> Option<impl IntoView> {
    let a = i.amount_due.as_ref().filter(|a| a.total != i.price)?;
    let mut why = format_brl(a.original, l);
    for (cents, sign, what) in [
        (a.discount, "−", &text::DISCOUNT_OF),
        (a.fine, "+", &text::FINE_OF),
        (a.interest, "+", &text::INTEREST_OF),
    ] {
        if cents > 0 {
            why += &format!(" {sign} {} {}", what.t(l), format_brl(cents, l));
        }
    }
    if a.late_days > 0 {
        why += &format!(" ({} {})", a.late_days, text::DAYS_LATE.t(l));
    }
    Some(view! {
        <p class="due-today" data-amount-due="">
            {text::DUE_TODAY.t(l)} ": " <strong>{format_brl(a.total, l)}</strong> " · " {why}
        </p>
    })
}

/// How to pay installment `i`: the amount due today and the terms, PIX (QR
/// code and copia e cola) and boleto (linha digitável, barcode, the
/// printable PDF), each code with its copy button.
#[component]
fn HowToPay(l: Lang, id: String, i: PayerInstallment, terms: Vec<String>) -> impl IntoView {
    let title = format!(
        "{} {} · {} · {} {}",
        text::INSTALLMENT.t(l),
        i.installment,
        format_brl(i.price - i.price_paid, l),
        text::DUE_DATE.t(l),
        date_for(&i.due_date, l)
    );
    let today = due_today(l, &i);
    let terms = (!terms.is_empty()).then(|| {
        view! {
            <ul class="terms" aria-label=text::PAYER_TERMS.t(l)>
                {terms.into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}
            </ul>
        }
    });
    // With a bank's API Pix, until the bank made the charge there is no code to show yet,
    // and none will come if the bank refused it (the payer is told, not why).
    let no_pix = if i.pix.is_some() {
        None
    } else if i.pix_automatico {
        Some(crate::pix_automatico::cycle_note(l).into_any())
    } else if i.pix_pending {
        Some(view! { <p class="pix-pending" role="status" data-pix-pending="">{text::PIX_PENDING.t(l)}</p> }.into_any())
    } else if i.pix_unavailable {
        Some(view! { <p class="pix-unavailable" data-pix-unavailable="">{text::PIX_UNAVAILABLE.t(l)}</p> }.into_any())
    } else {
        None
    };
    let no_pix = no_pix.map(|p| view! { <div class="method"><h3>"PIX"</h3>{p}</div> });
    // The two SVGs are markup drawn by paylink's own server (the model's QR and ITF-25
    // renderers) from the BR Code and the barcode's digits, with no text anyone else wrote.
    let pix = i.pix.map(|pix| {
        view! {
            <div class="method">
                <h3>"PIX"</h3>
                <div class="qr" role="img" aria-label=text::PIX_QR.t(l) inner_html=pix.qr_svg></div>
                <p class="label">{text::PIX_CODE.t(l)}</p>
                <p class="code" data-pix-payload="">{pix.payload.clone()}</p>
                <p><CopyButton l text=pix.payload label=text::COPY_PIX.t(l).to_string() /></p>
            </div>
        }
    });
    let n = i.installment;
    let boleto = i.boleto.map(|b| {
        let href = format!("/api/pay/{id}/installments/{n}/boleto.pdf");
        let print = format!("{href}?print=1");
        view! {
            <div class="method">
                <h3>"Boleto"</h3>
                <p class="label">{text::BOLETO_LINE.t(l)}</p>
                <p class="code" data-boleto-line="">{b.line.clone()}</p>
                <div class="barcode" aria-hidden="true" inner_html=b.barcode_svg></div>
                <p><CopyButton l text=b.line label=text::COPY_BOLETO.t(l).to_string() /></p>
                <p class="boleto-pdf">
                    <a href=href download="">{text::BOLETO_PDF.t(l)}</a>
                    " · "
                    <a href=print target="_blank" rel="noopener">{text::BOLETO_PRINT.t(l)}</a>
                </p>
            </div>
        }
    });
    view! {
        <h2>{title}</h2>
        {today}
        {terms}
        <div class="methods">{pix}{no_pix}{boleto}</div>
    }
}

/// The installments, with what is paid and each one's status.
#[component]
fn Installments<'a>(l: Lang, p: &'a PayerView) -> impl IntoView {
    let heads = [
        (&text::INSTALLMENT, ""),
        (&text::DUE_DATE, ""),
        (&text::AMOUNT, "num"),
        (&text::PAID, "num"),
        (&text::STATUS, ""),
    ];
    let label = move |c: usize| heads[c].0.t(l);
    let head = heads
        .iter()
        .map(|(t, class)| {
            view! { <th scope="col" role="columnheader" class=(!class.is_empty()).then_some(*class)>{t.t(l)}</th> }
        })
        .collect_view();
    let rows = p
        .installments
        .iter()
        .map(|i| {
            view! {
                <tr role="row">
                    <th scope="row" role="rowheader" data-label=label(0)>{i.installment}</th>
                    <td role="cell" data-label=label(1)><span>{date_for(&i.due_date, l)}</span></td>
                    <td role="cell" class="num" data-label=label(2)><span>{format_brl(i.price, l)}</span></td>
                    <td role="cell" class="num" data-label=label(3)><span>{format_brl(i.price_paid, l)}</span></td>
                    <td role="cell" data-label=label(4)>
                        <span class=status_badge(i.status)>{status_name(l, i.status)}</span>
                        {i.returned.map(|n| view! { <span class="returned">{n.reason(l)}</span> })}
                    </td>
                </tr>
            }
        })
        .collect_view();
    let total: i64 = p.installments.iter().map(|i| i.price).sum();
    let paid: i64 = p.installments.iter().map(|i| i.price_paid).sum();
    view! {
        <section aria-label=text::INSTALLMENTS.t(l)>
            <h2>{text::INSTALLMENTS.t(l)}</h2>
            <div class="table-wrap">
                <table role="table" class="installments stack">
                    <caption>{text::INSTALLMENTS.t(l)}</caption>
                    <thead role="rowgroup">
                        <tr role="row">{head}</tr>
                    </thead>
                    <tbody role="rowgroup">{rows}</tbody>
                    <tfoot role="rowgroup">
                        <tr role="row">
                            <th scope="row" role="rowheader" data-label=label(0)>{text::TOTAL.t(l)}</th>
                            <td role="cell"><span></span></td>
                            <td role="cell" class="num" data-label=label(2)><span>{format_brl(total, l)}</span></td>
                            <td role="cell" class="num" data-label=label(3)><span>{format_brl(paid, l)}</span></td>
                            <td role="cell"><span></span></td>
                        </tr>
                    </tfoot>
                </table>
            </div>
        </section>
    }
}

/// What a payer sees instead of the page: an unknown, cancelled or
/// unreadable invoice, with the service's message.
#[component]
pub fn Unavailable(title: &'static str, message: String) -> impl IntoView {
    view! {
        <div class="card">
            <h1>{title}</h1>
            <div class="alert" role="alert">
                <p>{message}</p>
            </div>
        </div>
    }
}
