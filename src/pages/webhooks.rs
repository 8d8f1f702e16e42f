//! `/webhooks`: the application's webhooks and their deliveries. The
//! webhooks' table, each removed after an inline confirm step; the form that
//! adds one (`hookType`, `url`, the model's rules, the service's field errors
//! on their fields); the signing secret, shown once in a copyable box when a
//! webhook or a rotation makes it; and the deliveries' table, filtered by
//! invoice and state from the URL's query (as the lists are), paged, with a
//! "Reenviar" on each delivery whose last attempt failed.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use paylink_model::date::{millis_from_rfc3339, BRASILIA_UTC_OFFSET_SECS};
use paylink_model::webhooks::{
    AppWebhook, AppWebhookRequest, Delivery, DeliveryPage, DeliveryParams, DeliveryStatus,
};
use paylink_model::{Date, Errors, HookType, Lang};

use crate::api;
use crate::components::list::{keyed_errors, FilterField, FilterSelect, RefusedQuery};
use crate::components::poll::poll_while;
use crate::components::sections::{copy, error_text, failed, CopyStatus, Loading};
use crate::components::table::ListTable;
use crate::i18n::lists::LK;
use crate::i18n::webhooks::{delivery_status, WK};
use crate::i18n::{fill, hook_type};
use crate::{focus, focus_later, Ctx};
use paylink_ui::field::{AlertBox, Field, Select, SubmitButton};
use paylink_ui::form::Form;

/// The delivery filters with a control (their errors show next to it).
const FILTERS: &[&str] = &["invoiceId", "status"];

/// An instant as the screen shows it, in Brasília: `dd/mm/aaaa hh:mm` in
/// pt-BR (`yyyy-mm-dd hh:mm` in English); what does not read stays as it is.
pub fn date_time(stamp: &str, l: Lang) -> String {
    let Some(ms) = millis_from_rfc3339(stamp) else {
        return stamp.to_string();
    };
    let local = ms.div_euclid(1000) + BRASILIA_UTC_OFFSET_SECS;
    let Some(day) = Date::from_days_since_epoch(local.div_euclid(86_400)) else {
        return stamp.to_string();
    };
    let secs = local.rem_euclid(86_400);
    format!(
        "{} {:02}:{:02}",
        day.format_for(l),
        secs / 3600,
        secs % 3600 / 60
    )
}

/// The add form's fields as the request, checked by the model's rules
/// (public HTTPS only, as the service holds in production).
pub fn webhook_request(hook_type: &str, url: &str) -> AppWebhookRequest {
    let given = |s: &str| (!s.trim().is_empty()).then(|| s.to_string());
    AppWebhookRequest {
        hook_type: given(hook_type),
        url: given(url),
    }
}

fn check(hook_type: &str, url: &str, l: Lang) -> Errors {
    webhook_request(hook_type, url)
        .check(false)
        .err()
        .map(|v| v.render(l))
        .unwrap_or_default()
}

