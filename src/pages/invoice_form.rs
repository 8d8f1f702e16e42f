//! The invoice form: type-dependent fields, a pt-BR currency input, the
//! notifications and webhooks editors and a live installment preview from
//! `paylink_model::installment_plan` (the function the server uses).

use leptos::prelude::*;
use paylink_model::charges::{validate_terms, TermsContext, ValueType};
use paylink_model::date::brasilia_today_from_millis;
use paylink_model::errors::Msg;
use paylink_model::money::{cents_to_reais, format_brl_input, parse_brl, parse_price_input};
use paylink_model::{
    installment_plan, CheckOptions, Date, Discount, Errors, Fine, Frequency, Interest,
    InvoiceRequest, InvoiceType, Lang, PaymentType, PixAutomaticoRequest, PlannedInstallment,
    DESCRIPTION_MAX, MAX_INSTALLMENTS,
};

use crate::api;
use crate::components::editors::{
    trimmed, whole, NotificationRow, NotificationsEditor, WebhookRow, WebhooksEditor,
};
use crate::components::installments::{InstallmentTable, Row};
use crate::i18n::{self, K};
use crate::{Ctx, Merchant, Step};
use paylink_ui::customer::text;
use paylink_ui::field::{
    relang_date, AlertBox, Checkbox, DateField, ErrorText, Field, Kind, Select, SubmitButton,
};
use paylink_ui::form::{flag_signal, text_signal, Form};

/// What the person typed in the invoice form.
#[derive(Clone, Copy)]
pub struct InvoiceFields {
    pub customer_id: RwSignal<String>,
    pub external_id: RwSignal<String>,
    pub due_date: RwSignal<String>,
    pub pix: RwSignal<bool>,
    pub boleto: RwSignal<bool>,
    /// Wire name (`SINGLE`…).
    pub invoice_type: RwSignal<String>,
    pub installment_count: RwSignal<String>,
    pub frequency: RwSignal<String>,
    pub end_date: RwSignal<String>,
    pub end_installment: RwSignal<String>,
    pub end_subscription: RwSignal<String>,
    /// pt-BR currency text (`1.234,56`).
    pub price: RwSignal<String>,
    pub price_by_customer: RwSignal<bool>,
    /// RECURRING and SUBSCRIPTION: charge through Pix Automático, and whether a failed cycle is
    /// tried again.
    pub pix_automatico: RwSignal<bool>,
    pub pix_automatico_retries: RwSignal<bool>,
    pub description: RwSignal<String>,
    pub redirect_to: RwSignal<String>,
    pub notifications: RwSignal<Vec<NotificationRow>>,
    pub webhooks: RwSignal<Vec<WebhookRow>>,
    /// The id of the customer created in this session when its document is
    /// a CPF: while `customerId` is that id, the fine is capped at 2 % (CDC
    /// art. 52 §1) here already; for other ids the server knows the document.
    pub cpf_customer: RwSignal<Option<String>>,
    /// Fine, interest and discount: `PERCENTAGE`/`FIXED` and the numbers as
    /// typed (`2`, `2,5`, `1.000,00`); a term is sent when its value is filled in.
    pub terms: TermFields,
}

/// What the person typed in the fine, interest and discount fields.
#[derive(Clone, Copy)]
pub struct TermFields {
    pub fine_type: RwSignal<String>,
    pub fine_value: RwSignal<String>,
    pub interest_value: RwSignal<String>,
    pub discount_type: RwSignal<String>,
    pub discount_value: RwSignal<String>,
    /// As the language writes dates (`dd/mm/aaaa` in pt-BR).
    pub discount_until: RwSignal<String>,
}

/// The API paths of the terms' fields, each shown on its own control.
pub const TERM_FIELDS: [&str; 6] = [
    "fine.type",
    "fine.value",
    "interest.value",
    "discount.type",
    "discount.value",
    "discount.untilDate",
];

impl TermFields {
    fn new() -> Self {
        let s = || text_signal("");
        TermFields {
            fine_type: text_signal(ValueType::Percentage.name()),
            fine_value: s(),
            interest_value: s(),
            discount_type: text_signal(ValueType::Percentage.name()),
            discount_value: s(),
            discount_until: s(),
        }
    }

