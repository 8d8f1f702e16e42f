//! `/l/{slug}`: a payment link's page. The payer fills the customer form
//! (the form contract of `paylink-ui`) and chooses only what the link
//! leaves open: the payment types it allows, the number of installments up
//! to its maximum (with the live preview), or the amount when the link lets
//! the payer state it.
//!
//! The form is one island, [`LinkForm`]: the server renders it (with what
//! was posted and the server's errors when a form sent without JavaScript
//! comes back), and it is a real `<form method="post">` to the page's own
//! address, which the server checks with [`verdict`]: the same state and
//! the browser's rules, then the whole check (the link's `bind` and the
//! invoice's rules). Hydrated, it validates what the payer sets as the
//! payer types ([`PaymentLink::check_choice`] and the customer's rules:
//! what the link fixes is the server's to check), masks, previews the
//! installments and submits through the proxy's link API (gloo-net), which
//! runs the whole check again, then opens the payer page.

// `#[island]`'s hydration entry forgets the mounted view on purpose: an island lives as long
// as the page.
#![allow(clippy::mem_forget)]

use leptos::either::Either;
use leptos::prelude::*;
use paylink_model::br;
use paylink_model::money::{cents_to_reais, format_brl, parse_brl};
#[cfg(feature = "ssr")]
use paylink_model::InvoiceRequest;
use paylink_model::{
    installment_plan, CustomerRequest, Date, ErrorEnvelope, Errors, InvoiceType, Lang, LinkChoice,
    PaymentLink, PaymentType,
};
use paylink_ui::customer::{text, CustomerFields, CustomerFieldset, CUSTOMER_FIELDS};
use paylink_ui::field::{AlertBox, AmountField, Checkbox, ErrorText, Select, SubmitButton};
use paylink_ui::form::{flag_signal, text_signal, Alert, Form};
use serde::{Deserialize, Serialize};

use crate::i18n::T;

/// What a form sent without JavaScript brought back: the text of each
/// field (API path → text, `paymentTypes` once per box ticked) and the
/// server's verdict on it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Posted {
    pub values: Vec<(String, String)>,
    pub refused: Option<ErrorEnvelope>,
}

type Mask = fn(&str) -> String;

/// The payer's state on a link page.
#[derive(Clone, Copy)]
struct Payer {
    link: StoredValue<PaymentLink>,
    customer: CustomerFields,
    /// The amount, when the link lets the payer state it (pt-BR currency text).
    amount: RwSignal<String>,
    pix: RwSignal<bool>,
    boleto: RwSignal<bool>,
    count: RwSignal<String>,
    form: Form,
}

