//! The installments table: the live preview of the invoice form and the
//! installments of a created invoice (with paid amount and status).

use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::{Date, InstallmentStatus, Lang, PlannedInstallment};
use paylink_text as text;
use paylink_ui::status::{status_badge, status_name};

use crate::components::table::{Cell, Table};

/// One line of the table. `paid`/`status` are shown when the table has them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub number: u32,
    /// Shown as the language writes dates (`dd/mm/aaaa`, `yyyy-mm-dd`);
    /// `None`: the API's text was unreadable, shown empty.
    pub due: Option<Date>,
    pub cents: i64,
    pub paid: Option<i64>,
    pub status: Option<InstallmentStatus>,
}

impl Row {
    /// An installment of a created invoice, as the detail and the payer view
    /// both show it (`due_iso` is the API's date).
    pub fn stated(
        number: u32,
        due_iso: &str,
        cents: i64,
        paid: i64,
        status: InstallmentStatus,
    ) -> Row {
        Row {
            number,
            due: Date::parse_iso_prefix(due_iso),
            cents,
            paid: Some(paid),
            status: Some(status),
        }
    }

    pub fn planned(p: &PlannedInstallment) -> Row {
        Row {
            number: p.number,
            due: Some(p.due_date),
            cents: p.price_cents,
            paid: None,
            status: None,
        }
    }
}

/// An ISO date or date-time of the API as the language writes dates:
/// `dd/mm/aaaa` in pt-BR, `yyyy-mm-dd` in English, as the date fields take
/// them (as given if unreadable).
pub fn date_for(iso: &str, l: Lang) -> String {
    Date::parse_iso_prefix(iso).map_or_else(|| iso.to_string(), |d| d.format_for(l))
}

/// The installments table; `detail`: also the paid and status columns (a
/// created invoice).
#[component]
pub fn InstallmentTable(
    l: Lang,
    caption: &'static str,
    rows: Vec<Row>,
    detail: bool,
) -> impl IntoView {
    let total: i64 = rows.iter().map(|r| r.cents).sum();
    let paid_total: i64 = rows.iter().filter_map(|r| r.paid).sum();
    let mut head = vec![
        (text::INSTALLMENT.t(l), ""),
        (text::DUE_DATE.t(l), ""),
        (text::AMOUNT.t(l), "num"),
    ];
    let mut foot = vec![
        Cell::new(text::TOTAL.t(l)),
        Cell::default(),
        Cell::num(format_brl(total, l)),
    ];
    if detail {
        head.push((text::PAID.t(l), "num"));
        head.push((text::STATUS.t(l), ""));
        foot.push(Cell::num(format_brl(paid_total, l)));
        foot.push(Cell::default());
    }
    let rows: Vec<Vec<Cell>> = rows
        .into_iter()
        .map(|r| {
            let mut cells = vec![
                Cell::new(r.number.to_string()),
                Cell::new(r.due.map(|d| d.format_for(l)).unwrap_or_default()),
                Cell::num(format_brl(r.cents, l)),
            ];
            if detail {
                cells.push(Cell::num(format_brl(r.paid.unwrap_or(0), l)));
                cells.push(match r.status {
                    Some(s) => Cell {
                        text: status_name(l, s).to_string(),
                        badge: status_badge(s),
                        ..Cell::default()
                    },
                    None => Cell::default(),
                });
            }
            cells
        })
        .collect();
    // A created invoice's five columns do not fit a phone: its rows stack there.
    let class = if detail {
        "installments stack"
    } else {
        "installments"
    };
    view! { <Table class caption head rows foot /> }
}