    /// The request's `fine`, `interest` and `discount`: each present when its
    /// value (or the discount's date) is filled in. A number that cannot be
    /// read puts a message on its field in `bad`.
    fn build(
        &self,
        lang: Lang,
        bad: &mut Errors,
    ) -> (Option<Fine>, Option<Interest>, Option<Discount>) {
        let mut number = |path: &str, s: RwSignal<String>| -> Option<Option<f64>> {
            let typed = text(s)?;
            Some(match parse_price_input(&typed) {
                Some(n) => Some(cents_to_reais(n)),
                None => {
                    bad.insert(path.to_string(), vec![K::NumberFormat.t(lang).to_string()]);
                    None
                }
            })
        };
        let fine = number("fine.value", self.fine_value).map(|value| Fine {
            kind: text(self.fine_type),
            value,
        });
        let interest =
            number("interest.value", self.interest_value).map(|value| Interest { value });
        let discount_value = number("discount.value", self.discount_value);
        let typed_until = text(self.discount_until).is_some();
        let discount = (discount_value.is_some() || typed_until).then(|| Discount {
            kind: text(self.discount_type),
            value: discount_value.flatten(),
            until_date: iso_date(bad, lang, "discount.untilDate", self.discount_until),
        });
        (fine, interest, discount)
    }
}

/// A short random id for `externalId` (`PL-` and 6 base-36 characters).
pub fn random_external_id() -> String {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut n = (js_sys::Math::random() * 2_176_782_336.0) as u64; // 36^6
    let mut id = String::from("PL-");
    for _ in 0..6 {
        id.push(DIGITS[(n % 36) as usize] as char);
        n /= 36;
    }
    id
}

/// A CPF's shape (11 digits): all `charges::document_is_cpf` looks at.
const CPF_SHAPE: &str = "00000000000";

/// Today in Brasília (the day due dates are compared with, on the server too).
pub fn brasilia_today() -> Option<Date> {
    brasilia_today_from_millis(js_sys::Date::now() as i64)
}

/// Today in Brasília + `days`, as the form's language writes dates.
fn days_from_today(days: i64, lang: Lang) -> String {
    brasilia_today()
        .and_then(|d| d.add_days(days))
        .map(|d| d.format_for(lang))
        .unwrap_or_default()
}

/// A date field's text as the request's ISO date: blank is `None`; text
/// that is not a date in `lang` is `None` too, with the model's message
/// (`dd/mm/aaaa` or `yyyy-mm-dd`) put on `path` in `bad`.
fn iso_date(bad: &mut Errors, lang: Lang, path: &str, s: RwSignal<String>) -> Option<String> {
    let typed = text(s)?;
    match Date::parse_for(lang, &typed) {
        Ok(d) => Some(d.to_string()),
        Err(msg) => {
            bad.insert(path.to_string(), vec![msg.render(lang)]);
            None
        }
    }
}

/// `1234,5` → `1.234,50` when it is a valid amount (on blur of the price).
pub(crate) fn reformat_price(s: &str) -> Option<String> {
    parse_brl(s).map(format_brl_input)
}

/// `notifications[3].period` → `(3, "period")` for `list` = `notifications`.
fn row_of<'a>(path: &'a str, list: &str) -> Option<(usize, &'a str)> {
    let rest = path.strip_prefix(list)?.strip_prefix('[')?;
    let (idx, tail) = rest.split_once(']')?;
    Some((idx.parse().ok()?, tail.strip_prefix('.')?))
}

impl Default for InvoiceFields {
    fn default() -> Self {
        Self::new()
    }
}

impl InvoiceFields {
    /// The pt-BR form's fields (see [`InvoiceFields::new_in`]).
    pub fn new() -> Self {
        Self::new_in(Lang::PtBr)
    }

