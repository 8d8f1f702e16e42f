//! A payment link's share panel: its address, the two embed snippets of
//! docs/widget.md (iframe and direct mount), each with its copy button, and
//! its QR code drawn by the server, printable on its own.

use leptos::prelude::*;
use paylink_model::link_spec::{iframe_snippet, mount_snippet, MerchantLink};
use paylink_model::Lang;
use paylink_text as text;
use paylink_ui::clipboard::copy;
use paylink_ui::fetched::Fetched;

use crate::api;
use crate::components::sections::CopyStatus;
use crate::Ctx;

/// One link's address, embed snippets and printable QR code.
#[component]
pub(super) fn SharePanel(slug: String, shared: RwSignal<Option<String>>) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let link = LocalResource::new(move || {
        let (slug, l) = (slug.clone(), lang.get());
        async move { client.get_link(&slug, l).await }
    });
    let copied = RwSignal::new(None::<bool>);
    let close = move |_| shared.set(None);
    view! {
        <section class="card share" aria-labelledby="share-title">
            <Fetched
                lang
                data=link
                show=move |l, link| link.map(|link| view! { <ShareBody l link copied /> })
            />
            <p class="actions">
                <button type="button" class="link" on:click=close>
                    {move || text::CLOSE.t(lang.get())}
                </button>
            </p>
        </section>
    }
}

#[component]
fn ShareBody(l: Lang, link: MerchantLink, copied: RwSignal<Option<bool>>) -> impl IntoView {
    let iframe = iframe_snippet(&link.url, &link.slug);
    let mount = mount_snippet(&link.url, &link.slug, l.code());
    let (url, qr) = (link.url.clone(), link.qr_svg.clone().unwrap_or_default());
    let copy_url = {
        let url = url.clone();
        move |_| copy(url.clone(), copied)
    };
    let copy_iframe = {
        let s = iframe.clone();
        move |_| copy(s.clone(), copied)
    };
    let copy_mount = {
        let s = mount.clone();
        move |_| copy(s.clone(), copied)
    };
    let print = move |_| {
        let _ = window().print();
    };
    view! {
        <h2 id="share-title" tabindex="-1">{text::share_link(l, &link.name)}</h2>
        <p class="paylink">
            <span class="muted">{text::ADDRESS.t(l)} ": "</span>
            <a href=url.clone() class="url" rel="external">{url.clone()}</a>
        </p>
        <p>
            <button type="button" class="secondary" on:click=copy_url>{text::COPY_URL.t(l)}</button>
        </p>
        <div class="field">
            <label for="snippet-iframe">{text::EMBED_IFRAME.t(l)}</label>
            <p class="muted" id="snippet-iframe-hint">{text::EMBED_IFRAME_HINT.t(l)}</p>
            <textarea id="snippet-iframe" class="snippet" readonly rows="3"
                aria-describedby="snippet-iframe-hint" prop:value=iframe></textarea>
            <button type="button" class="secondary" on:click=copy_iframe>{text::COPY_IFRAME.t(l)}</button>
        </div>
        <div class="field">
            <label for="snippet-mount">{text::EMBED_MOUNT.t(l)}</label>
            <p class="muted" id="snippet-mount-hint">{text::EMBED_MOUNT_HINT.t(l)}</p>
            <textarea id="snippet-mount" class="snippet" readonly rows="5"
                aria-describedby="snippet-mount-hint" prop:value=mount></textarea>
            <button type="button" class="secondary" on:click=copy_mount>{text::COPY_MOUNT.t(l)}</button>
        </div>
        <CopyStatus l copied />
        <figure class="link-qr">
            <div class="qr" role="img" aria-label=text::qr_of(l, &url) inner_html=qr></div>
            <figcaption>
                <strong>{link.name.clone()}</strong>
                <br />
                {url.clone()}
            </figcaption>
        </figure>
        <p>
            <button type="button" class="secondary" on:click=print>{text::PRINT_QR.t(l)}</button>
        </p>
    }
}
