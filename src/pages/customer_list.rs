//! `/customers`: the merchant's customer list (`GET /api/customers?…`),
//! with the search text and the page's cursor in the URL. Each name links to
//! that customer's invoices (the invoice list searched by their document,
//! e-mail or name); each row's "Nova cobrança" opens the invoice form for
//! that customer, so a returning customer is charged without retyping them.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use paylink_model::br::{display_phone, mask_document};
use paylink_model::charges::document_is_cpf;
use paylink_model::list::ListParams;
use paylink_model::{CustomerDetail, CustomerPage, CustomerRef, Lang};

use crate::api;
use crate::components::list::{
    keyed_errors, query_of, use_list_params, FilterErrors, FilterField, Pager, RefusedQuery,
};
use crate::components::sections::{failed, Loading};
use crate::components::table::ListTable;
use crate::i18n::fill;
use crate::i18n::lists::LK;
use crate::{Ctx, Merchant};

/// The invoice list of customer `c`: searched by what names them best.
fn invoices_of(c: &CustomerDetail) -> String {
    let digits = c
        .document
        .as_deref()
        .map(|d| d.chars().filter(char::is_ascii_digit).collect::<String>())
        .filter(|d| !d.is_empty());
    let q = digits
        .or_else(|| c.email.clone())
        .unwrap_or_else(|| c.full_name.clone());
    format!("/invoices{}", api::query_string(&[("q", Some(q))]))
}

#[component]
pub fn CustomerListPage() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let params = use_list_params();
    let list = LocalResource::new(move || {
        let (query, l) = (query_of(&params.get()), lang.get());
        async move { client.list_customers(&query, l).await }
    });
    let errors = Signal::derive(move || list.with(|r| r.as_ref().and_then(keyed_errors)));
    let navigate = use_navigate();
    let filter = Callback::new(move |q: String| {
        let p = ListParams {
            q: Some(q),
            limit: params.get_untracked().limit,
            ..ListParams::default()
        };
        // The same filters again: asked again (a customer may have been added since).
        if query_of(&p) == query_of(&params.get_untracked()) {
            list.refetch();
        } else {
            navigate(&format!("/customers{}", query_of(&p)), Default::default());
        }
    });

    view! {
        <section class="card list">
            <h1>{move || LK::Customers.t(lang.get())}</h1>
            // The form is made from the URL: a new one whenever it changes (back, a link).
            {move || view! { <CustomerFilters q=params.get().q.unwrap_or_default() errors filter /> }}
            {move || {
                let l = lang.get();
                view! {
                    <Transition fallback=move || view! { <Loading l class="muted" /> }>
                        <ErrorBoundary fallback=failed(lang)>
                            {move || Suspend::new(async move {
                                let answer = list.await;
                                if let Some(errors) = keyed_errors(&answer) {
                                    return Ok(view! { <RefusedQuery l errors shown=&["q"] /> }.into_any());
                                }
                                let p = params.get_untracked();
                                answer.map(|page| view! { <CustomerRows l page params=p /> }.into_any())
                            })}
                        </ErrorBoundary>
                    </Transition>
                }
            }}
        </section>
    }
}

/// The search form, its text the URL's `q` until edited.
#[component]
fn CustomerFilters(q: String, errors: FilterErrors, filter: Callback<String>) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let q = RwSignal::new(q);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        filter.run(q.get_untracked());
    };
    move || {
        let l = lang.get();
        view! {
            <form class="filters" role="search" aria-label=LK::Filters.t(l) on:submit=submit>
                <FilterField name="q" label=LK::Search.t(l) value=q errors kind="search"
                    hint=LK::SearchCustomersHint.t(l) />
                <div class="actions">
                    <button type="submit" class="primary">{LK::Filter.t(l)}</button>
                    <a href="/customers">{LK::Clear.t(l)}</a>
                </div>
            </form>
        }
    }
}

#[component]
fn CustomerRows(l: Lang, page: CustomerPage, params: ListParams) -> impl IntoView {
    if page.data.is_empty() && page.next_cursor.is_none() {
        return view! { <p class="empty muted" role="status">{LK::NoCustomers.t(l)}</p> }
            .into_any();
    }
    let heads = [
        LK::Name.t(l),
        LK::Document.t(l),
        LK::Email.t(l),
        LK::Phone.t(l),
        LK::NewCharge.t(l),
    ];
    let head: Vec<_> = heads.iter().map(|t| (*t, "")).collect();
    let (ctx, merchant) = (expect_context::<Ctx>(), expect_context::<Merchant>());
    let rows = page
        .data
        .into_iter()
        .map(|c| {
            let href = invoices_of(&c);
            let title = fill(LK::InvoicesOf.t(l), &[("name", &c.full_name)]);
            let charge_label = fill(LK::NewChargeFor.t(l), &[("name", &c.full_name)]);
            let picked = CustomerRef {
                id: c.id.clone(),
                full_name: c.full_name.clone(),
            };
            let cpf = document_is_cpf(c.document.as_deref());
            let charge = move |_| {
                merchant.charge(picked.clone(), cpf, false);
                ctx.navigate("/");
                request_animation_frame(crate::focus_main);
            };
            view! {
                <tr role="row">
                    <th scope="row" role="rowheader" data-label=heads[0]>
                        <a href=href title=title>{c.full_name.clone()}</a>
                    </th>
                    <td role="cell" data-label=heads[1]>{c.document.as_deref().map(mask_document)}</td>
                    <td role="cell" data-label=heads[2]>{c.email.clone()}</td>
                    <td role="cell" data-label=heads[3]>{c.phone.as_deref().map(display_phone)}</td>
                    <td role="cell" data-label=heads[4]>
                        <button type="button" class="link" aria-label=charge_label on:click=charge>
                            {LK::NewCharge.t(l)}
                        </button>
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <ListTable caption=LK::Customers.t(l) head>
            {rows}
        </ListTable>
        <Pager l path="/customers" params next=page.next_cursor />
    }
    .into_any()
}
