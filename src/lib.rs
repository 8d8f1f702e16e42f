//! paylink's merchant app: a Leptos 0.8 client-side-rendered app.
//!
//! Six screens, routed by `leptos_router` (one file per screen in `pages/`):
//! * `/` — the merchant flow: customer form → invoice form → detail;
//! * `/painel` — the merchant's dashboard (the month's totals, 12 months);
//! * `/invoices`, `/customers` — the merchant's lists (filters and page in
//!   the URL's query);
//! * `/invoices/:id` — the invoice detail (merchant), with its actions;
//! * `/login` — the operator's login, shown when a merchant call answers 401.
//!
//! The payers' pages (a payment link's `/l/{slug}`, the payer page
//! `/pay/{id}`) are not here: the server renders them (the `paylink-payer`
//! crate) and hydrates only their islands, so a payer never downloads this
//! app, in paylink's page, embed.js's frame or a merchant's element alike.
//!
//! Every rule (validation, masks, money, installment plan) comes from
//! `paylink_model`, the crate the server uses too; the form controls from
//! `paylink_ui`, which the payer pages share.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::hooks::use_navigate;
use leptos_router::path;
use paylink_model::operator::return_path;
use paylink_model::{CustomerRef, Lang};
use wasm_bindgen::JsCast;

pub mod api;
pub mod components;
pub mod i18n;
pub mod pages;
pub mod start;

use components::lang_switch::LangSwitch;
use components::nav::MerchantNav;
use i18n::K;
use pages::customer_form::CustomerForm;
use pages::customer_list::CustomerListPage;
use pages::dashboard::DashboardPage;
use pages::invoice_form::{InvoiceFields, InvoiceForm};
use pages::invoice_list::InvoiceListPage;
use pages::invoice_view::InvoicePage;
use pages::login::{LoginPage, Session};
use paylink_ui::customer::CustomerFields;

/// The navigation function of the `<Router>` (see [`Ctx::navigate`]).
type Navigate = Box<dyn Fn(&str)>;

/// App-wide state, available with `expect_context::<Ctx>()`.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub lang: RwSignal<Lang>,
    /// `use_navigate()` of the `<Router>`, kept by [`RouterNavigate`].
    navigate: StoredValue<Option<Navigate>, LocalStorage>,
}

impl Ctx {
    /// Goes to `path` within the app (the router's navigation) and moves
    /// the focus to the new screen.
    pub fn navigate(&self, path: &str) {
        self.navigate.with_value(|n| {
            if let Some(n) = n {
                n(path);
            }
        });
        request_animation_frame(focus_main);
    }
}

/// Focuses the first element matching `selector`, if there is one.
pub fn focus(selector: &str) {
    if let Ok(Some(el)) = document().query_selector(selector) {
        if let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() {
            let _ = el.focus();
        }
    }
}

/// Focuses the element matching `selector` once the view has drawn it.
pub fn focus_later(selector: String) {
    request_animation_frame(move || focus(&selector));
}

/// Focuses the widget's `<main>` (by class, not id: mounted in a merchant's
/// page, an id of ours could clash with theirs).
pub fn focus_main() {
    focus(".paylink-widget > main");
}

/// Which form the merchant flow at `/` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Customer,
    Invoice,
}

/// The merchant flow's state. It lives as long as the app, so the values
/// typed survive a language switch and a visit to an invoice's detail.
#[derive(Clone, Copy)]
pub struct Merchant {
    pub step: RwSignal<Step>,
    pub customer: CustomerFields,
    pub customer_form: paylink_ui::form::Form,
    /// The customer the invoice form was opened for, named above it.
    pub created: RwSignal<Option<CustomerRef>>,
    /// Whether that customer was just created here (or picked from the list).
    pub customer_is_new: RwSignal<bool>,
    pub invoice: InvoiceFields,
    pub invoice_form: paylink_ui::form::Form,
}

