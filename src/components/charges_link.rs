//! A customer's link to their page of charges (`/c/{token}`, every invoice of theirs, open
//! first), on the customer list: "copy" makes a new link and copies it (it is shown once, the
//! server keeping only its hash, so it is shown here too for a browser without clipboard);
//! "revoke" ends every link of the customer's, those their notifications carried included.

use leptos::prelude::*;
use leptos::task::spawn_local;
use paylink_model::Lang;
use paylink_text as text;
use paylink_ui::clipboard::copy;

use crate::api;
use crate::components::sections::error_text;

/// The two buttons, and what the last one did.
#[component]
pub fn ChargesLinkControl(l: Lang, id: String) -> impl IntoView {
    let client = api::use_client();
    let said = RwSignal::new(None::<String>);
    let copied = RwSignal::new(None::<bool>);
    let act = move |revoke: bool| {
        let id = id.clone();
        move |_| {
            let id = id.clone();
            copied.set(None);
            spawn_local(async move {
                let text = match client.charges_link(&id, revoke, l).await {
                    Ok(Some(link)) => {
                        copy(link.url.clone(), copied);
                        link.url
                    }
                    Ok(None) => text::CHARGES_LINKS_REVOKED.t(l).to_string(),
                    Err(e) => error_text(l, &e),
                };
                said.try_set(Some(text));
            });
        }
    };
    view! {
        <span class="charges-link">
            <button type="button" class="link" on:click=act(false)>
                {text::COPY_CHARGES_LINK.t(l)}
            </button>
            " · "
            <button type="button" class="link" on:click=act(true)>
                {text::REVOKE_CHARGES_LINKS.t(l)}
            </button>
            <span role="status" class="muted" data-charges-link="">
                {move || said.get()}
                {move || (copied.get() == Some(true)).then(|| format!(" {}", text::LINK_COPIED.t(l)))}
            </span>
        </span>
    }
}
