//! `/links`: the merchant's payment links. A table of every link (name,
//! amount or "o pagador define", type, active, invoices made, amount paid)
//! with each row's deactivate/reactivate and share buttons; the share panel
//! (the link's address, the two embed snippets of docs/widget.md, and its QR
//! code drawn by the server, printable on its own); and the form that
//! creates one, checked live by the model's rules (`LinkRequest::check`).

use leptos::prelude::*;
use paylink_model::charges::ValueType;
use paylink_model::link_spec::{iframe_snippet, mount_snippet, LinkList, MerchantLink};
use paylink_model::money::format_brl;
use paylink_model::{InvoiceType, Lang, DESCRIPTION_MAX};
use paylink_ui::field::{AlertBox, AmountField, Checkbox, Field, Kind, Select, SubmitButton};
use paylink_ui::form::Form;

use crate::api;
use crate::components::sections::{copy, failed, CopyStatus, Loading};
use crate::components::table::ListTable;
use crate::i18n::links::LinkK;
use crate::i18n::{fill, K};
use crate::pages::invoice_form::PaymentTypes;
use crate::state::link::LinkFields;
use crate::Ctx;

/// What the screen last did, announced in its status line (in the language
/// shown, so it follows a switch): the sentence's key and the link's name.
type Said = Option<(LinkK, String)>;

#[component]
pub fn LinksPage() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let list = LocalResource::new(move || {
        let l = lang.get();
        async move { client.list_links(l).await }
    });
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
                        LinkK::Reactivated
                    } else {
                        LinkK::Deactivated
                    };
                    said.set(Some((k, name)));
                    list.refetch();
                }
                Err(e) => failure.set(Some(e)),
            }
        }
    });
    let created = Callback::new(move |link: MerchantLink| {
        failure.set(None);
        said.set(Some((LinkK::Created, link.name)));
        shared.set(Some(link.slug));
        list.refetch();
    });
    let status = move || {
        let l = lang.get();
        match failure.get() {
            Some(e) => e.text(l),
            None => said
                .get()
                .map(|(k, name)| fill(k.t(l), &[("name", &name)]))
                .unwrap_or_default(),
        }
    };

    view! {
        <section class="card list links">
            <h1>{move || LinkK::Title.t(lang.get())}</h1>
            <p role="status" class="muted">{status}</p>
            {move || {
                let l = lang.get();
                view! {
                    <Transition fallback=move || view! { <Loading l class="muted" /> }>
                        <ErrorBoundary fallback=failed(lang)>
                            {move || Suspend::new(async move {
                                list.await.map(|links| view! { <LinkRows l links shared toggle /> })
                            })}
                        </ErrorBoundary>
                    </Transition>
                }
            }}
        </section>
        {move || shared.get().map(|slug| view! { <SharePanel slug shared /> })}
        <LinkForm created />
    }
}

/// The amount a link charges, or who states it.
fn amount_text(l: Lang, link: &MerchantLink) -> String {
    match link.price {
        Some(c) => format_brl(c, l),
        None => LinkK::PayerSets.t(l).to_string(),
    }
}