    /// Empty fields but the defaults, dates written as `lang` writes them.
    pub fn new_in(lang: Lang) -> Self {
        let s = || text_signal("");
        InvoiceFields {
            customer_id: s(),
            external_id: text_signal(&random_external_id()),
            due_date: text_signal(&days_from_today(7, lang)),
            pix: flag_signal(true),
            boleto: flag_signal(true),
            invoice_type: text_signal(InvoiceType::Single.as_str()),
            installment_count: text_signal("2"),
            frequency: text_signal(Frequency::Monthly.as_str()),
            end_date: s(),
            end_installment: s(),
            end_subscription: s(),
            price: s(),
            price_by_customer: flag_signal(false),
            pix_automatico: flag_signal(false),
            pix_automatico_retries: flag_signal(false),
            description: s(),
            redirect_to: s(),
            notifications: RwSignal::new(Vec::new()),
            webhooks: RwSignal::new(Vec::new()),
            cpf_customer: RwSignal::new(None),
            terms: TermFields::new(),
        }
    }

    /// The selected invoice type (tracked).
    pub fn kind(&self) -> InvoiceType {
        self.invoice_type
            .with(|t| InvoiceType::parse(t))
            .unwrap_or(InvoiceType::Single)
    }

    fn kind_untracked(&self) -> InvoiceType {
        untrack(|| self.kind())
    }

    /// Whether the payer sets the amount (only offered for SINGLE; tracked).
    pub fn by_customer(&self) -> bool {
        self.kind() == InvoiceType::Single && self.price_by_customer.get()
    }

    /// The request to send (only the fields that apply to the selected type)
    /// and the fields whose text could not be read as a number.
    pub fn build(&self, lang: Lang) -> (InvoiceRequest, Errors) {
        let t = self.kind_untracked();
        let mut bad = Errors::new();
        let mut int = |path: String, s: RwSignal<String>| match s.with_untracked(|v| whole(v)) {
            Ok(n) => n,
            Err(()) => {
                bad.insert(path, vec![Msg::WrongType("a whole number").render(lang)]);
                None
            }
        };
        let installment_count = match t {
            InvoiceType::Installment => int("installmentCount".into(), self.installment_count),
            _ => Some(1),
        };
        let end_installment = match t {
            InvoiceType::Recurring => int("endInstallment".into(), self.end_installment),
            _ => None,
        };
        let by_customer = untrack(|| self.by_customer());
        let price = match text(self.price) {
            Some(s) if !by_customer => match parse_brl(&s) {
                Some(cents) => Some(cents_to_reais(cents)),
                None => {
                    bad.insert("price".into(), vec![K::PriceFormat.t(lang).to_string()]);
                    None
                }
            },
            _ => None,
        };
        let mut payment_types = Vec::new();
        if self.pix.get_untracked() {
            payment_types.push(PaymentType::Pix.as_str().to_string());
        }
        if self.boleto.get_untracked() {
            payment_types.push(PaymentType::Boleto.as_str().to_string());
        }
        let notifications: Vec<_> = self.notifications.with_untracked(|rows| {
            rows.iter()
                .enumerate()
                .map(|(i, r)| {
                    let (req, not_a_number) = r.request();
                    if not_a_number {
                        bad.insert(
                            format!("notifications[{i}].period"),
                            vec![Msg::WrongType("a whole number").render(lang)],
                        );
                    }
                    req
                })
                .collect()
        });
        let webhooks: Vec<_> = self
            .webhooks
            .with_untracked(|rows| rows.iter().map(WebhookRow::request).collect());
        let periodic = t.is_periodic();
        let due_date = iso_date(&mut bad, lang, "dueDate", self.due_date);
        let end_date = if t == InvoiceType::Recurring {
            iso_date(&mut bad, lang, "endDate", self.end_date)
        } else {
            None
        };
        let (fine, interest, discount) = self.terms.build(lang, &mut bad);
        let req = InvoiceRequest {
            customer_id: text(self.customer_id),
            external_id: text(self.external_id),
            due_date,
            payment_types: Some(payment_types),
            installment_count,
            price,
            description: self.description.with_untracked(|v| trimmed(v)),
            invoice_type: Some(t.as_str().to_string()),
            frequency: if periodic { text(self.frequency) } else { None },
            end_date,
            end_installment,
            end_subscription: if t == InvoiceType::Subscription {
                text(self.end_subscription)
            } else {
                None
            },
            notifications: (!notifications.is_empty()).then_some(notifications),
            webhooks: (!webhooks.is_empty()).then_some(webhooks),
            redirect_to: text(self.redirect_to),
            price_by_customer: by_customer.then_some(true),
            fine,
            interest,
            discount,
            pix_automatico: (periodic && self.pix_automatico.get_untracked()).then(|| {
                PixAutomaticoRequest {
                    retries: Some(self.pix_automatico_retries.get_untracked()),
                }
            }),
        };
        (req, bad)
    }

