//! The pt-BR / English switch (two toggle buttons).

use leptos::prelude::*;
use paylink_model::Lang;

use crate::i18n::K;
use crate::Ctx;

#[component]
pub fn LangSwitch() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let button = move |to: Lang, text: &'static str, title: &'static str| {
        view! {
            <button
                type="button"
                lang=to.code()
                title=title
                aria-pressed=move || if lang.get() == to { "true" } else { "false" }
                on:click=move |_| lang.set(to)
            >
                {text}
            </button>
        }
    };
    view! {
        <div class="lang" role="group" aria-label=move || K::Language.t(lang.get())>
            {button(Lang::PtBr, "PT", "Português (Brasil)")}
            {button(Lang::En, "EN", "English")}
        </div>
    }
}