fn type_text(l: Lang, link: &MerchantLink) -> String {
    match link.invoice_type {
        InvoiceType::Installment => fill(
            LinkK::UpTo.t(l),
            &[("n", &link.max_installments.to_string())],
        ),
        _ => LinkK::Single.t(l).to_string(),
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
        return view! { <p class="empty muted">{LinkK::NoLinks.t(l)}</p> }.into_any();
    }
    let heads = [
        LinkK::Name.t(l),
        LinkK::Amount.t(l),
        LinkK::Type.t(l),
        LinkK::Active.t(l),
        LinkK::InvoicesMade.t(l),
        LinkK::AmountPaid.t(l),
        LinkK::Actions.t(l),
    ];
    let head: Vec<_> = heads.iter().map(|t| (*t, "")).collect();
    let busy = toggle.pending();
    let rows = links
        .data
        .into_iter()
        .map(|link| {
            let (slug, name, active) = (link.slug.clone(), link.name.clone(), link.active);
            let (switch_label, switch_text) = if active {
                (LinkK::DeactivateName, LinkK::Deactivate)
            } else {
                (LinkK::ReactivateName, LinkK::Reactivate)
            };
            let switch_label = fill(switch_label.t(l), &[("name", &name)]);
            let share_label = fill(LinkK::ShareName.t(l), &[("name", &name)]);
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
                        {if active { LinkK::Yes.t(l) } else { LinkK::No.t(l) }}
                    </td>
                    <td role="cell" data-label=heads[4] class="num">{link.invoices_made}</td>
                    <td role="cell" data-label=heads[5] class="num">{format_brl(link.amount_paid, l)}</td>
                    <td role="cell" data-label=heads[6] class="row-actions">
                        <button type="button" class="link" aria-label=share_label on:click=share>
                            {LinkK::Share.t(l)}
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
        <ListTable caption=LinkK::Title.t(l) head>
            {rows}
        </ListTable>
    }
    .into_any()
}

/// One link's address, embed snippets and printable QR code.
#[component]
fn SharePanel(slug: String, shared: RwSignal<Option<String>>) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let link = LocalResource::new(move || {
        let (slug, l) = (slug.clone(), lang.get());
        async move { client.get_link(&slug, l).await }
    });
    let copied = RwSignal::new(None::<bool>);
    let close = move |_| shared.set(None);
    move || {
        let l = lang.get();
        view! {
            <section class="card share" aria-labelledby="share-title">
                <Transition fallback=move || view! { <Loading l class="muted" /> }>
                    <ErrorBoundary fallback=failed(lang)>
                        {move || Suspend::new(async move {
                            link.await.map(|link| view! { <ShareBody l link copied /> })
                        })}
                    </ErrorBoundary>
                </Transition>
                <p class="actions">
                    <button type="button" class="link" on:click=close>{LinkK::Close.t(l)}</button>
                </p>
            </section>
        }
    }
}

