//! The document around a payer page: `<head>` with the stylesheet inline
//! (no request before the first paint) and, when the islands' bundle is
//! built, leptos's island script (which loads the wasm once the page is idle,
//! after the content is painted, or within 500 ms: [`IDLE_WITHIN`]); the top bar with the language switch as
//! plain links (`?lang=`), so it works without JavaScript.

use leptos::config::LeptosOptions;
use leptos::prelude::*;
use paylink_model::Lang;
use paylink_text as text;

/// Runs before leptos's island script, which starts the wasm in a `requestIdleCallback`
/// without a timeout: a page in a cross-origin frame (embed.js's) may get no idle period until
/// the payer clicks into it (Shopify/hydrogen#667 stopped hydrating on idle for this), so the
/// frame neither fitted its content nor told the merchant's page it was ready. An idle callback
/// asked without options now comes within 500 ms at the latest.
const IDLE_WITHIN: &str = "(function(w){var r=w.requestIdleCallback;if(r)w.requestIdleCallback=function(c,o){return r.call(w,c,o||{timeout:500})}})(window)";

/// What every payer page loads besides its HTML.
#[derive(Clone, Debug, Default)]
pub struct Assets {
    /// The stylesheet, inlined in `<head>`.
    pub css: String,
    /// The islands' bundle as trunk named it (`/payer/paylink-payer-HASH.js`
    /// and `…_bg.wasm`): `output_name` = `paylink-payer-HASH`, `site_pkg_dir`
    /// = `payer`. `None`: no bundle built; the pages work without it.
    pub islands: Option<LeptosOptions>,
}

impl Assets {
    /// The islands' bundle named `name` (without `.js`) under `/{dir}/`.
    pub fn islands_named(css: String, name: &str, dir: &str) -> Assets {
        Assets {
            css,
            islands: Some(
                LeptosOptions::builder()
                    .output_name(name)
                    .site_pkg_dir(dir)
                    .build(),
            ),
        }
    }
}

/// How much of paylink's page goes around a page's content.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Chrome {
    /// Opened by its address: the top bar with the language links.
    #[default]
    Page,
    /// In embed.js's frame (`?embed=1`): no top bar, the content's height.
    Frame,
    /// The content alone (`?fragment=1`), for `mount.js` to put in a
    /// merchant's element (the merchant's page is the document; the islands
    /// are hydrated in place by the link page's bundle).
    Fragment,
}

/// The page, as HTML: `body` rendered under a fresh reactive owner, in
/// language `l`, inside the root every paylink page draws in
/// (`.paylink-widget`); `path` is the page's own path (for the language
/// links).
#[cfg(feature = "ssr")]
pub fn render<V: IntoView + 'static>(
    l: Lang,
    title: &str,
    path: &str,
    assets: &Assets,
    chrome: Chrome,
    body: impl FnOnce() -> V + 'static,
) -> String {
    // A root with the server's shared context, as leptos_axum renders a page.
    let owner = Owner::new_root(Some(std::sync::Arc::new(
        hydration_context::SsrSharedContext::new(),
    )));
    let html = owner.with(|| {
        let top = (chrome == Chrome::Page).then(|| {
            view! {
                <header class="topbar">
                    <span class="brand">"paylink"</span>
                    <span class="tagline">{text::TAGLINE.t(l)}</span>
                    <LangLinks l path=path.to_string() />
                </header>
            }
        });
        let class = match chrome {
            Chrome::Page => "paylink-widget",
            Chrome::Frame | Chrome::Fragment => "paylink-widget embedded",
        };
        let root = view! {
            <div class=class translate="no" lang=l.code()>
                {top}
                <main>{body()}</main>
            </div>
        };
        if chrome == Chrome::Fragment {
            return root.to_html();
        }
        let scripts = assets.islands.clone().map(|options| {
            view! {
                <script inner_html=IDLE_WITHIN></script>
                <HydrationScripts options islands=true />
            }
        });
        view! {
            <!DOCTYPE html>
            <html lang=l.code() translate="no">
                <head>
                    <meta charset="utf-8" />
                    <meta name="google" content="notranslate" />
                    <meta name="viewport" content="width=device-width, initial-scale=1" />
                    <title>{title.to_string()}</title>
                    <link rel="icon" href="data:," />
                    <style inner_html=assets.css.clone()></style>
                    {scripts}
                </head>
                <body>{root}</body>
            </html>
        }
        .to_html()
    });
    drop(owner);
    html
}

/// pt-BR / English as two links to the same page in the other language, grouped
/// as the widget's two buttons are (not a navigation landmark: the payers'
/// pages have none).
#[component]
fn LangLinks(l: Lang, path: String) -> impl IntoView {
    let link = move |to: Lang, text: &'static str, title: &'static str| {
        view! {
            <a
                href=format!("{path}?lang={}", to.code())
                hreflang=to.code()
                lang=to.code()
                title=title
                aria-current=(l == to).then_some("true")
            >
                {text}
            </a>
        }
    };
    view! {
        <div class="lang" role="group" aria-label=text::LANGUAGE.t(l)>
            {link(Lang::PtBr, "PT", "Português (Brasil)")}
            {link(Lang::En, "EN", "English")}
        </div>
    }
}
