//! paylink's payment-link widget: a Leptos client-side-rendered app.
//!
//! Four screens, routed by hand (no router crate, for size):
//! * `/` — the merchant flow: customer form → invoice form → detail;
//! * `/invoices/{id}` — the invoice detail (merchant);
//! * `/l/{slug}` — a payment link's page (the payer fills it in);
//! * `/pay/{id}` — the payer's page (`/api/pay/{id}`: no private data; PIX
//!   and boleto codes of the next open installment).
//!
//! The same App runs on paylink's page, in embed.js's iframe and mounted in
//! a merchant's element: see [`embed`].
//!
//! Every rule (validation, masks, money, installment plan) comes from
//! `paylink_model`, the crate the server uses too.

use leptos::prelude::*;
use paylink_model::{CustomerRef, Lang};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Node;

pub mod api;
pub mod components;
pub mod dom;
pub mod embed;
pub mod form;
pub mod i18n;
pub mod pages;

use components::lang_switch::lang_switch;
use embed::Host;
use i18n::K;
use pages::customer_form::{customer_form, CustomerFields};
use pages::invoice_form::{invoice_form, InvoiceFields};
use pages::invoice_view::invoice_view;
use pages::link_form::{link_form, Payer};
use pages::pay_view::pay_view;

/// The screen for a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Home,
    Invoice(String),
    Link(String),
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
        } else if let Some(slug) = path.strip_prefix("/l/").and_then(one_segment) {
            Route::Link(slug)
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
    embedding: StoredValue<Embedding, LocalStorage>,
}

/// Where the widget runs and how it was asked to: fixed for the app's life,
/// so not reactive. One stored value, not one per field: each stored type
/// brings its own copy of the storage code, compiled at start-up.
struct Embedding {
    host: Host,
    options: embed::Options,
    /// `paylink:ready` was sent.
    ready: std::cell::Cell<bool>,
}

impl Ctx {
    /// Reads where the widget runs.
    pub fn host<R>(&self, f: impl FnOnce(&Host) -> R) -> R {
        self.embedding.with_value(|e| f(&e.host))
    }

    /// Reads the options the widget was started with.
    pub fn options<R>(&self, f: impl FnOnce(&embed::Options) -> R) -> R {
        self.embedding.with_value(|e| f(&e.options))
    }

    /// Goes to `path` within the app, like a link: `history.pushState` on
    /// paylink's page (in the iframe keeping its `?embed…` query), in memory
    /// only when mounted in a merchant's element (their URL is theirs).
    pub fn navigate(&self, path: &str) {
        if let Some(w) = web_sys::window() {
            match self.host(Host::clone) {
                Host::Element(_) => {}
                host => {
                    let keep = match host {
                        Host::Frame { .. } => w.location().search().unwrap_or_default(),
                        _ => String::new(),
                    };
                    if let Ok(h) = w.history() {
                        let _ = h.push_state_with_url(
                            &JsValue::NULL,
                            "",
                            Some(&(path.to_string() + &keep)),
                        );
                    }
                    w.scroll_to_with_x_and_y(0.0, 0.0);
                }
            }
        }
        self.route.set(Route::parse(path));
        focus_main();
    }

    /// Whether the widget runs inside someone else's page (iframe or element).
    pub fn embedded(&self) -> bool {
        self.host(|h| *h != Host::Page)
    }

    /// A `paylink:*` event for the host page (see [`embed::emit`]).
    pub fn emit(&self, kind: &str, detail: &JsValue) {
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

    /// An in-app `<a href>`: plain clicks navigate without reloading;
    /// modified clicks (new tab…) keep browser behaviour.
    pub fn link(self, path: &'static str, label: &'static str) -> dom::El {
        dom::h("a")
            .attr("href", path)
            .on("click", move |ev| {
                let Some(ev) = ev.dyn_ref::<web_sys::MouseEvent>() else {
                    return;
                };
                if ev.button() == 0
                    && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key())
                {
                    ev.prevent_default();
                    self.navigate(path);
                }
            })
            .c(label)
    }
}