#[component]
fn ShareBody(l: Lang, link: MerchantLink, copied: RwSignal<Option<bool>>) -> impl IntoView {
    let iframe = iframe_snippet(&link.url, &link.slug);
    let mount = mount_snippet(&link.url, &link.slug, l.code());
    let (url, qr) = (link.url.clone(), link.qr_svg.clone().unwrap_or_default());
    let copy_url = {
        let url = url.clone();
        move |_| copy(url.clone(), copied)
    };
    let copy_iframe = {
        let s = iframe.clone();
        move |_| copy(s.clone(), copied)
    };
    let copy_mount = {
        let s = mount.clone();
        move |_| copy(s.clone(), copied)
    };
    let print = move |_| {
        let _ = window().print();
    };
    view! {
        <h2 id="share-title" tabindex="-1">{fill(LinkK::ShareName.t(l), &[("name", &link.name)])}</h2>
        <p class="paylink">
            <span class="muted">{LinkK::Address.t(l)} ": "</span>
            <a href=url.clone() class="url" rel="external">{url.clone()}</a>
        </p>
        <p>
            <button type="button" class="secondary" on:click=copy_url>{LinkK::CopyUrl.t(l)}</button>
        </p>
        <div class="field">
            <label for="snippet-iframe">{LinkK::EmbedIframe.t(l)}</label>
            <p class="muted" id="snippet-iframe-hint">{LinkK::EmbedIframeHint.t(l)}</p>
            <textarea id="snippet-iframe" class="snippet" readonly rows="3"
                aria-describedby="snippet-iframe-hint" prop:value=iframe></textarea>
            <button type="button" class="secondary" on:click=copy_iframe>{LinkK::CopyIframe.t(l)}</button>
        </div>
        <div class="field">
            <label for="snippet-mount">{LinkK::EmbedMount.t(l)}</label>
            <p class="muted" id="snippet-mount-hint">{LinkK::EmbedMountHint.t(l)}</p>
            <textarea id="snippet-mount" class="snippet" readonly rows="5"
                aria-describedby="snippet-mount-hint" prop:value=mount></textarea>
            <button type="button" class="secondary" on:click=copy_mount>{LinkK::CopyMount.t(l)}</button>
        </div>
        <CopyStatus l copied />
        <figure class="link-qr">
            <div class="qr" role="img" aria-label=fill(LinkK::QrOf.t(l), &[("url", &url)]) inner_html=qr></div>
            <figcaption>
                <strong>{link.name.clone()}</strong>
                <br />
                {url.clone()}
            </figcaption>
        </figure>
        <p>
            <button type="button" class="secondary" on:click=print>{LinkK::PrintQr.t(l)}</button>
        </p>
    }
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
    let on_submit = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        if !busy.get_untracked() && form.submit() {
            let l = lang.get_untracked();
            create.dispatch_local((f.build(l).0, l));
        }
    };
    move || {
        let l = lang.get();
        view! { <LinkFormView l f form busy on_submit /> }
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
        (InvoiceType::Single.as_str(), LinkK::Single.t(l)),
        (InvoiceType::Installment.as_str(), LinkK::Installment.t(l)),
    ];
    let kinds = vec![
        (ValueType::Percentage.name(), K::Percentage.t(l)),
        (ValueType::Fixed.name(), K::FixedAmount.t(l)),
    ];
    let price = move || {
        (!f.price_by_customer.get()).then(|| {
            view! { <AmountField form name="price" label=LinkK::Price.t(l) value=f.price /> }
        })
    };
    let max = move || {
        f.installments().then(|| {
            view! {
                <Field form name="maxInstallments" label=LinkK::MaxInstallments.t(l)
                    value=f.max_installments kind=Kind::Number inputmode="numeric" required=true />
            }
        })
    };
    view! {
        <form id="link-form" class="card" novalidate on:submit=on_submit>
            <h2>{LinkK::NewLink.t(l)}</h2>
            <AlertBox form />
            <div class="cols">
                <Field form name="name" label=LinkK::Name.t(l) value=f.name required=true />
                <Field form name="slug" label=LinkK::Slug.t(l) value=f.slug placeholder="curso-rust"
                    autocomplete="off" />
            </div>
            <p class="muted hint">{LinkK::SlugHint.t(l)}</p>
            <Field form name="description" label=LinkK::Description.t(l) value=f.description
                kind=Kind::Area counter=DESCRIPTION_MAX required=true />
            <Checkbox form name="priceByCustomer" id="f-priceByCustomer" label=LinkK::PriceByCustomer.t(l)
                checked=f.price_by_customer />
            {price}
            <PaymentTypes l form>
                <Checkbox form name="paymentTypes" value="PIX" id="f-paymentTypes-PIX" label="PIX" checked=f.pix />
                <Checkbox form name="paymentTypes" value="BOLETO" id="f-paymentTypes-BOLETO" label="Boleto"
                    checked=f.boleto />
            </PaymentTypes>
            <div class="cols">
                <Select form name="invoiceType" label=LinkK::InvoiceType.t(l) value=f.invoice_type options=types />
                {max}
            </div>
            <Field form name="dueInDays" label=LinkK::DueInDays.t(l) value=f.due_in_days kind=Kind::Number
                inputmode="numeric" />
            <fieldset class="group terms">
                <legend>{K::Terms.t(l)}</legend>
                <div class="cols">
                    <Select form name="fine.type" label=K::FineType.t(l) value=f.fine_type options=kinds.clone() />
                    <Field form name="fine.value" label=K::FineValue.t(l) value=f.fine_value inputmode="decimal"
                        placeholder="2,00" />
                </div>
                <Field form name="interest.value" label=K::InterestValue.t(l) value=f.interest_value
                    inputmode="decimal" placeholder="1,00" />
                <div class="cols">
                    <Select form name="discount.type" label=K::DiscountType.t(l) value=f.discount_type options=kinds />
                    <Field form name="discount.value" label=K::DiscountValue.t(l) value=f.discount_value
                        inputmode="decimal" placeholder="5,00" />
                    <Field form name="discount.daysBeforeDue" label=LinkK::DiscountDays.t(l)
                        value=f.discount_days kind=Kind::Number inputmode="numeric" />
                </div>
            </fieldset>
            <Field form name="redirectTo" label=LinkK::RedirectTo.t(l) value=f.redirect_to kind=Kind::Url
                placeholder="https://" />
            <div class="actions">
                <SubmitButton busy label=LinkK::Create.t(l) l />
            </div>
        </form>
    }
}
