//! The link page's state: what the payer sets ([`Payer`]: the customer's
//! fields, the amount, the payment types and the installments), the
//! browser's rules over it, and the server's [`verdict`] on a form posted
//! without JavaScript, which runs the same state and rules, then the link's
//! and the invoice's.

use leptos::prelude::*;
use paylink_model::br;
use paylink_model::money::{cents_to_reais, parse_brl};
#[cfg(feature = "ssr")]
use paylink_model::InvoiceRequest;
use paylink_model::{
    installment_plan, CustomerRequest, Date, ErrorEnvelope, Errors, InvoiceType, Lang, LinkChoice,
    PaymentLink, PaymentType, PlannedInstallment,
};
use paylink_text as text;
use paylink_ui::customer::{text, CustomerFields, CUSTOMER_FIELDS};
use paylink_ui::form::{flag_signal, text_signal, Form};
use serde::{Deserialize, Serialize};

/// What a form sent without JavaScript brought back: the text of each
/// field (API path → text, `paymentTypes` once per box ticked) and the
/// server's verdict on it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Posted {
    pub values: Vec<(String, String)>,
    pub refused: Option<ErrorEnvelope>,
}

type Mask = fn(&str) -> String;

/// The payer's state on a link page.
#[derive(Clone, Copy)]
pub(super) struct Payer {
    pub(super) link: StoredValue<PaymentLink>,
    pub(super) customer: CustomerFields,
    /// The amount, when the link lets the payer state it (pt-BR currency text).
    pub(super) amount: RwSignal<String>,
    pub(super) pix: RwSignal<bool>,
    pub(super) boleto: RwSignal<bool>,
    pub(super) count: RwSignal<String>,
    pub(super) form: Form,
}

impl Payer {
    /// The state for `link`, starting from `values` (API path → text).
    pub(super) fn new(
        lang: RwSignal<Lang>,
        link: PaymentLink,
        values: &[(String, String)],
    ) -> Payer {
        let types: Vec<&str> = values
            .iter()
            .filter(|(k, _)| k == "paymentTypes")
            .map(|(_, v)| v.as_str())
            .collect();
        // A form sent back says which boxes were ticked (none is an answer too);
        // a new one ticks them all.
        let ticked = |t: &str| values.is_empty() || types.contains(&t);
        let count = match link.invoice_type {
            InvoiceType::Installment => link.max_installments.max(1).to_string(),
            _ => String::new(),
        };
        let mut p = Payer {
            link: StoredValue::new(link),
            customer: CustomerFields::new(),
            amount: text_signal(""),
            pix: flag_signal(ticked("PIX")),
            boleto: flag_signal(ticked("BOLETO")),
            count: text_signal(&count),
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
        for (path, value) in values {
            p.set(path, value);
        }
        p
    }

    /// Sets one field's text (masked as typing would), by its API path.
    pub(super) fn set(&self, path: &str, value: &str) {
        let c = self.customer;
        let (signal, mask): (_, Option<Mask>) = match path {
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
            "price" => (self.amount, None),
            "installmentCount" => (self.count, None),
            _ => return,
        };
        signal.set(mask.map_or_else(|| value.to_string(), |m| m(value)));
    }

    /// The customer to create, the payer's choices (what the link fixes is
    /// left out: the proxy fills it in from the link), and the fields whose
    /// text could not be read.
    pub(super) fn requests(&self, lang: Lang) -> (CustomerRequest, LinkChoice, Errors) {
        let link = self.link.get_value();
        let mut bad = Errors::new();
        let price = match link.price {
            Some(_) => None,
            None => text(self.amount).and_then(|s| match parse_brl(&s) {
                Some(cents) => Some(cents_to_reais(cents)),
                None => {
                    bad.insert("price".into(), vec![text::PRICE_FORMAT.t(lang).to_string()]);
                    None
                }
            }),
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
        let req = LinkChoice {
            customer_id: None,
            payment_types: Some(types),
            installment_count: count,
            price,
        };
        // The payer reads in the page's language: their messages will be in it too.
        let customer = CustomerRequest {
            language: Some(lang.code().to_string()),
            ..self.customer.request()
        };
        (customer, req, bad)
    }

    /// The model's verdict on what the payer sets: the customer's fields and
    /// the payer's own choices (`PaymentLink::check_choice`). What the link
    /// fixes, and the invoice's rules over the whole, are the server's
    /// ([`verdict`], and the proxy's link API).
    fn check(&self, lang: Lang) -> Errors {
        let (customer, choice, bad) = self.requests(lang);
        let mut errors = customer.validate(lang);
        errors.extend(
            self.link
                .with_value(|l| l.check_choice(&choice))
                .render(lang),
        );
        errors.extend(bad);
        errors
    }

    /// The server's check: the browser's, then the link's rule
    /// (`PaymentLink::bind`, the proxy's own) and the service's on the
    /// invoice it produces. `customerId` is set once the customer exists.
    #[cfg(feature = "ssr")]
    fn check_all(&self, lang: Lang) -> Errors {
        let mut errors = self.check(lang);
        let (_, choice, _) = self.requests(lang);
        let inv = match self
            .link
            .with_value(|link| link.bind(&choice.into_request()))
        {
            Ok(bound) => bound.validate(lang),
            Err(v) => v.render(lang),
        };
        for (k, msgs) in inv.into_iter().filter(|(k, _)| k != "customerId") {
            errors.entry(k).or_insert(msgs);
        }
        errors
    }

    fn field_of(&self, path: &str) -> Option<String> {
        // One box's message (`paymentTypes[1]`) goes on the group.
        if path.starts_with("paymentTypes[") {
            return Some("paymentTypes".into());
        }
        let shown = self.link.with_value(|link| match path {
            "price" => link.price_by_customer,
            "installmentCount" => link.invoice_type == InvoiceType::Installment,
            "paymentTypes" => true,
            p => p != "observations" && CUSTOMER_FIELDS.contains(&p),
        });
        shown.then(|| path.to_string())
    }

    /// The installments the payer's choice gives (tracked).
    pub(super) fn plan(&self) -> Vec<PlannedInstallment> {
        let (price, kind, due) = self
            .link
            .with_value(|l| (l.price, l.invoice_type, l.due_date.clone()));
        let cents = price
            .or_else(|| self.amount.with(|a| parse_brl(a)))
            .unwrap_or(0);
        let count = match kind {
            InvoiceType::Installment => self.count.with(|c| c.trim().parse().unwrap_or(0)),
            _ => 1,
        };
        match Date::parse_iso(&due) {
            Some(due) if cents > 0 && count > 0 => installment_plan(cents, count, due),
            _ => Vec::new(),
        }
    }
}

/// The server's check of a form posted without JavaScript: the customer
/// and the invoice request to send, or the errors to show on their fields.
/// Runs the island's own state and rules (so both say the same thing), then
/// the link's and the invoice's.
#[cfg(feature = "ssr")]
pub fn verdict(
    link: &PaymentLink,
    values: &[(String, String)],
    lang: Lang,
) -> Result<(CustomerRequest, InvoiceRequest), Errors> {
    let owner = Owner::new();
    owner.with(|| {
        let p = Payer::new(RwSignal::new(lang), link.clone(), values);
        let errors = p.check_all(lang);
        if errors.is_empty() {
            let (customer, choice, _) = p.requests(lang);
            Ok((customer, choice.into_request()))
        } else {
            Err(errors)
        }
    })
}