impl Merchant {
    pub fn new(lang: RwSignal<Lang>) -> Merchant {
        let customer = CustomerFields::new();
        let invoice = InvoiceFields::new_in(lang.get_untracked());
        Merchant {
            step: RwSignal::new(Step::Customer),
            customer,
            customer_form: customer.form(lang),
            created: RwSignal::new(None),
            customer_is_new: RwSignal::new(false),
            invoice,
            invoice_form: invoice.form(lang),
        }
    }

    /// The invoice form for customer `c`, just created here (`is_new`) or picked from the
    /// customer list: its id in `customerId`, the fine capped at 2 % when its document is a
    /// CPF (`cpf`, as the server will cap it), its name in a note above the form.
    pub fn charge(&self, c: CustomerRef, cpf: bool, is_new: bool) {
        self.invoice.customer_id.set(c.id.clone());
        self.invoice.cpf_customer.set(cpf.then(|| c.id.clone()));
        self.customer_is_new.set(is_new);
        self.created.set(Some(c));
        self.step.set(Step::Invoice);
    }
}

impl Ctx {
    /// The app-wide state, provided as context; `<html lang>` follows the
    /// language.
    fn provide() -> Ctx {
        // The language the person chose on an earlier visit; pt-BR otherwise.
        let remembered = components::lang_switch::remembered();
        let lang = RwSignal::new(remembered.unwrap_or(Lang::PtBr));
        let ctx = Ctx {
            lang,
            navigate: StoredValue::new_local(None),
        };
        provide_context(ctx);
        Effect::new(move |_| {
            if let Some(html) = document().document_element() {
                let _ = html.set_attribute("lang", lang.get().code());
            }
        });
        ctx
    }
}

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

    // The browser's messages shown on the forms in the new language.
    Effect::new(move |prev: Option<Lang>| {
        let l = lang.get();
        if let Some(p) = prev.filter(|p| *p != l) {
            merchant.invoice.relang(p, l);
            merchant.customer_form.relocalize();
            merchant.invoice_form.relocalize();
        }
        l
    });

    // A merchant call without a session (none yet, or it ended): the login
    // screen, then back here.
    client.on_login_needed(move || login_needed(ctx, session));

    // translate="no" (as index.html's <html>): a browser's machine translation
    // would swap out the text nodes the app keeps updating.
    view! {
        <div translate="no" class="paylink-widget" lang=move || lang.get().code()>
            <Router>
                <RouterNavigate />
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
                        <Route path=path!("/invoices/:id") view=InvoicePage />
                        <Route path=path!("/login") view=LoginPage />
                    </Routes>
                </main>
            </Router>
        </div>
    }
}

/// Shows the login screen, remembering where the operator was: the place
/// is also in `?next=`, so a reload of the login screen still goes back.
fn login_needed(ctx: Ctx, session: Session) {
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
    ctx.navigate(&format!("/login?next={next}"));
}

/// Keeps the router's `use_navigate()` for [`Ctx::navigate`], which pages
/// call after an action (outside any component).
#[component]
fn RouterNavigate() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let navigate = use_navigate();
    ctx.navigate.set_value(Some(Box::new(move |to: &str| {
        navigate(to, Default::default());
    })));
}

/// paylink's name (a link home), its tagline, the language switch and
/// `children` (the merchant's navigation, in [`App`]).
#[component]
fn TopBar(#[prop(optional)] children: Option<Children>) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    view! {
        <header class="topbar">
            <a href="/" class="brand">"paylink"</a>
            <span class="tagline">{move || K::Tagline.t(lang.get())}</span>
            <LangSwitch />
            {children.map(|c| c())}
        </header>
    }
}

/// `/`: the customer form, then the invoice form.
#[component]
fn Home() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let merchant = expect_context::<Merchant>();
    move || {
        let l = ctx.lang.get();
        match merchant.step.get() {
            Step::Customer => view! { <CustomerForm l /> }.into_any(),
            Step::Invoice => view! { <InvoiceForm l /> }.into_any(),
        }
    }
}

/// A path no screen answers.
#[component]
fn NotFound() -> impl IntoView {
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
