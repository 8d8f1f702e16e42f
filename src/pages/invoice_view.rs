//! `/invoices/:id`: the merchant's detail of an invoice, fetched with
//! `GET /api/invoices/{id}`: amount, customer, installments, payment types,
//! the payment link, and the notification and webhook settings; the PIX
//! charges the bank refused; the actions on it beside (`invoice_actions`),
//! and what a cancelled one shows.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use paylink_model::br::{display_phone, mask_document};
use paylink_model::charges::ValueType;
use paylink_model::date::format_instant_brasilia;
use paylink_model::money::format_brl;
use paylink_model::{
    Installment, InstallmentStatus, InvoiceDetail, InvoiceState, Lang, ProviderStatus,
};

use crate::api;
use crate::components::installments::{date_for, Row};
use crate::components::poll::poll_while;
use crate::components::sections::{
    failed, Accepted, CopyStatus, Facts, Installments, Loading, PaymentLinkSection,
};
use crate::components::table::{Cell, Table};
use crate::i18n::backoffice::BK;
use crate::i18n::lists::{self, LK};
use crate::i18n::pix::{self as pix_texts, PK};
use crate::i18n::{self, K};
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
        <Transition fallback=move || view! { <Loading l=lang.get_untracked() class="card muted" /> }>
            <ErrorBoundary fallback=failed(lang)>
                {move || Suspend::new(async move {
                    let l = lang.get_untracked();
                    invoice.await.map(|loaded| match loaded {
                        Loaded::Live(inv) => view! { <InvoiceBody l inv=*inv /> }.into_any(),
                        Loaded::Cancelled(message) => view! { <CancelledBody l message /> }.into_any(),
                    })
                })}
            </ErrorBoundary>
        </Transition>
        <InvoiceActions id offer refetch />
    }
}