/// The delivery list's parameters of the URL's query.
pub fn use_delivery_params() -> Memo<DeliveryParams> {
    let query = use_query_map();
    Memo::new(move |_| {
        query.with(|q| DeliveryParams {
            invoice_id: q.get("invoiceId"),
            status: q.get("status"),
            cursor: q.get("cursor"),
            limit: q.get("limit"),
        })
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

#[component]
pub fn WebhooksPage() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    view! {
        <section class="card list webhooks">
            <h1>{move || WK::Webhooks.t(lang.get())}</h1>
            <p class="note">{move || WK::Intro.t(lang.get())}</p>
            <Endpoints />
            <Deliveries />
        </section>
    }
}

/// Which confirm step of the webhooks' section is open.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Closed,
    Remove(String),
    Rotate,
}

impl Step {
    /// The id of the button that opened it (the focus goes back there).
    fn opener(&self) -> String {
        match self {
            Step::Closed => String::new(),
            Step::Remove(id) => format!("remove-{id}"),
            Step::Rotate => "rotate-secret".into(),
        }
    }
}

/// The webhooks, the secret, the add form.
#[component]
fn Endpoints() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let hooks = LocalResource::new(move || {
        let l = lang.get();
        async move { client.list_webhooks(l).await }
    });
    // The secret a webhook or a rotation just made: shown until dismissed, never fetched.
    let secret = RwSignal::new(None::<String>);
    let copied = RwSignal::new(None::<bool>);
    let notice = RwSignal::new(None::<WK>);
    let step = RwSignal::new(Step::Closed);
    let step_error = RwSignal::new(None::<api::Error>);

    let kind = RwSignal::new(String::new());
    let url = RwSignal::new(String::new());
    let form = Form::new(
        "webhook-add",
        lang,
        move |l| check(&kind.get_untracked(), &url.get_untracked(), l),
        |p| matches!(p, "hookType" | "url").then(|| p.to_string()),
    );

    let show_secret = move |s: Option<String>| {
        if let Some(s) = s {
            copied.set(None);
            secret.set(Some(s));
            focus_later("#secret-value".into());
        }
    };
    let add = Action::new_local(move |(req, l): &(AppWebhookRequest, Lang)| {
        let (req, l) = (req.clone(), *l);
        async move {
            match client.add_webhook(&req, l).await {
                Ok(hook) => {
                    kind.set(String::new());
                    url.set(String::new());
                    notice.set(Some(WK::Added));
                    show_secret(hook.secret);
                    hooks.refetch();
                }
                Err(e) => form.server_error(&e),
            }
        }
    });
    let remove = Action::new_local(move |(id, l): &(String, Lang)| {
        let (id, l) = (id.clone(), *l);
        async move {
            match client.remove_webhook(&id, l).await {
                Ok(()) => {
                    notice.set(Some(WK::Removed));
                    focus("#webhooks-notice");
                    step.set(Step::Closed);
                    hooks.refetch();
                }
                Err(e) => step_error.set(Some(e)),
            }
        }
    });
    let rotate = Action::new_local(move |l: &Lang| {
        let l = *l;
        async move {
            match client.rotate_webhook_secret(l).await {
                Ok(made) => {
                    step.set(Step::Closed);
                    notice.set(None);
                    show_secret(Some(made.secret));
                    hooks.refetch();
                }
                Err(e) => step_error.set(Some(e)),
            }
        }
    });
    let busy = Signal::derive(move || {
        add.pending().get() || remove.pending().get() || rotate.pending().get()
    });

    let open = move |s: Step| {
        step_error.set(None);
        notice.set(None);
        step.set(s);
        focus_later("#webhook-step button[type=submit]".into());
    };
    // The opener takes the focus before the step goes (see invoice_actions.rs).
    let close = move || {
        focus(&format!("#{}", step.get_untracked().opener()));
        step.set(Step::Closed);
    };
    let on_add = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() || !form.submit() {
            return;
        }
        notice.set(None);
        let req = webhook_request(&kind.get_untracked(), &url.get_untracked());
        add.dispatch_local((req, lang.get_untracked()));
    };
    let on_step = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        step_error.set(None);
        let l = lang.get_untracked();
        match step.get_untracked() {
            Step::Closed => {}
            Step::Remove(id) => {
                remove.dispatch_local((id, l));
            }
            Step::Rotate => {
                rotate.dispatch_local(l);
            }
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            close();
        }
    };

    let table = move || {
        let l = lang.get();
        view! {
            <Transition fallback=move || view! { <Loading l class="muted" /> }>
                <ErrorBoundary fallback=failed(lang)>
                    {move || Suspend::new(async move {
                        hooks.await.map(|list| {
                            let secret_line = match list.secret_created_at {
                                Some(at) => fill(WK::SecretAt.t(l), &[("at", &date_time(&at, l))]),
                                None => WK::NoSecret.t(l).to_string(),
                            };
                            let rotate_button = view! {
                                <button
                                    type="button"
                                    id="rotate-secret"
                                    class="secondary"
                                    aria-expanded=move || if step.get() == Step::Rotate { "true" } else { "false" }
                                    aria-controls="webhook-step"
                                    on:click=move |_| open(Step::Rotate)
                                >
                                    {WK::Rotate.t(l)}
                                </button>
                            };
                            let previous_line = list.previous_secret_valid_until.map(|until| {
                                view! { <p>{fill(WK::PreviousUntil.t(l), &[("at", &date_time(&until, l))])}</p> }
                            });
                            view! {
                                <HookRows l hooks=list.data step open />
                                <h3>{WK::Secret.t(l)}</h3>
                                <p>{secret_line}</p>
                                {previous_line}
                                <div class="actions">{rotate_button}</div>
                            }
                        })
                    })}
                </ErrorBoundary>
            </Transition>
        }
    };

    let secret_box = move || {
        let l = lang.get();
        secret.get().map(|s| {
            let for_copy = s.clone();
            view! {
                <div class="secret-box" role="region" aria-labelledby="secret-h">
                    <h3 id="secret-h">{WK::Secret.t(l)}</h3>
                    <p class="warning"><strong>{WK::SecretOnce.t(l)}</strong></p>
                    <label for="secret-value">{WK::SecretValue.t(l)}</label>
                    <input id="secret-value" readonly value=s.clone() prop:value=s
                        on:focus=move |ev| {
                            use wasm_bindgen::JsCast;
                            if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                                i.select();
                            }
                        } />
                    <div class="actions">
                        <button type="button" class="primary" on:click=move |_| copy(for_copy.clone(), copied)>
                            {WK::CopySecret.t(l)}
                        </button>
                        <button type="button" class="link" on:click=move |_| {
                            secret.set(None);
                            focus("#webhooks-h");
                        }>
                            {WK::SecretDone.t(l)}
                        </button>
                    </div>
                    <CopyStatus l copied />
                </div>
            }
        })
    };

    let step_view = move || {
        let l = lang.get();
        let s = step.get();
        let (question, confirm) = match &s {
            Step::Closed => return None,
            Step::Remove(id) => {
                let hook = hooks.with(|h| {
                    h.as_ref()
                        .and_then(|r| r.as_ref().ok())
                        .and_then(|list| list.data.iter().find(|w| &w.id == id).cloned())
                })?;
                (
                    fill(
                        WK::RemoveAsk.t(l),
                        &[("event", hook_type(l, hook.hook_type)), ("url", &hook.url)],
                    ),
                    WK::RemoveConfirm.t(l),
                )
            }
            Step::Rotate => (WK::RotateAsk.t(l).to_string(), WK::RotateConfirm.t(l)),
        };
        let danger = matches!(s, Step::Remove(_));
        Some(view! {
            <form
                id="webhook-step"
                class="confirm"
                aria-labelledby="webhook-step-q"
                novalidate
                on:submit=on_step
                on:keydown=on_key
            >
                <p id="webhook-step-q"><strong>{question}</strong></p>
                {move || step_error.get().map(|e| {
                    view! { <div class="alert" role="alert"><p>{error_text(lang.get(), &e)}</p></div> }
                })}
                <div class="actions" class:danger=danger>
                    <SubmitButton busy label=confirm l />
                    <button type="button" class="link" on:click=move |_| close()>{WK::Back.t(l)}</button>
                </div>
            </form>
        })
    };

    let add_form = move || {
        let l = lang.get();
        let options = HookType::ALL
            .iter()
            .map(|k| (k.as_str(), hook_type(l, *k)))
            .collect::<Vec<_>>();
        view! {
            <form id="webhook-add" class="add-webhook" aria-labelledby="webhook-add-h" novalidate on:submit=on_add>
                <h3 id="webhook-add-h">{WK::NewWebhook.t(l)}</h3>
                <AlertBox form />
                <div class="cols">
                    <Select form name="hookType" label=WK::Event.t(l) value=kind options
                        blank="—" required=true />
                    <Field form name="url" label=WK::UrlLabel.t(l) value=url required=true
                        inputmode="url" placeholder="https://" />
                </div>
                <div class="actions">
                    <SubmitButton busy=add.pending() label=WK::Add.t(l) l />
                </div>
            </form>
        }
    };

    view! {
        <section class="endpoints" aria-labelledby="webhooks-h">
            <h2 id="webhooks-h" tabindex="-1">{move || WK::Endpoints.t(lang.get())}</h2>
            <p id="webhooks-notice" class="note" role="status" tabindex="-1">
                {move || notice.get().map(|k| k.t(lang.get()))}
            </p>
            {secret_box}
            {table}
            {step_view}
            {add_form}
        </section>
    }
}

