//! A path no screen answers.

use leptos::prelude::*;
use paylink_text as text;

use crate::Ctx;

/// A path no screen answers.
#[component]
pub fn NotFound() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    move || {
        let l = ctx.lang.get();
        view! {
            <section class="card">
                <h1>{text::NOT_FOUND.t(l)}</h1>
                <p><a href="/">{text::GO_HOME.t(l)}</a></p>
            </section>
        }
    }
}