    /// The model's verdict on the current values (plus unreadable numbers
    /// and dates), with the server's rule that a due date is not before
    /// today in Brasília.
    pub fn check(&self, lang: Lang) -> Errors {
        let (req, bad) = self.build(lang);
        let opts = CheckOptions {
            today: brasilia_today(),
            ..CheckOptions::default()
        };
        let mut errors = match req.check_with(opts) {
            Ok(new) if self.payer_is_cpf() => new
                .check_terms_for_payer(&req, Some(CPF_SHAPE))
                .err()
                .map(|v| v.render(lang))
                .unwrap_or_default(),
            Ok(_) => Errors::new(),
            Err(v) => v.render(lang),
        };
        // The consumer's cap on a percentage fine needs no amount: shown
        // while other fields still have errors too.
        if self.payer_is_cpf() && !errors.contains_key("fine.value") {
            let cap = TermsContext {
                payer_is_cpf: true,
                ..TermsContext::default()
            };
            if let Some(m) =
                validate_terms(req.fine.as_ref(), None, None, cap, lang).remove("fine.value")
            {
                errors.insert("fine.value".into(), m);
            }
        }
        errors.extend(bad);
        errors
    }

    /// Whether `customerId` is the customer created here with a CPF.
    fn payer_is_cpf(&self) -> bool {
        let id = text(self.customer_id);
        self.cpf_customer
            .with_untracked(|c| c.is_some() && c.as_deref() == id.as_deref())
    }

    /// The date fields rewritten for a language switch (`dd/mm/aaaa` ⇄ `yyyy-mm-dd`).
    pub fn relang(&self, from: Lang, to: Lang) {
        relang_date(self.due_date, from, to);
        relang_date(self.end_date, from, to);
        relang_date(self.terms.discount_until, from, to);
    }

    /// The visible field that shows the error of API path `path`.
    pub fn field_of(&self, path: &str) -> Option<String> {
        let t = self.kind_untracked();
        let shown = match path {
            "customerId" | "externalId" | "dueDate" | "paymentTypes" | "invoiceType"
            | "description" | "redirectTo" => true,
            "price" => !untrack(|| self.by_customer()),
            "priceByCustomer" => t == InvoiceType::Single,
            "installmentCount" => t == InvoiceType::Installment,
            "frequency" | "pixAutomatico" => t.is_periodic(),
            "pixAutomatico.retries" => return t.is_periodic().then(|| "pixAutomatico".to_string()),
            "endDate" | "endInstallment" => t == InvoiceType::Recurring,
            "endSubscription" => t == InvoiceType::Subscription,
            _ if TERM_FIELDS.contains(&path) => true,
            _ => {
                if path.starts_with("paymentTypes[") {
                    return Some("paymentTypes".to_string());
                }
                if let Some((i, f)) = row_of(path, "notifications") {
                    self.notifications.with_untracked(|rows| {
                        rows.get(i).is_some_and(|r| match f {
                            "type" | "channel" => true,
                            "period" => r.takes_period(),
                            _ => false,
                        })
                    })
                } else if let Some((i, f)) = row_of(path, "webhooks") {
                    matches!(f, "hookType" | "url")
                        && self.webhooks.with_untracked(|rows| i < rows.len())
                } else {
                    false
                }
            }
        };
        shown.then(|| path.to_string())
    }

    /// The installments the server will create for the current values
    /// (tracked; empty until amount, count and due date are valid).
    pub fn plan(&self, lang: Lang) -> Vec<PlannedInstallment> {
        let t = self.kind();
        if self.by_customer() {
            return Vec::new();
        }
        let Some(cents) = self.price.with(|p| parse_brl(p)) else {
            return Vec::new();
        };
        let count = if t == InvoiceType::Installment {
            match self.installment_count.with(|c| c.trim().parse::<u32>()) {
                Ok(n) if (1..=MAX_INSTALLMENTS).contains(&n) => n,
                _ => return Vec::new(),
            }
        } else {
            1
        };
        match self.due_date.with(|d| Date::parse_for(lang, d)) {
            Ok(due) => installment_plan(cents, count, due),
            Err(_) => Vec::new(),
        }
    }

