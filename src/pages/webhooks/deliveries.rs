//! The deliveries' section of `/webhooks`: their table, filtered by invoice and state from the
//! URL's query (as the lists are), paged, with a "Reenviar" on each delivery whose last attempt
//! failed.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_query;
use leptos_router::params::Params;
use paylink_model::date::format_instant_brasilia as date_time;
use paylink_model::webhooks::{Delivery, DeliveryPage, DeliveryParams, DeliveryStatus};
use paylink_model::{Errors, Lang};
use paylink_text as text;
use paylink_ui::fetched::Fetched;

use crate::api;
use crate::components::list::{
    keyed_errors, use_list_screen, FilterField, FilterSelect, ListScreen, RefusedQuery,
};
use crate::components::poll::poll_while;
use crate::components::sections::error_text;
use crate::components::table::ListTable;
use crate::i18n::{delivery_status, hook_type};
use crate::{focus, Ctx};

/// The delivery filters with a control (their errors show next to it).
const FILTERS: &[&str] = &["invoiceId", "status"];

/// The delivery filters as the URL's query names them (`?invoiceId=…`), read by the
/// router's `use_query` (its derive takes each field's name as the parameter's).
#[derive(Params, Clone, Debug, Default, PartialEq)]
#[allow(non_snake_case)]
struct DeliveryQuery {
    invoiceId: Option<String>,
    status: Option<String>,
    cursor: Option<String>,
    limit: Option<String>,
}

/// The delivery list's parameters of the URL's query.
pub fn use_delivery_params() -> Memo<DeliveryParams> {
    let query = use_query::<DeliveryQuery>();
    Memo::new(move |_| {
        // Every field is an optional text: reading the query cannot fail.
        let q = query.get().unwrap_or_default();
        DeliveryParams {
            invoice_id: q.invoiceId,
            status: q.status,
            cursor: q.cursor,
            limit: q.limit,
        }
    })
}

/// `?…` of `p` (blank parameters left out): the screen's URL and its call alike.
pub fn delivery_query(p: &DeliveryParams) -> String {
    api::query_string(&[
        ("invoiceId", p.invoice_id.clone()),
        ("status", p.status.clone()),
        ("cursor", p.cursor.clone()),
        ("limit", p.limit.clone()),
    ])
}

fn badge(s: DeliveryStatus) -> &'static str {
    match s {
        DeliveryStatus::Pending => "badge waiting",
        DeliveryStatus::Succeeded => "badge confirmed",
        DeliveryStatus::Failed | DeliveryStatus::Disabled => "badge reversed",
    }
}

/// The deliveries: filters from the URL, the table, the pager.
#[component]
pub(super) fn Deliveries() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let params = use_delivery_params();
    // The same filters asked again: deliveries move on their own.
    let ListScreen {
        list,
        refused,
        filter,
    } = use_list_screen(
        "/webhooks",
        params,
        delivery_query,
        move |query, l| async move { client.list_deliveries(&query, l).await },
    );
    let notice = RwSignal::new(None::<Result<&'static text::Tr, api::Error>>);
    // The delivery sent again, until its attempt shows.
    let resent = RwSignal::new(None::<String>);
    let waiting = move || {
        resent.with_untracked(|id| {
            id.as_ref().is_some_and(|id| {
                list.with_untracked(|r| {
                    r.as_ref().and_then(|r| r.as_ref().ok()).is_some_and(|p| {
                        p.data
                            .iter()
                            .any(|d| &d.id == id && d.status == DeliveryStatus::Pending)
                    })
                })
            })
        })
    };
    let redeliver = Action::new_local(move |(id, l): &(String, Lang)| {
        let (id, l) = (id.clone(), *l);
        async move {
            match client.redeliver(&id, l).await {
                Ok(_) => {
                    notice.set(Some(Ok(&text::REDELIVERED)));
                    resent.set(Some(id));
                }
                Err(e) => notice.set(Some(Err(e))),
            }
            focus("#deliveries-notice");
        }
    });
    // A delivery sent again: the list is read again at once, then while its attempt is
    // pending. The poll belongs to this effect: it stops when the screen goes, and starts
    // again (the last one cleaned up) when another delivery is sent again.
    Effect::new(move |_| {
        if resent.with(Option::is_some) {
            list.refetch();
            poll_while(move || list.refetch(), waiting);
        }
    });
    let send_again = Callback::new(move |id: String| {
        if !redeliver.pending().get_untracked() {
            redeliver.dispatch_local((id, lang.get_untracked()));
        }
    });

    view! {
        <section class="deliveries" aria-labelledby="deliveries-h">
            <h2 id="deliveries-h">{move || text::DELIVERIES.t(lang.get())}</h2>
            // The form is made from the URL: a new one whenever it changes (back, a link).
            {move || view! { <DeliveryFilters url=params.get() refused filter /> }}
            <p id="deliveries-notice" class="note" role="status" tabindex="-1">
                {move || {
                    let l = lang.get();
                    notice.with(|n| match n {
                        Some(Ok(k)) => k.t(l).to_string(),
                        Some(Err(e)) => error_text(l, e),
                        None => String::new(),
                    })
                }}
            </p>
            <Fetched lang data=list show=move |l, answer| {
                if let Some(errors) = keyed_errors(&answer) {
                    return Ok(view! { <RefusedQuery l errors shown=FILTERS /> }.into_any());
                }
                let p = params.get_untracked();
                answer.map(|page| {
                    view! { <DeliveryRows l page params=p send_again busy=redeliver.pending() /> }
                        .into_any()
                })
            } />
        </section>
    }
}

