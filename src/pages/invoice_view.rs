//! `/invoices/{id}`: the merchant's detail of an invoice, fetched with
//! `GET /api/invoices/{id}`: amount, customer, installments, payment types,
//! the payment link, and the notification and webhook settings.

use leptos::prelude::*;
use leptos::task::spawn_local;
use paylink_model::br::{mask_document, mask_phone};
use paylink_model::money::format_brl;
use paylink_model::{InstallmentStatus, InvoiceDetail, Lang};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::Node;

use crate::api;
use crate::components::html::leaf;
use crate::components::installments::{br_date, Row};
use crate::components::sections;
use crate::components::table::{table_html, Cell};
use crate::dom::{frag, h, region};
use crate::i18n::{self, K};
use crate::Ctx;

/// The text shown for a failed call.
pub fn error_text(l: Lang, e: &api::Error) -> String {
    match e {
        api::Error::Api(env) => env.message.clone(),
        api::Error::Network => K::Network.t(l).to_string(),
        api::Error::BadResponse => K::BadResponse.t(l).to_string(),
    }
}

// Not inlined into the App's screen switch: a screen's code is compiled
// by the browser when it is first shown, not with the customer form.
#[inline(never)]
pub fn invoice_view(l: Lang, ctx: Ctx, id: String) -> Node {
    let invoice = LocalResource::new(move || {
        let id = id.clone();
        async move { api::get_invoice(&id, l).await }
    });
    // A payment confirmed elsewhere shows up without a reload.
    crate::components::poll::poll_while(
        move || invoice.refetch(),
        move || {
            invoice.with_untracked(|r| match r {
                None => true,
                Some(Err(_)) => false,
                Some(Ok(d)) => d
                    .installments
                    .iter()
                    .any(|i| i.status == InstallmentStatus::WaitingPayment),
            })
        },
    );
    // `with`, not `get`: no copy of the whole invoice on each render.
    region(move || {
        invoice.with(|r| sections::answered(l, "card muted", r, |inv| invoice_body(l, ctx, inv)))
    })
}

/// Copies `url` with the asynchronous clipboard API and reports the outcome.
pub fn copy(url: String, done: RwSignal<Option<bool>>) {
    spawn_local(async move {
        let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
            return;
        };
        let has_clipboard = js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard"))
            .is_ok_and(|c| !c.is_undefined() && !c.is_null());
        let ok = has_clipboard
            && JsFuture::from(nav.clipboard().write_text(&url))
                .await
                .is_ok();
        done.set(Some(ok));
    });
}

fn invoice_body(l: Lang, ctx: Ctx, inv: &InvoiceDetail) -> Node {
    let copied = RwSignal::new(None::<bool>);
    let c = &inv.customer;
    let contact: Vec<String> = [
        c.document.as_deref().map(mask_document),
        c.email.clone(),
        c.phone.as_deref().map(mask_phone),
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
        (K::DueDate.t(l), br_date(&inv.due_date), ""),
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
    let settings = settings(l, inv);

    h("article")
        .class("card invoice")
        .c(h("h1").c(K::Invoice.t(l)))
        .c(sections::facts(facts))
        .c(sections::payment_link(l, inv.url.clone(), copied))
        .c(sections::copy_status(l, copied))
        .c(sections::accepted(l, types))
        .c(sections::installments(l, rows))
        .c(settings)
        .c(h("p").c(ctx.link("/", K::NewInvoice.t(l))))
        .into_node()
}

/// The notification and webhook settings (merchant detail only).
fn settings(l: Lang, inv: &InvoiceDetail) -> Node {
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
    let section = |title: K, head: &[(&str, &str)], rows: Vec<Vec<Cell>>| {
        let mut html = String::new();
        sections::heading(&mut html, title.t(l));
        if rows.is_empty() {
            leaf(&mut html, "p", &[("class", "muted")], K::None.t(l));
        } else {
            html.push_str(&table_html("", title.t(l), head, &rows, None));
        }
        sections::section_html(title.t(l), html)
    };
    frag(vec![
        section(
            K::ConfiguredNotifications,
            &[
                (K::NotificationType.t(l), ""),
                (K::Channel.t(l), ""),
                (K::Days.t(l), "num"),
            ],
            notifications,
        ),
        section(
            K::ConfiguredWebhooks,
            &[(K::HookType.t(l), ""), ("URL", "")],
            webhooks,
        ),
    ])
}
