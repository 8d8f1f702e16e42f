//! The merchant's navigation (Painel / Nova cobrança / Faturas / Clientes / Webhooks /
//! Links de pagamento) and the logged-in operator's name with a logout button, shown on the merchant's
//! screens only: never on a payer's page (`/pay/:id`) or a payment link's
//! (`/l/:slug`), which payers see, nor on the login screen.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;
use paylink_text as text;

use crate::api;
use crate::pages::login::Session;
use crate::Ctx;

/// Whether `path` is one of the payers' screens.
pub fn is_payer_path(path: &str) -> bool {
    path.starts_with("/pay/") || path.starts_with("/l/")
}

#[component]
pub fn MerchantNav() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let session = expect_context::<Session>();
    let lang = ctx.lang;
    let client = api::use_client();
    let path = use_location().pathname;
    let merchant_screen = Memo::new(move |_| path.with(|p| !is_payer_path(p) && p != "/login"));
    // Asked again at each login and logout, not at each navigation.
    let me = LocalResource::new(move || {
        let ask = merchant_screen.get();
        session.changed.track();
        async move {
            if !ask {
                return None;
            }
            match client.get_session(lang.get_untracked()).await {
                Ok(info) => Some(info),
                // No session: the login screen at once, not after a form is filled in.
                Err(api::Error::Api(e)) if e.code == 401 => {
                    client.login_needed();
                    None
                }
                Err(_) => None,
            }
        }
    });
    let go = crate::focus::use_go();
    let logout = move |_| {
        let go = go.clone();
        leptos::task::spawn_local(async move {
            let _ = client.logout().await;
            session.changed.notify();
            go("/login");
        });
    };
    let operator = move || {
        let l = lang.get();
        me.get().flatten().map(|info| {
            let text::Around { before, after } = text::logged_in_as(l);
            view! {
                <p class="operator">
                    <span>{before} <strong>{info.name}</strong> {after}</span>
                    " "
                    <button type="button" class="link" on:click=logout.clone()>{text::LOG_OUT.t(l)}</button>
                </p>
            }
        })
    };
    move || {
        merchant_screen.get().then(|| {
            let l = lang.get();
            let items = [
                ("/painel", text::DASHBOARD),
                ("/", text::NEW_INVOICE),
                ("/invoices", text::INVOICES),
                ("/customers", text::CUSTOMERS),
                ("/webhooks", text::WEBHOOKS),
                ("/links", text::PAYMENT_LINKS),
            ]
            .into_iter()
            // `<A>` marks the entry the screen is under (`aria-current="page"`);
            // "Nova cobrança" only on `/` itself.
            .map(|(href, k)| {
                view! {
                    <li>
                        <A href=href exact=href == "/">{k.t(l)}</A>
                    </li>
                }
            })
            .collect_view();
            view! {
                <nav class="merchant-nav" aria-label=text::NAV.t(l)>
                    <ul>{items}</ul>
                    {operator.clone()}
                </nav>
            }
        })
    }
}