/// A cancelled charge: its state and what that means.
#[component]
fn CancelledBody(l: Lang, message: String) -> impl IntoView {
    view! {
        <article class="card invoice">
            <h1>{K::Invoice.t(l)}</h1>
            <dl class="facts">
                <div>
                    <dt>{BK::Status.t(l)}</dt>
                    <dd>
                        <span class="badge reversed" data-state="cancelled">
                            {lists::state(l, InvoiceState::Cancelled)}
                        </span>
                    </dd>
                </div>
            </dl>
            <p>{message}</p>
            <p class="muted">{BK::CancelledNote.t(l)}</p>
            <p><a href="/invoices">{LK::Invoices.t(l)}</a></p>
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
            K::Amount.t(l),
            if inv.price_by_customer {
                K::AmountByPayer.t(l).to_string()
            } else {
                format_brl(inv.price, l)
            },
            "amount",
        ),
        (K::DueDate.t(l), date_for(&inv.due_date, l), ""),
        (
            K::InvoiceTypeLabel.t(l),
            i18n::invoice_type(l, inv.invoice_type).to_string(),
            "",
        ),
        (K::Customer.t(l), c.full_name.clone(), ""),
    ];
    if !contact.is_empty() {
        facts.push((K::Contact.t(l), contact.join(" · "), ""));
    }
    if let Some(d) = &inv.description {
        facts.push((K::Description.t(l), d.clone(), "wide description"));
    }
    // Fine, interest and discount, as they were stored.
    if let Some(v) = inv
        .fine
        .as_ref()
        .and_then(|f| term_value(l, f.kind.as_deref(), f.value))
    {
        facts.push((K::Fine.t(l), v, ""));
    }
    if let Some(v) = inv
        .interest
        .as_ref()
        .and_then(|i| term_value(l, None, i.value))
    {
        facts.push((K::Interest.t(l), format!("{v} {}", K::PerMonth.t(l)), ""));
    }
    if let Some(d) = &inv.discount {
        if let Some(v) = term_value(l, d.kind.as_deref(), d.value) {
            let until = d
                .until_date
                .as_deref()
                .map(|u| date_for(u, l))
                .unwrap_or_default();
            facts.push((
                K::Discount.t(l),
                format!("{v} {} {until}", K::Until.t(l)),
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
            <h1>{K::Invoice.t(l)}</h1>
            <Facts items=facts />
            <PaymentLinkSection l url copied server_page=true />
            <CopyStatus l copied />
            <Accepted l types />
            <Installments l rows />
            <PixProblems l installments=inv.installments.clone() />
            <PixCycles l cycles=inv.pix_automatico.as_ref().map(|a| a.cycles.clone()).unwrap_or_default() />
            <Settings l inv />
            <p><a href="/">{K::NewInvoice.t(l)}</a></p>
        </article>
    }
}

/// Each installment whose PIX charge the bank refused or holds differently: what the bank
/// said, and what the merchant can do. Shown like an alert, but without `role="alert"`: the
/// detail is fetched again every few seconds while an installment is open, and a live region
/// would be announced again each time.
#[component]
fn PixProblems(l: Lang, installments: Vec<Installment>) -> impl IntoView {
    installments
        .into_iter()
        .filter_map(|i| {
            let charge = i.pix_charge?;
            let (heading, label) = pix_texts::problem(l, charge.state, i.installment)?;
            let id = format!("pix-problem-{}", i.installment);
            let heading_id = format!("{id}-h");
            let labelled_by = heading_id.clone();
            let reasons = charge
                .reasons
                .into_iter()
                .map(|r| view! { <li>{r}</li> })
                .collect::<Vec<_>>();
            Some(view! {
                <section class="alert pix-problem" id=id aria-labelledby=labelled_by>
                    <h2 id=heading_id>{heading}</h2>
                    <p>{label}":"</p>
                    <ul>{reasons}</ul>
                    <p>{PK::WhatToDo.t(l)}</p>
                </section>
            })
        })
        .collect::<Vec<_>>()
}

/// Each later cycle of the Pix Automático recurrence sent to the payer's bank, one row per
/// attempt (a cycle the bank never scheduled has one row without one): when, what became of it
/// and, rejected, why, in the bank's words and code.
#[component]
fn PixCycles(l: Lang, cycles: Vec<paylink_model::PixAutomaticoCycle>) -> impl IntoView {
    if cycles.is_empty() {
        return None;
    }
    let mut rows = Vec::new();
    for c in &cycles {
        let cycle = |rows: &mut Vec<Vec<Cell>>, attempt: Option<&paylink_model::CycleAttempt>| {
            let due = date_for(&c.due_date, l);
            let mut cells = vec![
                Cell::num(c.installment.to_string()),
                Cell::new(due),
                Cell::new(c.outcome(l)),
            ];
            cells.extend(match attempt {
                Some(a) => [
                    Cell::new(date_for(&a.date, l)),
                    Cell::new(a.kind_text(l)),
                    Cell::new(a.status_text(l)),
                    Cell::new(a.reason_text(l).unwrap_or_default()),
                ],
                None => [Cell::new(""), Cell::new(""), Cell::new(""), Cell::new("")],
            });
            rows.push(cells);
        };
        if c.attempts.is_empty() {
            cycle(&mut rows, None);
        }
        for a in &c.attempts {
            cycle(&mut rows, Some(a));
        }
    }
    let title = PK::Cycles.t(l);
    Some(view! {
        <section class="pix-cycles" aria-label=title>
            <h2>{title}</h2>
            <Table
                caption=title
                head=vec![
                    (PK::Installment.t(l), "num"),
                    (PK::DueDate.t(l), ""),
                    (PK::Cycle.t(l), ""),
                    (PK::AttemptDate.t(l), ""),
                    (PK::AttemptKind.t(l), ""),
                    (PK::AttemptStatus.t(l), ""),
                    (PK::Reason.t(l), ""),
                ]
                rows
            />
        </section>
    })
}

/// What was sent to the payer (each send that is no longer only scheduled: channel, to whom
/// masked, when, where it stands, the provider's id, the last error), then the notification
/// and webhook settings (merchant detail only).
#[component]
fn Settings(l: Lang, inv: InvoiceDetail) -> impl IntoView {
    let notifications: Vec<Vec<Cell>> = [
        &inv.notification_before_due_date,
        &inv.notification_after_due_date,
        &inv.notification_after_payment,
        &inv.notification_send_types,
    ]
    .into_iter()
    .flatten()
    .map(|n| {
        vec![
            Cell::new(i18n::notification_type(l, n.kind)),
            Cell::new(i18n::channel(l, n.channel)),
            Cell::num(n.period.map(|p| p.to_string()).unwrap_or_default()),
        ]
    })
    .collect();
    let webhooks: Vec<Vec<Cell>> = inv
        .webhooks
        .iter()
        .map(|w| {
            vec![
                Cell::new(i18n::hook_type(l, w.hook_type)),
                Cell {
                    class: "break",
                    ..Cell::new(w.url.clone())
                },
            ]
        })
        .collect();
    let sends: Vec<Vec<Cell>> = [
        &inv.notification_before_due_date,
        &inv.notification_after_due_date,
        &inv.notification_after_payment,
        &inv.notification_send_types,
    ]
    .into_iter()
    .flatten()
    .flat_map(|n| n.sends.iter().map(move |s| (n, s)))
    .filter(|(_, s)| s.status != "pending" || s.last_error.is_some())
    .map(|(n, s)| {
        let when = s.provider_status_at.as_deref().or(s.sent_at.as_deref());
        vec![
            Cell::new(i18n::notification_type(l, n.kind)),
            Cell::new(i18n::channel(l, s.channel.unwrap_or(n.channel))),
            Cell::new(s.to.clone().unwrap_or_else(|| "—".into())),
            Cell::new(
                when.map_or_else(|| date_for(&s.due_at, l), |w| format_instant_brasilia(w, l)),
            ),
            Cell {
                badge: send_badge(&s.status, s.provider_status),
                ..Cell::new(i18n::send_status(l, &s.status, s.provider_status))
            },
            Cell {
                class: "break",
                ..Cell::new(s.provider_id.clone().unwrap_or_default())
            },
            Cell {
                class: "break",
                ..Cell::new(s.last_error.clone().unwrap_or_default())
            },
        ]
    })
    .collect();
    view! {
        <SettingsSection
            l
            title=K::NotificationSends
            head=vec![
                (K::NotificationType.t(l), ""),
                (K::Channel.t(l), ""),
                (K::SentTo.t(l), ""),
                (K::When.t(l), ""),
                (K::Status.t(l), ""),
                (K::ProviderId.t(l), ""),
                (K::LastError.t(l), ""),
            ]
            rows=sends
        />
        <SettingsSection
            l
            title=K::ConfiguredNotifications
            head=vec![(K::NotificationType.t(l), ""), (K::Channel.t(l), ""), (K::Days.t(l), "num")]
            rows=notifications
        />
        <SettingsSection l title=K::ConfiguredWebhooks head=vec![(K::HookType.t(l), ""), ("URL", "")] rows=webhooks />
    }
}

/// The badge of a send's state: delivered or read as paid installments are shown, a
/// failure as a reversal, the rest as waiting.
fn send_badge(status: &str, provider: Option<ProviderStatus>) -> &'static str {
    match (provider, status) {
        (Some(ProviderStatus::Read | ProviderStatus::Delivered), _) => "badge confirmed",
        (Some(ProviderStatus::Failed), _) | (_, "failed") => "badge reversed",
        _ => "badge waiting",
    }
}

/// A settings table under its heading, or "none".
#[component]
fn SettingsSection(
    l: Lang,
    title: K,
    head: Vec<(&'static str, &'static str)>,
    rows: Vec<Vec<Cell>>,
) -> impl IntoView {
    let title = title.t(l);
    let body = if rows.is_empty() {
        view! { <p class="muted">{K::None.t(l)}</p> }.into_any()
    } else {
        view! { <Table caption=title head rows /> }.into_any()
    };
    view! {
        <section aria-label=title>
            <h2>{title}</h2>
            {body}
        </section>
    }
}
