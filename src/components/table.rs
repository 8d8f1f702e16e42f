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

fn cells(row: Vec<Cell>) -> AnyView {
    let mut it = row.into_iter();
    // The first cell heads its row.
    let first = it
        .next()
        .map(|c| view! { <th scope="row" class=opt(c.class)>{c.text}</th> });
    let rest = it
        .map(|c| {
            view! {
                <td class=opt(c.class)>
                    <span class=opt(c.badge)>{c.text}</span>
                </td>
            }
        })
        .collect_view();
    view! { <tr>{first}{rest}</tr> }.into_any()
}

/// `head`: (column title, class). `foot`: an optional totals row.
pub fn table(
    class: &'static str,
    caption: &'static str,
    head: Vec<(&'static str, &'static str)>,
    rows: Vec<Vec<Cell>>,
    foot: Option<Vec<Cell>>,
) -> AnyView {
    let head = head
        .into_iter()
        .map(|(t, c)| view! { <th scope="col" class=opt(c)>{t}</th> })
        .collect_view();
    let body = rows.into_iter().map(cells).collect_view();
    view! {
        <div class="table-wrap">
            <table class=opt(class)>
                <caption>{caption}</caption>
                <thead><tr>{head}</tr></thead>
                <tbody>{body}</tbody>
                {foot.map(|f| view! { <tfoot>{cells(f)}</tfoot> })}
            </table>
        </div>
    }
    .into_any()
}
