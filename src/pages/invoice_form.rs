//! The invoice form's view (`/`, second step): type-dependent fields, a
//! pt-BR currency input, the fine/interest/discount fieldset, Pix Automático
//! on periodic invoices, the notifications and webhooks editors and a live
//! installment preview from `paylink_model::installment_plan` (the function
//! the server uses). Its state and rules are `state::invoice`.

use leptos::prelude::*;
use paylink_model::{Frequency, InvoiceRequest, InvoiceType, Lang, DESCRIPTION_MAX};
use paylink_text as text;
use paylink_ui::payment_types::PaymentTypes;
use paylink_ui::preview::InstallmentPreview;
use paylink_ui::terms::TermsFieldset;

use crate::api;
use crate::components::customer_picker::CustomerPicker;
use crate::components::editors::{NotificationsEditor, WebhooksEditor};
use crate::i18n;
use crate::state::invoice::random_external_id;
use crate::{Ctx, Merchant, Step};
use paylink_ui::field::{
    AlertBox, AmountField, Checkbox, DateField, ErrorText, Field, Kind, Select, SubmitButton,
};

/// The merchant's invoice form (`/`, second step).
#[component]
pub fn InvoiceForm(l: Lang) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let merchant = expect_context::<Merchant>();
    let client = api::use_client();
    let (f, form) = (merchant.invoice, merchant.invoice_form);

    let go = crate::focus::use_go();
    let create = Action::new_local(move |(req, lang): &(InvoiceRequest, Lang)| {
        let (req, lang, go) = (req.clone(), *lang, go.clone());
        async move {
            match client.create_invoice(&req, lang).await {
                Ok(created) => {
                    // A fresh reconciliation id for the next invoice.
                    f.external_id.set(random_external_id());
                    go(&format!("/invoices/{}", created.id));
                }
                Err(e) => form.server_error(&e),
            }
        }
    });
    let busy = create.pending();
    let on_submit = form.on_submit(create, move || {
        let lang = ctx.lang.get_untracked();
        (f.build(lang).0, lang)
    });

    // Who the invoice is for; without a named customer, where to pick one
    // (the customer list's "Nova cobrança").
    let customer_note = move || {
        let name = merchant.created.with(|c| {
            c.as_ref()
                .filter(|c| f.customer_id.with(|id| id.trim() == c.id))
                .map(|c| c.full_name.clone())
        });
        let Some(name) = name else {
            let pick = text::pick_customer(l);
            return Some({
                view! {
                    <p class="note">
                        {pick.before} <a href="/customers">{text::CUSTOMERS.t(l)}</a> {pick.after}
                    </p>
                }
                .into_any()
            });
        };
        let text::Around { before, after } = if merchant.customer_is_new.get() {
            text::customer_created(l)
        } else {
            text::charge_for(l)
        };
        Some(view! { <p class="note">{before} <strong>{name}</strong> {after}</p> }.into_any())
    };

    let types: Vec<_> = InvoiceType::ALL
        .iter()
        .map(|t| (t.as_str().into(), i18n::invoice_type(l, *t).into()))
        .collect();
    let frequencies: Vec<_> = Frequency::ALL
        .iter()
        .map(|q| (q.as_str().into(), i18n::frequency(l, *q).into()))
        .collect();
    let frequency = move || {
        view! {
            <Select
                form
                name="frequency"
                label=text::FREQUENCY_LABEL.t(l)
                value=f.frequency
                options=frequencies.clone()
                required=true
            />
        }
    };
    // Pix Automático, for the periodic types: the model's reasons (and the server's, after
    // submitting: no API Pix, a merchant without a CNPJ, a payer without a document) show under it.
    let pix_automatico = move || {
        let retries = move || {
            f.pix_automatico.get().then(|| {
                view! {
                    <Checkbox
                        form
                        name="pixAutomatico.retries"
                        id="f-pixAutomatico-retries"
                        label=text::PIX_AUTOMATICO_RETRIES.t(l)
                        checked=f.pix_automatico_retries
                    />
                }
            })
        };
        view! {
            <Checkbox
                form
                name="pixAutomatico"
                id="f-pixAutomatico"
                label=text::PIX_AUTOMATICO_OFFER.t(l)
                checked=f.pix_automatico
            />
            {retries}
            <ErrorText form name="pixAutomatico" />
        }
    };
    // Fields that depend on the invoice type (rendered again when it changes).
    let kind = Memo::new(move |_| f.kind());
    let by_type = move || {
        match kind.get() {
        InvoiceType::Single => None,
        InvoiceType::Installment => Some(
            view! {
                <Field
                    form
                    name="installmentCount"
                    label=text::INSTALLMENT_COUNT.t(l)
                    value=f.installment_count
                    kind=Kind::Number
                    inputmode="numeric"
                    required=true
                />
            }
            .into_any(),
        ),
        InvoiceType::Recurring => Some(
            view! {
                <div class="cols">
                    {frequency()}
                    <DateField form name="endDate" label=text::END_DATE.t(l) value=f.end_date l />
                    <Field
                        form
                        name="endInstallment"
                        label=text::END_INSTALLMENT.t(l)
                        value=f.end_installment
                        kind=Kind::Number
                        inputmode="numeric"
                    />
                </div>
                {pix_automatico()}
            }
            .into_any(),
        ),
        InvoiceType::Subscription => Some(
            view! {
                <div class="cols">
                    {frequency()}
                    <Field form name="endSubscription" label=text::END_SUBSCRIPTION.t(l) value=f.end_subscription />
                </div>
                {pix_automatico()}
            }
            .into_any(),
        ),
    }
    };
    let by_customer_box = move || {
        (kind.get() == InvoiceType::Single).then(|| {
            view! {
                <Checkbox
                    form
                    name="priceByCustomer"
                    id="f-priceByCustomer"
                    label=text::PRICE_BY_CUSTOMER.t(l)
                    checked=f.price_by_customer
                />
            }
        })
    };
    let by_customer = Memo::new(move |_| f.by_customer());
    let price = move || {
        (!by_customer.get()).then(|| {
            view! {
                <AmountField form name="price" label=text::PRICE.t(l) value=f.price />
            }
        })
    };
    let plan = Memo::new(move |_| f.plan(l));
    let back = move |_| {
        merchant.step.set(Step::Customer);
        request_animation_frame(crate::focus_main);
    };

    view! {
        <form id="invoice-form" class="card" novalidate on:submit=on_submit>
            <h1>{text::NEW_INVOICE.t(l)}</h1>
            {customer_note}
            <AlertBox form />
            <div class="cols">
                <CustomerPicker l form />
                <Field form name="externalId" label=text::EXTERNAL_ID.t(l) value=f.external_id required=true />
            </div>
            <div class="cols">
                <DateField form name="dueDate" label=text::DUE_DATE.t(l) value=f.due_date l required=true />
                <Select form name="invoiceType" label=text::INVOICE_TYPE.t(l) value=f.invoice_type options=types />
            </div>
            <PaymentTypes l form pix=Some(f.pix) boleto=Some(f.boleto) />
            {by_type}
            {by_customer_box}
            {price}
            <Field
                form
                name="description"
                label=text::DESCRIPTION.t(l)
                value=f.description
                kind=Kind::Area
                counter=DESCRIPTION_MAX
            />
            <TermsFieldset l form t=f.terms.terms>
                <DateField form name="discount.untilDate" label=text::DISCOUNT_UNTIL.t(l) value=f.terms.discount_until l />
            </TermsFieldset>
            <NotificationsEditor l form rows=f.notifications />
            <WebhooksEditor l form rows=f.webhooks />
            <Field
                form
                name="redirectTo"
                label=text::REDIRECT_TO.t(l)
                value=f.redirect_to
                kind=Kind::Url
                placeholder="https://"
            />
            <InstallmentPreview l rows=plan empty=text::PREVIEW_EMPTY.t(l) />
            <div class="actions">
                <SubmitButton busy label=text::CREATE_INVOICE.t(l) l />
                <button type="button" class="link" on:click=back>{text::BACK_TO_CUSTOMER.t(l)}</button>
            </div>
        </form>
    }
}
