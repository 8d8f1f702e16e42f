//! `/l/{slug}`: a payment link's public page. The payer fills the customer
//! form (the merchant's component and form contract) and chooses only what
//! the link leaves open: the payment types it allows, the number of
//! installments up to its maximum (with the live preview), or the amount
//! when the link lets the payer state it. Submit creates the customer and
//! the invoice through the link (`/api/links/{slug}/…`, which the proxy
//! checks against the link) and opens the payer page.

use leptos::prelude::*;
use paylink_model::br;
use paylink_model::money::{cents_to_reais, format_brl, parse_brl};
use paylink_model::{
    installment_plan, Date, Errors, InvoiceCreated, InvoiceRequest, InvoiceType, Lang, PaymentLink,
    PaymentType,
};
use web_sys::{Event, Node};

use crate::api;
use crate::components::field::{alert_box, checkbox, field, select, submit_button, Opts};
use crate::components::installments::Row;
use crate::components::sections;
use crate::dom::{frag, h, region};
use crate::embed;
use crate::form::{flag_signal, text_signal, Form};
use crate::i18n::K;
use crate::pages::customer_form::{
    actions, customer_fields, text, CustomerFields, CUSTOMER_FIELDS,
};
use crate::pages::invoice_form::{payment_types, preview_body, preview_section, reformat_price};
use crate::pages::invoice_view::error_text as api_error_text;
use crate::Ctx;

/// The payer's state on a link page. Created once by the App, so what was
/// typed survives a language switch (which re-renders the screen).
#[derive(Clone, Copy)]
pub struct Payer {
    pub link: RwSignal<Option<PaymentLink>>,
    pub customer: CustomerFields,
    /// The amount, when the link lets the payer state it (pt-BR currency text).
    pub amount: RwSignal<String>,
    pub pix: RwSignal<bool>,
    pub boleto: RwSignal<bool>,
    pub count: RwSignal<String>,
    /// The customer already created for this form's values, and its id: a
    /// second submit after a refused invoice does not create it again.
    created: StoredValue<Option<(paylink_model::CustomerRequest, String)>>,
    /// The invoice created, when the `pay` screen is not shown.
    pub done: RwSignal<Option<InvoiceCreated>>,
    pub form: Form,
}

type Mask = fn(&str) -> String;

/// `n` as a `&'static str` for the installment select (1 to 120, made once).
fn count_str(n: u32) -> &'static str {
    static NUMS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NUMS.get_or_init(|| {
        (0..=paylink_model::MAX_INSTALLMENTS)
            .map(|i| &*Box::leak(i.to_string().into_boxed_str()))
            .collect()
    })
    .get(n as usize)
    .copied()
    .unwrap_or("")
}

impl Payer {
    pub fn new(lang: RwSignal<Lang>, options: &embed::Options) -> Payer {
        let customer = CustomerFields::new();
        let link = RwSignal::new(None::<PaymentLink>);
        let amount = text_signal(options.prefill("price").unwrap_or(""));
        let pix = flag_signal(true);
        let boleto = flag_signal(true);
        let count = text_signal(options.prefill("installmentCount").unwrap_or(""));
        let c = customer;
        for (path, value) in &options.prefill {
            let (signal, mask): (_, Option<Mask>) = match path.as_str() {
                "fullName" => (c.full_name, None),
                "document" => (c.document, Some(br::mask_document)),
                "business" => (c.business, None),
                "email" => (c.email, None),
                "phone" => (c.phone, Some(br::mask_phone)),
                "address.zipcode" => (c.zipcode, Some(br::mask_cep)),
                "address.address" => (c.street, None),
                "address.number" => (c.number, None),
                "address.complement" => (c.complement, None),
                "address.neighborhood" => (c.neighborhood, None),
                "address.city" => (c.city, None),
                "address.state" => (c.state, None),
                _ => continue,
            };
            signal.set(mask.map_or_else(|| value.clone(), |m| m(value)));
        }
        let mut p = Payer {
            link,
            customer,
            amount,
            pix,
            boleto,
            count,
            created: StoredValue::new(None),
            done: RwSignal::new(None),
            // Replaced below: the check needs the finished `Payer`.
            form: Form::new("link-form", lang, |_| Errors::new(), |_| None),
        };
        let me = p;
        p.form = Form::new(
            "link-form",
            lang,
            move |l| me.check(l),
            move |path| me.field_of(path),
        );
        p
    }

    /// The link arrived: the form checks against it, and the installment
    /// select starts on its largest count (set before the controls exist, so
    /// they show it).
    fn adopt(&self, link: &PaymentLink) {
        if link.invoice_type == InvoiceType::Installment
            && self
                .count
                .with_untracked(|c| c.trim().parse::<u32>().is_err())
        {
            self.count.set(link.max_installments.max(1).to_string());
        }
        self.link.set(Some(link.clone()));
    }

