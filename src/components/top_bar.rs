//! The top bar: paylink's name (a link home), its tagline, the language
//! switch and the merchant's navigation.

use leptos::prelude::*;
use paylink_text as text;

use crate::components::lang_switch::LangSwitch;
use crate::Ctx;

/// paylink's name (a link home), its tagline, the language switch and
/// `children` (the merchant's navigation, in [`crate::App`]).
#[component]
pub fn TopBar(#[prop(optional)] children: Option<Children>) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    view! {
        <header class="topbar">
            <a href="/" class="brand">"paylink"</a>
            <span class="tagline">{move || text::TAGLINE.t(lang.get())}</span>
            <LangSwitch />
            {children.map(|c| c())}
        </header>
    }
}
