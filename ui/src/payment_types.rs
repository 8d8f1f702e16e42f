//! The payment types' fieldset, the same in the merchant's invoice and link forms and on the
//! payment link's page: one checkbox per type offered (`name="paymentTypes"`, PIX then
//! boleto), the legend marked required, and the group's message under it.

use leptos::prelude::*;
use paylink_model::Lang;
use paylink_text as text;

use crate::field::{Checkbox, ErrorText};
use crate::form::Form;

/// The checkboxes of the types given a signal (a payment link's page offers only the link's).
#[component]
pub fn PaymentTypes(
    l: Lang,
    form: Form,
    pix: Option<RwSignal<bool>>,
    boleto: Option<RwSignal<bool>>,
) -> impl IntoView {
    let pix = pix.map(|checked| {
        view! {
            <Checkbox form name="paymentTypes" value="PIX" id="f-paymentTypes-PIX" label="PIX" checked />
        }
    });
    let boleto = boleto.map(|checked| {
        view! {
            <Checkbox
                form
                name="paymentTypes"
                value="BOLETO"
                id="f-paymentTypes-BOLETO"
                label="Boleto"
                checked
            />
        }
    });
    view! {
        <fieldset class="group">
            <legend>{text::PAYMENT_TYPES.t(l)}<span class="req" aria-hidden="true">" *"</span></legend>
            <div class="checks">{pix}{boleto}</div>
            <ErrorText form name="paymentTypes" />
        </fieldset>
    }
}