/// Focuses the widget's `<main>` (by class, not id: mounted in a merchant's
/// page, an id of ours could clash with theirs).
fn focus_main() {
    if let Ok(Some(el)) = crate::dom::doc().query_selector(".paylink-widget > main") {
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

/// State made on its first use instead of at start-up, so the code that
/// makes it is compiled and run only by the screens that need it (the
/// customer form on `/` is the first render that counts). It is made under
/// the App's owner, held weakly (the state is stored in it), so it lives as
/// long as the App like the state made at start-up.
pub struct Later<T: 'static> {
    value: StoredValue<Option<T>, LocalStorage>,
    owner: StoredValue<Option<leptos::reactive::owner::WeakOwner>, LocalStorage>,
}

impl<T: 'static> Clone for Later<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: 'static> Copy for Later<T> {}

impl<T: Clone + 'static> Later<T> {
    /// Call it where the state's owner is current (the App).
    pub fn new() -> Later<T> {
        Later {
            value: StoredValue::new_local(None),
            owner: StoredValue::new_local(Owner::current().map(|o| o.downgrade())),
        }
    }

    pub fn get_or_make(&self, make: impl FnOnce() -> T) -> T {
        if let Some(v) = self.made() {
            return v;
        }
        let v = match self.owner.get_value().and_then(|o| o.upgrade()) {
            Some(owner) => owner.with(make),
            None => make(),
        };
        self.value.set_value(Some(v.clone()));
        v
    }

    /// The state, if it has been made.
    pub fn made(&self) -> Option<T> {
        self.value.get_value()
    }
}

impl<T: Clone + 'static> Default for Later<T> {
    fn default() -> Self {
        Later::new()
    }
}

/// The merchant flow's state. It lives as long as the app, so the values
/// typed survive a language switch (which re-renders the screen).
#[derive(Clone, Copy)]
pub struct Merchant {
    pub step: RwSignal<Step>,
    pub customer: CustomerFields,
    pub customer_form: form::Form,
    pub created: RwSignal<Option<CustomerRef>>,
    /// The invoice form's fields and form: see [`Merchant::invoice`].
    invoice: Later<(InvoiceFields, form::Form)>,
    lang: RwSignal<Lang>,
}

impl Merchant {
    pub fn new(lang: RwSignal<Lang>) -> Merchant {
        let customer = CustomerFields::new();
        Merchant {
            step: RwSignal::new(Step::Customer),
            customer,
            customer_form: customer.form(lang),
            created: RwSignal::new(None),
            invoice: Later::new(),
            lang,
        }
    }

    /// The invoice form's fields and form, made when first needed (a
    /// customer created, or the invoice form shown).
    pub fn invoice(&self) -> (InvoiceFields, form::Form) {
        let lang = self.lang;
        self.invoice.get_or_make(|| {
            let f = InvoiceFields::new();
            (f, f.form(lang))
        })
    }
}

