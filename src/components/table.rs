//! One `<table>` renderer for every table of the widget (installments,
//! preview, notifications, webhooks): the same code path whatever the
//! columns, which keeps the wasm small.

use leptos::prelude::*;

/// A cell: its text, a class for the `<td>` (`num` aligns amounts) and an
/// optional badge class (the text is then shown as a badge).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    pub text: String,
    pub class: &'static str,
    pub badge: &'static str,
}

impl Cell {
    pub fn new(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            ..Cell::default()
        }
    }

    pub fn num(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            class: "num",
            ..Cell::default()
        }
    }
}

fn opt(s: &'static str) -> Option<&'static str> {
    (!s.is_empty()).then_some(s)
}

/// One row. Each cell carries its column's title as `data-label`: on phones a
/// `stack` table shows its rows as small cards with those titles (CSS).
/// The roles are explicit because a table whose display CSS changes loses
/// its implicit table roles in some browsers (Safari).
fn cells(row: Vec<Cell>, labels: &[&'static str]) -> AnyView {
    let label = |i: usize, c: &Cell| {
        (!c.text.is_empty())
            .then(|| labels.get(i).copied())
            .flatten()
    };
    let mut it = row.into_iter().enumerate();
    // The first cell heads its row.
    let first = it.next().map(|(i, c)| {
        let dl = label(i, &c);
        view! { <th scope="row" role="rowheader" class=opt(c.class) data-label=dl>{c.text}</th> }
    });
    let rest = it
        .map(|(i, c)| {
            let dl = label(i, &c);
            view! {
                <td role="cell" class=opt(c.class) data-label=dl>
                    <span class=opt(c.badge)>{c.text}</span>
                </td>
            }
        })
        .collect_view();
    view! { <tr role="row">{first}{rest}</tr> }.into_any()
}

/// `head`: (column title, class). `foot`: an optional totals row.
pub fn table(
    class: &'static str,
    caption: &'static str,
    head: Vec<(&'static str, &'static str)>,
    rows: Vec<Vec<Cell>>,
    foot: Option<Vec<Cell>>,
) -> AnyView {
    let labels: Vec<&'static str> = head.iter().map(|(t, _)| *t).collect();
    let head = head
        .into_iter()
        .map(|(t, c)| view! { <th scope="col" role="columnheader" class=opt(c)>{t}</th> })
        .collect_view();
    let body = rows.into_iter().map(|r| cells(r, &labels)).collect_view();
    let foot = foot.map(|f| view! { <tfoot role="rowgroup">{cells(f, &labels)}</tfoot> });
    view! {
        <div class="table-wrap">
            <table role="table" class=opt(class)>
                <caption>{caption}</caption>
                <thead role="rowgroup"><tr role="row">{head}</tr></thead>
                <tbody role="rowgroup">{body}</tbody>
                {foot}
            </table>
        </div>
    }
    .into_any()
}
