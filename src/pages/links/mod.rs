//! `/links`: the merchant's payment links. A table of every link (name,
//! amount or "o pagador define", type, active, invoices made, amount paid)
//! with each row's deactivate/reactivate and share buttons; the share panel
//! (the link's address, the two embed snippets of docs/widget.md, and its QR
//! code drawn by the server, printable on its own); and the form that
//! creates one, checked live by the model's rules (`LinkRequest::check`).

use leptos::prelude::*;
use paylink_model::link_spec::{LinkList, MerchantLink};
use paylink_model::money::format_brl;
use paylink_model::{InvoiceType, Lang, DESCRIPTION_MAX};
use paylink_text as text;
use paylink_ui::fetched::Fetched;
use paylink_ui::field::{AlertBox, AmountField, Checkbox, Field, Kind, Select, SubmitButton};
use paylink_ui::form::Form;
use paylink_ui::payment_types::PaymentTypes;
use paylink_ui::terms::TermsFieldset;

use crate::api;
use crate::components::table::ListTable;
use crate::state::link::LinkFields;
use crate::Ctx;

mod share;
use share::SharePanel;

/// What the screen last did, announced in its status line (in the language
/// shown, so it follows a switch): the sentence and the link's name.
type Said = Option<(fn(Lang, &str) -> String, String)>;

#[component]
pub fn LinksPage() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    // The link whose share panel is open.
    let shared = RwSignal::new(None::<String>);
    let said = RwSignal::new(Said::None);
    let failure = RwSignal::new(None::<api::Error>);
    let toggle = Action::new_local(move |(slug, name, active): &(String, String, bool)| {
        let (slug, name, active) = (slug.clone(), name.clone(), *active);
        async move {
            match client
                .set_link_active(&slug, active, lang.get_untracked())
                .await
            {
                Ok(_) => {
                    failure.set(None);
                    let k = if active {
                        text::link_reactivated
                    } else {
                        text::link_deactivated
                    };
                    said.set(Some((k as fn(Lang, &str) -> String, name)));
                }
                Err(e) => failure.set(Some(e)),
            }
        }
    });
    // Read again after each switch (keyed on the action's version, as the Leptos examples'
    // todo list is), whatever it answered: a refusal may follow a change elsewhere.
    let list = LocalResource::new(move || {
        let l = lang.get();
        toggle.version().track();
        async move { client.list_links(l).await }
    });
    let created = Callback::new(move |link: MerchantLink| {
        failure.set(None);
        said.set(Some((text::link_created, link.name)));
        shared.set(Some(link.slug));
        list.refetch();
    });
    let status = move || {
        let l = lang.get();
        match failure.get() {
            Some(e) => e.text(l),
            None => said.get().map(|(k, name)| k(l, &name)).unwrap_or_default(),
        }
    };

    view! {
        <section class="card list links">
            <h1>{move || text::PAYMENT_LINKS.t(lang.get())}</h1>
            <p role="status" class="muted">{status}</p>
            <Fetched
                lang
                data=list
                show=move |l, list| list.map(|links| view! { <LinkRows l links shared toggle /> })
            />
        </section>
        {move || shared.get().map(|slug| view! { <SharePanel slug shared /> })}
        <LinkForm created />
    }
}

/// The amount a link charges, or who states it.
fn amount_text(l: Lang, link: &MerchantLink) -> String {
    match link.price {
        Some(c) => format_brl(c, l),
        None => text::PAYER_SETS.t(l).to_string(),
    }
}

fn type_text(l: Lang, link: &MerchantLink) -> String {
    match link.invoice_type {
        InvoiceType::Installment => text::up_to(l, link.max_installments),
        _ => text::SINGLE.t(l).to_string(),
    }
}

