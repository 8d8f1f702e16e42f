//! The payment link form's fields, the request they make and the model's
//! verdict on it (`paylink_model::link_spec::LinkRequest::check`, the rules
//! the API and `paylink link create` apply), keyed by API field path.

use leptos::prelude::*;
use paylink_model::link_spec::{LinkDiscount, LinkRequest, LINK_FIELDS};
use paylink_model::{Errors, InvoiceType, Lang, Msg};
use paylink_ui::customer::text;
use paylink_ui::form::{flag_signal, text_signal, Form};
use paylink_ui::terms::Terms;

use super::terms::{payment_types, typed_price, typed_terms};
use crate::components::editors::whole;

/// Every field of the link form (`Copy`: signals).
#[derive(Clone, Copy)]
pub struct LinkFields {
    pub name: RwSignal<String>,
    pub description: RwSignal<String>,
    pub price: RwSignal<String>,
    pub price_by_customer: RwSignal<bool>,
    pub pix: RwSignal<bool>,
    pub boleto: RwSignal<bool>,
    pub invoice_type: RwSignal<String>,
    pub max_installments: RwSignal<String>,
    pub due_in_days: RwSignal<String>,
    pub redirect_to: RwSignal<String>,
    pub slug: RwSignal<String>,
    pub terms: Terms,
    pub discount_days: RwSignal<String>,
}

impl Default for LinkFields {
    fn default() -> Self {
        Self::new()
    }
}

impl LinkFields {
    pub fn new() -> LinkFields {
        LinkFields {
            name: text_signal(""),
            description: text_signal(""),
            price: text_signal(""),
            price_by_customer: flag_signal(false),
            pix: flag_signal(true),
            boleto: flag_signal(true),
            invoice_type: text_signal(InvoiceType::Single.as_str()),
            max_installments: text_signal(""),
            due_in_days: text_signal("3"),
            redirect_to: text_signal(""),
            slug: text_signal(""),
            terms: Terms::new(),
            discount_days: text_signal(""),
        }
    }

    /// Back to a blank form (after a creation).
    pub fn reset(&self) {
        let blank = LinkFields::new();
        for (s, b) in [
            (self.name, blank.name),
            (self.description, blank.description),
            (self.price, blank.price),
            (self.invoice_type, blank.invoice_type),
            (self.max_installments, blank.max_installments),
            (self.due_in_days, blank.due_in_days),
            (self.redirect_to, blank.redirect_to),
            (self.slug, blank.slug),
            (self.discount_days, blank.discount_days),
        ] {
            s.set(b.get_untracked());
        }
        self.terms.reset();
        self.price_by_customer.set(false);
        self.pix.set(true);
        self.boleto.set(true);
    }

    /// Whether the form makes an INSTALLMENT link (tracked).
    pub fn installments(&self) -> bool {
        self.invoice_type
            .with(|t| t == InvoiceType::Installment.as_str())
    }

    /// The request for the current values, and a message for each value that
    /// does not read as what its field takes (an amount, a whole number).
    pub fn build(&self, lang: Lang) -> (LinkRequest, Errors) {
        let mut bad = Errors::new();
        let by_customer = self.price_by_customer.get_untracked();
        let price = typed_price(&mut bad, lang, self.price, by_customer);
        let mut int = |path: &str, s: RwSignal<String>| match s.with_untracked(|v| whole(v)) {
            Ok(n) => n,
            Err(()) => {
                bad.insert(
                    path.into(),
                    vec![Msg::WrongType("a whole number").render(lang)],
                );
                None
            }
        };
        let installments = untrack(|| self.installments());
        let max_installments = if installments {
            int("maxInstallments", self.max_installments)
        } else {
            None
        };
        let due_in_days = int("dueInDays", self.due_in_days);
        let discount_days = int("discount.daysBeforeDue", self.discount_days);
        let (fine, interest, discount_value) = typed_terms(&self.terms, lang, &mut bad);
        let discount =
            (discount_value.is_some() || discount_days.is_some()).then(|| LinkDiscount {
                kind: text(self.terms.discount_type),
                value: discount_value.flatten(),
                days_before_due: discount_days,
            });
        let payment_types = payment_types(self.pix, self.boleto);
        let req = LinkRequest {
            name: text(self.name),
            description: text(self.description),
            price,
            price_by_customer: by_customer.then_some(true),
            payment_types: Some(payment_types),
            invoice_type: text(self.invoice_type),
            max_installments,
            due_in_days,
            redirect_to: text(self.redirect_to),
            slug: text(self.slug),
            fine,
            interest,
            discount,
        };
        (req, bad)
    }

    /// The model's verdict on the current values, plus unreadable ones.
    pub fn check(&self, lang: Lang) -> Errors {
        let (req, bad) = self.build(lang);
        let mut errors = req
            .check()
            .err()
            .map(|v| v.render(lang))
            .unwrap_or_default();
        // A field whose text does not read says so, not that it is missing.
        errors.extend(bad);
        errors
    }

    /// The visible field that shows the error of API path `path`.
    pub fn field_of(&self, path: &str) -> Option<String> {
        let shown = match path {
            "price" => !self.price_by_customer.get_untracked(),
            "maxInstallments" => untrack(|| self.installments()),
            _ if path.starts_with("paymentTypes[") => return Some("paymentTypes".into()),
            _ => LINK_FIELDS.contains(&path),
        };
        shown.then(|| path.to_string())
    }

    pub fn form(self, lang: RwSignal<Lang>) -> Form {
        Form::new(
            "link-form",
            lang,
            move |l| self.check(l),
            move |p| self.field_of(p),
        )
    }
}
