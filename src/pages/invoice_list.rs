//! `/invoices`: the merchant's invoice list (`GET /api/invoices?…`). The
//! filters (status, due-date range, Pix Automático's recurrence, text) and the page's cursor live in the
//! URL's query, so a list can be bookmarked, reloaded and shared; each row
//! links to the invoice's detail.

use leptos::prelude::*;
use paylink_model::list::ListParams;
use paylink_model::money::format_brl;
use paylink_model::{
    Date, Errors, InstallmentStatus, InvoiceDetail, InvoicePage, InvoiceState, Lang,
    PixAutomaticoStatus,
};
use paylink_text as text;
use paylink_ui::fetched::Fetched;

use crate::api;
use crate::components::list::{
    keyed_errors, query_of, use_list_params, use_list_screen, FilterField, FilterSelect,
    ListScreen, Pager, RefusedQuery,
};
use crate::components::table::ListTable;
use crate::i18n;
use crate::Ctx;

/// The filters with a control (their errors show next to it).
const FILTERS: &[&str] = &["status", "dueFrom", "dueTo", "q", "pixAutomatico"];

/// A date as the list shows it: dd/mm/aaaa in pt-BR.
pub fn list_date(iso: &str, l: Lang) -> String {
    Date::parse_iso_prefix(iso).map_or_else(|| iso.to_string(), |d| d.format_for(l))
}

/// The due-date filters as typed in `l`, for the URL: ISO dates (blank
/// ones left out), or the messages of those that do not read as a date.
pub fn filter_dates(from: &str, to: &str, l: Lang) -> Result<(String, String), Errors> {
    let mut bad = Errors::new();
    let mut iso = |name: &str, typed: &str| {
        let typed = typed.trim();
        if typed.is_empty() {
            return String::new();
        }
        Date::parse_for(l, typed).map_or_else(
            |msg| {
                bad.insert(name.to_string(), vec![msg.render(l)]);
                typed.to_string()
            },
            |d| d.to_string(),
        )
    };
    let dates = (iso("dueFrom", from), iso("dueTo", to));
    if bad.is_empty() {
        Ok(dates)
    } else {
        Err(bad)
    }
}

/// An invoice's state on `today` (Brasília): reversed when nothing waits and
/// a payment was returned, paid when nothing waits, overdue when a waiting
/// installment is past due, open otherwise; a list filtered by `cancelled` or
/// `reversed` holds only those.
pub fn state_of(inv: &InvoiceDetail, today: Option<Date>, filter: Option<&str>) -> InvoiceState {
    if filter.is_some_and(|f| f.eq_ignore_ascii_case("cancelled")) {
        return InvoiceState::Cancelled;
    }
    let reversed = inv
        .installments
        .iter()
        .any(|i| i.status == InstallmentStatus::Reversed);
    if filter.is_some_and(|f| f.eq_ignore_ascii_case("reversed")) {
        return InvoiceState::Reversed;
    }
    let mut waiting = inv
        .installments
        .iter()
        .filter(|i| i.status == InstallmentStatus::WaitingPayment)
        .peekable();
    if waiting.peek().is_none() {
        return if reversed {
            InvoiceState::Reversed
        } else {
            InvoiceState::Paid
        };
    }
    let overdue = today.is_some_and(|t| {
        waiting.any(|i| Date::parse_iso_prefix(&i.due_date).is_some_and(|d| d < t))
    });
    if overdue {
        InvoiceState::Overdue
    } else {
        InvoiceState::Open
    }
}

fn badge(s: InvoiceState) -> &'static str {
    match s {
        InvoiceState::Open => "badge waiting",
        InvoiceState::Paid => "badge confirmed",
        InvoiceState::Overdue | InvoiceState::Cancelled | InvoiceState::Reversed => {
            "badge reversed"
        }
    }
}

#[component]
pub fn InvoiceListPage() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let params = use_list_params();
    // The same filters asked again: an invoice may have been paid since.
    let ListScreen {
        list,
        refused,
        filter,
    } = use_list_screen("/invoices", params, query_of, move |query, l| async move {
        client.list_invoices(&query, l).await
    });

    view! {
        <section class="card list">
            <h1>{move || text::INVOICES.t(lang.get())}</h1>
            // The form is made from the URL: a new one whenever it changes (back, a link).
            {move || view! { <InvoiceFilters url=params.get() refused filter /> }}
            <Fetched lang data=list show=move |l, answer| {
                if let Some(errors) = keyed_errors(&answer) {
                    return Ok(view! { <RefusedQuery l errors shown=FILTERS /> }.into_any());
                }
                let p = params.get_untracked();
                answer.map(|page| view! { <InvoiceRows l page params=p /> }.into_any())
            } />
        </section>
    }
}

