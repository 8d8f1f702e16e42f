//! `/l/{slug}`: a payment link's public page. The payer fills the customer
//! form (the merchant's component and form contract) and chooses only what
//! the link leaves open: the payment types it allows, the number of
//! installments up to its maximum (with the live preview), or the amount
//! when the link lets the payer state it. Submit creates the customer and
//! the invoice through the link (`/api/links/{slug}/…`, which the proxy
//! checks against the link) and opens the payer page.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use paylink_model::br;
use paylink_model::money::{cents_to_reais, format_brl, parse_brl};
use paylink_model::{
    installment_plan, Date, Errors, InvoiceCreated, InvoiceRequest, InvoiceType, Lang, PaymentLink,
    PaymentType,
};

use crate::api;
use crate::components::installments::Row;
use crate::components::sections::{error_text as api_error_text, failed, Loading};
use crate::embed;
use crate::i18n::K;
use crate::pages::invoice_form::{reformat_price, PaymentTypes, Preview};
use crate::Ctx;
use paylink_ui::customer::{text, CustomerFields, CustomerFieldset, CUSTOMER_FIELDS};
use paylink_ui::field::{AlertBox, Checkbox, Field, Select, SubmitButton};
use paylink_ui::form::{flag_signal, text_signal, Form};

/// The payer's state on a link page. Created once by the App, so what was
/// typed survives a language switch (which re-renders the screen).
#[derive(Clone, Copy)]
pub struct Payer {
    pub link: RwSignal<Option<PaymentLink>>,
    pub customer: CustomerFields,
    /// The amount, when the link lets the payer state it (pt-BR currency text).
    pub amount: RwSignal<String>,
    pub pix: RwSignal<bool>,
    pub boleto: RwSignal<bool>,
    pub count: RwSignal<String>,
    /// The customer already created for this form's values, and its id: a
    /// second submit after a refused invoice does not create it again.
    created: StoredValue<Option<(paylink_model::CustomerRequest, String)>>,
    /// The invoice created, when the `pay` screen is not shown.
    pub done: RwSignal<Option<InvoiceCreated>>,
    pub form: Form,
}

type Mask = fn(&str) -> String;

/// `n` as a `&'static str` for the installment select (1 to 120, made once).
fn count_str(n: u32) -> &'static str {
    static NUMS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NUMS.get_or_init(|| {
        (0..=paylink_model::MAX_INSTALLMENTS)
            .map(|i| &*Box::leak(i.to_string().into_boxed_str()))
            .collect()
    })
    .get(n as usize)
    .copied()
    .unwrap_or("")
}

impl Payer {
    pub fn new(lang: RwSignal<Lang>, options: &embed::Options) -> Payer {
        let customer = CustomerFields::new();
        let link = RwSignal::new(None::<PaymentLink>);
        let amount = text_signal(options.prefill("price").unwrap_or(""));
        let pix = flag_signal(true);
        let boleto = flag_signal(true);
        let count = text_signal(options.prefill("installmentCount").unwrap_or(""));
        let c = customer;
        for (path, value) in &options.prefill {
            let (signal, mask): (_, Option<Mask>) = match path.as_str() {
                "fullName" => (c.full_name, None),
                "document" => (c.document, Some(br::mask_document)),
                "business" => (c.business, None),
                "email" => (c.email, None),
                "phone" => (c.phone, Some(br::mask_phone)),
                "address.zipcode" => (c.zipcode, Some(br::mask_cep)),
                "address.address" => (c.street, None),
                "address.number" => (c.number, None),
                "address.complement" => (c.complement, None),
                "address.neighborhood" => (c.neighborhood, None),
                "address.city" => (c.city, None),
                "address.state" => (c.state, None),
                _ => continue,
            };
            signal.set(mask.map_or_else(|| value.clone(), |m| m(value)));
        }
        let mut p = Payer {
            link,
            customer,
            amount,
            pix,
            boleto,
            count,
            created: StoredValue::new(None),
            done: RwSignal::new(None),
            // Replaced below: the check needs the finished `Payer`.
            form: Form::new("link-form", lang, |_| Errors::new(), |_| None),
        };
        let me = p;
        p.form = Form::new(
            "link-form",
            lang,
            move |l| me.check(l),
            move |path| me.field_of(path),
        );
        p
    }

    /// The link arrived: the form checks against it, and the installment
    /// select starts on its largest count (set before the controls exist, so
    /// they show it).
    fn adopt(&self, link: &PaymentLink) {
        if link.invoice_type == InvoiceType::Installment
            && self
                .count
                .with_untracked(|c| c.trim().parse::<u32>().is_err())
        {
            self.count.set(link.max_installments.max(1).to_string());
        }
        self.link.set(Some(link.clone()));
    }

