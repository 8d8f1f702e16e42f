//! The payment side of an invoice's detail: the Pix charges the bank refused or holds
//! differently, the devoluções of its Pix, and its Pix Automático cycles.

use leptos::prelude::*;
use paylink_model::{Installment, Lang};
use paylink_text as text;

use crate::components::installments::date_for;
use crate::components::table::{Cell, Table};
use crate::i18n;

/// Each installment whose PIX charge the bank refused or holds differently: what the bank
/// said, and what the merchant can do. Shown like an alert, but without `role="alert"`: the
/// detail is fetched again every few seconds while an installment is open, and a live region
/// would be announced again each time.
#[component]
pub(super) fn PixProblems(l: Lang, installments: Vec<Installment>) -> impl IntoView {
    installments
        .into_iter()
        .filter_map(|i| {
            let charge = i.pix_charge?;
            let (heading, label) = i18n::pix_problem(l, charge.state, i.installment)?;
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
                    <p>{text::WHAT_TO_DO.t(l)}</p>
                </section>
            })
        })
        .collect::<Vec<_>>()
}

/// Each devolução of an installment's Pix the bank reported (a refund, a MED return), one line
/// each: the installment, the reason in words, the amount, where it stands and when it was
/// settled. Nothing when no Pix came back.
#[component]
pub(super) fn Devolucoes(l: Lang, installments: Vec<Installment>) -> impl IntoView {
    let lines = installments
        .iter()
        .flat_map(|i| i.devolucoes.iter().map(move |d| (i.installment, d.clone())))
        .map(|(n, d)| {
            let when = d
                .settled_at
                .as_deref()
                .map(|s| format!(" ({})", date_for(s, l)))
                .unwrap_or_default();
            let text = format!(
                "{} {n}: {} — {}, {}{when}",
                text::INSTALLMENT.t(l),
                d.natureza.reason(l),
                paylink_model::money::format_brl(d.amount, l),
                d.status.label(l),
            );
            view! { <li class="devolucao" data-natureza=d.natureza.as_str()>{text}</li> }
        })
        .collect::<Vec<_>>();
    (!lines.is_empty()).then(|| {
        view! {
            <section class="devolucoes" aria-labelledby="devolucoes-h">
                <h2 id="devolucoes-h">{text::RETURNED.t(l)}</h2>
                <ul>{lines}</ul>
            </section>
        }
    })
}

/// Each later cycle of the Pix Automático recurrence sent to the payer's bank, one row per
/// attempt (a cycle the bank never scheduled has one row without one): when, what became of it
/// and, rejected, why, in the bank's words and code.
#[component]
pub(super) fn PixCycles(l: Lang, cycles: Vec<paylink_model::PixAutomaticoCycle>) -> impl IntoView {
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
    let title = text::CYCLES.t(l);
    Some(view! {
        <section class="pix-cycles" aria-label=title>
            <h2>{title}</h2>
            <Table
                caption=title
                head=vec![
                    (text::INSTALLMENT.t(l), "num"),
                    (text::DUE_DATE.t(l), ""),
                    (text::CYCLE.t(l), ""),
                    (text::ATTEMPT_DATE.t(l), ""),
                    (text::ATTEMPT_KIND.t(l), ""),
                    (text::ATTEMPT_STATUS.t(l), ""),
                    (text::REASON.t(l), ""),
                ]
                rows
            />
        </section>
    })
}
