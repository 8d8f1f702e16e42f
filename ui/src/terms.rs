//! The fine, interest and discount fieldset, the same in the merchant's invoice and link
//! forms: its controls named by their API paths (`fine.type`, `fine.value`, `interest.value`,
//! `discount.type`, `discount.value`) and the discount's limit given by the form (an invoice's
//! `discount.untilDate`, a link's `discount.daysBeforeDue`).

use leptos::prelude::*;
use paylink_model::charges::ValueType;
use paylink_model::Lang;
use paylink_text as text;

use crate::field::{Field, Select};
use crate::form::{text_signal, Form};

/// What the person typed in the terms' fields (the discount's limit is the form's own).
#[derive(Clone, Copy)]
pub struct Terms {
    pub fine_type: RwSignal<String>,
    pub fine_value: RwSignal<String>,
    pub interest_value: RwSignal<String>,
    pub discount_type: RwSignal<String>,
    pub discount_value: RwSignal<String>,
}

impl Default for Terms {
    fn default() -> Self {
        Self::new()
    }
}

impl Terms {
    /// Blank values, both types a percentage.
    pub fn new() -> Terms {
        Terms {
            fine_type: text_signal(ValueType::Percentage.name()),
            fine_value: text_signal(""),
            interest_value: text_signal(""),
            discount_type: text_signal(ValueType::Percentage.name()),
            discount_value: text_signal(""),
        }
    }

    /// Back to blank (after a creation).
    pub fn reset(&self) {
        let blank = Terms::new();
        for (s, b) in [
            (self.fine_type, blank.fine_type),
            (self.fine_value, blank.fine_value),
            (self.interest_value, blank.interest_value),
            (self.discount_type, blank.discount_type),
            (self.discount_value, blank.discount_value),
        ] {
            s.set(b.get_untracked());
        }
    }
}

/// The fieldset; `children` is the discount's limit, shown beside its type and value (typed,
/// not erased to an `AnyView`: each form's one control is all its bundle links).
#[component]
pub fn TermsFieldset<C>(l: Lang, form: Form, t: Terms, children: TypedChildren<C>) -> impl IntoView
where
    C: IntoView + 'static,
{
    let kinds = vec![
        (
            ValueType::Percentage.name().into(),
            text::PERCENTAGE.t(l).into(),
        ),
        (
            ValueType::Fixed.name().into(),
            text::FIXED_AMOUNT.t(l).into(),
        ),
    ];
    view! {
        <fieldset class="group terms">
            <legend>{text::TERMS.t(l)}</legend>
            <div class="cols">
                <Select form name="fine.type" label=text::FINE_TYPE.t(l) value=t.fine_type options=kinds.clone() />
                <Field
                    form
                    name="fine.value"
                    label=text::FINE_VALUE.t(l)
                    value=t.fine_value
                    inputmode="decimal"
                    placeholder="2,00"
                />
            </div>
            <Field
                form
                name="interest.value"
                label=text::INTEREST_VALUE.t(l)
                value=t.interest_value
                inputmode="decimal"
                placeholder="1,00"
            />
            <div class="cols">
                <Select form name="discount.type" label=text::DISCOUNT_TYPE.t(l) value=t.discount_type options=kinds />
                <Field
                    form
                    name="discount.value"
                    label=text::DISCOUNT_VALUE.t(l)
                    value=t.discount_value
                    inputmode="decimal"
                    placeholder="5,00"
                />
                {children.into_inner()()}
            </div>
        </fieldset>
    }
}
