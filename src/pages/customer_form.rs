//! The customer (payer) form: every field of the spec, masks while typing,
//! `POST /api/customers`, then on to the invoice form.

use leptos::prelude::*;
use paylink_model::br::{self, UFS};
use paylink_model::{AddressRequest, CustomerRequest, Lang};
use web_sys::{Event, Node};

use crate::api;
use crate::components::field::{alert_box, field, select, submit_button, Kind, Opts};
use crate::dom::{frag, h};
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
    /// (document without punctuation, CEP and phone digits only).
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
            phone: text(self.phone).map(|p| br::digits(&p)),
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

pub fn customer_form(l: Lang, ctx: Ctx, merchant: Merchant) -> Node {
    let f = merchant.customer;
    let form = merchant.customer_form;

    let create = Action::new_local(move |(req, lang): &(CustomerRequest, Lang)| {
        let (req, lang) = (req.clone(), *lang);
        async move {
            match api::create_customer(&req, lang).await {
                Ok(customer) => {
                    merchant.invoice().0.customer_id.set(customer.id.clone());
                    merchant.created.set(Some(customer));
                    merchant.step.set(Step::Invoice);
                    crate::focus_main();
                }
                Err(e) => form.server_error(&e),
            }
        }
    });
    let busy = create.pending();
    let on_submit = move |ev: Event| {
        ev.prevent_default();
        // A second submit while the first is on its way is ignored.
        if !busy.get_untracked() && form.submit() {
            create.dispatch_local((f.request(), ctx.lang.get_untracked()));
        }
    };
    let skip = move |_| {
        merchant.step.set(Step::Invoice);
        crate::focus_main();
    };
    h("form")
        .id("customer-form")
        .class("card")
        .attr("novalidate", "")
        .on("submit", on_submit)
        .c(h("h1").c(K::NewCustomer.t(l)))
        .c(alert_box(form))
        .c(customer_fields(form, f, l, true))
        .c(actions(
            submit_button(busy.into(), K::CreateCustomer.t(l), l),
            Some(link_button(K::HaveCustomer.t(l), skip)),
        ))
        .into_node()
}

/// `<div class="actions">`: the submit button and maybe a secondary one.
pub fn actions(submit: Node, other: Option<Node>) -> Node {
    h("div").class("actions").c(submit).c(other).into_node()
}

/// A `<button type="button" class="link">`.
pub fn link_button(label: &'static str, click: impl Fn(Event) + 'static) -> Node {
    h("button")
        .attr("type", "button")
        .class("link")
        .on("click", click)
        .c(label)
        .into_node()
}

/// `<div class="cols">` around some controls.
pub fn cols(controls: Vec<Node>) -> Node {
    h("div").class("cols").cs(controls).into_node()
}

/// The customer's controls (the merchant form and a payment link's page);
/// `observations` (internal notes) only for the merchant.
pub fn customer_fields(form: Form, f: CustomerFields, l: Lang, observations: bool) -> Node {
    let ufs: Vec<(&'static str, &'static str)> = UFS.iter().map(|u| (*u, *u)).collect();
    let text =
        |name: &'static str, label: K, value, o: Opts| field(form, name, label.t(l), value, o);
    let o = Opts::default;
    let address = h("fieldset")
        .class("group")
        .c(h("legend").c(K::AddressLegend.t(l)))
        .c(cols(vec![
            text(
                "address.zipcode",
                K::Zipcode,
                f.zipcode,
                Opts {
                    mask: Some(br::mask_cep),
                    inputmode: "numeric",
                    autocomplete: "postal-code",
                    placeholder: "00000-000",
                    ..o()
                },
            ),
            text(
                "address.address",
                K::Street,
                f.street,
                Opts {
                    autocomplete: "address-line1",
                    ..o()
                },
            ),
        ]))
        .c(cols(vec![
            text("address.number", K::Number, f.number, o()),
            text(
                "address.complement",
                K::Complement,
                f.complement,
                Opts {
                    autocomplete: "address-line2",
                    ..o()
                },
            ),
        ]))
        .c(cols(vec![
            text("address.neighborhood", K::Neighborhood, f.neighborhood, o()),
            text(
                "address.city",
                K::City,
                f.city,
                Opts {
                    autocomplete: "address-level2",
                    ..o()
                },
            ),
            select(
                form,
                "address.state",
                K::State.t(l),
                f.state,
                ufs,
                K::Select.t(l),
                false,
            ),
        ]));
    let mut nodes = vec![
        text(
            "fullName",
            K::FullName,
            f.full_name,
            Opts {
                required: true,
                autocomplete: "name",
                ..o()
            },
        ),
        cols(vec![
            text(
                "document",
                K::Document,
                f.document,
                Opts {
                    mask: Some(br::mask_document),
                    placeholder: "000.000.000-00",
                    ..o()
                },
            ),
            text(
                "business",
                K::Business,
                f.business,
                Opts {
                    autocomplete: "organization",
                    ..o()
                },
            ),
        ]),
        cols(vec![
            text(
                "email",
                K::Email,
                f.email,
                Opts {
                    kind: Kind::Email,
                    autocomplete: "email",
                    ..o()
                },
            ),
            text(
                "phone",
                K::Phone,
                f.phone,
                Opts {
                    kind: Kind::Tel,
                    mask: Some(br::mask_phone),
                    autocomplete: "tel",
                    placeholder: "+55 (11) 98765-4321",
                    ..o()
                },
            ),
        ]),
        address.into_node(),
    ];
    if observations {
        nodes.push(text(
            "observations",
            K::Observations,
            f.observations,
            Opts {
                kind: Kind::Area,
                ..o()
            },
        ));
    }
    frag(nodes)
}
