//! paylink's payment-link widget: a Leptos 0.8 client-side-rendered app.
//!
//! Seven screens, routed by `leptos_router` (one file per screen in `pages/`):
//! * `/` — the merchant flow: customer form → invoice form → detail;
//! * `/painel` — the merchant's dashboard (the month's totals, 12 months);
//! * `/invoices`, `/customers` — the merchant's lists (filters and page in
//!   the URL's query);
//! * `/invoices/:id` — the invoice detail (merchant), with its actions;
//! * `/l/:slug` — a payment link's page (the payer fills it in);
//! * `/pay/:id` — the payer's page (`/api/pay/{id}`: no private data; PIX
//!   and boleto codes of the next open installment), as the link page's next
//!   step in the iframe and in a merchant's element. Opened by its address,
//!   `/pay/{id}` is rendered by the server (the `paylink-payer` crate), so a
//!   payer never downloads this app for it;
//! * `/login` — the operator's login, shown when a merchant call answers 401.
//!
//! The same [`App`] runs on paylink's page, in embed.js's iframe and mounted
//! in a merchant's element: see [`embed`]. Mounted in a merchant's element
//! the URL is theirs, so there is no `<Router>` there: the app starts on the
//! link's page and shows the payer page in place once the invoice exists.
//!
//! Every rule (validation, masks, money, installment plan) comes from
//! `paylink_model`, the crate the server uses too.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::hooks::use_navigate;
use leptos_router::path;
use paylink_model::operator::return_path;
use paylink_model::{CustomerRef, Lang};
use wasm_bindgen::JsCast;

pub mod api;
pub mod components;
pub mod embed;
pub mod i18n;
pub mod pages;

use components::lang_switch::LangSwitch;
use components::nav::MerchantNav;
use embed::{Host, Options};
use i18n::K;
use pages::customer_form::CustomerForm;
use pages::customer_list::CustomerListPage;
use pages::dashboard::DashboardPage;
use pages::invoice_form::{InvoiceFields, InvoiceForm};
use pages::invoice_list::InvoiceListPage;
use pages::invoice_view::InvoicePage;
use pages::link_form::{LinkPage, LinkView};
use pages::login::{LoginPage, Session};
use pages::pay_view::{PayPage, PayView};
use paylink_ui::customer::CustomerFields;

/// The navigation function of the `<Router>` (see [`Ctx::navigate`]).
type Navigate = Box<dyn Fn(&str)>;

/// App-wide state, available with `expect_context::<Ctx>()`.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub lang: RwSignal<Lang>,
    embedding: StoredValue<Embedding, LocalStorage>,
    /// Mounted in a merchant's element: the payer page's invoice id, once
    /// created (the link's page before).
    mounted_pay: RwSignal<Option<String>>,
    /// `use_navigate()` of the `<Router>`, kept by [`RouterNavigate`].
    navigate: StoredValue<Option<Navigate>, LocalStorage>,
}

/// Where the widget runs and how it was asked to: fixed for the app's life,
/// so not reactive.
struct Embedding {
    host: Host,
    options: Options,
    /// `paylink:ready` was sent.
    ready: std::cell::Cell<bool>,
}

impl Ctx {
    /// Reads where the widget runs.
    pub fn host<R>(&self, f: impl FnOnce(&Host) -> R) -> R {
        self.embedding.with_value(|e| f(&e.host))
    }

    /// Reads the options the widget was started with.
    pub fn options<R>(&self, f: impl FnOnce(&Options) -> R) -> R {
        self.embedding.with_value(|e| f(&e.options))
    }

    /// Goes to `path` within the app: the router's navigation on paylink's
    /// page (in the iframe keeping its `?embed…` query), in memory when
    /// mounted in a merchant's element (their URL is theirs).
    pub fn navigate(&self, path: &str) {
        match self.host(Host::clone) {
            Host::Element(_) => {
                if let Some(id) = path.strip_prefix("/pay/") {
                    self.mounted_pay.set(Some(id.to_string()));
                }
            }
            host => {
                let keep = match host {
                    Host::Frame { .. } => window().location().search().unwrap_or_default(),
                    _ => String::new(),
                };
                let to = path.to_string() + &keep;
                self.navigate.with_value(|n| {
                    if let Some(n) = n {
                        n(&to);
                    }
                });
            }
        }
        request_animation_frame(focus_main);
    }

    /// Whether the widget runs inside someone else's page (iframe or element).
    pub fn embedded(&self) -> bool {
        self.host(|h| *h != Host::Page)
    }

    /// A `paylink:*` event for the host page (see [`embed::emit`]).
    pub fn emit(&self, kind: &str, detail: &wasm_bindgen::JsValue) {
        self.host(|h| embed::emit(h, kind, detail));
    }

    pub fn emit_error(&self, critical: bool, e: &api::Error, message: &str) {
        self.host(|h| embed::emit_error(h, critical, e, message));
    }