/// The webhooks' table (or that there is none), a row per webhook, keyed.
#[component]
fn HookRows(
    l: Lang,
    hooks: Vec<AppWebhook>,
    step: RwSignal<Step>,
    open: impl Fn(Step) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    if hooks.is_empty() {
        return view! { <p class="empty muted">{WK::NoWebhooks.t(l)}</p> }.into_any();
    }
    let heads = [
        WK::Event.t(l),
        WK::Url.t(l),
        WK::CreatedAt.t(l),
        WK::State.t(l),
        WK::Actions.t(l),
    ];
    let head: Vec<_> = heads.iter().map(|t| (*t, "")).collect();
    view! {
        <ListTable caption=WK::Endpoints.t(l) head>
            <For each=move || hooks.clone() key=|w| w.id.clone() let:w>
                {
                    let event = hook_type(l, w.hook_type);
                    let label = fill(WK::RemoveLabel.t(l), &[("event", event), ("url", &w.url)]);
                    let (state, class) = match &w.disabled_at {
                        None => (WK::Active.t(l), "badge confirmed"),
                        Some(_) => (WK::DisabledGone.t(l), "badge reversed"),
                    };
                    let this = Step::Remove(w.id.clone());
                    let opener = this.opener();
                    let expanded = {
                        let this = this.clone();
                        move || if step.get() == this { "true" } else { "false" }
                    };
                    view! {
                        <tr role="row">
                            <th scope="row" role="rowheader" data-label=heads[0]>{event}</th>
                            <td role="cell" class="break" data-label=heads[1]>{w.url.clone()}</td>
                            <td role="cell" data-label=heads[2]>{date_time(&w.created_at, l)}</td>
                            <td role="cell" data-label=heads[3]><span class=class>{state}</span></td>
                            <td role="cell" data-label=heads[4]>
                                <button
                                    type="button"
                                    id=opener
                                    class="link danger"
                                    aria-label=label
                                    aria-expanded=expanded
                                    aria-controls="webhook-step"
                                    on:click=move |_| open(this.clone())
                                >
                                    {WK::Remove.t(l)}
                                </button>
                            </td>
                        </tr>
                    }
                }
            </For>
        </ListTable>
    }
    .into_any()
}