/// The whole widget. Mount it with [`dom::mount`] (see [`embed`]).
pub fn app() -> Node {
    let (host, options) = embed::take_next();
    let route = match (&host, &options.link) {
        // In a merchant's element the URL is not ours: the link is the start.
        (Host::Element(_), Some(slug)) => Route::Link(slug.clone()),
        (Host::Element(_), None) => Route::NotFound,
        _ => Route::current(),
    };
    let lang = RwSignal::new(options.locale.unwrap_or(Lang::PtBr));
    let merchant = Merchant::new(lang);
    // A payment link's page only (see `Route::Link` below).
    let payer = Later::<Payer>::new();
    let ctx = Ctx {
        lang,
        route: RwSignal::new(route),
        embedding: StoredValue::new_local(Embedding {
            host: host.clone(),
            options,
            ready: std::cell::Cell::new(false),
        }),
    };
    provide_context(ctx);
    let embedded = ctx.embedded();
    let ours = !matches!(host, Host::Element(_));

    // Back/forward buttons (not a merchant's: their history is theirs).
    if ours {
        if let Some(w) = web_sys::window() {
            dom::listen_on(&w, "popstate", move |_| ctx.route.set(Route::current()));
        }
    }

    // <html lang> (ours only: on a merchant's page the root carries it), the
    // page title, and the browser's messages in the new language. A binding
    // like the views' (run now, then on each change): no async executor is
    // started for the first render.
    let shown = std::cell::Cell::new(None::<Lang>);
    dom::watch(move || {
        let lang = ctx.lang.get();
        let prev = shown.replace(Some(lang));
        if ours {
            if let Some(html) = crate::dom::doc().document_element() {
                let _ = html.set_attribute("lang", lang.code());
            }
        }
        if prev.is_some_and(|p| p != lang) {
            merchant.customer_form.relocalize();
            if let Some((_, form)) = merchant.invoice.made() {
                form.relocalize();
            }
            if let Some(p) = payer.made() {
                p.form.relocalize();
            }
        }
    });

    // The screen: rendered again on a route or language change.
    let page = dom::region(move || {
        let (l, route) = (ctx.lang.get(), ctx.route.get());
        Some(untrack(|| match route {
            Route::Home => home(l, ctx, merchant),
            Route::Invoice(id) => invoice_view(l, ctx, id),
            Route::Link(slug) => {
                let payer = payer.get_or_make(|| ctx.options(|o| Payer::new(ctx.lang, o)));
                link_form(l, ctx, slug, payer)
            }
            Route::Pay(id) => pay_view(l, ctx, id),
            Route::NotFound => dom::h("section")
                .class("card")
                .c(dom::h("h1").c(K::NotFound.t(l)))
                .c((!embedded).then(|| dom::h("p").c(ctx.link("/", K::GoHome.t(l)))))
                .into_node(),
        }))
    });

    let topbar = (!embedded).then(|| {
        dom::h("header")
            .class("topbar")
            .c(ctx.link("/", "paylink").class("brand"))
            .c(dom::h("span")
                .class("tagline")
                .dyn_text(move || K::Tagline.t(ctx.lang.get()).to_string()))
            .c(lang_switch(ctx))
    });
    // The root carries the theme; in the iframe it is also what embed.js sizes the frame to.
    // translate="no" (as index.html's <html>): on a merchant's page a browser's machine
    // translation would swap out the text nodes the widget keeps updating.
    let root = dom::h("div")
        .attr("translate", "no")
        .class(if embedded {
            "paylink-widget embedded"
        } else {
            "paylink-widget"
        })
        .dyn_attr("lang", move || Some(ctx.lang.get().code().to_string()))
        .c(topbar)
        .c(dom::h("main").attr("tabindex", "-1").c(page));
    let el: web_sys::HtmlElement = root.0.clone().unchecked_into();
    ctx.options(|o| embed::apply_theme(&el, &o.theme));
    if let Host::Frame { parent } = host {
        embed::connect_frame(parent, el, ctx.lang);
    }
    root.into_node()
}

/// `/`: the customer form, then the invoice form.
fn home(l: Lang, ctx: Ctx, merchant: Merchant) -> Node {
    dom::region(move || {
        let step = merchant.step.get();
        Some(untrack(|| match step {
            Step::Customer => customer_form(l, ctx, merchant),
            Step::Invoice => invoice_form(l, ctx, merchant),
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::Route;

    #[test]
    fn parses_the_four_paths() {
        assert_eq!(Route::parse("/"), Route::Home);
        assert_eq!(Route::parse(""), Route::Home);
        assert_eq!(Route::parse("/invoices/abc"), Route::Invoice("abc".into()));
        assert_eq!(Route::parse("/invoices/abc/"), Route::Invoice("abc".into()));
        assert_eq!(Route::parse("/pay/abc"), Route::Pay("abc".into()));
        assert_eq!(
            Route::parse("/l/curso-rust"),
            Route::Link("curso-rust".into())
        );
        for other in [
            "/invoices/",
            "/invoices/a/b",
            "/pay",
            "/nope",
            "/pay//",
            "/l/",
            "/l/a/b",
        ] {
            assert_eq!(Route::parse(other), Route::NotFound, "{other}");
        }
    }
}