    /// The invoice request for the link and the payer's choices (what the
    /// link fixes is left out: the proxy fills it in from the link), and the
    /// fields whose text could not be read.
    pub fn invoice(&self, link: &PaymentLink, lang: Lang) -> (InvoiceRequest, Errors) {
        let mut bad = Errors::new();
        let price = match link.price {
            Some(_) => None,
            None => match text(self.amount) {
                None => None,
                Some(s) => match parse_brl(&s) {
                    Some(cents) => Some(cents_to_reais(cents)),
                    None => {
                        bad.insert("price".into(), vec![K::PriceFormat.t(lang).to_string()]);
                        None
                    }
                },
            },
        };
        let count = if link.invoice_type == InvoiceType::Installment {
            self.count.with_untracked(|c| c.trim().parse::<i64>().ok())
        } else {
            None
        };
        let mut types = Vec::new();
        for (t, on) in [
            (PaymentType::Pix, self.pix),
            (PaymentType::Boleto, self.boleto),
        ] {
            if link.payment_types.contains(&t) && on.get_untracked() {
                types.push(t.as_str().to_string());
            }
        }
        let req = InvoiceRequest {
            payment_types: Some(types),
            installment_count: count,
            price,
            ..InvoiceRequest::default()
        };
        (req, bad)
    }

    /// The model's verdict on the customer and on the payer's choices: the
    /// link's rule (`PaymentLink::bind`, the proxy's own), then the service's
    /// on the invoice it produces.
    fn check(&self, lang: Lang) -> Errors {
        let mut errors = self.customer.request().validate(lang);
        if let Some(link) = self.link.get_untracked() {
            let (req, bad) = self.invoice(&link, lang);
            let inv = match link.bind(&req) {
                Ok(bound) => bound.validate(lang),
                Err(v) => v.render(lang),
            };
            // `customerId` is set on submit, from the customer just created.
            // (A filter, not `remove`: BTreeMap's removal code is kilobytes of wasm.)
            errors.extend(inv.into_iter().filter(|(k, _)| k != "customerId"));
            errors.extend(bad);
        }
        errors
    }

    fn field_of(&self, path: &str) -> Option<String> {
        let link = self.link.get_untracked()?;
        let shown = match path {
            "observations" => false,
            "price" => link.price_by_customer,
            "installmentCount" => link.invoice_type == InvoiceType::Installment,
            "paymentTypes" => true,
            p if p.starts_with("paymentTypes[") => return Some("paymentTypes".into()),
            p => CUSTOMER_FIELDS.contains(&p),
        };
        shown.then(|| path.to_string())
    }

