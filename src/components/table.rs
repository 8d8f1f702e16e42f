//! One `<table>` renderer for every table of the widget (installments,
//! preview, notifications, webhooks). The tables are static once built, so
//! they are written as one HTML string (escaped) and set as the inner HTML
//! of their wrapper: one code path whatever the columns, and none of the
//! per-element typed view code that Leptos' `view!` generates for each
//! table shape (bench/widget-size).

use crate::components::html::{close, escape_into, leaf, open};

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

/// One row. Each cell carries its column's title as `data-label`: on phones a
/// `stack` table shows its rows as small cards with those titles (CSS).
/// The roles are explicit because a table whose display CSS changes loses
/// its implicit table roles in some browsers (Safari).
fn row(out: &mut String, row: &[Cell], labels: &[&str]) {
    open(out, "tr", &[("role", "row")]);
    for (i, c) in row.iter().enumerate() {
        let label = if c.text.is_empty() {
            ""
        } else {
            labels.get(i).copied().unwrap_or("")
        };
        // The first cell heads its row.
        let (tag, scope, role) = if i == 0 {
            ("th", "row", "rowheader")
        } else {
            ("td", "", "cell")
        };
        open(
            out,
            tag,
            &[
                ("scope", scope),
                ("role", role),
                ("class", c.class),
                ("data-label", label),
            ],
        );
        if i > 0 {
            open(out, "span", &[("class", c.badge)]);
        }
        escape_into(out, &c.text);
        if i > 0 {
            close(out, "span");
        }
        close(out, tag);
    }
    close(out, "tr");
}

/// The table's markup, in its `<div class="table-wrap">` (which scrolls it
/// sideways on narrow screens).
pub fn table_html(
    class: &str,
    caption: &str,
    head: &[(&str, &str)],
    rows: &[Vec<Cell>],
    foot: Option<&[Cell]>,
) -> String {
    let labels: Vec<&str> = head.iter().map(|(t, _)| *t).collect();
    let mut out = String::with_capacity(256 + 160 * rows.len());
    open(&mut out, "div", &[("class", "table-wrap")]);
    open(&mut out, "table", &[("role", "table"), ("class", class)]);
    leaf(&mut out, "caption", &[], caption);
    open(&mut out, "thead", &[("role", "rowgroup")]);
    open(&mut out, "tr", &[("role", "row")]);
    for (title, class) in head {
        leaf(
            &mut out,
            "th",
            &[("scope", "col"), ("role", "columnheader"), ("class", class)],
            title,
        );
    }
    close(&mut out, "tr");
    close(&mut out, "thead");
    open(&mut out, "tbody", &[("role", "rowgroup")]);
    for r in rows {
        row(&mut out, r, &labels);
    }
    close(&mut out, "tbody");
    if let Some(f) = foot {
        open(&mut out, "tfoot", &[("role", "rowgroup")]);
        row(&mut out, f, &labels);
        close(&mut out, "tfoot");
    }
    close(&mut out, "table");
    close(&mut out, "div");
    out
}

/// Markup built by this module, shown in a `<div>`.
pub fn table_view(html: String) -> web_sys::Node {
    crate::dom::h("div").html(&html).into_node()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_escaped_and_labelled() {
        let html = table_html(
            "installments",
            "Parcelas",
            &[("Nº", ""), ("Valor", "num")],
            &[vec![Cell::new("1"), Cell::num("<b>&\"x\"</b>")]],
            Some(&[Cell::new("Total"), Cell::default()]),
        );
        assert_eq!(
            html,
            "<div class=\"table-wrap\"><table role=\"table\" class=\"installments\"><caption>Parcelas</caption>\
             <thead role=\"rowgroup\"><tr role=\"row\">\
             <th scope=\"col\" role=\"columnheader\">Nº</th>\
             <th scope=\"col\" role=\"columnheader\" class=\"num\">Valor</th></tr></thead>\
             <tbody role=\"rowgroup\"><tr role=\"row\">\
             <th scope=\"row\" role=\"rowheader\" data-label=\"Nº\">1</th>\
             <td role=\"cell\" class=\"num\" data-label=\"Valor\"><span>&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;</span></td>\
             </tr></tbody><tfoot role=\"rowgroup\"><tr role=\"row\">\
             <th scope=\"row\" role=\"rowheader\" data-label=\"Nº\">Total</th>\
             <td role=\"cell\"><span></span></td></tr></tfoot></table></div>"
        );
    }
}
