//! Sections the invoice detail and the payer page both show, built once:
//! the facts list, the payment link with its copy button, the accepted
//! payment types and the installments table; and what the fetched screens
//! (detail, payer page, link page) show while loading or after a failed call.

use leptos::prelude::*;
use paylink_model::{Lang, PaymentType};
use web_sys::{Event, Node};

use crate::api;
use crate::components::html::{close, escape_into, leaf, open};
use crate::components::installments::{installment_table_html, Row};
use crate::dom::h;
use crate::i18n::{self, K};
use crate::pages::invoice_view::{copy, error_text};
use wasm_bindgen::JsCast;

/// `<dl class="facts">`: (label, value, class) per line. Static once built:
/// written as escaped HTML (see `table`), not as typed view code.
pub fn facts(items: Vec<(&'static str, String, &'static str)>) -> Node {
    let mut html = String::new();
    for (dt, dd, class) in &items {
        open(&mut html, "div", &[("class", class)]);
        leaf(&mut html, "dt", &[], dt);
        leaf(&mut html, "dd", &[], dd);
        close(&mut html, "div");
    }
    h("dl").class("facts").html(&html).into_node()
}

/// What the last copy button did ("Copiado!"), announced to screen readers.
pub fn copy_status(l: Lang, copied: RwSignal<Option<bool>>) -> Node {
    h("p")
        .attr("role", "status")
        .class("muted")
        .dyn_text(move || {
            match copied.get() {
                Some(true) => K::Copied.t(l),
                Some(false) => K::CopyFailed.t(l),
                None => "",
            }
            .to_string()
        })
        .into_node()
}

/// A click handler for a static section: a click on (or in) a button with
/// `data-copy` copies that text. The section is one HTML string, so its
/// copy buttons share this one handler instead of one listener each.
pub fn copy_clicked(copied: RwSignal<Option<bool>>) -> impl Fn(Event) + 'static {
    move |ev| {
        let text = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("button[data-copy]").ok().flatten())
            .and_then(|b| b.get_attribute("data-copy"));
        if let Some(text) = text {
            copy(text, copied);
        }
    }
}

/// `<button data-copy=text>label</button>` for a section built by [`copy_clicked`].
pub fn copy_button(html: &mut String, text: &str, label: &str) {
    // Written out: `open` leaves empty attributes out, and `data-copy` must stay.
    html.push_str("<button type=\"button\" class=\"secondary\" data-copy=\"");
    escape_into(html, text);
    html.push_str("\">");
    escape_into(html, label);
    close(html, "button");
}

/// The payment link (an `<a>` to the invoice url) and its copy button.
pub fn payment_link(l: Lang, url: String, copied: RwSignal<Option<bool>>) -> Node {
    let mut html = String::new();
    heading(&mut html, K::PaymentLink.t(l));
    open(&mut html, "p", &[("class", "paylink")]);
    leaf(&mut html, "a", &[("href", &url), ("class", "url")], &url);
    close(&mut html, "p");
    open(&mut html, "p", &[]);
    copy_button(&mut html, &url, K::CopyLink.t(l));
    close(&mut html, "p");
    h("section")
        .attr("aria-label", K::PaymentLink.t(l))
        .on("click", copy_clicked(copied))
        .html(&html)
        .into_node()
}

/// A `<section aria-label>` whose content is markup built by this module
/// (one shape of typed view code for every static section).
pub fn section_html(label: &'static str, html: String) -> Node {
    h("section")
        .attr("aria-label", label)
        .html(&html)
        .into_node()
}

/// `<h2>title</h2>` into `html`.
pub fn heading(html: &mut String, title: &str) {
    leaf(html, "h2", &[], title);
}

/// The accepted payment types, as chips.
pub fn accepted(l: Lang, types: Vec<PaymentType>) -> Node {
    let mut html = String::new();
    heading(&mut html, K::Accepted.t(l));
    open(&mut html, "ul", &[("class", "chips")]);
    for t in types {
        leaf(
            &mut html,
            "li",
            &[("class", "chip")],
            i18n::payment_type(l, t),
        );
    }
    close(&mut html, "ul");
    section_html(K::Accepted.t(l), html)
}

/// The installments of a created invoice, with paid amounts and statuses.
pub fn installments(l: Lang, rows: Vec<Row>) -> Node {
    let mut html = String::new();
    heading(&mut html, K::Installments.t(l));
    html.push_str(&installment_table_html(l, K::Installments.t(l), rows, true));
    section_html(K::Installments.t(l), html)
}

/// While a screen's data loads. `class`: `"card muted"`, plus `skeleton`
/// where embed.js's frame needs the page's height before the answer.
pub fn loading(l: Lang, class: &'static str) -> Node {
    h("p")
        .class(class)
        .attr("aria-busy", "true")
        .c(K::Loading.t(l))
        .into_node()
}

/// A fetched screen: `loading` (with `class`) until the answer, then the
/// failure or `body` of the data. Untracked: the caller's region reads the
/// answer's signal, and building the body must not subscribe it to more.
pub fn answered<T>(
    l: Lang,
    class: &'static str,
    answer: &Option<Result<T, api::Error>>,
    body: impl FnOnce(&T) -> Node,
) -> Option<Node> {
    untrack(|| {
        Some(match answer {
            None => loading(l, class),
            Some(Err(e)) => failed(l, e),
            Some(Ok(data)) => body(data),
        })
    })
}

/// A screen whose call failed: the envelope's message (or why there is none).
pub fn failed(l: Lang, e: &api::Error) -> Node {
    let alert = h("div")
        .class("alert")
        .attr("role", "alert")
        .c(h("p").c(error_text(l, e)));
    h("div").class("card").c(alert).into_node()
}
