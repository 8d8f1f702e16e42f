//! The payer's app (the `paylink-pay` bin, `pay.html`): only the payer
//! page, with the same context, root, top bar and router as [`crate::App`],
//! so a payer downloads none of the merchant's screens (bench/widget-size).
//! The payment link's page stays in [`crate::App`]: it carries the customer
//! form and the installment preview, +55.6 KB brotli for every payer.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::embed::{Host, Options};
use crate::pages::pay_view::PayPage;
use crate::{Ctx, NotFound, Root, RouterNavigate, TopBar};

/// The payer's route, on paylink's page (`/pay/:id`).
#[component]
pub fn PayerApp(
    #[prop(optional)] host: Option<Host>,
    #[prop(optional)] options: Option<Options>,
) -> impl IntoView {
    let ctx = Ctx::provide(host, options);
    let embedded = ctx.embedded();
    view! {
        <Root ctx>
            <Router>
                <RouterNavigate />
                {(!embedded).then(|| view! { <TopBar /> })}
                <main tabindex="-1">
                    <Routes fallback=NotFound>
                        <Route path=path!("/pay/:id") view=PayPage />
                    </Routes>
                </main>
            </Router>
        </Root>
    }
}
