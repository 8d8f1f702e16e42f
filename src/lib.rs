//! paylink's merchant app: a Leptos 0.8 client-side-rendered app.
//!
//! Seven screens, routed by `leptos_router` (one file per screen in `pages/`):
//! * `/` — the merchant flow: customer form → invoice form → detail;
//! * `/painel` — the merchant's dashboard (the month's totals, 12 months);
//! * `/invoices`, `/customers` — the merchant's lists (filters and page in
//!   the URL's query);
//! * `/links` — the merchant's payment links: list, create, turn off and on,
//!   share (URL, embed snippets, printable QR code);
//! * `/invoices/:id` — the invoice detail (merchant), with its actions;
//! * `/login` — the operator's login, shown when a merchant call answers 401;
//! * `/webhooks` — the application's webhooks, its signing secret and the
//!   deliveries (filters in the URL's query), with redelivery.
//!
//! The payers' pages (a payment link's `/l/{slug}`, the payer page
//! `/pay/{id}`) are not here: the server renders them (the `paylink-payer`
//! crate) and hydrates only their islands, so a payer never downloads this
//! app, in paylink's page, embed.js's frame or a merchant's element alike.
//!
//! Every rule (validation, masks, money, installment plan) comes from
//! `paylink_model`, the crate the server uses too; the form controls from
//! `paylink_ui`, which the payer pages share. This file holds the app (its
//! context and routes); its state is in `state/`, each screen's view in
//! `pages/`, the pieces they share in `components/`.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;
use paylink_model::operator::return_path;

pub mod api;
pub mod components;
pub mod focus;
pub mod i18n;
pub mod input;
pub mod pages;
pub mod start;
pub mod state;

pub use focus::{focus, focus_later, focus_main};
pub use state::{Ctx, Merchant, Step};

use components::nav::MerchantNav;
use components::top_bar::TopBar;
use pages::customer_list::CustomerListPage;
use pages::dashboard::DashboardPage;
use pages::home::Home;
use pages::invoice_list::InvoiceListPage;
use pages::invoice_view::InvoicePage;
use pages::links::LinksPage;
use pages::login::{LoginPage, Session};
use pages::not_found::NotFound;
use pages::webhooks::WebhooksPage;

/// The whole app.
#[component]
pub fn App(
    /// Where the app's calls go (this origin unless the page names a proxy).
    #[prop(optional)]
    proxy: api::Proxy,
) -> impl IntoView {
    let client = api::Client::new(proxy);
    provide_context(client);
    let ctx = Ctx::provide();
    let lang = ctx.lang;
    let merchant = Merchant::new(lang);
    provide_context(merchant);
    let session = Session::new();
    provide_context(session);

    // translate="no" (as index.html's <html>): a browser's machine translation
    // would swap out the text nodes the app keeps updating.
    view! {
        <div translate="no" class="paylink-widget" lang=move || lang.get().code()>
            <Router>
                <LoginNeeded />
                <TopBar>
                    <MerchantNav />
                </TopBar>
                <main tabindex="-1">
                    <Routes fallback=NotFound>
                        <Route path=path!("/") view=Home />
                        <Route path=path!("/index.html") view=Home />
                        <Route path=path!("/painel") view=DashboardPage />
                        <Route path=path!("/invoices") view=InvoiceListPage />
                        <Route path=path!("/customers") view=CustomerListPage />
                        <Route path=path!("/links") view=LinksPage />
                        <Route path=path!("/invoices/:id") view=InvoicePage />
                        <Route path=path!("/login") view=LoginPage />
                        <Route path=path!("/webhooks") view=WebhooksPage />
                    </Routes>
                </main>
            </Router>
        </div>
    }
}

/// Registers, inside `<Router>` (whose navigation it uses), what a merchant
/// call without a session (none yet, or it ended) does: the login screen,
/// then back here.
#[component]
fn LoginNeeded() -> impl IntoView {
    let (client, session, go) = (
        api::use_client(),
        expect_context::<Session>(),
        focus::use_go(),
    );
    client.on_login_needed(move || login_needed(&go, session));
}

/// Shows the login screen, remembering where the operator was: the place
/// is also in `?next=`, so a reload of the login screen still goes back.
fn login_needed(go: &impl Fn(&str), session: Session) {
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    if path == "/login" {
        return;
    }
    let here = path + &location.search().unwrap_or_default();
    session
        .return_to
        .set(return_path(&here).map(str::to_string));
    let next = String::from(js_sys::encode_uri_component(&here));
    go(&format!("/login?next={next}"));
}
