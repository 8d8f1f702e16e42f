//! The invoice form's fine, interest and discount fields ([`TermFields`]: the shared
//! [`Terms`] and the discount's date), and how what both the invoice form and the payment link
//! form type becomes the request's: terms (`typed_terms`), dates (`iso_date`), the price
//! (`typed_price`) and the payment types checked (`payment_types`).

use leptos::prelude::*;
use paylink_model::money::{cents_to_reais, parse_brl, parse_price_input};
use paylink_model::{Date, Discount, Errors, Fine, Interest, Lang, PaymentType};
use paylink_text as text;
use paylink_ui::customer::text;
use paylink_ui::form::text_signal;
use paylink_ui::terms::Terms;

/// What the person typed in the invoice form's fine, interest and discount fields.
#[derive(Clone, Copy)]
pub struct TermFields {
    pub terms: Terms,
    /// As the language writes dates (`dd/mm/aaaa` in pt-BR).
    pub discount_until: RwSignal<String>,
}

/// The API paths of the terms' fields, each shown on its own control.
pub const TERM_FIELDS: [&str; 6] = [
    "fine.type",
    "fine.value",
    "interest.value",
    "discount.type",
    "discount.value",
    "discount.untilDate",
];

impl TermFields {
    pub(super) fn new() -> Self {
        TermFields {
            terms: Terms::new(),
            discount_until: text_signal(""),
        }
    }

    /// The request's `fine`, `interest` and `discount`: each present when its
    /// value (or the discount's date) is filled in. A number that cannot be
    /// read puts a message on its field in `bad`.
    pub(super) fn build(
        &self,
        lang: Lang,
        bad: &mut Errors,
    ) -> (Option<Fine>, Option<Interest>, Option<Discount>) {
        let (fine, interest, discount_value) = typed_terms(&self.terms, lang, bad);
        let typed_until = text(self.discount_until).is_some();
        let discount = (discount_value.is_some() || typed_until).then(|| Discount {
            kind: text(self.terms.discount_type),
            value: discount_value.flatten(),
            until_date: iso_date(bad, lang, "discount.untilDate", self.discount_until),
        });
        (fine, interest, discount)
    }
}

/// The request's `fine` and `interest`, and the discount's typed value (as [`typed_number`]
/// gives it), from the fields both forms share; a number that cannot be read puts a message on
/// its field in `bad`.
pub(super) fn typed_terms(
    t: &Terms,
    lang: Lang,
    bad: &mut Errors,
) -> (Option<Fine>, Option<Interest>, Option<Option<f64>>) {
    let mut number = |path: &str, s: RwSignal<String>| typed_number(bad, lang, path, s);
    let fine = number("fine.value", t.fine_value).map(|value| Fine {
        kind: text(t.fine_type),
        value,
    });
    let interest = number("interest.value", t.interest_value).map(|value| Interest { value });
    let discount_value = number("discount.value", t.discount_value);
    (fine, interest, discount_value)
}

/// A date field's text as the request's ISO date: blank is `None`; text
/// that is not a date in `lang` is `None` too, with the model's message
/// (`dd/mm/aaaa` or `yyyy-mm-dd`) put on `path` in `bad`.
pub(super) fn iso_date(
    bad: &mut Errors,
    lang: Lang,
    path: &str,
    s: RwSignal<String>,
) -> Option<String> {
    let typed = text(s)?;
    match Date::parse_for(lang, &typed) {
        Ok(d) => Some(d.to_string()),
        Err(msg) => {
            bad.insert(path.to_string(), vec![msg.render(lang)]);
            None
        }
    }
}

/// A term's amount or percentage field (`2,5`, `10,00`) as the request's number: blank is
/// `None`; text that does not read as a number is `Some(None)`, with its message put on `path`
/// in `bad` (the request then says nothing of it).
fn typed_number(
    bad: &mut Errors,
    lang: Lang,
    path: &str,
    s: RwSignal<String>,
) -> Option<Option<f64>> {
    let typed = text(s)?;
    Some(match parse_price_input(&typed) {
        Some(n) => Some(cents_to_reais(n)),
        None => {
            bad.insert(
                path.to_string(),
                vec![text::NUMBER_FORMAT.t(lang).to_string()],
            );
            None
        }
    })
}

/// The price field as the request's reais: blank (or a price the customer states,
/// `by_customer`) is `None`; text that is not an amount is `None` too, with its message on
/// `price` in `bad`.
pub(super) fn typed_price(
    bad: &mut Errors,
    lang: Lang,
    s: RwSignal<String>,
    by_customer: bool,
) -> Option<f64> {
    match text(s) {
        Some(s) if !by_customer => match parse_brl(&s) {
            Some(cents) => Some(cents_to_reais(cents)),
            None => {
                bad.insert("price".into(), vec![text::PRICE_FORMAT.t(lang).to_string()]);
                None
            }
        },
        _ => None,
    }
}

/// The request's `paymentTypes`: PIX then boleto, those checked.
pub(super) fn payment_types(pix: RwSignal<bool>, boleto: RwSignal<bool>) -> Vec<String> {
    let mut types = Vec::new();
    if pix.get_untracked() {
        types.push(PaymentType::Pix.as_str().to_string());
    }
    if boleto.get_untracked() {
        types.push(PaymentType::Boleto.as_str().to_string());
    }
    types
}
