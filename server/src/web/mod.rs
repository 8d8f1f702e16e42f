//! The built widget (`dist/`): hashed assets with a year of cache, the SPA's
//! pages (`/`, `/invoices`, `/customers`, `/invoices/{id}`, `/l/{slug}`)
//! answered with `index.html` (`page`), the payer pages' islands bundle
//! found for the server-rendered pages (`payer_assets`), responses
//! compressed (brotli or gzip) as the browser accepts (`compress`), every
//! answer with the page's CSP (`csp`). A browser sent to an address no page
//! answers gets the widget's "not found" screen as a 404; programs get the
//! JSON envelope.

mod compress;
mod csp;
mod page;

use std::path::PathBuf;

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;

pub use compress::precompress;
pub use csp::content_security_policy;
use page::Pages;

/// What the server-rendered payer pages load: the shared stylesheet, and the
/// islands' bundle under `dist/payer/` when `build_widget` made one
/// (`paylink-payer-<hash>.js` beside its `_bg.wasm`). Without it the pages
/// still show everything and work without JavaScript.
pub fn payer_assets(dist: Option<&std::path::Path>, dir: &str) -> paylink_payer::shell::Assets {
    let css = paylink_payer::STYLE.to_string();
    let name = dist
        .and_then(|d| std::fs::read_dir(d.join(dir)).ok())
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .find_map(|f| {
            let stem = f.strip_suffix(".js")?;
            stem.starts_with("paylink-payer-").then(|| stem.to_string())
        });
    match name {
        Some(name) => paylink_payer::shell::Assets::islands_named(css, &name, dir),
        None => {
            tracing::info!(
                dir,
                "no islands bundle in dist: payer pages are served without it"
            );
            paylink_payer::shell::Assets { css, islands: None }
        }
    }
}

/// What every page and file of paylink's is sent with besides its CSP: no
/// `Referer` to other sites (a payer page's URL is a capability), and no
/// content sniffing.
pub fn page_headers(h: &mut HeaderMap) {
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
}

/// A browser's navigation (a `GET` that prefers HTML), not a script's or a
/// program's request, which get the JSON envelope.
fn is_navigation(req: &Request) -> bool {
    req.method() == axum::http::Method::GET
        && req
            .headers()
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.starts_with("text/html"))
}

pub fn router(dist: PathBuf, frame_ancestors: &str) -> Router {
    let pages = match Pages::load(&dist, "index.html", frame_ancestors) {
        Ok(pages) => Some(pages),
        Err(e) => {
            tracing::warn!(error = %e, dist = %dist.display(), "cannot read the widget's index.html: pages are not served");
            None
        }
    };
    // The assets' CSP: the current page's (a page response carries its own).
    let fallback_csp = HeaderValue::from_str(&content_security_policy("", frame_ancestors))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
    let csp_pages = pages.clone();
    let missing_pages = pages.clone();
    let assets = ServeDir::new(&dist)
        .precompressed_br()
        .precompressed_gzip()
        .append_index_html_on_directories(false)
        // POST to an unknown path is a 404 envelope too, not an empty 405.
        .call_fallback_on_method_not_allowed(true)
        .not_found_service(axum::routing::any(move |req: Request| {
            let pages = missing_pages.clone();
            async move {
                match pages {
                    Some(pages) if is_navigation(&req) => {
                        // A browser following a mistyped or outdated address gets the
                        // widget's "page not found" screen (with its way home), as a
                        // 404, not a JSON envelope a person cannot read.
                        let mut res = pages.get().await.respond(req.headers());
                        if res.status() == StatusCode::OK {
                            *res.status_mut() = StatusCode::NOT_FOUND;
                        }
                        res
                    }
                    _ => crate::http::route_not_found().await,
                }
            }
        }));
    let mut routes = Router::new();
    if let Some(pages) = pages {
        let index = get(move |req: HeaderMap| async move { pages.get().await.respond(&req) });
        routes = routes
            .route("/", index.clone())
            .route("/painel", index.clone())
            .route("/login", index.clone())
            // The lists keep their filters in the query, which routing ignores.
            .route("/invoices", index.clone())
            .route("/customers", index.clone())
            .route("/webhooks", index.clone())
            .route("/links", index.clone())
            .route("/invoices/{id}", index);
    }
    routes
        .fallback_service(assets)
        .layer(middleware::from_fn(cache_headers))
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            let csp = csp_pages
                .as_ref()
                .map_or_else(|| fallback_csp.clone(), |p| p.last().csp.clone());
            async move {
                let mut res = next.run(req).await;
                let h = res.headers_mut();
                h.entry(header::CONTENT_SECURITY_POLICY).or_insert(csp);
                page_headers(h);
                res
            }
        }))
        .layer(CompressionLayer::new())
}

/// trunk names assets `name-<16 hex>.ext`: those never change, so browsers
/// may keep them for a year; pages and unhashed files (`/embed.js`,
/// `/mount.js`) must be revalidated to pick up new versions. The widget's
/// code and `/config.json` are public and readable from any origin, so a
/// merchant's page can import the module to mount the widget in place.
async fn cache_headers(req: Request, next: Next) -> Response {
    let hashed = is_hashed_asset(req.uri().path());
    let public = is_public_asset(req.uri().path());
    let mut res = next.run(req).await;
    if public {
        res.headers_mut().insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    }
    // A 304 carries the headers its 200 would have (RFC 9110 15.4.5).
    if res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED {
        let value = if hashed {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    res
}

pub fn is_public_asset(path: &str) -> bool {
    path == "/config.json"
        || [".js", ".wasm", ".css"]
            .iter()
            .any(|ext| path.ends_with(ext))
}

pub fn is_hashed_asset(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or("");
    // A file (a page's address, `/invoices/{uuid}`, has no extension).
    let Some((stem, _)) = file.split_once('.') else {
        return false;
    };
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    stem.rsplit_once('-')
        // trunk writes its 64-bit hash in hex without leading zeros: up to 16 digits.
        .is_some_and(|(_, hash)| {
            (12..=16).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_hexdigit())
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn recognises_trunk_hashed_names() {
        assert!(super::is_hashed_asset(
            "/paylink-widget-1a2b3c4d5e6f7a8b_bg.wasm"
        ));
        assert!(super::is_hashed_asset("/main-0123456789abcdef.css"));
        // trunk drops the hash's leading zeros.
        assert!(super::is_hashed_asset(
            "/payer/paylink-payer-e750534784b3bc_bg.wasm"
        ));
        assert!(!super::is_hashed_asset("/index.html"));
        assert!(!super::is_hashed_asset(
            "/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11"
        ));
        assert!(!super::is_hashed_asset("/config.json"));
        assert!(!super::is_hashed_asset("/embed.js"));
        assert!(!super::is_hashed_asset("/mount.js"));
        assert!(super::is_public_asset("/embed.js"));
        assert!(super::is_public_asset("/config.json"));
        assert!(!super::is_public_asset("/index.html"));
    }
}