    /// The invoice request for the link and the payer's choices (what the
    /// link fixes is left out: the proxy fills it in from the link), and the
    /// fields whose text could not be read.
    pub fn invoice(&self, link: &PaymentLink, lang: Lang) -> (InvoiceRequest, Errors) {
        let mut bad = Errors::new();
        let price = match link.price {
            Some(_) => None,
            None => match text(self.amount) {
                None => None,
                Some(s) => match parse_brl(&s) {
                    Some(cents) => Some(cents_to_reais(cents)),
                    None => {
                        bad.insert("price".into(), vec![K::PriceFormat.t(lang).to_string()]);
                        None
                    }
                },
            },
        };
        let count = if link.invoice_type == InvoiceType::Installment {
            self.count.with_untracked(|c| c.trim().parse::<i64>().ok())
        } else {
            None
        };
        let mut types = Vec::new();
        for (t, on) in [
            (PaymentType::Pix, self.pix),
            (PaymentType::Boleto, self.boleto),
        ] {
            if link.payment_types.contains(&t) && on.get_untracked() {
                types.push(t.as_str().to_string());
            }
        }
        let req = InvoiceRequest {
            payment_types: Some(types),
            installment_count: count,
            price,
            ..InvoiceRequest::default()
        };
        (req, bad)
    }

    /// The model's verdict on the customer and on the payer's choices: the
    /// link's rule (`PaymentLink::bind`, the proxy's own), then the service's
    /// on the invoice it produces.
    fn check(&self, lang: Lang) -> Errors {
        let mut errors = self.customer.request().validate(lang);
        if let Some(link) = self.link.get_untracked() {
            let (req, bad) = self.invoice(&link, lang);
            let inv = match link.bind(&req) {
                Ok(bound) => bound.validate(lang),
                Err(v) => v.render(lang),
            };
            // `customerId` is set on submit, from the customer just created.
            // (A filter, not `remove`: BTreeMap's removal code is kilobytes of wasm.)
            errors.extend(inv.into_iter().filter(|(k, _)| k != "customerId"));
            errors.extend(bad);
        }
        errors
    }

    fn field_of(&self, path: &str) -> Option<String> {
        let link = self.link.get_untracked()?;
        let shown = match path {
            "observations" => false,
            "price" => link.price_by_customer,
            "installmentCount" => link.invoice_type == InvoiceType::Installment,
            "paymentTypes" => true,
            p if p.starts_with("paymentTypes[") => return Some("paymentTypes".into()),
            p => CUSTOMER_FIELDS.contains(&p),
        };
        shown.then(|| path.to_string())
    }

    /// The installments the payer's choice gives (tracked).
    fn plan(&self) -> Vec<Row> {
        let Some(link) = self.link.get() else {
            return Vec::new();
        };
        let cents = link
            .price
            .or_else(|| self.amount.with(|a| parse_brl(a)))
            .unwrap_or(0);
        let count = match link.invoice_type {
            InvoiceType::Installment => self.count.with(|c| c.trim().parse().unwrap_or(0)),
            _ => 1,
        };
        match Date::parse_iso(&link.due_date) {
            Some(due) if cents > 0 && count > 0 => installment_plan(cents, count, due)
                .iter()
                .map(Row::planned)
                .collect(),
            _ => Vec::new(),
        }
    }
}

// Not inlined into the App's screen switch: a screen's code is compiled
// by the browser when it is first shown, not with the customer form.
#[inline(never)]
pub fn link_form(l: Lang, ctx: Ctx, slug: String, payer: Payer) -> Node {
    let p = payer;
    // A plain task rather than a resource (the async-derived machinery costs
    // kilobytes of wasm per type); the link is kept in `Payer`, so a language
    // switch, which re-renders the screen, does not fetch it again.
    let known = p
        .link
        .get_untracked()
        .filter(|link| link.slug == slug)
        .map(Ok);
    let loaded = RwSignal::new(known);
    if loaded.with_untracked(Option::is_none) {
        leptos::task::spawn_local(async move {
            let r = api::get_link(&slug, l).await;
            match &r {
                Ok(link) => {
                    p.adopt(link);
                    ctx.ready(&link.slug);
                }
                Err(e) => ctx.emit_error(true, e, &api_error_text(l, e)),
            }
            let _ = loaded.try_set(Some(r));
        });
    }
    region(move || {
        if let Some(done) = p.done.get() {
            return Some(done_view(l, done));
        }
        loaded.with(|r| {
            sections::answered(l, "card muted skeleton", r, |link| {
                link_body(l, ctx, p, link.clone())
            })
        })
    })
}

