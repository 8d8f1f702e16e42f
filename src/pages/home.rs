//! `/`: the merchant flow, the customer form then the invoice form.

use leptos::prelude::*;

use crate::pages::customer_form::CustomerForm;
use crate::pages::invoice_form::InvoiceForm;
use crate::{Ctx, Merchant, Step};

/// `/`: the customer form, then the invoice form.
#[component]
pub fn Home() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let merchant = expect_context::<Merchant>();
    move || {
        let l = ctx.lang.get();
        match merchant.step.get() {
            Step::Customer => view! { <CustomerForm l /> }.into_any(),
            Step::Invoice => view! { <InvoiceForm l /> }.into_any(),
        }
    }
}
