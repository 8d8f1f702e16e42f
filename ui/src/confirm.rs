//! The inline confirm step of an action (cancel an invoice, record a payment, remove a
//! webhook, rotate a secret): a `<form class="confirm">` named by its question, the
//! step's own fields if any, why the last try failed, the confirm button and "Voltar";
//! Escape or "Voltar" closes it (the screen puts the focus back on the opener).

use leptos::prelude::*;
use paylink_model::Lang;
use paylink_text as text;

use crate::field::SubmitButton;
use crate::Failure;

#[component]
pub fn ConfirmStep(
    /// The form's id; its question's is `{id}-q`.
    id: &'static str,
    /// The language the step is drawn in; `lang` follows a switch for the failure.
    l: Lang,
    lang: RwSignal<Lang>,
    question: String,
    confirm: &'static str,
    #[prop(into)] busy: Signal<bool>,
    /// Why the last try failed, shown in the step's alert.
    error: RwSignal<Option<Failure>>,
    /// The confirm button's row marked as dangerous (a removal).
    #[prop(optional)]
    danger: bool,
    on_submit: impl Fn(web_sys::SubmitEvent) + 'static,
    close: Callback<()>,
    /// The step's fields (a payment's amount and date).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            close.run(());
        }
    };
    let question_id = format!("{id}-q");
    let labelled_by = question_id.clone();
    view! {
        <form
            id=id
            class="confirm"
            aria-labelledby=labelled_by
            novalidate
            on:submit=on_submit
            on:keydown=on_key
        >
            <p id=question_id><strong>{question}</strong></p>
            {children.map(|c| c())}
            {move || {
                error
                    .with(|e| e.as_ref().map(|e| e.text(lang.get())))
                    .map(|e| view! { <div class="alert" role="alert"><p>{e}</p></div> })
            }}
            <div class="actions" class:danger=danger>
                <SubmitButton busy label=confirm l />
                <button type="button" class="link" on:click=move |_| close.run(())>{text::BACK.t(l)}</button>
            </div>
        </form>
    }
}
