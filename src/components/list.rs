//! Pieces the list screens (`/invoices`, `/customers`, the deliveries) use: their data
//! and filtering ([`use_list_screen`]), the filters'
//! controls (named by their query parameter, with the 422's message for that
//! parameter next to them), the alert of a refused query, the pager, and the
//! parameters read from and written to the URL's query.

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query};
use leptos_router::params::Params;
use paylink_model::list::ListParams;
use paylink_model::{Errors, Lang};
use paylink_text as text;

use crate::api;
use paylink_ui::field::{date_kept, date_shown, masked_input, DateHints};
use paylink_ui::form::{error_id, field_id};

/// The list filters as the URL's query names them (`?dueFrom=…`), read by the router's
/// `use_query` (its derive takes each field's name as the parameter's, hence the case).
#[derive(Params, Clone, Debug, Default, PartialEq)]
#[allow(non_snake_case)]
struct ListQuery {
    status: Option<String>,
    dueFrom: Option<String>,
    dueTo: Option<String>,
    q: Option<String>,
    cursor: Option<String>,
    limit: Option<String>,
    pixAutomatico: Option<String>,
}

/// The list parameters of the URL's query, as the proxy call takes them.
pub fn use_list_params() -> Memo<ListParams> {
    let query = use_query::<ListQuery>();
    Memo::new(move |_| {
        // Every field is an optional text: reading the query cannot fail.
        let q = query.get().unwrap_or_default();
        ListParams {
            status: q.status,
            due_from: q.dueFrom,
            due_to: q.dueTo,
            q: q.q,
            cursor: q.cursor,
            limit: q.limit,
            pix_automatico: q.pixAutomatico,
        }
    })
}

/// `?…` of `p` (blank parameters left out), in the order the docs list them.
pub fn query_of(p: &ListParams) -> String {
    api::query_string(&[
        ("status", p.status.clone()),
        ("dueFrom", p.due_from.clone()),
        ("dueTo", p.due_to.clone()),
        ("q", p.q.clone()),
        ("pixAutomatico", p.pix_automatico.clone()),
        ("cursor", p.cursor.clone()),
        ("limit", p.limit.clone()),
    ])
}

/// A list screen's data: the page for the URL's filters `params` (asked again when they or
/// the language change), the messages of filters the service refused (a 422 keyed by
/// parameter), and `filter`, what the filters' form calls: the same filters ask again (the
/// list may have moved), others go to `path` with them in the URL (back and forward work).
pub struct ListScreen<P: Send + Sync + 'static, T: 'static> {
    pub list: LocalResource<Result<T, api::Error>>,
    pub refused: Signal<Option<Errors>>,
    pub filter: Callback<P>,
}

/// The [`ListScreen`] of `path`, its filters written to the URL by `query` and the page
/// asked with `fetch(query, lang)`.
pub fn use_list_screen<P, T, Fut>(
    path: &'static str,
    params: Memo<P>,
    query: fn(&P) -> String,
    fetch: impl Fn(String, Lang) -> Fut + 'static,
) -> ListScreen<P, T>
where
    P: Clone + PartialEq + Send + Sync + 'static,
    T: 'static,
    Fut: std::future::Future<Output = Result<T, api::Error>> + 'static,
{
    let lang = expect_context::<crate::Ctx>().lang;
    let list = LocalResource::new(move || fetch(query(&params.get()), lang.get()));
    let refused = Signal::derive(move || list.with(|r| r.as_ref().and_then(keyed_errors)));
    let navigate = use_navigate();
    let filter = Callback::new(move |p: P| {
        if query(&p) == query(&params.get_untracked()) {
            list.refetch();
        } else {
            navigate(&format!("{path}{}", query(&p)), Default::default());
        }
    });
    ListScreen {
        list,
        refused,
        filter,
    }
}

/// The keyed errors of a refused query (a 422 envelope), if that is why
/// `r` failed.
pub fn keyed_errors<T>(r: &Result<T, api::Error>) -> Option<Errors> {
    match r {
        Err(api::Error::Api(env)) if env.code == 422 => env.errors.clone(),
        _ => None,
    }
}

/// A filter's messages (`None`: valid), from the last answer's errors.
pub type FilterErrors = Signal<Option<Errors>>;

fn message(errors: FilterErrors, name: &'static str) -> Option<String> {
    errors.with(|e| e.as_ref().and_then(|e| e.get(name)).map(|m| m.join(" ")))
}

