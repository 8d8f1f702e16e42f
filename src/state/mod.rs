//! The app's state, apart from its views: [`Ctx`] (the one language signal,
//! provided by `App`), the merchant flow at `/`
//! ([`Merchant`], [`Step`]), and the invoice form's fields and rules
//! ([`invoice`]).

use leptos::prelude::*;
use paylink_model::{CustomerRef, Lang};
use paylink_ui::customer::CustomerFields;

pub mod invoice;
pub mod link;
pub mod terms;

use invoice::InvoiceFields;

/// App-wide state, available with `expect_context::<Ctx>()`.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub lang: RwSignal<Lang>,
}

/// Which form the merchant flow at `/` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Customer,
    Invoice,
}

/// The merchant flow's state. It lives as long as the app, so the values
/// typed survive a language switch and a visit to an invoice's detail.
#[derive(Clone, Copy)]
pub struct Merchant {
    pub step: RwSignal<Step>,
    pub customer: CustomerFields,
    pub customer_form: paylink_ui::form::Form,
    /// The customer the invoice form was opened for, named above it.
    pub created: RwSignal<Option<CustomerRef>>,
    /// Whether that customer was just created here (or picked from the list).
    pub customer_is_new: RwSignal<bool>,
    /// What the invoice form's customer picker shows: the text typed to
    /// search, or the name of the customer picked.
    pub customer_text: RwSignal<String>,
    pub invoice: InvoiceFields,
    pub invoice_form: paylink_ui::form::Form,
}

impl Merchant {
    pub fn new(lang: RwSignal<Lang>) -> Merchant {
        let customer = CustomerFields::new();
        let invoice = InvoiceFields::new();
        Merchant {
            step: RwSignal::new(Step::Customer),
            customer,
            customer_form: customer.form(lang),
            created: RwSignal::new(None),
            customer_is_new: RwSignal::new(false),
            customer_text: RwSignal::new(String::new()),
            invoice,
            invoice_form: invoice.form(lang),
        }
    }

    /// The invoice form for customer `c`, just created here (`is_new`) or picked from the
    /// customer list: its id in `customerId`, the fine capped at 2 % when its document is a
    /// CPF (`cpf`, as the server will cap it), its name in a note above the form.
    pub fn charge(&self, c: CustomerRef, cpf: bool, is_new: bool) {
        self.invoice.customer_id.set(c.id.clone());
        self.invoice.cpf_customer.set(cpf.then(|| c.id.clone()));
        self.customer_is_new.set(is_new);
        self.customer_text.set(c.full_name.clone());
        self.created.set(Some(c));
        self.step.set(Step::Invoice);
    }
}

impl Ctx {
    /// The app-wide state, provided as context; `<html lang>` follows the
    /// language.
    pub(crate) fn provide() -> Ctx {
        // The language the person chose on an earlier visit; pt-BR otherwise.
        let remembered = crate::components::lang_switch::remembered();
        let lang = RwSignal::new(remembered.unwrap_or(Lang::PtBr));
        let ctx = Ctx { lang };
        provide_context(ctx);
        Effect::new(move |_| {
            if let Some(html) = document().document_element() {
                let _ = html.set_attribute("lang", lang.get().code());
            }
        });
        ctx
    }
}
