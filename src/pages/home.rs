//! `/`: the merchant flow, the customer form then the invoice form;
//! `/?customer={id}` starts at the invoice form for that customer (a link
//! from the merchant's own systems, or a bookmark).

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use paylink_model::charges::document_is_cpf;
use paylink_model::CustomerRef;
use paylink_text as text;

use crate::api;
use crate::components::sections::error_text;
use crate::pages::customer_form::CustomerForm;
use crate::pages::invoice_form::InvoiceForm;
use crate::{Ctx, Merchant, Step};

/// `/`: the customer form, then the invoice form.
#[component]
pub fn Home() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let merchant = expect_context::<Merchant>();
    let client = expect_context::<api::Client>();
    // `?customer=`: that customer is fetched and charged; until then (or
    // when it cannot be) the customer form stays, with why above it.
    let preselect = Action::new_local(move |id: &String| {
        let (id, l) = (id.clone(), ctx.lang.get_untracked());
        async move {
            let c = client.get_customer(&id, l).await?;
            let cpf = document_is_cpf(c.document.as_deref());
            let picked = CustomerRef {
                id: c.id,
                full_name: c.full_name,
            };
            merchant.charge(picked, cpf, false);
            Ok::<(), api::Error>(())
        }
    });
    if let Some(id) = use_query_map().with_untracked(|q| q.get("customer")) {
        preselect.dispatch_local(id);
    }
    let status = move || {
        let l = ctx.lang.get();
        if preselect.pending().get() {
            return Some(
                view! { <p class="muted" role="status">{text::LOADING_CUSTOMER.t(l)}</p> }
                    .into_any(),
            );
        }
        preselect.value().with(|v| match v {
            Some(Err(e)) => Some(
                view! { <div class="alert" role="alert"><p>{error_text(l, e)}</p></div> }
                    .into_any(),
            ),
            _ => None,
        })
    };
    let page = move || {
        let l = ctx.lang.get();
        match merchant.step.get() {
            Step::Customer => view! { <CustomerForm l /> }.into_any(),
            Step::Invoice => view! { <InvoiceForm l /> }.into_any(),
        }
    };
    view! {
        {status}
        {page}
    }
}