    /// The installments the payer's choice gives (tracked).
    fn plan(&self) -> Vec<Row> {
        let Some(link) = self.link.get() else {
            return Vec::new();
        };
        let cents = link
            .price
            .or_else(|| self.amount.with(|a| parse_brl(a)))
            .unwrap_or(0);
        let count = match link.invoice_type {
            InvoiceType::Installment => self.count.with(|c| c.trim().parse().unwrap_or(0)),
            _ => 1,
        };
        match Date::parse_iso(&link.due_date) {
            Some(due) if cents > 0 && count > 0 => installment_plan(cents, count, due)
                .iter()
                .map(Row::planned)
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The route: the payment link of the path's `:slug`.
#[component]
pub fn LinkPage() -> impl IntoView {
    let params = use_params_map();
    move || {
        let slug = params.read().get("slug").unwrap_or_default();
        view! { <LinkView slug /> }
    }
}

/// A payment link's page: the link is fetched once (what was typed
/// survives a language switch, which renders the form again), then the
/// form; after the creation, the payer page (or, without the `pay` screen,
/// a confirmation with the payment link).
#[component]
pub fn LinkView(slug: String) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let lang = ctx.lang;
    let p = ctx.options(|o| Payer::new(lang, o));
    Effect::new(move |prev: Option<Lang>| {
        let l = lang.get();
        if prev.is_some_and(|prev| prev != l) {
            p.form.relocalize();
        }
        l
    });
    let link = LocalResource::new(move || {
        let slug = slug.clone();
        let l = lang.get_untracked();
        async move {
            let r = api::get_link(&slug, l).await;
            match &r {
                Ok(link) => {
                    p.adopt(link);
                    ctx.ready(&link.slug);
                }
                Err(e) => ctx.emit_error(true, e, &api_error_text(l, e)),
            }
            r
        }
    });
    move || {
        match p.done.get() {
        Some(done) => view! { <Done l=lang.get() done /> }.into_any(),
        None => view! {
            <Transition fallback=move || view! { <Loading l=lang.get_untracked() class="card muted skeleton" /> }>
                <ErrorBoundary fallback=failed(lang)>
                    {move || Suspend::new(async move {
                        link.await.map(|link| move || view! { <LinkForm l=lang.get() p link=link.clone() /> })
                    })}
                </ErrorBoundary>
            </Transition>
        }
        .into_any(),
    }
    }
}

/// The invoice is created and the `pay` screen is not shown: its link.
#[component]
fn Done(l: Lang, done: InvoiceCreated) -> impl IntoView {
    view! {
        <section class="card">
            <h1>{K::InvoiceReady.t(l)}</h1>
            <p class="paylink">
                <a href=done.url target="_top" class="url">{done.url.clone()}</a>
            </p>
        </section>
    }
}

/// Creates the payer's customer (once for the same values) and the invoice
/// through the link; tells the host page and opens the payer page.
async fn send(ctx: Ctx, p: Payer, slug: String) {
    let lang = ctx.lang.get_untracked();
    let form = p.form;
    let Some(link) = p.link.get_untracked() else {
        return;
    };
    let fail = |e: api::Error| {
        form.server_error(&e);
        ctx.emit_error(false, &e, &api_error_text(lang, &e));
    };
    let req = p.customer.request();
    let known = p.created.with_value(|c| {
        c.as_ref()
            .filter(|(r, _)| *r == req)
            .map(|(_, id)| id.clone())
    });
    let customer_id = match known {
        Some(id) => id,
        None => match api::create_link_customer(&slug, &req, lang).await {
            Ok(c) => {
                p.created.set_value(Some((req, c.id.clone())));
                ctx.emit(
                    "paylink:customer-created",
                    &embed::detail(&[("id", c.id.as_str().into())]),
                );
                c.id
            }
            Err(e) => return fail(e),
        },
    };
    let (mut inv, _) = p.invoice(&link, lang);
    inv.customer_id = Some(customer_id);
    match api::create_link_invoice(&slug, &inv, lang).await {
        Ok(created) => {
            ctx.emit(
                "paylink:invoice-created",
                &embed::detail(&[
                    ("id", created.id.as_str().into()),
                    ("url", created.url.as_str().into()),
                    ("externalId", created.external_id.as_str().into()),
                ]),
            );
            if ctx.options(|o| o.shows("pay")) {
                ctx.navigate(&format!("/pay/{}", created.id));
            } else {
                p.done.set(Some(created));
            }
        }
        Err(e) => fail(e),
    }
}

#[component]
fn LinkForm(l: Lang, p: Payer, link: PaymentLink) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let form = p.form;
    let slug = link.slug.clone();
    let submit = Action::new_local(move |_: &()| send(ctx, p, slug.clone()));
    let busy = submit.pending();
    let on_submit = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        // A second submit while the first is on its way is ignored.
        if !busy.get_untracked() && form.submit() {
            submit.dispatch_local(());
        }
    };

    let summary = ctx.options(|o| o.shows("summary")).then(|| {
        let price = match link.price {
            Some(c) => format_brl(c, l),
            None => K::AmountByPayer.t(l).to_string(),
        };
        let description = (!link.description.is_empty())
            .then(|| view! { <p class="description">{link.description.clone()}</p> });
        view! {
            <h1>{link.name.clone()}</h1>
            {description}
            <p class="amount">{price}</p>
        }
    });
    let amount = link.price_by_customer.then(|| {
        view! {
            <Field
                form
                name="price"
                label=K::Price.t(l)
                value=p.amount
                required=true
                inputmode="decimal"
                placeholder="0,00"
                reformat=reformat_price
            />
        }
    });
    let checks = link
        .payment_types
        .iter()
        .map(|t| match t {
            PaymentType::Pix => view! {
                <Checkbox form name="paymentTypes" value="PIX" id="f-paymentTypes-PIX" label="PIX" checked=p.pix />
            },
            PaymentType::Boleto => view! {
                <Checkbox
                    form
                    name="paymentTypes"
                    value="BOLETO"
                    id="f-paymentTypes-BOLETO"
                    label="Boleto"
                    checked=p.boleto
                />
            },
        })
        .collect_view();
    let installments = (link.invoice_type == InvoiceType::Installment).then(|| {
        // 1 is paying at once (the proxy makes it a SINGLE invoice).
        let counts = (1..=link.max_installments.max(1))
            .map(|n| (count_str(n), count_str(n)))
            .collect();
        let plan = Memo::new(move |_| p.plan());
        view! {
            <Select
                form
                name="installmentCount"
                label=K::InstallmentCount.t(l)
                value=p.count
                options=counts
                required=true
            />
            <Preview l rows=plan />
        }
    });

    view! {
        <form id="link-form" class="card" novalidate on:submit=on_submit>
            {summary}
            <AlertBox form />
            {amount}
            <PaymentTypes l form>{checks}</PaymentTypes>
            {installments}
            <h2>{K::YourData.t(l)}</h2>
            <CustomerFieldset form f=p.customer l observations=false />
            <div class="actions">
                <SubmitButton busy label=K::ToPayment.t(l) l />
            </div>
        </form>
    }
}
