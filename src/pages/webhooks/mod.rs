//! `/webhooks`: the application's webhooks and their deliveries. The
//! webhooks' table, each removed after an inline confirm step; the form that
//! adds one (`hookType`, `url`, the model's rules, the service's field errors
//! on their fields); the signing secret, shown once in a copyable box when a
//! webhook or a rotation makes it; and the deliveries' table, filtered by
//! invoice and state from the URL's query (as the lists are), paged, with a
//! "Reenviar" on each delivery whose last attempt failed.

mod deliveries;
mod endpoints;

use leptos::prelude::*;
use paylink_text as text;

use crate::Ctx;

use deliveries::Deliveries;
pub use deliveries::{delivery_query, use_delivery_params};
pub use endpoints::webhook_request;
use endpoints::Endpoints;

#[component]
pub fn WebhooksPage() -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    view! {
        <section class="card list webhooks">
            <h1>{move || text::WEBHOOKS.t(lang.get())}</h1>
            <p class="note">{move || text::WEBHOOKS_INTRO.t(lang.get())}</p>
            <Endpoints />
            <Deliveries />
        </section>
    }
}
