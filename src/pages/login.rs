//! `/login`: the operator's login (e-mail and password, `POST /api/session`),
//! shown whenever a merchant call answers 401; back to where the operator
//! was once logged in. Also [`Session`], which the navigation reads.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use paylink_model::operator::{return_path, LoginRequest};
use paylink_model::Lang;
use paylink_text as text;

use crate::api;
use crate::Ctx;
use paylink_ui::field::{AlertBox, Field, Kind, SubmitButton};
use paylink_ui::form::{text_signal, Form};

/// The operator's session as the widget knows it: where to go back to after
/// the login, and a trigger notified at each login and logout (the
/// navigation asks who is logged in again).
#[derive(Clone, Copy)]
pub struct Session {
    pub return_to: RwSignal<Option<String>>,
    pub changed: Trigger,
}

impl Session {
    pub fn new() -> Session {
        Session {
            return_to: RwSignal::new(None),
            changed: Trigger::new(),
        }
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

#[component]
pub fn LoginPage() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let session = expect_context::<Session>();
    let client = api::use_client();
    let query = use_query_map();
    let email = text_signal("");
    let password = text_signal("");
    let request = move || LoginRequest {
        email: Some(email.get_untracked()),
        password: Some(password.get_untracked()),
    };
    let form = Form::new(
        "login-form",
        ctx.lang,
        move |l| request().validate(l),
        |p| matches!(p, "email" | "password").then(|| p.to_string()),
    );
    let next = move || {
        query
            .with_untracked(|q| q.get("next"))
            .and_then(|n| return_path(&n).map(str::to_string))
            .or_else(|| session.return_to.get_untracked())
            .unwrap_or_else(|| "/".to_string())
    };
    let go = crate::focus::use_go();
    let send = Action::new_local(move |(req, lang): &(LoginRequest, Lang)| {
        let (req, lang, go) = (req.clone(), *lang, go.clone());
        async move {
            match client.login(&req, lang).await {
                Ok(()) => {
                    password.set(String::new());
                    session.changed.notify();
                    let to = next();
                    session.return_to.set(None);
                    go(&to);
                }
                Err(api::Error::Api(env)) if env.code == 401 || env.code == 429 => {
                    let key = if env.code == 401 {
                        text::WRONG_CREDENTIALS
                    } else {
                        text::THROTTLED
                    };
                    form.say(move |l| key.t(l).to_string());
                    crate::focus_main();
                }
                Err(e) => form.server_error(&e),
            }
        }
    });
    let busy = send.pending();
    let on_submit = form.on_submit(send, move || (request(), ctx.lang.get_untracked()));
    move || {
        let l = ctx.lang.get();
        view! {
            <form id="login-form" class="card" novalidate on:submit=on_submit.clone()>
                <h1>{text::LOG_IN.t(l)}</h1>
                <p>{text::INTRO.t(l)}</p>
                <AlertBox form />
                <Field
                    form
                    name="email"
                    label=text::EMAIL.t(l)
                    value=email
                    kind=Kind::Email
                    required=true
                    autocomplete="username"
                />
                <Field
                    form
                    name="password"
                    label=text::PASSWORD.t(l)
                    value=password
                    kind=Kind::Password
                    required=true
                    autocomplete="current-password"
                />
                <div class="actions">
                    <SubmitButton busy label=text::LOG_IN.t(l) l />
                </div>
            </form>
        }
    }
}
