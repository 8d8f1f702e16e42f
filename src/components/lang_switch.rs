//! The pt-BR / English switch (two toggle buttons).

use leptos::prelude::*;
use paylink_model::Lang;

use crate::i18n::K;
use crate::Ctx;

#[component]
pub fn LangSwitch() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let button = move |lang: Lang, text: &'static str, title: &'static str| {
        view! {
            <button
                type="button"
                lang=lang.code()
                title=title
                aria-pressed=move || if ctx.lang.get() == lang { "true" } else { "false" }
                on:click=move |_| ctx.lang.set(lang)
            >
                {text}
            </button>
        }
    };
    view! {
        <div class="lang" role="group" aria-label=move || K::Language.t(ctx.lang.get())>
            {button(Lang::PtBr, "PT", "Português (Brasil)")}
            {button(Lang::En, "EN", "English")}
        </div>
    }
}
