//! The payer page, `/pay/{id}`, as HTML rendered here by Leptos
//! (`paylink-payer`, feature `ssr`) from the same view `/api/pay/{id}`
//! answers: the response itself carries every amount and code, in the
//! language asked for (`?lang=`, remembered in a cookie; then
//! `Accept-Language`), and works without JavaScript. The sandbox's payment
//! is a plain form posted here. And the receipts' verification page, `/r/{code}`.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use paylink_model::Lang;
use paylink_payer::shell::{render, Assets, Chrome};

use super::Payer;
use crate::error::{lang_of, AppError};
use crate::http::extract::{ApiPath, ApiQuery};

/// What every payer page carries besides its content.
pub struct PageConfig {
    /// The payer page's: its islands (copy buttons, live status).
    pub assets: Assets,
    /// The link page's: the link's form (the payer page that follows loads its own).
    pub link_assets: Assets,
    /// CSP `frame-ancestors`, as for the widget's pages.
    pub frame_ancestors: String,
}

/// Where a payer's choice of language is kept (a year; not a secret).
const LANG_COOKIE: &str = "paylink_lang";

#[derive(serde::Deserialize)]
pub(super) struct PageQuery {
    pub(super) lang: Option<String>,
    /// `1`: the content alone, for `mount.js` (see `shell::Chrome`).
    fragment: Option<String>,
    /// `1`: in embed.js's frame.
    embed: Option<String>,
}

impl PageQuery {
    /// What goes around the page: `?fragment=1` the content alone (for
    /// `mount.js`), `?embed=1` embed.js's frame, else the whole page.
    pub(super) fn chrome(&self) -> Chrome {
        if self.fragment.as_deref() == Some("1") {
            Chrome::Fragment
        } else if self.embed.as_deref() == Some("1") {
            Chrome::Frame
        } else {
            Chrome::Page
        }
    }
}

/// The page's language: `?lang=`, else the cookie, else `Accept-Language`.
pub(super) fn page_lang(q: &PageQuery, headers: &HeaderMap) -> Lang {
    if let Some(l) = q.lang.as_deref() {
        return Lang::from_accept_language(l);
    }
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| c.trim().strip_prefix(LANG_COOKIE)?.strip_prefix('='));
    match cookie {
        Some(code) => Lang::from_accept_language(code),
        None => lang_of(headers),
    }
}

/// `GET /pay/{id}`: the payer page, or why there is none (404, 410, ...)
/// as a page. Counts the visit.
pub(super) async fn pay_page(
    State(s): State<Payer>,
    mut headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Response {
    let l = page_lang(&q, &headers);
    // The service's messages (an unknown invoice, ...) in the page's language.
    headers.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static(l.code()));
    let path = format!("/pay/{id}");
    let page = &s.page;
    let (status, html) = match super::payer_view(&s, headers, &id).await {
        Ok((view, detail)) => {
            if let Some(db) = s.books() {
                // Best effort: a visit that cannot be counted is still shown.
                let _ = crate::store::views::record_view(db, &view.id).await;
            }
            let terms = crate::domain::payer::next_open_terms(&detail, view.next_open, l);
            let title = format!("{} · {}", paylink_text::PAYMENT.t(l), view.merchant_name);
            let html = render(l, &title, &path, &page.assets, q.chrome(), move || {
                leptos::view! { <paylink_payer::pay::PayPage l p=view terms /> }
            });
            (StatusCode::OK, html)
        }
        Err(e) => (e.status(), unavailable(q.chrome(), l, &path, page, &e)),
    };
    html_response(
        status,
        html,
        &page.frame_ancestors,
        q.lang.is_some().then_some(l),
    )
}