impl Payer {
    /// The state for `link`, starting from `values` (API path → text).
    fn new(lang: RwSignal<Lang>, link: PaymentLink, values: &[(String, String)]) -> Payer {
        let types: Vec<&str> = values
            .iter()
            .filter(|(k, _)| k == "paymentTypes")
            .map(|(_, v)| v.as_str())
            .collect();
        // A form sent back says which boxes were ticked (none is an answer too);
        // a new one ticks them all.
        let ticked = |t: &str| values.is_empty() || types.contains(&t);
        let count = match link.invoice_type {
            InvoiceType::Installment => link.max_installments.max(1).to_string(),
            _ => String::new(),
        };
        let mut p = Payer {
            link: StoredValue::new(link),
            customer: CustomerFields::new(),
            amount: text_signal(""),
            pix: flag_signal(ticked("PIX")),
            boleto: flag_signal(ticked("BOLETO")),
            count: text_signal(&count),
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
        for (path, value) in values {
            p.set(path, value);
        }
        p
    }

    /// Sets one field's text (masked as typing would), by its API path.
    fn set(&self, path: &str, value: &str) {
        let c = self.customer;
        let (signal, mask): (_, Option<Mask>) = match path {
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
            "price" => (self.amount, None),
            "installmentCount" => (self.count, None),
            _ => return,
        };
        signal.set(mask.map_or_else(|| value.to_string(), |m| m(value)));
    }

    /// The customer to create, the payer's choices (what the link fixes is
    /// left out: the proxy fills it in from the link), and the fields whose
    /// text could not be read.
    fn requests(&self, lang: Lang) -> (CustomerRequest, LinkChoice, Errors) {
        let link = self.link.get_value();
        let mut bad = Errors::new();
        let price = match link.price {
            Some(_) => None,
            None => text(self.amount).and_then(|s| match parse_brl(&s) {
                Some(cents) => Some(cents_to_reais(cents)),
                None => {
                    bad.insert("price".into(), vec![T::PriceFormat.t(lang).to_string()]);
                    None
                }
            }),
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
        let req = LinkChoice {
            customer_id: None,
            payment_types: Some(types),
            installment_count: count,
            price,
        };
        // The payer reads in the page's language: their messages will be in it too.
        let customer = CustomerRequest {
            language: Some(lang.code().to_string()),
            ..self.customer.request()
        };
        (customer, req, bad)
    }

    /// The model's verdict on what the payer sets: the customer's fields and
    /// the payer's own choices (`PaymentLink::check_choice`). What the link
    /// fixes, and the invoice's rules over the whole, are the server's
    /// ([`verdict`], and the proxy's link API).
    fn check(&self, lang: Lang) -> Errors {
        let (customer, choice, bad) = self.requests(lang);
        let mut errors = customer.validate(lang);
        errors.extend(
            self.link
                .with_value(|l| l.check_choice(&choice))
                .render(lang),
        );
        errors.extend(bad);
        errors
    }

    /// The server's check: the browser's, then the link's rule
    /// (`PaymentLink::bind`, the proxy's own) and the service's on the
    /// invoice it produces. `customerId` is set once the customer exists.
    #[cfg(feature = "ssr")]
    fn check_all(&self, lang: Lang) -> Errors {
        let mut errors = self.check(lang);
        let (_, choice, _) = self.requests(lang);
        let inv = match self
            .link
            .with_value(|link| link.bind(&choice.into_request()))
        {
            Ok(bound) => bound.validate(lang),
            Err(v) => v.render(lang),
        };
        for (k, msgs) in inv.into_iter().filter(|(k, _)| k != "customerId") {
            errors.entry(k).or_insert(msgs);
        }
        errors
    }

    fn field_of(&self, path: &str) -> Option<String> {
        // One box's message (`paymentTypes[1]`) goes on the group.
        if path.starts_with("paymentTypes[") {
            return Some("paymentTypes".into());
        }
        let shown = self.link.with_value(|link| match path {
            "price" => link.price_by_customer,
            "installmentCount" => link.invoice_type == InvoiceType::Installment,
            "paymentTypes" => true,
            p => p != "observations" && CUSTOMER_FIELDS.contains(&p),
        });
        shown.then(|| path.to_string())
    }

    /// The installments the payer's choice gives (tracked).
    fn plan(&self) -> Vec<(u32, String, i64)> {
        let (price, kind, due) = self
            .link
            .with_value(|l| (l.price, l.invoice_type, l.due_date.clone()));
        let cents = price
            .or_else(|| self.amount.with(|a| parse_brl(a)))
            .unwrap_or(0);
        let count = match kind {
            InvoiceType::Installment => self.count.with(|c| c.trim().parse().unwrap_or(0)),
            _ => 1,
        };
        match Date::parse_iso(&due) {
            Some(due) if cents > 0 && count > 0 => installment_plan(cents, count, due)
                .iter()
                .map(|i| (i.number, i.due_date.format_for(Lang::PtBr), i.price_cents))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The server's check of a form posted without JavaScript: the customer
/// and the invoice request to send, or the errors to show on their fields.
/// Runs the island's own state and rules (so both say the same thing), then
/// the link's and the invoice's.
#[cfg(feature = "ssr")]
pub fn verdict(
    link: &PaymentLink,
    values: &[(String, String)],
    lang: Lang,
) -> Result<(CustomerRequest, InvoiceRequest), Errors> {
    let owner = Owner::new();
    owner.with(|| {
        let p = Payer::new(RwSignal::new(lang), link.clone(), values);
        let errors = p.check_all(lang);
        if errors.is_empty() {
            let (customer, choice, _) = p.requests(lang);
            Ok((customer, choice.into_request()))
        } else {
            Err(errors)
        }
    })
}

/// `n` as an option's text, for the installment select (made once).
fn count_str(n: u32) -> &'static str {
    static NUMS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NUMS.get_or_init(|| {
        (0..=paylink_model::MAX_INSTALLMENTS)
            .map(|i| i.to_string())
            .collect()
    })
    .get(n as usize)
    .map_or("", String::as_str)
}

/// The link's form. `key` makes the page's creations idempotent (a second
/// submit of the same form creates nothing new).
#[island]
pub fn LinkForm(l: Lang, link: PaymentLink, posted: Posted, key: String) -> impl IntoView {
    let lang = RwSignal::new(l);
    let p = Payer::new(lang, link, &posted.values);
    if let Some(env) = &posted.refused {
        p.form.show_envelope(env);
        // Sent back without JavaScript, nothing can move the focus: the alert
        // at the top says there is something to fix, even when every message
        // is on its field.
        if !p.form.has_alert() {
            p.form.set_alert(Some(Alert {
                message: env.message.clone(),
                details: Vec::new(),
            }));
        }
    }
    let summary = RwSignal::new(true);
    let done = RwSignal::new(None::<String>);
    browser::start(p, lang, summary, done, key.clone());
    // `Either`, not `.into_any()`: an `AnyView` keeps every render mode of the view it erases
    // (async hydration and HTML streaming among them), an `Either` only those the island calls
    // (bench/README.md, "bench/wasm-attribution").
    move || {
        let l = lang.get();
        match done.get() {
            Some(url) => {
                let text = url.clone();
                Either::Left(view! {
                    <section class="card">
                        <h1>{T::InvoiceReady.t(l)}</h1>
                        <p class="paylink"><a href=url target="_top" class="url">{text}</a></p>
                    </section>
                })
            }
            None => Either::Right(view! { <LinkFormView l p summary key=key.clone() /> }),
        }
    }
}

#[component]
fn LinkFormView(l: Lang, p: Payer, summary: RwSignal<bool>, key: String) -> impl IntoView {
    let form = p.form;
    let link = p.link.get_value();
    let busy = RwSignal::new(false);
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // A second submit while the first is on its way is ignored.
        if !busy.get_untracked() && form.submit() {
            browser::send(p, busy);
        }
    };
    let price = match link.price {
        Some(c) => format_brl(c, l),
        None => T::AmountByPayer.t(l).to_string(),
    };
    let description = (!link.description.is_empty())
        .then(|| view! { <p class="description">{link.description.clone()}</p> });
    let amount = link.price_by_customer.then(|| {
        view! {
            <AmountField form name="price" label=T::Price.t(l) value=p.amount />
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
        view! {
            <Select
                form
                name="installmentCount"
                label=T::InstallmentCount.t(l)
                value=p.count
                options=counts
                required=true
            />
            <Preview l p />
        }
    });
    view! {
        <form
            id="link-form"
            class="card"
            method="post"
            action=format!("/l/{}", link.slug)
            novalidate
            on:submit=on_submit
        >
            <div hidden=move || !summary.get()>
                <h1>{link.name.clone()}</h1>
                {description}
                <p class="amount">{price}</p>
            </div>
            // Sent back by a browser without JavaScript: the same form twice is one invoice.
            <input type="hidden" name="idempotencyKey" value=key />
            <AlertBox form />
            {amount}
            <fieldset class="group">
                <legend>{T::PaymentTypes.t(l)}<span class="req" aria-hidden="true">" *"</span></legend>
                <div class="checks">{checks}</div>
                <ErrorText form name="paymentTypes" />
            </fieldset>
            {installments}
            <h2>{T::YourData.t(l)}</h2>
            <CustomerFieldset form f=p.customer l merchant=false />
            <div class="actions">
                <SubmitButton busy label=T::ToPayment.t(l) l />
            </div>
        </form>
    }
}

/// The installment preview: its table, or why there is none yet.
#[component]
fn Preview(l: Lang, p: Payer) -> impl IntoView {
    let rows = Memo::new(move |_| p.plan());
    let body = move || {
        let rows = rows.get();
        if rows.is_empty() {
            return Either::Left(view! { <p class="muted">{T::PreviewEmpty.t(l)}</p> });
        }
        let total: i64 = rows.iter().map(|r| r.2).sum();
        let rows = rows
            .into_iter()
            .map(|(n, due, cents)| {
                let due = match l {
                    Lang::PtBr => due,
                    Lang::En => Date::parse_for(Lang::PtBr, &due)
                        .map(|d| d.format_for(l))
                        .unwrap_or(due),
                };
                view! {
                    <tr>
                        <td>{n}</td>
                        <td>{due}</td>
                        <td class="num">{format_brl(cents, l)}</td>
                    </tr>
                }
            })
            .collect_view();
        Either::Right(view! {
            <table class="installments">
                <caption>{T::Preview.t(l)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{T::InstallmentNo.t(l)}</th>
                        <th scope="col">{T::DueDate.t(l)}</th>
                        <th scope="col" class="num">{T::Amount.t(l)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
                <tfoot>
                    <tr>
                        <th scope="row">{T::Total.t(l)}</th>
                        <td></td>
                        <td class="num">{format_brl(total, l)}</td>
                    </tr>
                </tfoot>
            </table>
        })
    };
    view! {
        <section class="preview" aria-label=T::Preview.t(l)>
            <h2>{T::Preview.t(l)}</h2>
            {body}
        </section>
    }
}

/// What only the browser does: the embedding (options, events, height),
/// and the submit through the proxy's link API.
#[cfg(feature = "hydrate")]
mod browser {
    use leptos::prelude::*;
    use paylink_model::{CustomerRef, InvoiceCreated, Lang};
    use paylink_ui::Failure;
    use serde::de::DeserializeOwned;
    use wasm_bindgen::JsValue;

    use super::Payer;
    use crate::host::{self, Host, Options};

    /// Where the page runs and the creations' state, for [`send`].
    #[derive(Clone)]
    struct Page {
        host: Host,
        options: Options,
        base: String,
        lang: RwSignal<Lang>,
        done: RwSignal<Option<String>>,
        key: String,
        /// (path, body, key) of each creation sent: the same body goes again
        /// with the same key, a changed one with a new key.
        sent: StoredValue<Vec<(String, String, String)>, LocalStorage>,
        /// The customer created for these values, and its id: a second
        /// submit after a refused invoice does not create it again.
        created: StoredValue<Option<(String, String)>, LocalStorage>,
    }

    pub fn start(
        p: Payer,
        lang: RwSignal<Lang>,
        summary: RwSignal<bool>,
        done: RwSignal<Option<String>>,
        key: String,
    ) {
        let (host, options) = host::detect();
        // Once hydrated (effects run after it): what the embedding asks
        // changes the page the server rendered, never the hydration itself.
        {
            let (host, options) = (host.clone(), options.clone());
            let slug = p.link.with_value(|l| l.slug.clone());
            Effect::new(move |_| {
                for (path, value) in &options.prefill {
                    p.set(path, value);
                }
                if let Some(l) = options.locale {
                    lang.set(l);
                }
                summary.set(options.shows("summary"));
                host::connect(&host, &options, move |l| lang.set(l));
                host.emit("paylink:ready", &[("link", slug.as_str().into())]);
            });
        }
        let page = Page {
            base: host.api_base(&options),
            host,
            options,
            lang,
            done,
            key,
            sent: StoredValue::new_local(Vec::new()),
            created: StoredValue::new_local(None),
        };
        provide_context(page);
    }

    pub fn refused(code: u16, message: String) {
        Effect::new(move |_| {
            let (host, options) = host::detect();
            host::connect(&host, &options, |_| {});
            let env = paylink_model::ErrorEnvelope {
                code,
                message: message.clone(),
                errors: None,
            };
            host.emit_error(true, &Failure::Api(env), &message);
        });
    }

    pub fn send(p: Payer, busy: RwSignal<bool>) {
        let Some(page) = use_context::<Page>() else {
            return;
        };
        busy.set(true);
        leptos::task::spawn_local(async move {
            create(&page, p).await;
            busy.set(false);
        });
    }

    async fn create(page: &Page, p: Payer) {
        let lang = page.lang.get_untracked();
        let slug = p.link.with_value(|l| l.slug.clone());
        let fail = |e: Failure| {
            p.form.server_error(&e);
            page.host.emit_error(false, &e, &e.text(lang));
        };
        let (customer, mut invoice, _) = p.requests(lang);
        // Only what the payer set goes: the proxy fills in the link's values and checks the whole.
        let Ok(body) = leptos::serde_json::to_string(&customer) else {
            return;
        };
        let known = page.created.with_value(|c| {
            c.as_ref()
                .filter(|(b, _)| *b == body)
                .map(|(_, id)| id.clone())
        });
        let customer_id = match known {
            Some(id) => id,
            None => match call::<CustomerRef>(
                page,
                &format!("/api/links/{slug}/customers"),
                body.clone(),
                lang,
            )
            .await
            {
                Ok(c) => {
                    page.created.set_value(Some((body, c.id.clone())));
                    page.host
                        .emit("paylink:customer-created", &[("id", c.id.as_str().into())]);
                    c.id
                }
                Err(e) => return fail(e),
            },
        };
        invoice.customer_id = Some(customer_id);
        let Ok(body) = leptos::serde_json::to_string(&invoice) else {
            return;
        };
        match call::<InvoiceCreated>(page, &format!("/api/links/{slug}/invoices"), body, lang).await
        {
            Ok(created) => {
                page.host.emit(
                    "paylink:invoice-created",
                    &[
                        ("id", created.id.as_str().into()),
                        ("url", created.url.as_str().into()),
                        ("externalId", created.external_id.as_str().into()),
                    ],
                );
                if page.options.shows("pay") {
                    page.host.go(&format!("/pay/{}", created.id));
                } else {
                    page.done.set(Some(created.url));
                }
            }
            Err(e) => fail(e),
        }
    }

    /// The key of a creation: the page's, numbered per distinct body.
    fn key_for(page: &Page, path: &str, body: &str) -> String {
        page.sent
            .try_update_value(|sent| {
                if let Some((_, _, k)) = sent.iter().find(|(p, b, _)| p == path && b == body) {
                    return k.clone();
                }
                let k = format!("{}-{}", page.key, sent.len() + 1);
                sent.push((path.to_string(), body.to_string(), k.clone()));
                k
            })
            .unwrap_or_else(|| page.key.clone())
    }

    /// `POST {base}{path}` with a JSON body; the answer read as `R`, or the
    /// service's error envelope.
    async fn call<R: DeserializeOwned>(
        page: &Page,
        path: &str,
        body: String,
        lang: Lang,
    ) -> Result<R, Failure> {
        let key = key_for(page, path, &body);
        let res = gloo_net::http::Request::post(&format!("{}{path}", page.base))
            .header("Content-Type", "application/json")
            .header("Accept-Language", lang.code())
            .header("Idempotency-Key", &key)
            .body(JsValue::from_str(&body))
            .map_err(|_| Failure::Network)?
            .send()
            .await
            .map_err(|_| Failure::Network)?;
        let text = res.text().await.map_err(|_| Failure::Network)?;
        if res.ok() {
            return leptos::serde_json::from_str(&text).map_err(|_| Failure::BadResponse);
        }
        Err(Failure::Api(
            leptos::serde_json::from_str(&text).unwrap_or_else(|_| paylink_model::ErrorEnvelope {
                code: res.status(),
                message: res.status_text(),
                errors: None,
            }),
        ))
    }
}

/// On the server nothing is embedded, typed or sent.
#[cfg(not(feature = "hydrate"))]
mod browser {
    use leptos::prelude::*;
    use paylink_model::Lang;

    use super::Payer;

    pub fn start(
        _p: Payer,
        _lang: RwSignal<Lang>,
        _summary: RwSignal<bool>,
        _done: RwSignal<Option<String>>,
        _key: String,
    ) {
    }

    pub fn send(_p: Payer, _busy: RwSignal<bool>) {}

    pub fn refused(_code: u16, _message: String) {}
}

/// Why a link's page has no form (an unknown or inactive link): the
/// service's message and, for the page around, `paylink:error` (critical:
/// nothing can go on there).
#[island]
pub fn LinkRefused(l: Lang, code: u16, message: String) -> impl IntoView {
    browser::refused(code, message.clone());
    view! {
        <div class="card">
            <h1>{T::LinkUnavailable.t(l)}</h1>
            <div class="alert" role="alert">
                <p>{message}</p>
            </div>
        </div>
    }
}

/// The link page's body: the form, then the link's terms (fine, interest,
/// discount), one sentence each as the model states them.
#[component]
pub fn LinkPage(
    l: Lang,
    link: PaymentLink,
    posted: Posted,
    key: String,
    terms: Vec<String>,
    /// A sandbox's server: the page says its payment settings are demo ones.
    #[prop(optional)]
    sandbox: bool,
) -> impl IntoView {
    let test_banner = sandbox.then(|| {
        view! { <p class="sandbox-banner" role="note">{T::TestEnvironment.t(l)}</p> }
    });
    let terms = (!terms.is_empty()).then(|| {
        view! {
            <section class="card terms" aria-label=T::Terms.t(l)>
                <h2>{T::Terms.t(l)}</h2>
                <ul>{terms.into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}</ul>
            </section>
        }
    });
    view! {
        {test_banner}
        <LinkForm l link posted key />
        {terms}
    }
}