/// The filters' form, its values those of `url` (the page's query) until
/// edited; `refused`: the last answer's messages by parameter. A date typed
/// that does not read is refused here, on its field, before any call; a
/// valid form goes to `filter` (from the first page, `limit` kept).
#[component]
fn InvoiceFilters(
    url: ListParams,
    refused: Signal<Option<Errors>>,
    filter: Callback<ListParams>,
) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let status = RwSignal::new(url.status.unwrap_or_default());
    // Kept as the date fields keep them (ISO once they read as dates), so
    // the URL's ISO dates are their starting values as they are.
    let due_from = RwSignal::new(url.due_from.unwrap_or_default());
    let due_to = RwSignal::new(url.due_to.unwrap_or_default());
    let q = RwSignal::new(url.q.unwrap_or_default());
    let pix_automatico = RwSignal::new(url.pix_automatico.unwrap_or_default());
    let limit = url.limit;
    // Set when a submit found a date that does not read; its messages are
    // the dates' as they are now, in the language shown.
    let dates_refused = RwSignal::new(false);
    let typed_errors = move || {
        if !dates_refused.get() {
            return None;
        }
        let (from, to) = (due_from.get(), due_to.get());
        filter_dates(&from, &to, lang.get()).err()
    };
    let errors = Signal::derive(move || typed_errors().or_else(|| refused.get()));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let l = lang.get_untracked();
        let dates = filter_dates(&due_from.get_untracked(), &due_to.get_untracked(), l);
        let Ok((from, to)) = dates else {
            dates_refused.set(true);
            return;
        };
        dates_refused.set(false);
        filter.run(ListParams {
            status: Some(status.get_untracked()),
            due_from: Some(from),
            due_to: Some(to),
            q: Some(q.get_untracked()),
            cursor: None,
            limit: limit.clone(),
            pix_automatico: Some(pix_automatico.get_untracked()),
        });
    };
    move || {
        let l = lang.get();
        let options = InvoiceState::ALL
            .iter()
            .map(|s| (s.as_str(), i18n::state(l, *s)))
            .collect::<Vec<_>>();
        let recurrences = PixAutomaticoStatus::ALL
            .iter()
            .map(|s| (s.as_str(), crate::i18n::pix_automatico_status(l, *s)))
            .collect::<Vec<_>>();
        view! {
            <form class="filters" role="search" aria-label=text::FILTERS.t(l) on:submit=submit.clone()>
                <div class="cols">
                    <FilterSelect name="status" label=text::STATUS.t(l) value=status errors
                        blank=text::ANY_STATUS.t(l) options />
                    <FilterField name="dueFrom" label=text::DUE_FROM.t(l) value=due_from errors date=l />
                    <FilterField name="dueTo" label=text::DUE_TO.t(l) value=due_to errors date=l />
                    <FilterSelect name="pixAutomatico" label=text::PIX_AUTOMATICO.t(l) value=pix_automatico
                        errors blank=text::ANY_PIX_AUTOMATICO.t(l) options=recurrences />
                </div>
                <FilterField name="q" label=text::SEARCH.t(l) value=q errors kind="search"
                    hint=text::SEARCH_INVOICES_HINT.t(l) />
                <div class="actions">
                    <button type="submit" class="primary">{text::FILTER.t(l)}</button>
                    <a href="/invoices">{text::CLEAR.t(l)}</a>
                </div>
            </form>
        }
    }
}

/// The page's table (or that nothing matched) and its pager.
#[component]
fn InvoiceRows(l: Lang, page: InvoicePage, params: ListParams) -> impl IntoView {
    if page.data.is_empty() && page.next_cursor.is_none() {
        return view! { <p class="empty muted" role="status">{text::NO_INVOICES.t(l)}</p> }
            .into_any();
    }
    let today = crate::input::brasilia_today();
    let heads = [
        (text::LIST_EXTERNAL_ID.t(l), ""),
        (text::CUSTOMER.t(l), ""),
        (text::DUE_DATE.t(l), ""),
        (text::AMOUNT.t(l), "num"),
        (text::STATUS.t(l), ""),
    ];
    let head = heads.to_vec();
    let filter = params.status.clone();
    let rows = page
        .data
        .into_iter()
        .map(|inv| {
            let state = state_of(&inv, today, filter.as_deref());
            let amount = if inv.price_by_customer {
                text::AMOUNT_BY_PAYER.t(l).to_string()
            } else {
                format_brl(inv.price, l)
            };
            let href = format!("/invoices/{}", js_sys::encode_uri_component(&inv.id));
            view! {
                <tr role="row">
                    <th scope="row" role="rowheader" data-label=heads[0].0>
                        <a href=href>{inv.external_id.clone()}</a>
                    </th>
                    <td role="cell" data-label=heads[1].0>{inv.customer.full_name.clone()}</td>
                    <td role="cell" data-label=heads[2].0>{list_date(&inv.due_date, l)}</td>
                    <td role="cell" class="num" data-label=heads[3].0>{amount}</td>
                    <td role="cell" data-label=heads[4].0>
                        <span class=badge(state) data-state=state.as_str()>{i18n::state(l, state)}</span>
                    </td>
                </tr>
            }
        })
        .collect_view();
    // Every row of these filters (not only this page) as a spreadsheet, on
    // the proxy (another origin when the page names one).
    let client = api::use_client();
    let filters = query_of(&ListParams {
        cursor: None,
        limit: None,
        ..params.clone()
    });
    let export =
        move || {
            client.url(&format!("/api/invoices.csv{filters}")).map(|href| {
            view! { <p class="export"><a href=href download="">{text::EXPORT_CSV.t(l)}</a></p> }
        })
        };
    view! {
        {export}
        <ListTable caption=text::INVOICES.t(l) head>
            {rows}
        </ListTable>
        <Pager l path="/invoices" params next=page.next_cursor />
    }
    .into_any()
}