    pub fn form(self, lang: RwSignal<Lang>) -> Form {
        Form::new(
            "invoice-form",
            lang,
            move |l| self.check(l),
            move |p| self.field_of(p),
        )
    }
}

/// The merchant's invoice form (`/`, second step).
#[component]
pub fn InvoiceForm(l: Lang) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let merchant = expect_context::<Merchant>();
    let client = api::use_client();
    let (f, form) = (merchant.invoice, merchant.invoice_form);

    let create = Action::new_local(move |(req, lang): &(InvoiceRequest, Lang)| {
        let (req, lang) = (req.clone(), *lang);
        async move {
            match client.create_invoice(&req, lang).await {
                Ok(created) => {
                    // A fresh reconciliation id for the next invoice.
                    f.external_id.set(random_external_id());
                    ctx.navigate(&format!("/invoices/{}", created.id));
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
            let lang = ctx.lang.get_untracked();
            create.dispatch_local((f.build(lang).0, lang));
        }
    };

    // Who the invoice is for; without a named customer, where to pick one
    // (the customer list's "Nova cobrança").
    let customer_note = move || {
        let name = merchant.created.with(|c| {
            c.as_ref()
                .filter(|c| f.customer_id.with(|id| id.trim() == c.id))
                .map(|c| c.full_name.clone())
        });
        let Some(name) = name else {
            return Some({
                view! {
                    <p class="note">
                        {K::PickCustomer.t(l)} " " <a href="/customers">{i18n::lists::LK::Customers.t(l)}</a>
                        " " {K::PickCustomerHow.t(l)}
                    </p>
                }
                .into_any()
            });
        };
        let said = if merchant.customer_is_new.get() {
            K::CustomerCreated
        } else {
            K::ChargeFor
        };
        Some(view! { <p class="note">{said.t(l)} " " <strong>{name}</strong></p> }.into_any())
    };

    let types: Vec<_> = InvoiceType::ALL
        .iter()
        .map(|t| (t.as_str(), i18n::invoice_type(l, *t)))
        .collect();
    let frequencies: Vec<_> = Frequency::ALL
        .iter()
        .map(|q| (q.as_str(), i18n::frequency(l, *q)))
        .collect();
    let frequency = move || {
        view! {
            <Select
                form
                name="frequency"
                label=K::FrequencyLabel.t(l)
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
                        label=K::PixAutomaticoRetries.t(l)
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
                label=K::PixAutomatico.t(l)
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
                    label=K::InstallmentCount.t(l)
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
                    <DateField form name="endDate" label=K::EndDate.t(l) value=f.end_date l />
                    <Field
                        form
                        name="endInstallment"
                        label=K::EndInstallment.t(l)
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
                    <Field form name="endSubscription" label=K::EndSubscription.t(l) value=f.end_subscription />
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
                    label=K::PriceByCustomer.t(l)
                    checked=f.price_by_customer
                />
            }
        })
    };
    let by_customer = Memo::new(move |_| f.by_customer());
    let price = move || {
        (!by_customer.get()).then(|| {
            view! {
                <Field
                    form
                    name="price"
                    label=K::Price.t(l)
                    value=f.price
                    required=true
                    inputmode="decimal"
                    placeholder="0,00"
                    reformat=reformat_price
                />
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
            <h1>{K::NewInvoice.t(l)}</h1>
            {customer_note}
            <AlertBox form />
            <div class="cols">
                <Field
                    form
                    name="customerId"
                    label=K::CustomerId.t(l)
                    value=f.customer_id
                    required=true
                    placeholder="00000000-0000-0000-0000-000000000000"
                />
                <Field form name="externalId" label=K::ExternalId.t(l) value=f.external_id required=true />
            </div>
            <div class="cols">
                <DateField form name="dueDate" label=K::DueDate.t(l) value=f.due_date l required=true />
                <Select form name="invoiceType" label=K::InvoiceTypeLabel.t(l) value=f.invoice_type options=types />
            </div>
            <PaymentTypes l form>
                <Checkbox form name="paymentTypes" value="PIX" id="f-paymentTypes-PIX" label="PIX" checked=f.pix />
                <Checkbox
                    form
                    name="paymentTypes"
                    value="BOLETO"
                    id="f-paymentTypes-BOLETO"
                    label="Boleto"
                    checked=f.boleto
                />
            </PaymentTypes>
            {by_type}
            {by_customer_box}
            {price}
            <Field
                form
                name="description"
                label=K::Description.t(l)
                value=f.description
                kind=Kind::Area
                counter=DESCRIPTION_MAX
            />
            <TermsFieldset l form t=f.terms />
            <NotificationsEditor l form rows=f.notifications />
            <WebhooksEditor l form rows=f.webhooks />
            <Field
                form
                name="redirectTo"
                label=K::RedirectTo.t(l)
                value=f.redirect_to
                kind=Kind::Url
                placeholder="https://"
            />
            <Preview l rows=Signal::derive(move || plan.with(|p| p.iter().map(Row::planned).collect())) />
            <div class="actions">
                <SubmitButton busy label=K::CreateInvoice.t(l) l />
                <button type="button" class="link" on:click=back>{K::BackToCustomer.t(l)}</button>
            </div>
        </form>
    }
}

/// Fine, interest and discount (all optional), named by their API paths
/// (`fine.type`, `fine.value`, `interest.value`, `discount.type`,
/// `discount.value`, `discount.untilDate`) and checked live by the model's
/// rules (`charges::check_terms_into`, through `InvoiceRequest::check_with`).
#[component]
pub fn TermsFieldset(l: Lang, form: Form, t: TermFields) -> impl IntoView {
    let kinds = vec![
        (ValueType::Percentage.name(), K::Percentage.t(l)),
        (ValueType::Fixed.name(), K::FixedAmount.t(l)),
    ];
    view! {
        <fieldset class="group terms">
            <legend>{K::Terms.t(l)}</legend>
            <div class="cols">
                <Select form name="fine.type" label=K::FineType.t(l) value=t.fine_type options=kinds.clone() />
                <Field
                    form
                    name="fine.value"
                    label=K::FineValue.t(l)
                    value=t.fine_value
                    inputmode="decimal"
                    placeholder="2,00"
                />
            </div>
            <Field
                form
                name="interest.value"
                label=K::InterestValue.t(l)
                value=t.interest_value
                inputmode="decimal"
                placeholder="1,00"
            />
            <div class="cols">
                <Select form name="discount.type" label=K::DiscountType.t(l) value=t.discount_type options=kinds />
                <Field
                    form
                    name="discount.value"
                    label=K::DiscountValue.t(l)
                    value=t.discount_value
                    inputmode="decimal"
                    placeholder="5,00"
                />
                <DateField form name="discount.untilDate" label=K::DiscountUntil.t(l) value=t.discount_until l />
            </div>
        </fieldset>
    }
}

/// The payment types' `<fieldset>`: its checkboxes and the group's message.
#[component]
pub fn PaymentTypes(l: Lang, form: Form, children: Children) -> impl IntoView {
    view! {
        <fieldset class="group">
            <legend>{K::PaymentTypes.t(l)}<span class="req" aria-hidden="true">" *"</span></legend>
            <div class="checks">{children()}</div>
            <ErrorText form name="paymentTypes" />
        </fieldset>
    }
}

/// The installment preview: its table, or why there is none yet.
#[component]
pub fn Preview(l: Lang, #[prop(into)] rows: Signal<Vec<Row>>) -> impl IntoView {
    let body = move || {
        let rows = rows.get();
        if rows.is_empty() {
            view! { <p class="muted">{K::PreviewEmpty.t(l)}</p> }.into_any()
        } else {
            view! { <InstallmentTable l caption=K::Preview.t(l) rows detail=false /> }.into_any()
        }
    };
    view! {
        <section class="preview" aria-label=K::Preview.t(l)>
            <h2>{K::Preview.t(l)}</h2>
            {body}
        </section>
    }
}