    /// `paylink:ready` (once): the first screen is shown.
    pub fn ready(&self, slug: &str) {
        if !self.embedding.with_value(|e| e.ready.replace(true)) {
            self.emit("paylink:ready", &embed::detail(&[("link", slug.into())]));
        }
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
    /// The app-wide state for `host` (paylink's page when `None`), provided
    /// as context; `<html lang>` follows the language (on paylink's page and
    /// in its iframe: on a merchant's page the widget's root carries it).
    fn provide(host: Option<Host>, options: Option<Options>) -> Ctx {
        let host = host.unwrap_or(Host::Page);
        let options = options.unwrap_or_default();
        // The merchant's `locale` first; on paylink's own page, the language
        // the person chose on an earlier visit; pt-BR otherwise.
        let remembered = matches!(host, Host::Page)
            .then(components::lang_switch::remembered)
            .flatten();
        let lang = RwSignal::new(options.locale.or(remembered).unwrap_or(Lang::PtBr));
        let ours = !matches!(host, Host::Element(_));
        let ctx = Ctx {
            lang,
            embedding: StoredValue::new_local(Embedding {
                host,
                options,
                ready: std::cell::Cell::new(false),
            }),
            mounted_pay: RwSignal::new(None),
            navigate: StoredValue::new_local(None),
        };
        provide_context(ctx);
        if ours {
            Effect::new(move |_| {
                if let Some(html) = document().document_element() {
                    let _ = html.set_attribute("lang", lang.get().code());
                }
            });
        }
        ctx
    }
}

/// The widget's root element around `children`: it carries the theme and
/// the language; in the iframe it is also what embed.js sizes the frame to.
#[component]
fn Root(ctx: Ctx, children: Children) -> impl IntoView {
    let lang = ctx.lang;
    let root = NodeRef::<leptos::html::Div>::new();
    root.on_load(move |el| {
        let el: web_sys::HtmlElement = el.unchecked_into();
        ctx.options(|o| embed::apply_theme(&el, &o.theme));
        if let Host::Frame { parent } = ctx.host(Host::clone) {
            embed::connect_frame(parent, el, lang);
        }
    });
    // translate="no" (as index.html's <html>): on a merchant's page a browser's machine
    // translation would swap out the text nodes the widget keeps updating.
    view! {
        <div
            node_ref=root
            translate="no"
            class=if ctx.embedded() { "paylink-widget embedded" } else { "paylink-widget" }
            lang=move || lang.get().code()
        >
            {children()}
        </div>
    }
}

/// The whole widget. `host` and `options` say where it runs (see
/// [`embed`]); without them it is paylink's own page.
#[component]
pub fn App(
    #[prop(optional)] host: Option<Host>,
    #[prop(optional)] options: Option<Options>,
) -> impl IntoView {
    let ctx = Ctx::provide(host, options);
    let lang = ctx.lang;
    let link = ctx.options(|o| o.link.clone());
    let merchant = Merchant::new(lang);
    provide_context(merchant);
    let session = Session::new();
    provide_context(session);
    let embedded = ctx.embedded();
    let ours = ctx.host(|h| !matches!(h, Host::Element(_)));

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
    if ours {
        api::on_login_needed(move || login_needed(ctx, session));
    }

    let screens = if ours {
        view! {
            <Router>
                <RouterNavigate />
                {(!embedded).then(|| view! { <TopBar><MerchantNav /></TopBar> })}
                <main tabindex="-1">
                    <Routes fallback=NotFound>
                        <Route path=path!("/") view=Home />
                        <Route path=path!("/index.html") view=Home />
                        <Route path=path!("/painel") view=DashboardPage />
                        <Route path=path!("/invoices") view=InvoiceListPage />
                        <Route path=path!("/customers") view=CustomerListPage />
                        <Route path=path!("/invoices/:id") view=InvoicePage />
                        <Route path=path!("/pay/:id") view=PayPage />
                        <Route path=path!("/l/:slug") view=LinkPage />
                        <Route path=path!("/login") view=LoginPage />
                    </Routes>
                </main>
            </Router>
        }
        .into_any()
    } else {
        view! { <main tabindex="-1"><Mounted link /></main> }.into_any()
    };
    view! { <Root ctx>{screens}</Root> }
}

/// Shows the login screen, remembering where the operator was. In the
/// iframe the path alone (the frame's `?embed…` query is kept by
/// [`Ctx::navigate`]); on paylink's page the place is also in `?next=`, so
/// a reload of the login screen still goes back.
fn login_needed(ctx: Ctx, session: Session) {
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    if path == "/login" {
        return;
    }
    match ctx.host(Host::clone) {
        Host::Page => {
            let here = path + &location.search().unwrap_or_default();
            session
                .return_to
                .set(return_path(&here).map(str::to_string));
            let next = String::from(js_sys::encode_uri_component(&here));
            ctx.navigate(&format!("/login?next={next}"));
        }
        _ => {
            session
                .return_to
                .set(return_path(&path).map(str::to_string));
            ctx.navigate("/login");
        }
    }
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
    let embedded = ctx.embedded();
    move || {
        let l = ctx.lang.get();
        view! {
            <section class="card">
                <h1>{K::NotFound.t(l)}</h1>
                {(!embedded).then(|| view! { <p><a href="/">{K::GoHome.t(l)}</a></p> })}
            </section>
        }
    }
}

/// Mounted in a merchant's element: the link's page, then its payer page in
/// place (the merchant's URL and history are never touched).
#[component]
fn Mounted(link: Option<String>) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    move || match (ctx.mounted_pay.get(), link.clone()) {
        (Some(id), _) => view! { <PayView id /> }.into_any(),
        (None, Some(slug)) => view! { <LinkView slug /> }.into_any(),
        (None, None) => view! { <NotFound /> }.into_any(),
    }
}
