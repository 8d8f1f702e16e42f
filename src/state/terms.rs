//! The fine, interest and discount fields of a form ([`TermFields`]) and how
//! a typed date or number becomes the request's (`iso_date`,
//! `typed_number`): the invoice form's and the payment link form's.

use leptos::prelude::*;
use paylink_model::charges::ValueType;
use paylink_model::money::{cents_to_reais, parse_price_input};
use paylink_model::{Date, Discount, Errors, Fine, Interest, Lang};
use paylink_text as text;
use paylink_ui::customer::text;
use paylink_ui::form::text_signal;

/// What the person typed in the fine, interest and discount fields.
#[derive(Clone, Copy)]
pub struct TermFields {
    pub fine_type: RwSignal<String>,
    pub fine_value: RwSignal<String>,
    pub interest_value: RwSignal<String>,
    pub discount_type: RwSignal<String>,
    pub discount_value: RwSignal<String>,
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
        let s = || text_signal("");
        TermFields {
            fine_type: text_signal(ValueType::Percentage.name()),
            fine_value: s(),
            interest_value: s(),
            discount_type: text_signal(ValueType::Percentage.name()),
            discount_value: s(),
            discount_until: s(),
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
        let mut number = |path: &str, s: RwSignal<String>| typed_number(bad, lang, path, s);
        let fine = number("fine.value", self.fine_value).map(|value| Fine {
            kind: text(self.fine_type),
            value,
        });
        let interest =
            number("interest.value", self.interest_value).map(|value| Interest { value });
        let discount_value = number("discount.value", self.discount_value);
        let typed_until = text(self.discount_until).is_some();
        let discount = (discount_value.is_some() || typed_until).then(|| Discount {
            kind: text(self.discount_type),
            value: discount_value.flatten(),
            until_date: iso_date(bad, lang, "discount.untilDate", self.discount_until),
        });
        (fine, interest, discount)
    }
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
pub(crate) fn typed_number(
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