#[component]
fn LinkRows(
    l: Lang,
    links: LinkList,
    shared: RwSignal<Option<String>>,
    toggle: Action<(String, String, bool), ()>,
) -> impl IntoView {
    if links.data.is_empty() {
        return view! { <p class="empty muted">{text::NO_LINKS.t(l)}</p> }.into_any();
    }
    let heads = [
        text::NAME.t(l),
        text::AMOUNT.t(l),
        text::TYPE.t(l),
        text::ACTIVE.t(l),
        text::INVOICES_MADE.t(l),
        text::AMOUNT_PAID.t(l),
        text::ACTIONS.t(l),
    ];
    let head: Vec<_> = heads.iter().map(|t| (*t, "")).collect();
    let busy = toggle.pending();
    let rows = links
        .data
        .into_iter()
        .map(|link| {
            let (slug, name, active) = (link.slug.clone(), link.name.clone(), link.active);
            let (switch_label, switch_text) = if active {
                (text::deactivate_link(l, &name), text::DEACTIVATE)
            } else {
                (text::reactivate_link(l, &name), text::REACTIVATE)
            };
            let share_label = text::share_link(l, &name);
            let switch = {
                let (slug, name) = (slug.clone(), name.clone());
                move |_| {
                    if !busy.get_untracked() {
                        toggle.dispatch_local((slug.clone(), name.clone(), !active));
                    }
                }
            };
            let share = {
                let slug = slug.clone();
                move |_| {
                    shared.set(Some(slug.clone()));
                    crate::focus_later("#share-title".into());
                }
            };
            view! {
                <tr role="row" class:inactive=!active>
                    <th scope="row" role="rowheader" data-label=heads[0]>
                        {name}
                        <span class="muted slug">{format!("/l/{slug}")}</span>
                    </th>
                    <td role="cell" data-label=heads[1]>{amount_text(l, &link)}</td>
                    <td role="cell" data-label=heads[2]>{type_text(l, &link)}</td>
                    <td role="cell" data-label=heads[3]>
                        {if active { text::YES.t(l) } else { text::NO.t(l) }}
                    </td>
                    <td role="cell" data-label=heads[4] class="num">{link.invoices_made}</td>
                    <td role="cell" data-label=heads[5] class="num">{format_brl(link.amount_paid, l)}</td>
                    <td role="cell" data-label=heads[6] class="row-actions">
                        <button type="button" class="link" aria-label=share_label on:click=share>
                            {text::SHARE.t(l)}
                        </button>
                        " "
                        <button
                            type="button"
                            class="link"
                            aria-label=switch_label
                            aria-disabled=move || busy.get().then_some("true")
                            on:click=switch
                        >
                            {switch_text.t(l)}
                        </button>
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <ListTable caption=text::PAYMENT_LINKS.t(l) head>
            {rows}
        </ListTable>
    }
    .into_any()
}

/// The creation form, on the form contract (`name` = API field path,
/// `<label for>`, `aria-invalid` + `aria-describedby`, a submit button).
#[component]
fn LinkForm(created: Callback<MerchantLink>) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let f = LinkFields::new();
    let form = f.form(lang);
    let create = Action::new_local(
        move |(req, l): &(paylink_model::link_spec::LinkRequest, Lang)| {
            let (req, l) = (req.clone(), *l);
            async move {
                match client.create_link(&req, l).await {
                    Ok(link) => {
                        f.reset();
                        form.errors.set(Default::default());
                        form.set_alert(None);
                        created.run(link);
                    }
                    Err(e) => form.server_error(&e),
                }
            }
        },
    );
    let busy = create.pending();
    let on_submit = form.on_submit(create, move || {
        let l = lang.get_untracked();
        (f.build(l).0, l)
    });
    move || {
        let l = lang.get();
        view! { <LinkFormView l f form busy on_submit=on_submit.clone() /> }
    }
}

#[component]
fn LinkFormView(
    l: Lang,
    f: LinkFields,
    form: Form,
    #[prop(into)] busy: Signal<bool>,
    on_submit: impl Fn(web_sys::SubmitEvent) + 'static,
) -> impl IntoView {
    let types = vec![
        (
            InvoiceType::Single.as_str().into(),
            text::SINGLE.t(l).into(),
        ),
        (
            InvoiceType::Installment.as_str().into(),
            text::INSTALLMENTS_UP_TO.t(l).into(),
        ),
    ];
    let price = move || {
        (!f.price_by_customer.get()).then(|| {
            view! { <AmountField form name="price" label=text::PRICE.t(l) value=f.price /> }
        })
    };
    let max = move || {
        f.installments().then(|| {
            view! {
                <Field form name="maxInstallments" label=text::MAX_INSTALLMENTS.t(l)
                    value=f.max_installments kind=Kind::Number inputmode="numeric" required=true />
            }
        })
    };
    view! {
        <form id="link-form" class="card" novalidate on:submit=on_submit>
            <h2>{text::NEW_LINK.t(l)}</h2>
            <AlertBox form />
            <div class="cols">
                <Field form name="name" label=text::NAME.t(l) value=f.name required=true />
                <Field form name="slug" label=text::SLUG.t(l) value=f.slug placeholder="curso-rust"
                    autocomplete="off" />
            </div>
            <p class="muted hint">{text::SLUG_HINT.t(l)}</p>
            <Field form name="description" label=text::LINK_DESCRIPTION.t(l) value=f.description
                kind=Kind::Area counter=DESCRIPTION_MAX required=true />
            <Checkbox form name="priceByCustomer" id="f-priceByCustomer" label=text::PRICE_BY_CUSTOMER.t(l)
                checked=f.price_by_customer />
            {price}
            <PaymentTypes l form pix=Some(f.pix) boleto=Some(f.boleto) />
            <div class="cols">
                <Select form name="invoiceType" label=text::INVOICE_TYPE.t(l) value=f.invoice_type options=types />
                {max}
            </div>
            <Field form name="dueInDays" label=text::DUE_IN_DAYS.t(l) value=f.due_in_days kind=Kind::Number
                inputmode="numeric" />
            <TermsFieldset l form t=f.terms>
                <Field form name="discount.daysBeforeDue" label=text::DISCOUNT_DAYS.t(l) value=f.discount_days
                    kind=Kind::Number inputmode="numeric" />
            </TermsFieldset>
            <Field form name="redirectTo" label=text::LINK_REDIRECT_TO.t(l) value=f.redirect_to kind=Kind::Url
                placeholder="https://" />
            <div class="actions">
                <SubmitButton busy label=text::CREATE.t(l) l />
            </div>
        </form>
    }
}
