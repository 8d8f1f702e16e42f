//! The customer's (payer's) fields: what was typed, the request it makes, and
//! their controls, shown by the merchant's customer form and by a payment
//! link's page.

use leptos::prelude::*;
use paylink_model::br::{self, UFS};
use paylink_model::{AddressRequest, CustomerRequest, Lang};
use paylink_text as text;

use crate::field::{Field, Kind, Select};
use crate::form::{text_signal, Form};

/// Every field path the form shows, in page order.
pub const CUSTOMER_FIELDS: [&str; 14] = [
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
    "language",
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
    /// `en`, or blank for pt-BR (sent as nothing, which the service reads as pt-BR).
    pub language: RwSignal<String>,
}

/// Trimmed text, `None` when blank (an empty field is not sent).
pub fn text(s: RwSignal<String>) -> Option<String> {
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
            language: s(),
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
            language: text(self.language),
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

/// The customer's controls (the merchant form and a payment link's page); the
/// language of the payer's messages and the internal notes only for the `merchant` (a
/// link's page sends its own language: the one the payer reads it in).
#[component]
pub fn CustomerFieldset(form: Form, f: CustomerFields, l: Lang, merchant: bool) -> impl IntoView {
    let ufs = UFS.iter().map(|u| ((*u).into(), (*u).into())).collect();
    let merchant_only = merchant.then(|| {
        // The languages name themselves, as language pickers do; the first is sent as nothing,
        // which the service reads as pt-BR.
        view! {
            <Select
                form
                name="language"
                label=text::PAYER_LANGUAGE.t(l)
                value=f.language
                options=vec![("en".into(), "English".into())]
                blank="Português (Brasil)"
            />
            <Field form name="observations" label=text::OBSERVATIONS.t(l) value=f.observations kind=Kind::Area />
        }
    });
    view! {
        <Field form name="fullName" label=text::FULL_NAME.t(l) value=f.full_name required=true autocomplete="name" />
        <div class="cols">
            <Field
                form
                name="document"
                label=text::DOCUMENT.t(l)
                value=f.document
                mask=br::mask_document
                placeholder="000.000.000-00"
            />
            <Field form name="business" label=text::BUSINESS.t(l) value=f.business autocomplete="organization" />
        </div>
        <div class="cols">
            <Field form name="email" label=text::EMAIL.t(l) value=f.email kind=Kind::Email autocomplete="email" />
            <Field
                form
                name="phone"
                label=text::PHONE.t(l)
                value=f.phone
                kind=Kind::Tel
                mask=br::mask_phone
                autocomplete="tel"
                placeholder="(11) 98765-4321"
            />
        </div>
        <fieldset class="group">
            <legend>{text::ADDRESS.t(l)}</legend>
            <div class="cols">
                <Field
                    form
                    name="address.zipcode"
                    label=text::ZIPCODE.t(l)
                    value=f.zipcode
                    mask=br::mask_cep
                    inputmode="numeric"
                    autocomplete="postal-code"
                    placeholder="00000-000"
                />
                <Field
                    form
                    name="address.address"
                    label=text::STREET.t(l)
                    value=f.street
                    autocomplete="address-line1"
                />
            </div>
            <div class="cols">
                <Field form name="address.number" label=text::NUMBER.t(l) value=f.number />
                <Field
                    form
                    name="address.complement"
                    label=text::COMPLEMENT.t(l)
                    value=f.complement
                    autocomplete="address-line2"
                />
            </div>
            <div class="cols">
                <Field form name="address.neighborhood" label=text::NEIGHBORHOOD.t(l) value=f.neighborhood />
                <Field
                    form
                    name="address.city"
                    label=text::CITY.t(l)
                    value=f.city
                    autocomplete="address-level2"
                />
                <Select form name="address.state" label=text::STATE.t(l) value=f.state options=ufs blank=text::SELECT.t(l) />
            </div>
        </fieldset>
        {merchant_only}
    }
}