/// `GET /r/{code}`: whether a receipt is genuine, for whoever holds it. A code paylink issued
/// shows what the receipt says (the payer's document masked, as on it); anything else answers
/// the same 404 page, which does not repeat the code or say why.
pub(super) async fn receipt_page(
    State(s): State<Payer>,
    mut headers: HeaderMap,
    ApiPath(code): ApiPath<String>,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Response {
    let l = page_lang(&q, &headers);
    headers.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static(l.code()));
    let page = &s.page;
    let (status, html) = match super::receipt_by_code(&s, headers, &code).await {
        Ok(r) => {
            let path = format!("/r/{}", r.code);
            let title = paylink_model::receipt::Receipt::title(l);
            let html = render(l, title, &path, &page.assets, Chrome::Page, move || {
                leptos::view! { <paylink_payer::receipt::ReceiptCheck l r /> }
            });
            (StatusCode::OK, html)
        }
        Err(e) if e.status() == StatusCode::NOT_FOUND => {
            let title = paylink_text::NOT_FOUND_TITLE.t(l);
            let html = render(l, title, "/r/", &page.assets, Chrome::Page, move || {
                leptos::view! { <paylink_payer::receipt::ReceiptUnknown l /> }
            });
            (StatusCode::NOT_FOUND, html)
        }
        Err(e) => (e.status(), unavailable(Chrome::Page, l, "/r/", page, &e)),
    };
    html_response(
        status,
        html,
        &page.frame_ancestors,
        q.lang.is_some().then_some(l),
    )
}

/// Why there is no page, as a page; the error's cause is logged, never shown.
fn unavailable(chrome: Chrome, l: Lang, path: &str, page: &PageConfig, e: &AppError) -> String {
    let title = paylink_text::NOT_FOUND_TITLE.t(l);
    let message = e.envelope(l).message;
    render(l, title, path, &page.assets, chrome, move || {
        leptos::view! { <paylink_payer::pay::Unavailable title message /> }
    })
}

/// An HTML page about one person's charge: never kept by a shared cache,
/// its CSP allowing exactly its own inline script (by hash); `chosen`, a
/// language picked with `?lang=`, is remembered.
pub(super) fn html_response(
    status: StatusCode,
    html: String,
    frame_ancestors: &str,
    chosen: Option<Lang>,
) -> Response {
    let csp = crate::web::content_security_policy(&html, frame_ancestors);
    let mut res = (status, html).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    crate::web::page_headers(h);
    if let Ok(v) = HeaderValue::from_str(&csp) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    if let Some(l) = chosen {
        let cookie = format!(
            "{LANG_COOKIE}={}; Path=/; Max-Age=31536000; SameSite=Lax",
            l.code()
        );
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            h.insert(header::SET_COOKIE, v);
        }
    }
    res
}

/// `POST /pay/{id}/simulate` (sandbox only): the form of the page's
/// "simulate payment" button pays the next open installment, then the payer
/// is sent back to the page (303), which shows the result.
pub(super) async fn simulate_form(
    State(s): State<Payer>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Response {
    let done = match super::simulate(&s, &id).await {
        // Paid meanwhile (a second click): the page says how it stands.
        Err(e) if e.status() == StatusCode::CONFLICT => Ok(()),
        done => done,
    };
    back_to_page(&s, &headers, &id, done)
}

/// What a payer page's form answers: the page again (303), which shows the result, or the
/// page saying why it could not be done.
pub(super) fn back_to_page(
    s: &Payer,
    headers: &HeaderMap,
    id: &str,
    done: Result<(), AppError>,
) -> Response {
    if let Err(e) = done {
        let html = unavailable(
            Chrome::Page,
            lang_of(headers),
            &format!("/pay/{id}"),
            &s.page,
            &e,
        );
        return html_response(e.status(), html, &s.page.frame_ancestors, None);
    }
    let to = format!("/pay/{}", id.to_ascii_lowercase());
    (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response()
}

/// `POST /pay/{id}/pix-automatico`, the payer page's "authorize Pix Automático" form after a
/// declined or expired recurrence: a new one is asked for, and the page shown again (303).
pub(super) async fn pix_automatico_again(
    State(s): State<Payer>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Response {
    let done = super::ask_pix_automatico_again(&s, headers.clone(), &id).await;
    back_to_page(&s, &headers, &id, done)
}