/// The deliveries: filters from the URL, the table, the pager.
#[component]
fn Deliveries() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let params = use_delivery_params();
    let list = LocalResource::new(move || {
        let (query, l) = (delivery_query(&params.get()), lang.get());
        async move { client.list_deliveries(&query, l).await }
    });
    let refused = Signal::derive(move || list.with(|r| r.as_ref().and_then(keyed_errors)));
    let navigate = use_navigate();
    let filter = Callback::new(move |p: DeliveryParams| {
        // The same filters again: asked again (deliveries move on their own).
        if delivery_query(&p) == delivery_query(&params.get_untracked()) {
            list.refetch();
        } else {
            navigate(
                &format!("/webhooks{}", delivery_query(&p)),
                Default::default(),
            );
        }
    });
    let notice = RwSignal::new(None::<Result<WK, api::Error>>);
    // The delivery sent again, until its attempt shows.
    let resent = RwSignal::new(None::<String>);
    let owner = StoredValue::new(Owner::current());
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
                    notice.set(Some(Ok(WK::Redelivered)));
                    resent.set(Some(id));
                    list.refetch();
                    if let Some(o) = owner.get_value() {
                        o.with(|| poll_while(move || list.refetch(), waiting));
                    }
                }
                Err(e) => notice.set(Some(Err(e))),
            }
            focus("#deliveries-notice");
        }
    });
    let send_again = Callback::new(move |id: String| {
        if !redeliver.pending().get_untracked() {
            redeliver.dispatch_local((id, lang.get_untracked()));
        }
    });

    view! {
        <section class="deliveries" aria-labelledby="deliveries-h">
            <h2 id="deliveries-h">{move || WK::Deliveries.t(lang.get())}</h2>
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
            {move || {
                let l = lang.get();
                view! {
                    <Transition fallback=move || view! { <Loading l class="muted" /> }>
                        <ErrorBoundary fallback=failed(lang)>
                            {move || Suspend::new(async move {
                                let answer = list.await;
                                if let Some(errors) = keyed_errors(&answer) {
                                    return Ok(view! { <RefusedQuery l errors shown=FILTERS /> }.into_any());
                                }
                                let p = params.get_untracked();
                                answer.map(|page| {
                                    view! { <DeliveryRows l page params=p send_again busy=redeliver.pending() /> }
                                        .into_any()
                                })
                            })}
                        </ErrorBoundary>
                    </Transition>
                }
            }}
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
            <form class="filters" role="search" aria-label=LK::Filters.t(l) on:submit=submit.clone()>
                <div class="cols">
                    <FilterField name="invoiceId" label=WK::InvoiceId.t(l) value=invoice_id
                        errors=refused hint=WK::InvoiceIdHint.t(l) />
                    <FilterSelect name="status" label=LK::Status.t(l) value=status errors=refused
                        blank=WK::AnyStatus.t(l) options />
                </div>
                <div class="actions">
                    <button type="submit" class="primary">{LK::Filter.t(l)}</button>
                    <a href="/webhooks">{LK::Clear.t(l)}</a>
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
        return view! { <p class="empty muted" role="status">{WK::NoDeliveries.t(l)}</p> }
            .into_any();
    }
    let heads = [
        (WK::Event.t(l), ""),
        (WK::Invoice.t(l), ""),
        (WK::Url.t(l), ""),
        (LK::Status.t(l), ""),
        (WK::Attempts.t(l), "num"),
        (WK::LastError.t(l), ""),
        (WK::NextAttempt.t(l), ""),
        (WK::Actions.t(l), ""),
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
                let label = fill(
                    WK::RedeliverLabel.t(l),
                    &[("event", event), ("invoice", &d.external_id)],
                );
                let id = d.id.clone();
                view! {
                    <button
                        type="button"
                        class="secondary"
                        aria-label=label
                        aria-disabled=move || busy.get().then_some("true")
                        on:click=move |_| send_again.run(id.clone())
                    >
                        {WK::Redeliver.t(l)}
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
        view! { <a href=format!("/webhooks{}", delivery_query(&p))>{LK::FirstPage.t(l)}</a> }
    });
    let next = page.next_cursor.map(|cursor| {
        let p = DeliveryParams {
            cursor: Some(cursor),
            ..params.clone()
        };
        view! { <a href=format!("/webhooks{}", delivery_query(&p)) rel="next">{LK::NextPage.t(l)}</a> }
    });
    let pager = (first.is_some() || next.is_some()).then(|| {
        view! { <nav class="pager actions" aria-label=LK::Pages.t(l)>{first}{next}</nav> }
    });
    view! {
        <ListTable caption=WK::Deliveries.t(l) head>
            {rows}
        </ListTable>
        {pager}
    }
    .into_any()
}
