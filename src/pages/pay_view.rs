//! `/pay/{id}`: the payer's page, from `GET /api/pay/{id}` (the model's
//! `PayerView`: no document, e-mail, phone, notifications or webhooks).
//! Shows what is owed, how to pay the next open installment (PIX QR and
//! "copia e cola", boleto line), the installments and the payment link.

use leptos::prelude::*;
use leptos::task::spawn_local;
use paylink_model::money::format_brl;
use paylink_model::{InstallmentStatus, Lang, PayerView};
use web_sys::Node;

use crate::api;
use crate::components::html::{close, escape_into, leaf, open};
use crate::components::installments::{br_date, Row};
use crate::components::sections::{self, copy_button};
use crate::dom::{h, region};
use crate::i18n::K;

// Not inlined into the App's screen switch: a screen's code is compiled
// by the browser when it is first shown, not with the customer form.
#[inline(never)]
pub fn pay_view(l: Lang, ctx: crate::Ctx, id: String) -> Node {
    // Count the visit (best effort), once per invoice and page load: the
    // screen re-renders on a language switch, which is not a new visit.
    thread_local! {
        static RECORDED: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if RECORDED.with(|r| {
        let mut r = r.borrow_mut();
        let new = !r.contains(&id);
        if new {
            r.push(id.clone());
        }
        new
    }) {
        let id = id.clone();
        spawn_local(async move { api::record_view(&id).await });
    }
    let page = {
        let id = id.clone();
        LocalResource::new(move || {
            let id = id.clone();
            async move { api::get_pay(&id, l).await }
        })
    };
    // A payment confirmed elsewhere (the bank, the CLI) shows up without a reload.
    crate::components::poll::poll_while(
        move || page.refetch(),
        move || {
            page.with_untracked(|r| {
                !matches!(
                    r,
                    Some(Err(_))
                        | Some(Ok(PayerView {
                            next_open: None,
                            ..
                        }))
                )
            })
        },
    );
    // Installments seen paid so far; `None` until the first answer, which is
    // the baseline (an invoice already paid when opened fires nothing).
    let seen = StoredValue::new_local(None::<Vec<u32>>);
    Effect::new(move |_| {
        page.with(|r| {
            if let Some(Ok(p)) = r {
                let paid: Vec<u32> = p
                    .installments
                    .iter()
                    .filter(|i| i.status == InstallmentStatus::Confirmed)
                    .map(|i| i.installment)
                    .collect();
                if let Some(before) = seen.get_value() {
                    let new: Vec<u32> = paid
                        .iter()
                        .copied()
                        .filter(|n| !before.contains(n))
                        .collect();
                    for n in &new {
                        ctx.emit(
                            "paylink:paid",
                            &crate::embed::detail(&[
                                ("invoiceId", p.id.as_str().into()),
                                ("installment", (*n).into()),
                                ("allPaid", p.next_open.is_none().into()),
                            ]),
                        );
                    }
                    // In the iframe, a redirect would load the merchant's site inside
                    // the frame: the host page has `paylink:paid` and decides.
                    let framed = ctx.host(|h| matches!(h, crate::embed::Host::Frame { .. }));
                    if !new.is_empty() && p.next_open.is_none() && !framed {
                        if let Some(to) = &p.redirect_to {
                            redirect_soon(to.clone());
                        }
                    }
                }
                seen.set_value(Some(paid));
            }
        })
    });
    // The sandbox's "simulate a payment", then the page asks again.
    let simulating = Action::new_local(move |id: &String| {
        let id = id.clone();
        async move {
            let _ = api::simulate_payment(&id, l).await;
            page.refetch();
        }
    });
    let busy = simulating.pending();
    let simulate = move |id: String| {
        if !busy.get_untracked() {
            simulating.dispatch_local(id);
        }
    };
    region(move || {
        page.with(|r| {
            sections::answered(l, "card muted skeleton", r, |p| {
                pay_body(l, p, busy, simulate)
            })
        })
    })
}

fn pay_body(
    l: Lang,
    p: &PayerView,
    busy: Memo<bool>,
    simulate: impl Fn(String) + Copy + 'static,
) -> Node {
    let copied = RwSignal::new(None::<bool>);
    let mut facts: Vec<(&'static str, String, &'static str)> = vec![
        (
            K::Amount.t(l),
            if p.price_by_customer {
                K::AmountByPayer.t(l).to_string()
            } else {
                format_brl(p.price, l)
            },
            "amount",
        ),
        (K::Customer.t(l), p.customer_name.clone(), ""),
    ];
    if let Some(d) = &p.description {
        facts.push((K::Description.t(l), d.clone(), "wide description"));
    }

    // How to pay the next open installment.
    let next = p
        .next_open
        .and_then(|n| p.installments.iter().find(|i| i.installment == n));
    // Static once built: one HTML string (see `components::html`) whose
    // copy buttons share one click handler.
    let mut html = String::new();
    match next {
        None => {
            leaf(&mut html, "p", &[("class", "note")], K::AllPaid.t(l));
        }
        Some(i) => {
            sections::heading(
                &mut html,
                &format!(
                    "{} {} · {} · {} {}",
                    K::InstallmentNo.t(l),
                    i.installment,
                    format_brl(i.price - i.price_paid, l),
                    K::DueDate.t(l),
                    br_date(&i.due_date)
                ),
            );
            open(&mut html, "div", &[("class", "methods")]);
            if let Some(pix) = &i.pix {
                html.push_str("<div class=\"method\"><h3>PIX</h3>");
                // The QR is drawn by paylink's server from the model's BR Code.
                open(
                    &mut html,
                    "div",
                    &[
                        ("class", "qr"),
                        ("role", "img"),
                        ("aria-label", K::PixQr.t(l)),
                    ],
                );
                html.push_str(&pix.qr_svg);
                close(&mut html, "div");
                leaf(&mut html, "p", &[("class", "label")], K::PixCode.t(l));
                html.push_str("<p class=\"code\" data-pix-payload=\"\">");
                escape_into(&mut html, &pix.payload);
                close(&mut html, "p");
                copy_button(&mut html, &pix.payload, K::CopyPix.t(l));
                close(&mut html, "div");
            }
            if let Some(b) = &i.boleto {
                html.push_str("<div class=\"method\"><h3>Boleto</h3>");
                leaf(&mut html, "p", &[("class", "label")], K::BoletoLine.t(l));
                html.push_str("<p class=\"code\" data-boleto-line=\"\">");
                escape_into(&mut html, &b.line);
                close(&mut html, "p");
                html.push_str("<div class=\"barcode\" aria-hidden=\"true\">");
                html.push_str(&b.barcode_svg);
                close(&mut html, "div");
                copy_button(&mut html, &b.line, K::CopyBoleto.t(l));
                close(&mut html, "div");
            }
            close(&mut html, "div");
        }
    }
    let how = h("div")
        .class("how")
        .on("click", sections::copy_clicked(copied))
        .html(&html);

    let rows: Vec<Row> = p
        .installments
        .iter()
        .map(|i| Row::stated(i.installment, &i.due_date, i.price, i.price_paid, i.status))
        .collect();
    let id = p.id.clone();
    let sandbox = (p.sandbox && next.is_some()).then(|| {
        h("p").c(h("button")
            .attr("type", "button")
            .class("secondary")
            .flag_attr("aria-disabled", "true", move || busy.get())
            .on("click", move |_| simulate(id.clone()))
            .c(K::Simulate.t(l)))
    });
    let back = p
        .redirect_to
        .as_deref()
        .filter(|_| next.is_none())
        .map(|href| {
            h("p").c(h("a")
                .attr("href", href)
                .attr("target", "_top")
                .c(K::BackToSite.t(l)))
        });
    let how_to_pay = h("section")
        .attr("aria-label", K::HowToPay.t(l))
        .c(how)
        .c(sections::copy_status(l, copied))
        .c(sandbox)
        .c(back);

    h("article")
        .class("card invoice pay")
        .c(h("p")
            .class("muted")
            .c(K::InvoiceFrom.t(l))
            .c(" ")
            .c(h("strong").c(p.merchant_name.as_str())))
        .c(h("h1").c(K::Payment.t(l)))
        .c(sections::facts(facts))
        .c(how_to_pay)
        .c(sections::installments(l, rows))
        .c(sections::accepted(l, p.payment_types.clone()))
        .c(sections::payment_link(l, p.url.clone(), copied))
        .into_node()
}

/// After the last installment is paid here, back to the merchant's site
/// (`redirectTo`, an http(s) URL by the model's rule) in 4 s, time to read
/// the confirmation; the link on the page works at once.
fn redirect_soon(to: String) {
    use wasm_bindgen::JsCast;
    let Some(w) = web_sys::window() else { return };
    let go = wasm_bindgen::closure::Closure::once_into_js(move || {
        if let Some(w) = web_sys::window() {
            let _ = w.location().assign(&to);
        }
    });
    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(go.unchecked_ref(), 4000);
}