/// One filter: `<label for>`, the control named `name` (the query
/// parameter), `aria-invalid` + `aria-describedby` on a refused value. A
/// date filter (`date`: the language it is written in) is a text field as
/// the form's `DateField` is: `dd/mm/aaaa` masked while typing in pt-BR,
/// `yyyy-mm-dd` in English, never the browser's locale-bound date input,
/// and `value` keeps it as the form's does (`date_kept`).
#[component]
pub fn FilterField(
    name: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    errors: FilterErrors,
    /// `text` or `search`.
    #[prop(default = "text")]
    kind: &'static str,
    #[prop(optional)] date: Option<Lang>,
    #[prop(optional)] hint: Option<&'static str>,
) -> impl IntoView {
    let hints = date.map(DateHints::of);
    let mask = hints.as_ref().and_then(|h| h.mask);
    let placeholder = hints.as_ref().map(|h| h.placeholder);
    let inputmode = hints.as_ref().and_then(|h| h.inputmode);
    let id = field_id(name);
    let err_id = error_id(name);
    let hint_id = format!("{id}-hint");
    let error = Memo::new(move |_| message(errors, name));
    let invalid = move || error.with(Option::is_some);
    let described = {
        let (err_id, hint_id) = (err_id.clone(), hint_id.clone());
        move || {
            let ids: Vec<&str> = [
                invalid().then_some(err_id.as_str()),
                hint.map(|_| hint_id.as_str()),
            ]
            .into_iter()
            .flatten()
            .collect();
            (!ids.is_empty()).then(|| ids.join(" "))
        }
    };
    view! {
        <div class="field" class:invalid=invalid>
            <label for=id.clone()>{label}</label>
            <input
                type=kind
                id=id
                name=name
                placeholder=placeholder
                inputmode=inputmode
                autocomplete=date.map(|_| "off")
                aria-invalid=move || invalid().then_some("true")
                aria-describedby=described
                prop:value=move || value.with(|v| date_shown(date, v))
                on:input=move |ev| value.set(date_kept(date, masked_input(&ev, mask)))
            />
            {hint.map(|h| view! { <p class="note" id=hint_id>{h}</p> })}
            <p class="error" id=err_id>{move || error.get()}</p>
        </div>
    }
}

/// A filter's `<select>` (value `""`: `blank`, the filter not applied).
#[component]
pub fn FilterSelect(
    name: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    errors: FilterErrors,
    blank: &'static str,
    options: Vec<(&'static str, &'static str)>,
) -> impl IntoView {
    let id = field_id(name);
    let err_id = error_id(name);
    let error = Memo::new(move |_| message(errors, name));
    let invalid = move || error.with(Option::is_some);
    let described = {
        let err_id = err_id.clone();
        move || invalid().then(|| err_id.clone())
    };
    let options = options
        .into_iter()
        .map(|(v, text)| {
            view! { <option value=v selected=move || value.get() == v>{text}</option> }
        })
        .collect_view();
    view! {
        <div class="field" class:invalid=invalid>
            <label for=id.clone()>{label}</label>
            <select
                id=id
                name=name
                aria-invalid=move || invalid().then_some("true")
                aria-describedby=described
                prop:value=move || value.get()
                on:change=move |ev| value.set(event_target_value(&ev))
            >
                <option value="" selected=move || value.get().is_empty()>{blank}</option>
                {options}
            </select>
            <p class="error" id=err_id>{move || error.get()}</p>
        </div>
    }
}

/// Shown instead of the table when the query was refused: the keyed
/// messages are next to their filters; those of parameters without a control
/// (`cursor`, `limit`, typed into the URL) are listed here.
#[component]
pub fn RefusedQuery(l: Lang, errors: Errors, shown: &'static [&'static str]) -> impl IntoView {
    let others: Vec<String> = errors
        .iter()
        .filter(|(k, _)| !shown.contains(&k.as_str()))
        .map(|(k, m)| format!("{k}: {}", m.join(" ")))
        .collect();
    view! {
        <div class="alert" role="alert">
            <p>{text::FIX_FILTERS.t(l)}</p>
            {(!others.is_empty())
                .then(|| {
                    view! { <ul>{others.into_iter().map(|o| view! { <li>{o}</li> }).collect_view()}</ul> }
                })}
        </div>
    }
}

/// "Próxima página" (a real link: the cursor goes in the URL) and, past
/// the first page, a link back to it.
#[component]
pub fn Pager(
    l: Lang,
    path: &'static str,
    params: ListParams,
    next: Option<String>,
) -> impl IntoView {
    let first = params.cursor.is_some().then(|| {
        let p = ListParams {
            cursor: None,
            ..params.clone()
        };
        view! { <a href=format!("{path}{}", query_of(&p))>{text::FIRST_PAGE.t(l)}</a> }
    });
    let next = next.map(|cursor| {
        let p = ListParams {
            cursor: Some(cursor),
            ..params.clone()
        };
        view! { <a href=format!("{path}{}", query_of(&p)) rel="next">{text::NEXT_PAGE.t(l)}</a> }
    });
    (first.is_some() || next.is_some()).then(|| {
        view! {
            <nav class="pager actions" aria-label=text::PAGES.t(l)>
                {first}
                {next}
            </nav>
        }
    })
}