fn done_view(l: Lang, done: InvoiceCreated) -> Node {
    h("section")
        .class("card")
        .c(h("h1").c(K::InvoiceReady.t(l)))
        .c(h("p").class("paylink").c(h("a")
            .attr("href", &done.url)
            .attr("target", "_top")
            .class("url")
            .c(done.url.as_str())))
        .into_node()
}

fn link_body(l: Lang, ctx: Ctx, p: Payer, link: PaymentLink) -> Node {
    let form = p.form;
    let slug = link.slug.clone();
    let send = move || {
        let slug = slug.clone();
        let lang = ctx.lang.get_untracked();
        async move {
            let Some(link) = p.link.get_untracked() else {
                return;
            };
            let fail = |e: api::Error| {
                form.server_error(&e);
                ctx.emit_error(false, &e, &api_error_text(lang, &e));
            };
            let req = p.customer.request();
            let known = p.created.with_value(|c| {
                c.as_ref()
                    .filter(|(r, _)| *r == req)
                    .map(|(_, id)| id.clone())
            });
            let customer_id = match known {
                Some(id) => id,
                None => match api::create_link_customer(&slug, &req, lang).await {
                    Ok(c) => {
                        p.created.set_value(Some((req, c.id.clone())));
                        ctx.emit(
                            "paylink:customer-created",
                            &embed::detail(&[("id", c.id.as_str().into())]),
                        );
                        c.id
                    }
                    Err(e) => return fail(e),
                },
            };
            let (mut inv, _) = p.invoice(&link, lang);
            inv.customer_id = Some(customer_id);
            match api::create_link_invoice(&slug, &inv, lang).await {
                Ok(created) => {
                    ctx.emit(
                        "paylink:invoice-created",
                        &embed::detail(&[
                            ("id", created.id.as_str().into()),
                            ("url", created.url.as_str().into()),
                            ("externalId", created.external_id.as_str().into()),
                        ]),
                    );
                    if ctx.options(|o| o.shows("pay")) {
                        ctx.navigate(&format!("/pay/{}", created.id));
                    } else {
                        p.done.set(Some(created));
                    }
                }
                Err(e) => fail(e),
            }
        }
    };
    let submit = Action::new_local(move |_: &()| send());
    let busy = submit.pending();
    let on_submit = move |ev: Event| {
        ev.prevent_default();
        // A second submit while the first is on its way is ignored.
        if !busy.get_untracked() && form.submit() {
            submit.dispatch_local(());
        }
    };

    let summary = ctx.options(|o| o.shows("summary")).then(|| {
        let price = match link.price {
            Some(c) => format_brl(c, l),
            None => K::AmountByPayer.t(l).to_string(),
        };
        let description = (!link.description.is_empty()).then(|| {
            h("p")
                .class("description")
                .c(link.description.as_str())
                .into_node()
        });
        frag(
            [
                Some(h("h1").c(link.name.as_str()).into_node()),
                description,
                Some(h("p").class("amount").c(price).into_node()),
            ]
            .into_iter()
            .flatten()
            .collect(),
        )
    });
    let amount = link.price_by_customer.then(|| {
        field(
            form,
            "price",
            K::Price.t(l),
            p.amount,
            Opts {
                required: true,
                inputmode: "decimal",
                placeholder: "0,00",
                reformat: Some(reformat_price),
                ..Opts::default()
            },
        )
    });
    let checks = link
        .payment_types
        .iter()
        .map(|t| match t {
            PaymentType::Pix => checkbox(
                form,
                "paymentTypes",
                "PIX",
                "f-paymentTypes-PIX",
                "PIX",
                p.pix,
            ),
            PaymentType::Boleto => checkbox(
                form,
                "paymentTypes",
                "BOLETO",
                "f-paymentTypes-BOLETO",
                "Boleto",
                p.boleto,
            ),
        })
        .collect();
    let installments = (link.invoice_type == InvoiceType::Installment).then(|| {
        // 1 is paying at once (the proxy makes it a SINGLE invoice).
        let counts = (1..=link.max_installments.max(1))
            .map(|n| (count_str(n), count_str(n)))
            .collect();
        let plan = Memo::new(move |_| p.plan());
        frag(vec![
            select(
                form,
                "installmentCount",
                K::InstallmentCount.t(l),
                p.count,
                counts,
                "",
                true,
            ),
            preview_section(l, region(move || Some(preview_body(l, plan.get())))),
        ])
    });

    h("form")
        .id("link-form")
        .class("card")
        .attr("novalidate", "")
        .on("submit", on_submit)
        .c(summary)
        .c(alert_box(form))
        .c(amount)
        .c(payment_types(l, form, checks))
        .c(installments)
        .c(h("h2").c(K::YourData.t(l)))
        .c(customer_fields(form, p.customer, l, false))
        .c(actions(
            submit_button(busy.into(), K::ToPayment.t(l), l),
            None,
        ))
        .into_node()
}
