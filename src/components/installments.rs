//! The installments table of a created invoice (with paid amount and status); the invoice
//! form's live preview is `paylink_ui::preview`.

use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::{Date, InstallmentStatus, Lang};
use paylink_text as text;
use paylink_ui::status::{status_badge, status_name};

use crate::components::table::{Cell, Table};

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub number: u32,
    /// Shown as the language writes dates (`dd/mm/aaaa`, `yyyy-mm-dd`);
    /// `None`: the API's text was unreadable, shown empty.
    pub due: Option<Date>,
    pub cents: i64,
    pub paid: i64,
    pub status: InstallmentStatus,
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
            paid,
            status,
        }
    }
}

/// An ISO date or date-time of the API as the language writes dates:
/// `dd/mm/aaaa` in pt-BR, `yyyy-mm-dd` in English, as the date fields take
/// them (as given if unreadable).
pub fn date_for(iso: &str, l: Lang) -> String {
    Date::parse_iso_prefix(iso).map_or_else(|| iso.to_string(), |d| d.format_for(l))
}

/// The installments table, with the paid and status columns.
#[component]
pub fn InstallmentTable(l: Lang, caption: &'static str, rows: Vec<Row>) -> impl IntoView {
    let total: i64 = rows.iter().map(|r| r.cents).sum();
    let paid_total: i64 = rows.iter().map(|r| r.paid).sum();
    let head = vec![
        (text::INSTALLMENT.t(l), ""),
        (text::DUE_DATE.t(l), ""),
        (text::AMOUNT.t(l), "num"),
        (text::PAID.t(l), "num"),
        (text::STATUS.t(l), ""),
    ];
    let foot = vec![
        Cell::new(text::TOTAL.t(l)),
        Cell::default(),
        Cell::num(format_brl(total, l)),
        Cell::num(format_brl(paid_total, l)),
        Cell::default(),
    ];
    let rows: Vec<Vec<Cell>> = rows
        .into_iter()
        .map(|r| {
            vec![
                Cell::new(r.number.to_string()),
                Cell::new(r.due.map(|d| d.format_for(l)).unwrap_or_default()),
                Cell::num(format_brl(r.cents, l)),
                Cell::num(format_brl(r.paid, l)),
                Cell {
                    text: status_name(l, r.status).to_string(),
                    badge: status_badge(r.status),
                    ..Cell::default()
                },
            ]
        })
        .collect();
    // Five columns do not fit a phone: the rows stack there.
    view! { <Table class="installments stack" caption head rows foot /> }
}
