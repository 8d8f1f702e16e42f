//! paylink's payment-link widget: a Leptos client-side-rendered app.
//!
//! Three screens, routed by hand (no router crate, for size):
//! * `/` — the merchant flow: customer form → invoice form → detail;
//! * `/invoices/{id}` — the invoice detail (merchant);
//! * `/pay/{id}` — the payer's page (`/api/pay/{id}`: no private data; PIX
//!   and boleto codes of the next open installment).
//!
//! Every rule (validation, masks, money, installment plan) comes from
//! `paylink_model`, the crate the server uses too.

use leptos::prelude::*;
use paylink_model::{CustomerRef, Lang};
use wasm_bindgen::JsValue;

pub mod api;
pub mod components;
pub mod decode;
pub mod form;
pub mod i18n;
pub mod pages;

use components::lang_switch::LangSwitch;
use i18n::K;
use pages::customer_form::{CustomerFields, CustomerForm};
use pages::invoice_form::{InvoiceFields, InvoiceForm};
use pages::invoice_view::InvoiceView;
use pages::pay_view::PayView;

/// The screen for a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Home,
    Invoice(String),
    Pay(String),
    NotFound,
}

impl Route {
    pub fn parse(path: &str) -> Route {
        let one_segment = |rest: &str| {
            let id = rest.trim_end_matches('/');
            (!id.is_empty() && !id.contains('/')).then(|| id.to_string())
        };
        if path.is_empty() || path == "/" || path == "/index.html" {
            Route::Home
        } else if let Some(id) = path.strip_prefix("/invoices/").and_then(one_segment) {
            Route::Invoice(id)
        } else if let Some(id) = path.strip_prefix("/pay/").and_then(one_segment) {
            Route::Pay(id)
        } else {
            Route::NotFound
        }
    }

    /// The route of the browser's current location.
    pub fn current() -> Route {
        let path = web_sys::window()
            .and_then(|w| w.location().pathname().ok())
            .unwrap_or_default();
        Route::parse(&path)
    }
}

/// App-wide state, available with `expect_context::<Ctx>()`.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub lang: RwSignal<Lang>,
    pub route: RwSignal<Route>,
}

impl Ctx {
    /// Goes to `path` within the app (`history.pushState`), like a link.
    pub fn navigate(&self, path: &str) {
        if let Some(w) = web_sys::window() {
            if let Ok(h) = w.history() {
                let _ = h.push_state_with_url(&JsValue::NULL, "", Some(path));
            }
            w.scroll_to_with_x_and_y(0.0, 0.0);
        }
        self.route.set(Route::parse(path));
        focus_main();
    }

    /// A click handler for in-app `<a href>` links: plain clicks navigate
    /// without reloading; modified clicks (new tab…) keep browser behaviour.
    pub fn link(self, path: &'static str) -> impl Fn(leptos::ev::MouseEvent) + Clone + 'static {
        move |ev| {
            if ev.button() == 0
                && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key())
            {
                ev.prevent_default();
                self.navigate(path);
            }
        }
    }
}

fn focus_main() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("main"))
    {
        use wasm_bindgen::JsCast;
        if let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() {
            let _ = el.focus();
        }
    }
}

/// Which form the merchant flow at `/` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Customer,
    Invoice,
}

/// The merchant flow's state. It lives as long as the app, so the values
/// typed survive a language switch (which re-renders the screen).
#[derive(Clone, Copy)]
pub struct Merchant {
    pub step: RwSignal<Step>,
    pub customer: CustomerFields,
    pub customer_form: form::Form,
    pub created: RwSignal<Option<CustomerRef>>,
    pub invoice: InvoiceFields,
    pub invoice_form: form::Form,
}

impl Merchant {
    pub fn new(lang: RwSignal<Lang>) -> Merchant {
        let customer = CustomerFields::new();
        let invoice = InvoiceFields::new();
        Merchant {
            step: RwSignal::new(Step::Customer),
            customer,
            customer_form: customer.form(lang),
            created: RwSignal::new(None),
            invoice,
            invoice_form: invoice.form(lang),
        }
    }
}

/// The whole widget. Mount it with `leptos::mount::mount_to_body(App)` or
/// `leptos::mount::mount_to(element, App)`.
#[component]
pub fn App() -> impl IntoView {
    let ctx = Ctx {
        lang: RwSignal::new(Lang::PtBr),
        route: RwSignal::new(Route::current()),
    };
    provide_context(ctx);
    let merchant = Merchant::new(ctx.lang);

    // Back/forward buttons.
    let popstate = window_event_listener(leptos::ev::popstate, move |_| {
        ctx.route.set(Route::current());
    });
    on_cleanup(move || popstate.remove());

    // <html lang>, the page title, and the browser's messages in the new language.
    Effect::new(move |prev: Option<Lang>| {
        let lang = ctx.lang.get();
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            if let Some(html) = doc.document_element() {
                let _ = html.set_attribute("lang", lang.code());
            }
        }
        if prev.is_some_and(|p| p != lang) {
            merchant.customer_form.relocalize();
            merchant.invoice_form.relocalize();
        }
        lang
    });

    let page = move || {
        let l = ctx.lang.get();
        match ctx.route.get() {
            Route::Home => view! { <Home l merchant /> }.into_any(),
            Route::Invoice(id) => view! { <InvoiceView l id /> }.into_any(),
            Route::Pay(id) => view! { <PayView l id /> }.into_any(),
            Route::NotFound => view! {
                <section class="card">
                    <h1>{K::NotFound.t(l)}</h1>
                    <p><a href="/" on:click=ctx.link("/")>{K::GoHome.t(l)}</a></p>
                </section>
            }
            .into_any(),
        }
    };

    view! {
        <header class="topbar">
            <a class="brand" href="/" on:click=ctx.link("/")>"paylink"</a>
            <span class="tagline">{move || K::Tagline.t(ctx.lang.get())}</span>
            <LangSwitch />
        </header>
        <main id="main" tabindex="-1">{page}</main>
    }
}

/// `/`: the customer form, then the invoice form.
#[component]
fn Home(l: Lang, merchant: Merchant) -> impl IntoView {
    move || match merchant.step.get() {
        Step::Customer => view! { <CustomerForm l merchant /> }.into_any(),
        Step::Invoice => view! { <InvoiceForm l merchant /> }.into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::Route;

    #[test]
    fn parses_the_three_paths() {
        assert_eq!(Route::parse("/"), Route::Home);
        assert_eq!(Route::parse(""), Route::Home);
        assert_eq!(Route::parse("/invoices/abc"), Route::Invoice("abc".into()));
        assert_eq!(Route::parse("/invoices/abc/"), Route::Invoice("abc".into()));
        assert_eq!(Route::parse("/pay/abc"), Route::Pay("abc".into()));
        for other in ["/invoices/", "/invoices/a/b", "/pay", "/nope", "/pay//"] {
            assert_eq!(Route::parse(other), Route::NotFound, "{other}");
        }
    }
}
