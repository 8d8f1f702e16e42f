//! The customer (payer) form: every field of the spec, masks while typing,
//! `POST /api/customers`, then on to the invoice form.

use leptos::prelude::*;
use paylink_model::charges::document_is_cpf;
use paylink_model::{CustomerRequest, Lang};
use paylink_text as text;

use crate::api;
use crate::{Ctx, Merchant, Step};
use paylink_ui::customer::CustomerFieldset;
use paylink_ui::field::{AlertBox, SubmitButton};

/// The merchant's customer form (`/`, first step).
#[component]
pub fn CustomerForm(l: Lang) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let merchant = expect_context::<Merchant>();
    let client = api::use_client();
    let f = merchant.customer;
    let form = merchant.customer_form;

    let create = Action::new_local(move |(req, lang): &(CustomerRequest, Lang)| {
        let (req, lang) = (req.clone(), *lang);
        async move {
            match client.create_customer(&req, lang).await {
                Ok(customer) => {
                    merchant.charge(customer, document_is_cpf(req.document.as_deref()), true);
                    request_animation_frame(crate::focus_main);
                }
                Err(e) => form.server_error(&e),
            }
        }
    });
    let busy = create.pending();
    let on_submit = form.on_submit(create, move || (f.request(), ctx.lang.get_untracked()));
    let skip = move |_| {
        merchant.step.set(Step::Invoice);
        request_animation_frame(crate::focus_main);
    };
    view! {
        <form id="customer-form" class="card" novalidate on:submit=on_submit>
            <h1>{text::NEW_CUSTOMER.t(l)}</h1>
            <AlertBox form />
            <CustomerFieldset form f l merchant=true />
            <div class="actions">
                <SubmitButton busy label=text::CREATE_CUSTOMER.t(l) l />
                <button type="button" class="link" on:click=skip>{text::HAVE_CUSTOMER.t(l)}</button>
            </div>
        </form>
    }
}
