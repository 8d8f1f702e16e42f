//! `/customers`: the merchant's customer list (`GET /api/customers?…`),
//! with the search text and the page's cursor in the URL. Each name links to
//! that customer's invoices (the invoice list searched by their document,
//! e-mail or name); each row's "Nova cobrança" opens the invoice form for
//! that customer, so a returning customer is charged without retyping them.

use leptos::prelude::*;
use paylink_model::br::{display_phone, mask_document};
use paylink_model::charges::document_is_cpf;
use paylink_model::list::ListParams;
use paylink_model::{CustomerDetail, CustomerPage, CustomerRef, Lang};
use paylink_text as text;
use paylink_ui::fetched::Fetched;

use crate::api;
use crate::components::list::{
    keyed_errors, query_of, use_list_params, use_list_screen, FilterErrors, FilterField,
    ListScreen, Pager, RefusedQuery,
};
use crate::components::table::ListTable;
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
    // The same search asked again: a customer may have been added since.
    let ListScreen {
        list,
        refused: errors,
        filter: by_params,
    } = use_list_screen("/customers", params, query_of, move |query, l| async move {
        client.list_customers(&query, l).await
    });
    let filter = Callback::new(move |q: String| {
        by_params.run(ListParams {
            q: Some(q),
            limit: params.get_untracked().limit,
            ..ListParams::default()
        });
    });

    view! {
        <section class="card list">
            <h1>{move || text::CUSTOMERS.t(lang.get())}</h1>
            // The form is made from the URL: a new one whenever it changes (back, a link).
            {move || view! { <CustomerFilters q=params.get().q.unwrap_or_default() errors filter /> }}
            <Fetched lang data=list show=move |l, answer| {
                if let Some(errors) = keyed_errors(&answer) {
                    return Ok(view! { <RefusedQuery l errors shown=&["q"] /> }.into_any());
                }
                let p = params.get_untracked();
                answer.map(|page| view! { <CustomerRows l page params=p /> }.into_any())
            } />
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
            <form class="filters" role="search" aria-label=text::FILTERS.t(l) on:submit=submit>
                <FilterField name="q" label=text::SEARCH.t(l) value=q errors kind="search"
                    hint=text::SEARCH_CUSTOMERS_HINT.t(l) />
                <div class="actions">
                    <button type="submit" class="primary">{text::FILTER.t(l)}</button>
                    <a href="/customers">{text::CLEAR.t(l)}</a>
                </div>
            </form>
        }
    }
}

#[component]
fn CustomerRows(l: Lang, page: CustomerPage, params: ListParams) -> impl IntoView {
    if page.data.is_empty() && page.next_cursor.is_none() {
        return view! { <p class="empty muted" role="status">{text::NO_CUSTOMERS.t(l)}</p> }
            .into_any();
    }
    let heads = [
        text::NAME.t(l),
        text::LIST_DOCUMENT.t(l),
        text::EMAIL.t(l),
        text::PHONE.t(l),
        text::NEW_INVOICE.t(l),
    ];
    let head: Vec<_> = heads.iter().map(|t| (*t, "")).collect();
    let (go, merchant) = (crate::focus::use_go(), expect_context::<Merchant>());
    let rows = page
        .data
        .into_iter()
        .map(|c| {
            let href = invoices_of(&c);
            let title = text::invoices_of(l, &c.full_name);
            let charge_label = text::new_charge_for(l, &c.full_name);
            let picked = CustomerRef {
                id: c.id.clone(),
                full_name: c.full_name.clone(),
            };
            let cpf = document_is_cpf(c.document.as_deref());
            let go = go.clone();
            let charge = move |_| {
                merchant.charge(picked.clone(), cpf, false);
                go("/");
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
                            {text::NEW_INVOICE.t(l)}
                        </button>
                        " " <crate::components::charges_link::ChargesLinkControl l id=c.id />
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <ListTable caption=text::CUSTOMERS.t(l) head>
            {rows}
        </ListTable>
        <Pager l path="/customers" params next=page.next_cursor />
    }
    .into_any()
}
