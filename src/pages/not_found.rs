//! A path no screen answers.

use leptos::prelude::*;

use crate::i18n::K;
use crate::Ctx;

/// A path no screen answers.
#[component]
pub fn NotFound() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    move || {
        let l = ctx.lang.get();
        view! {
            <section class="card">
                <h1>{K::NotFound.t(l)}</h1>
                <p><a href="/">{K::GoHome.t(l)}</a></p>
            </section>
        }
    }
}