/// The deliveries' filters, their values those of `url` until edited.
#[component]
fn DeliveryFilters(
    url: DeliveryParams,
    refused: Signal<Option<Errors>>,
    filter: Callback<DeliveryParams>,
) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let invoice_id = RwSignal::new(url.invoice_id.unwrap_or_default());
    let status = RwSignal::new(url.status.unwrap_or_default());
    let limit = url.limit;
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        filter.run(DeliveryParams {
            invoice_id: Some(invoice_id.get_untracked()),
            status: Some(status.get_untracked()),
            cursor: None,
            limit: limit.clone(),
        });
    };
    move || {
        let l = lang.get();
        let options = DeliveryStatus::ALL
            .iter()
            .map(|s| (s.as_str(), delivery_status(l, *s)))
            .collect::<Vec<_>>();
        view! {
            <form class="filters" role="search" aria-label=text::FILTERS.t(l) on:submit=submit.clone()>
                <div class="cols">
                    <FilterField name="invoiceId" label=text::INVOICE_ID.t(l) value=invoice_id
                        errors=refused hint=text::INVOICE_ID_HINT.t(l) />
                    <FilterSelect name="status" label=text::STATUS.t(l) value=status errors=refused
                        blank=text::ANY_DELIVERY_STATUS.t(l) options />
                </div>
                <div class="actions">
                    <button type="submit" class="primary">{text::FILTER.t(l)}</button>
                    <a href="/webhooks">{text::CLEAR.t(l)}</a>
                </div>
            </form>
        }
    }
}

/// The page of deliveries (or that none matched) and its pager.
#[component]
fn DeliveryRows(
    l: Lang,
    page: DeliveryPage,
    params: DeliveryParams,
    send_again: Callback<String>,
    #[prop(into)] busy: Signal<bool>,
) -> impl IntoView {
    if page.data.is_empty() && page.next_cursor.is_none() {
        return view! { <p class="empty muted" role="status">{text::NO_DELIVERIES.t(l)}</p> }
            .into_any();
    }
    let heads = [
        (text::EVENT.t(l), ""),
        (text::DELIVERY_INVOICE.t(l), ""),
        (text::URL.t(l), ""),
        (text::STATUS.t(l), ""),
        (text::ATTEMPTS.t(l), "num"),
        (text::LAST_ERROR.t(l), ""),
        (text::NEXT_ATTEMPT.t(l), ""),
        (text::ACTIONS.t(l), ""),
    ];
    let head = heads.to_vec();
    let rows = page
        .data
        .into_iter()
        .map(|d: Delivery| {
            let event = hook_type(l, d.event_type);
            let href = format!("/invoices/{}", js_sys::encode_uri_component(&d.invoice_id));
            let error = match (&d.last_error, d.last_status_code) {
                (Some(e), _) => e.clone(),
                (None, Some(code)) => format!("HTTP {code}"),
                (None, None) => String::new(),
            };
            let next = d
                .next_attempt_at
                .as_deref()
                .map(|at| date_time(at, l))
                .unwrap_or_default();
            let action = d.failing().then(|| {
                let label = text::redeliver_label(l, event, &d.external_id);
                let id = d.id.clone();
                view! {
                    <button
                        type="button"
                        class="secondary"
                        aria-label=label
                        aria-disabled=move || busy.get().then_some("true")
                        on:click=move |_| send_again.run(id.clone())
                    >
                        {text::REDELIVER.t(l)}
                    </button>
                }
            });
            view! {
                <tr role="row" data-delivery=d.id>
                    <th scope="row" role="rowheader" data-label=heads[0].0>{event}</th>
                    <td role="cell" data-label=heads[1].0>
                        <A href=href>{d.external_id.clone()}</A>
                    </td>
                    <td role="cell" class="break" data-label=heads[2].0>{d.url.clone()}</td>
                    <td role="cell" data-label=heads[3].0>
                        <span class=badge(d.status) data-status=d.status.as_str()>{delivery_status(l, d.status)}</span>
                    </td>
                    <td role="cell" class="num" data-label=heads[4].0>{d.attempts}</td>
                    <td role="cell" class="break" data-label=heads[5].0>{error}</td>
                    <td role="cell" data-label=heads[6].0>{next}</td>
                    <td role="cell" data-label=heads[7].0>{action}</td>
                </tr>
            }
        })
        .collect_view();
    let first = params.cursor.is_some().then(|| {
        let p = DeliveryParams {
            cursor: None,
            ..params.clone()
        };
        view! { <a href=format!("/webhooks{}", delivery_query(&p))>{text::FIRST_PAGE.t(l)}</a> }
    });
    let next = page.next_cursor.map(|cursor| {
        let p = DeliveryParams {
            cursor: Some(cursor),
            ..params.clone()
        };
        view! { <a href=format!("/webhooks{}", delivery_query(&p)) rel="next">{text::NEXT_PAGE.t(l)}</a> }
    });
    let pager = (first.is_some() || next.is_some()).then(|| {
        view! { <nav class="pager actions" aria-label=text::PAGES.t(l)>{first}{next}</nav> }
    });
    view! {
        <ListTable caption=text::DELIVERIES.t(l) head>
            {rows}
        </ListTable>
        {pager}
    }
    .into_any()
}
