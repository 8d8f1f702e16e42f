//! The customer (payer) form: every field of the spec, masks while typing,
//! `POST /api/customers`, then on to the invoice form.

use leptos::prelude::*;
use paylink_model::br::{self, UFS};
use paylink_model::charges::document_is_cpf;
use paylink_model::{AddressRequest, CustomerRequest, Lang};

use crate::api;
use crate::components::field::{AlertBox, Field, Kind, Select, SubmitButton};
use crate::form::{text_signal, Form};
use crate::i18n::K;
use crate::{Ctx, Merchant, Step};

/// Every field path the form shows, in page order.
pub const CUSTOMER_FIELDS: [&str; 13] = [
    "fullName",
    "document",
    "business",
    "email",
    "phone",
    "observations",
    "address.zipcode",
    "address.address",
    "address.number",
    "address.complement",
    "address.neighborhood",
    "address.city",
    "address.state",
];

/// What the person typed (masked text for document, CEP and phone).
#[derive(Clone, Copy)]
pub struct CustomerFields {
    pub full_name: RwSignal<String>,
    pub document: RwSignal<String>,
    pub business: RwSignal<String>,
    pub email: RwSignal<String>,
    pub phone: RwSignal<String>,
    pub observations: RwSignal<String>,
    pub street: RwSignal<String>,
    pub number: RwSignal<String>,
    pub complement: RwSignal<String>,
    pub neighborhood: RwSignal<String>,
    pub city: RwSignal<String>,
    pub state: RwSignal<String>,
    pub zipcode: RwSignal<String>,
}

/// Trimmed text, `None` when blank (an empty field is not sent).
pub(crate) fn text(s: RwSignal<String>) -> Option<String> {
    s.with_untracked(|v| {
        let v = v.trim();
        (!v.is_empty()).then(|| v.to_string())
    })
}

impl Default for CustomerFields {
    fn default() -> Self {
        Self::new()
    }
}

impl CustomerFields {
    pub fn new() -> Self {
        let s = || text_signal("");
        CustomerFields {
            full_name: s(),
            document: s(),
            business: s(),
            email: s(),
            phone: s(),
            observations: s(),
            street: s(),
            number: s(),
            complement: s(),
            neighborhood: s(),
            city: s(),
            state: s(),
            zipcode: s(),
        }
    }

    /// The request to send: blanks left out, document/CEP/phone normalised
    /// (document without punctuation, CEP digits only, phone digits with its
    /// `+` kept when typed: `(11) 98765-4321` goes as `11987654321`, a
    /// Brazilian number the model reads without a country code).
    pub fn request(&self) -> CustomerRequest {
        let address = AddressRequest {
            address: text(self.street),
            number: text(self.number),
            complement: text(self.complement),
            neighborhood: text(self.neighborhood),
            city: text(self.city),
            state: text(self.state),
            zipcode: text(self.zipcode).map(|z| br::digits(&z)),
        };
        CustomerRequest {
            full_name: text(self.full_name),
            document: text(self.document).map(|d| br::strip_formatting(&d)),
            business: text(self.business),
            email: text(self.email),
            phone: text(self.phone).map(|p| br::phone_for_request(&p)),
            observations: text(self.observations),
            address: (address != AddressRequest::default()).then_some(address),
        }
    }

    /// The form's validation state; the rules are `CustomerRequest::validate`.
    pub fn form(self, lang: RwSignal<Lang>) -> Form {
        Form::new(
            "customer-form",
            lang,
            move |l| self.request().validate(l),
            |p| CUSTOMER_FIELDS.contains(&p).then(|| p.to_string()),
        )
    }
}

/// The merchant's customer form (`/`, first step).
#[component]
pub fn CustomerForm(l: Lang) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let merchant = expect_context::<Merchant>();
    let f = merchant.customer;
    let form = merchant.customer_form;

    let create = Action::new_local(move |(req, lang): &(CustomerRequest, Lang)| {
        let (req, lang) = (req.clone(), *lang);
        async move {
            match api::create_customer(&req, lang).await {
                Ok(customer) => {
                    merchant.charge(customer, document_is_cpf(req.document.as_deref()), true);
                    request_animation_frame(crate::focus_main);
                }
                Err(e) => form.server_error(&e),
            }
        }
    });
    let busy = create.pending();
    let on_submit = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        // A second submit while the first is on its way is ignored.
        if !busy.get_untracked() && form.submit() {
            create.dispatch_local((f.request(), ctx.lang.get_untracked()));
        }
    };
    let skip = move |_| {
        merchant.step.set(Step::Invoice);
        request_animation_frame(crate::focus_main);
    };
    view! {
        <form id="customer-form" class="card" novalidate on:submit=on_submit>
            <h1>{K::NewCustomer.t(l)}</h1>
            <AlertBox form />
            <CustomerFieldset form f l observations=true />
            <div class="actions">
                <SubmitButton busy label=K::CreateCustomer.t(l) l />
                <button type="button" class="link" on:click=skip>{K::HaveCustomer.t(l)}</button>
            </div>
        </form>
    }
}

/// The customer's controls (the merchant form and a payment link's page);
/// `observations` (internal notes) only for the merchant.
#[component]
pub fn CustomerFieldset(
    form: Form,
    f: CustomerFields,
    l: Lang,
    observations: bool,
) -> impl IntoView {
    let ufs: Vec<(&'static str, &'static str)> = UFS.iter().map(|u| (*u, *u)).collect();
    let observations = observations.then(|| {
        view! { <Field form name="observations" label=K::Observations.t(l) value=f.observations kind=Kind::Area /> }
    });
    view! {
        <Field form name="fullName" label=K::FullName.t(l) value=f.full_name required=true autocomplete="name" />
        <div class="cols">
            <Field
                form
                name="document"
                label=K::Document.t(l)
                value=f.document
                mask=br::mask_document
                placeholder="000.000.000-00"
            />
            <Field form name="business" label=K::Business.t(l) value=f.business autocomplete="organization" />
        </div>
        <div class="cols">
            <Field form name="email" label=K::Email.t(l) value=f.email kind=Kind::Email autocomplete="email" />
            <Field
                form
                name="phone"
                label=K::Phone.t(l)
                value=f.phone
                kind=Kind::Tel
                mask=br::mask_phone
                autocomplete="tel"
                placeholder="(11) 98765-4321"
            />
        </div>
        <fieldset class="group">
            <legend>{K::AddressLegend.t(l)}</legend>
            <div class="cols">
                <Field
                    form
                    name="address.zipcode"
                    label=K::Zipcode.t(l)
                    value=f.zipcode
                    mask=br::mask_cep
                    inputmode="numeric"
                    autocomplete="postal-code"
                    placeholder="00000-000"
                />
                <Field
                    form
                    name="address.address"
                    label=K::Street.t(l)
                    value=f.street
                    autocomplete="address-line1"
                />
            </div>
            <div class="cols">
                <Field form name="address.number" label=K::Number.t(l) value=f.number />
                <Field
                    form
                    name="address.complement"
                    label=K::Complement.t(l)
                    value=f.complement
                    autocomplete="address-line2"
                />
            </div>
            <div class="cols">
                <Field form name="address.neighborhood" label=K::Neighborhood.t(l) value=f.neighborhood />
                <Field
                    form
                    name="address.city"
                    label=K::City.t(l)
                    value=f.city
                    autocomplete="address-level2"
                />
                <Select form name="address.state" label=K::State.t(l) value=f.state options=ufs blank=K::Select.t(l) />
            </div>
        </fieldset>
        {observations}
    }
}
