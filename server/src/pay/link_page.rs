//! A payment link's page, `/l/{slug}`, as HTML rendered here by Leptos
//! (`paylink_payer::link`): the link's name, amount, terms and its form, in
//! the request's language. The form is a real `<form method="post">` to the
//! same address: without JavaScript the server checks it with the island's
//! own rules (`paylink_payer::link::verdict`), creates the customer and the
//! invoice exactly as the link's API does (`links::create_customer`,
//! `links::create_invoice`) and answers 303 to the payer page, or the form
//! again with what was typed and the errors on their fields (422).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use paylink_model::{CustomerRef, ErrorEnvelope, InvoiceCreated, Lang};
use paylink_payer::link::{verdict, Posted};
use paylink_text as text;

use super::links::{active_link, create_customer, create_invoice};
use super::pages::{html_response, page_lang, PageQuery};
use super::Payer;
use crate::error::AppError;
use crate::http::extract::{ApiPath, ApiQuery, RawBody};
use crate::http::BODY_LIMIT;
use crate::proxy::upstream::read_json;
use crate::store::Db;
use paylink_payer::shell::{render, Chrome};

/// The hidden field carrying the form's idempotency key.
const KEY_FIELD: &str = "idempotencyKey";

/// `GET /l/{slug}`: the link's page, or why there is none (404) as a page.
pub(super) async fn link_page(
    State(s): State<Payer>,
    State(db): State<Db>,
    headers: HeaderMap,
    ApiPath(slug): ApiPath<String>,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Response {
    let l = page_lang(&q, &headers);
    let html = match active_link(&db, &slug).await {
        Ok(link) => page(&s, q.chrome(), l, &link, Posted::default()),
        Err(e) => return unavailable(&s, q.chrome(), l, &slug, &e),
    };
    html_response(
        StatusCode::OK,
        html,
        &s.page.frame_ancestors,
        q.lang.is_some().then_some(l),
    )
}

/// `POST /l/{slug}`: the form sent without JavaScript.
pub(super) async fn link_form(
    State(s): State<Payer>,
    State(db): State<Db>,
    headers: HeaderMap,
    ApiPath(slug): ApiPath<String>,
    ApiQuery(q): ApiQuery<PageQuery>,
    RawBody(body): RawBody,
) -> Response {
    let l = page_lang(&q, &headers);
    let link = match active_link(&db, &slug).await {
        Ok(link) => link,
        Err(e) => return unavailable(&s, Chrome::Page, l, &slug, &e),
    };
    let mut values: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let key = values
        .iter()
        .position(|(k, _)| k == KEY_FIELD)
        .map(|i| values.remove(i).1)
        .filter(|k| (1..=200).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()));
    let refuse = |env: ErrorEnvelope, values: Vec<(String, String)>| {
        let html = page(
            &s,
            Chrome::Page,
            l,
            &link,
            Posted {
                values,
                refused: Some(env),
            },
        );
        html_response(
            StatusCode::UNPROCESSABLE_ENTITY,
            html,
            &s.page.frame_ancestors,
            None,
        )
    };
    let today = crate::domain::today();
    let (customer, mut invoice) = match verdict(&link.public(today), &values, l) {
        Ok(requests) => requests,
        Err(errors) => {
            let env = ErrorEnvelope {
                code: 422,
                message: text::FIX_ERRORS.t(l).to_string(),
                errors: Some(errors),
            };
            return refuse(env, values);
        }
    };
    // A form without its key (a page from before, or a hand-made post) gets one:
    // each send is then its own.
    let key = key.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let call_headers = |suffix: &str| {
        let mut h = HeaderMap::new();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static(l.code()));
        if let Ok(v) = HeaderValue::from_str(&format!("{key}-{suffix}")) {
            h.insert("idempotency-key", v);
        }
        h
    };
    let created = async {
        let body = Bytes::from(serde_json::to_vec(&customer)?);
        let res = create_customer(s.proxy.clone(), &db, &link, call_headers("c"), body).await?;
        let c: CustomerRef = read_json(res, BODY_LIMIT).await?;
        invoice.customer_id = Some(c.id);
        let res = create_invoice(s.proxy.clone(), &db, &link, call_headers("i"), &invoice).await?;
        read_json::<InvoiceCreated>(res, BODY_LIMIT).await
    };
    match created.await {
        Ok(created) => {
            let to = format!("/pay/{}", created.id.to_ascii_lowercase());
            (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response()
        }
        Err(e) => {
            if e.status().is_server_error() {
                tracing::warn!(error = ?e, slug = %link.slug, "a link's form could not create its invoice");
            }
            refuse(e.envelope(l), values)
        }
    }
}

/// The page for `link`, with a fresh idempotency key for its form.
fn page(
    s: &Payer,
    chrome: Chrome,
    l: Lang,
    link: &crate::domain::links::Link,
    posted: Posted,
) -> String {
    let today = crate::domain::today();
    let terms = link.terms_text(today, l);
    let public = link.public(today);
    let title = format!("{} · {}", public.name, text::PAYMENT.t(l));
    let key = uuid::Uuid::new_v4().to_string();
    let sandbox = s.config.sandbox;
    render(
        l,
        &title,
        &format!("/l/{}", link.slug),
        &s.page.link_assets,
        chrome,
        move || {
            leptos::view! { <paylink_payer::link::LinkPage l link=public posted key terms sandbox /> }
        },
    )
}

/// Why there is no link page, as a page.
fn unavailable(s: &Payer, chrome: Chrome, l: Lang, slug: &str, e: &AppError) -> Response {
    let env = e.envelope(l);
    let (code, message) = (env.code, env.message);
    let title = text::LINK_UNAVAILABLE.t(l);
    let html = render(
        l,
        title,
        &format!("/l/{slug}"),
        &s.page.link_assets,
        chrome,
        move || {
            leptos::view! { <paylink_payer::link::LinkRefused l code message /> }
        },
    );
    html_response(e.status(), html, &s.page.frame_ancestors, None)
}
