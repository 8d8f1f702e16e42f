//! The pt-BR / English switch (two toggle buttons). On paylink's own pages
//! the choice is remembered in the browser (`localStorage`), so a reload or
//! the next visit keeps it; embedded, the merchant's `locale` decides.

use leptos::prelude::*;
use paylink_model::Lang;
use paylink_text as text;

use crate::Ctx;

/// Where the choice is kept.
pub const STORAGE_KEY: &str = "paylink.lang";

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The language chosen on an earlier visit, if any (storage may be off).
pub fn remembered() -> Option<Lang> {
    let code = storage()?.get_item(STORAGE_KEY).ok()??;
    [Lang::PtBr, Lang::En]
        .into_iter()
        .find(|l| l.code() == code)
}

fn remember(l: Lang) {
    if let Some(s) = storage() {
        // Storage full or refused: the choice lasts this visit only.
        let _ = s.set_item(STORAGE_KEY, l.code());
    }
}

#[component]
pub fn LangSwitch() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let lang = ctx.lang;
    let button = move |to: Lang, text: &'static str, title: &'static str| {
        view! {
            <button
                type="button"
                lang=to.code()
                title=title
                aria-pressed=move || if lang.get() == to { "true" } else { "false" }
                on:click=move |_| {
                    lang.set(to);
                    remember(to);
                }
            >
                {text}
            </button>
        }
    };
    view! {
        <div class="lang" role="group" aria-label=move || text::LANGUAGE.t(lang.get())>
            {button(Lang::PtBr, "PT", "Português (Brasil)")}
            {button(Lang::En, "EN", "English")}
        </div>
    }
}
