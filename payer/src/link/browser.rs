//! The link page's browser side: the embedding (options, events, height)
//! and the submit through the proxy's link API (gloo-net), with its
//! idempotency keys. The server renders the islands that call [`start`] and
//! [`refused`], which only set up what the browser runs (effects, and the
//! context [`send`] reads in the form's submit handler).

use leptos::prelude::*;
use paylink_model::{CustomerRef, InvoiceCreated, Lang};
use paylink_ui::api::{self, Body, Keys, SendError};
use paylink_ui::Failure;
use serde::de::DeserializeOwned;
use std::rc::Rc;

use super::state::Payer;
use crate::host;

/// The page's language, its outcome and the creations' state, for [`send`].
#[derive(Clone)]
struct Page {
    lang: RwSignal<Lang>,
    done: RwSignal<Option<String>>,
    /// The creations' keys, numbered from the page's (the server rendered it, for the
    /// form's post without JavaScript too).
    keys: StoredValue<Rc<Keys>, LocalStorage>,
    /// The customer created for these values, and its id: a second
    /// submit after a refused invoice does not create it again.
    created: StoredValue<Option<(String, String)>>,
}

pub fn start(
    p: Payer,
    lang: RwSignal<Lang>,
    summary: RwSignal<bool>,
    done: RwSignal<Option<String>>,
    key: String,
) {
    // Once hydrated (effects run after it): what the embedding asks
    // changes the page the server rendered, never the hydration itself.
    let slug = p.link.with_value(|l| l.slug.clone());
    Effect::new(move |_| {
        let (host, options) = host::here();
        for (path, value) in &options.prefill {
            p.set(path, value);
        }
        if let Some(l) = options.locale {
            lang.set(l);
        }
        summary.set(options.shows("summary"));
        host::connect(host, options, move |l| lang.set(l));
        host.emit("paylink:ready", &[("link", slug.as_str().into())]);
    });
    let page = Page {
        lang,
        done,
        keys: StoredValue::new_local(Rc::new(Keys::new(key))),
        created: StoredValue::new(None),
    };
    provide_context(page);
}

pub fn refused(code: u16, message: String) {
    Effect::new(move |_| {
        let (host, options) = host::here();
        host::connect(host, options, |_| {});
        let env = paylink_model::ErrorEnvelope {
            code,
            message: message.clone(),
            errors: None,
        };
        host.emit_error(true, &Failure::Api(env), &message);
    });
}

pub fn send(p: Payer, busy: RwSignal<bool>) {
    let Some(page) = use_context::<Page>() else {
        return;
    };
    busy.set(true);
    leptos::task::spawn_local(async move {
        create(&page, p).await;
        busy.set(false);
    });
}

async fn create(page: &Page, p: Payer) {
    let lang = page.lang.get_untracked();
    let slug = p.link.with_value(|l| l.slug.clone());
    let (host, options) = host::here();
    let fail = |e: Failure| {
        p.form.server_error(&e);
        host.emit_error(false, &e, &e.text(lang));
    };
    let (customer, mut invoice, _) = p.requests(lang);
    // Only what the payer set goes: the proxy fills in the link's values and checks the whole.
    let Ok(body) = leptos::serde_json::to_string(&customer) else {
        return;
    };
    let known = page.created.with_value(|c| {
        c.as_ref()
            .filter(|(b, _)| *b == body)
            .map(|(_, id)| id.clone())
    });
    let customer_id = match known {
        Some(id) => id,
        None => match call::<CustomerRef>(
            page,
            &format!("/api/links/{slug}/customers"),
            body.clone(),
            lang,
        )
        .await
        {
            Ok(c) => {
                page.created.set_value(Some((body, c.id.clone())));
                host.emit("paylink:customer-created", &[("id", c.id.as_str().into())]);
                c.id
            }
            Err(e) => return fail(e),
        },
    };
    invoice.customer_id = Some(customer_id);
    let Ok(body) = leptos::serde_json::to_string(&invoice) else {
        return;
    };
    match call::<InvoiceCreated>(page, &format!("/api/links/{slug}/invoices"), body, lang).await {
        Ok(created) => {
            host.emit(
                "paylink:invoice-created",
                &[
                    ("id", created.id.as_str().into()),
                    ("url", created.url.as_str().into()),
                    ("externalId", created.external_id.as_str().into()),
                ],
            );
            if options.shows("pay") {
                host.go(&format!("/pay/{}", created.id));
            } else {
                page.done.set(Some(created.url));
            }
        }
        Err(e) => fail(e),
    }
}

/// `POST {base}{path}` with a JSON body through the shared [`paylink_ui::api::send`]; the
/// answer read as `R`, or the service's error envelope.
async fn call<R: DeserializeOwned>(
    page: &Page,
    path: &str,
    body: String,
    lang: Lang,
) -> Result<R, Failure> {
    let req = gloo_net::http::Request::post(&format!("{}{path}", host::api_base()));
    // The page's state is gone once the island is: a call still on its way goes without a key.
    let keys = page.keys.try_get_value();
    let body = match &keys {
        Some(keys) => Body::creation(path, body, keys),
        None => Body::plain(body),
    };
    match api::send(req, lang, Some(body)).await {
        Ok(answer) => leptos::serde_json::from_str(&answer.text).map_err(|_| Failure::BadResponse),
        Err(SendError::Network) => Err(Failure::Network),
        Err(SendError::Refused(refused)) => {
            Err(refused.failure(leptos::serde_json::from_str(&refused.text).ok()))
        }
    }
}
