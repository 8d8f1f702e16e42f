//! The webhooks' section of `/webhooks`: the table, each webhook removed after an inline
//! confirm step; the form that adds one (`hookType`, `url`, the model's rules, the service's
//! field errors on their fields); and the signing secret, shown once in a copyable box when a
//! webhook or a rotation makes it.

use leptos::prelude::*;
use paylink_model::date::format_instant_brasilia as date_time;
use paylink_model::webhooks::{AppWebhook, AppWebhookRequest};
use paylink_model::{Errors, HookType, Lang};
use paylink_text as text;
use paylink_ui::clipboard::copy;
use paylink_ui::confirm::ConfirmStep;
use paylink_ui::fetched::Fetched;
use paylink_ui::field::{AlertBox, Field, Select, SubmitButton};
use paylink_ui::form::Form;

use crate::api;
use crate::components::sections::CopyStatus;
use crate::components::table::ListTable;
use crate::i18n::hook_type;
use crate::{focus, focus_later, Ctx};

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
pub(super) fn Endpoints() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    // The secret a webhook or a rotation just made: shown until dismissed, never fetched.
    let secret = RwSignal::new(None::<String>);
    let copied = RwSignal::new(None::<bool>);
    let notice = RwSignal::new(None::<&'static text::Tr>);
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
        notice.set(None);
        async move {
            match client.add_webhook(&req, l).await {
                Ok(hook) => {
                    kind.set(String::new());
                    url.set(String::new());
                    notice.set(Some(&text::ADDED));
                    show_secret(hook.secret);
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
                    notice.set(Some(&text::REMOVED));
                    focus("#webhooks-notice");
                    step.set(Step::Closed);
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
                }
                Err(e) => step_error.set(Some(e)),
            }
        }
    });
    let busy = Signal::derive(move || {
        add.pending().get() || remove.pending().get() || rotate.pending().get()
    });
    // The list is read again after each action (keyed on their versions, as the Leptos
    // examples' todo list is), whatever it answered: a refusal may follow a change elsewhere.
    let hooks = LocalResource::new(move || {
        let l = lang.get();
        add.version().track();
        remove.version().track();
        rotate.version().track();
        async move { client.list_webhooks(l).await }
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
    let on_add = form.on_submit(add, move || {
        let req = webhook_request(&kind.get_untracked(), &url.get_untracked());
        (req, lang.get_untracked())
    });
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
    let close_step = Callback::new(move |()| close());

    let table = move || {
        view! {
            <Fetched lang data=hooks show=move |l, hooks| {
                hooks.map(|list| {
                    let secret_line = match list.secret_created_at {
                        Some(at) => text::secret_at(l, &date_time(&at, l)),
                        None => text::NO_SECRET.t(l).to_string(),
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
                            {text::ROTATE.t(l)}
                        </button>
                    };
                    let previous_line = list.previous_secret_valid_until.map(|until| {
                        view! { <p>{text::previous_until(l, &date_time(&until, l))}</p> }
                    });
                    view! {
                        <HookRows l hooks=list.data step open />
                        <h3>{text::SECRET.t(l)}</h3>
                        <p>{secret_line}</p>
                        {previous_line}
                        <div class="actions">{rotate_button}</div>
                    }
                })
            } />
        }
    };

    let secret_box = move || {
        let l = lang.get();
        secret.get().map(|s| {
            let for_copy = s.clone();
            view! {
                <div class="secret-box" role="region" aria-labelledby="secret-h">
                    <h3 id="secret-h">{text::SECRET.t(l)}</h3>
                    <p class="warning"><strong>{text::SECRET_ONCE.t(l)}</strong></p>
                    <label for="secret-value">{text::SECRET_VALUE.t(l)}</label>
                    <input id="secret-value" readonly value=s.clone() prop:value=s
                        on:focus=move |ev| {
                            use wasm_bindgen::JsCast;
                            if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                                i.select();
                            }
                        } />
                    <div class="actions">
                        <button type="button" class="primary" on:click=move |_| copy(for_copy.clone(), copied)>
                            {text::COPY_SECRET.t(l)}
                        </button>
                        <button type="button" class="link" on:click=move |_| {
                            secret.set(None);
                            focus("#webhooks-h");
                        }>
                            {text::SECRET_DONE.t(l)}
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
                    text::remove_webhook_ask(l, hook_type(l, hook.hook_type), &hook.url),
                    text::REMOVE_CONFIRM.t(l),
                )
            }
            Step::Rotate => (text::ROTATE_ASK.t(l).to_string(), text::ROTATE_CONFIRM.t(l)),
        };
        let danger = matches!(s, Step::Remove(_));
        Some(view! {
            <ConfirmStep
                id="webhook-step"
                l
                lang
                question
                confirm
                busy
                error=step_error
                danger
                on_submit=on_step
                close=close_step
            />
        })
    };

    let add_form = move || {
        let l = lang.get();
        let options = HookType::ALL
            .iter()
            .map(|k| (k.as_str().into(), hook_type(l, *k).into()))
            .collect::<Vec<_>>();
        view! {
            <form id="webhook-add" class="add-webhook" aria-labelledby="webhook-add-h" novalidate on:submit=on_add.clone()>
                <h3 id="webhook-add-h">{text::NEW_WEBHOOK.t(l)}</h3>
                <AlertBox form />
                <div class="cols">
                    <Select form name="hookType" label=text::EVENT.t(l) value=kind options
                        blank="—" required=true />
                    <Field form name="url" label=text::WEBHOOK_URL.t(l) value=url required=true
                        inputmode="url" placeholder="https://" />
                </div>
                <div class="actions">
                    <SubmitButton busy=add.pending() label=text::ADD_WEBHOOK.t(l) l />
                </div>
            </form>
        }
    };

    view! {
        <section class="endpoints" aria-labelledby="webhooks-h">
            <h2 id="webhooks-h" tabindex="-1">{move || text::ENDPOINTS.t(lang.get())}</h2>
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
        return view! { <p class="empty muted">{text::NO_WEBHOOKS.t(l)}</p> }.into_any();
    }
    let heads = [
        text::EVENT.t(l),
        text::URL.t(l),
        text::CREATED_AT.t(l),
        text::STATUS.t(l),
        text::ACTIONS.t(l),
    ];
    let head: Vec<_> = heads.iter().map(|t| (*t, "")).collect();
    view! {
        <ListTable caption=text::ENDPOINTS.t(l) head>
            <For each=move || hooks.clone() key=|w| w.id.clone() let:w>
                {
                    let event = hook_type(l, w.hook_type);
                    let label = text::remove_webhook_label(l, event, &w.url);
                    let (state, class) = match &w.disabled_at {
                        None => (text::ACTIVE.t(l), "badge confirmed"),
                        Some(_) => (text::DISABLED_GONE.t(l), "badge reversed"),
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
                                    {text::REMOVE.t(l)}
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
