//! The widget's tables: [`Table`] for tables of text (installments,
//! notifications, webhooks), [`ListTable`] for the list screens' tables of links and buttons.

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

/// `Some(s)` unless `s` is empty (an attribute left out when empty).
fn non_empty(s: &'static str) -> Option<&'static str> {
    (!s.is_empty()).then_some(s)
}

/// One row. Each cell carries its column's title as `data-label`: on phones a
/// `stack` table shows its rows as small cards with those titles (CSS).
/// The roles are explicit because a table whose display CSS changes loses
/// its implicit table roles in some browsers (Safari).
#[component]
fn Row(cells: Vec<Cell>, labels: Vec<&'static str>) -> impl IntoView {
    let cells = cells
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let label = (!c.text.is_empty())
                .then(|| labels.get(i).copied())
                .flatten();
            // The first cell heads its row.
            if i == 0 {
                view! {
                    <th scope="row" role="rowheader" class=non_empty(c.class) data-label=label>
                        {c.text}
                    </th>
                }
                .into_any()
            } else {
                view! {
                    <td role="cell" class=non_empty(c.class) data-label=label>
                        <span class=non_empty(c.badge)>{c.text}</span>
                    </td>
                }
                .into_any()
            }
        })
        .collect_view();
    view! { <tr role="row">{cells}</tr> }
}

/// The header row's cells: (title, class) per column.
fn header(head: &[(&'static str, &'static str)]) -> impl IntoView {
    head.iter()
        .map(|(title, class)| {
            view! { <th scope="col" role="columnheader" class=non_empty(class)>{*title}</th> }
        })
        .collect_view()
}

/// A list screen's table (`stack list`, in its `table-wrap`): `head` is (title, class) per
/// column, and the rows are the caller's children, whose cells are links and buttons (each
/// cell with its column's title as `data-label`, as [`Row`] gives them).
#[component]
pub fn ListTable(
    caption: &'static str,
    head: Vec<(&'static str, &'static str)>,
    children: Children,
) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table role="table" class="stack list">
                <caption>{caption}</caption>
                <thead role="rowgroup">
                    <tr role="row">{header(&head)}</tr>
                </thead>
                <tbody role="rowgroup">{children()}</tbody>
            </table>
        </div>
    }
}

/// A table in its `<div class="table-wrap">` (which scrolls it sideways on
/// narrow screens); `head` is (title, class) per column.
#[component]
pub fn Table(
    #[prop(optional)] class: &'static str,
    caption: &'static str,
    head: Vec<(&'static str, &'static str)>,
    rows: Vec<Vec<Cell>>,
    #[prop(optional)] foot: Option<Vec<Cell>>,
) -> impl IntoView {
    let labels: Vec<&'static str> = head.iter().map(|(t, _)| *t).collect();
    let head = header(&head);
    let body = rows
        .into_iter()
        .map(|cells| view! { <Row cells labels=labels.clone() /> })
        .collect_view();
    let foot = foot.map(|cells| {
        view! {
            <tfoot role="rowgroup">
                <Row cells labels=labels.clone() />
            </tfoot>
        }
    });
    view! {
        <div class="table-wrap">
            <table role="table" class=non_empty(class)>
                <caption>{caption}</caption>
                <thead role="rowgroup">
                    <tr role="row">{head}</tr>
                </thead>
                <tbody role="rowgroup">{body}</tbody>
                {foot}
            </table>
        </div>
    }
}
