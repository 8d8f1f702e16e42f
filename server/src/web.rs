//! The built widget (`dist/`): hashed assets with a year of cache, the SPA's
//! pages (`/`, `/invoices/{id}`, `/pay/{id}`, `/l/{slug}`) answered with `index.html`,
//! responses compressed (brotli or gzip) as the browser accepts.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;

/// The Content-Security-Policy of the widget's pages: scripts only from this
/// origin plus the page's inline scripts (the placeholder's and the JS glue
/// that starts the widget, see embed/post-build.mjs), allowed by their
/// hashes, so no 'unsafe-inline'; wasm compilation allowed; framing only by
/// `frame_ancestors`. Data blocks (the inline wasm) are not scripts.
pub fn content_security_policy(index_html: &str, frame_ancestors: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    let mut hashes = String::new();
    let mut rest = index_html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(open_end) = after.find('>') else {
            break;
        };
        let Some(close) = after.find("</script>") else {
            break;
        };
        let tag = &after[..open_end];
        let body = &after[open_end + 1..close];
        if !tag.contains(" src=") && !body.trim().is_empty() && !is_data_block(tag) {
            let digest = sha2::Sha256::digest(body.as_bytes());
            hashes.push_str(&format!(
                " 'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            ));
        }
        rest = &after[close + "</script>".len()..];
    }
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors {frame_ancestors}"
    )
}

/// Whether a `<script …` opening tag is a data block (a `type` that is not
/// JavaScript, like the page's inline wasm): never run, so it needs no hash.
/// Import maps and speculation rules are not data blocks: CSP checks them.
fn is_data_block(tag: &str) -> bool {
    let Some(at) = tag.find(" type=") else {
        return false;
    };
    let value = tag[at + " type=".len()..].trim_start_matches(['"', '\'']);
    let value = value
        .split(['"', '\'', ' ', '>'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    !(value.is_empty()
        || value == "module"
        || value == "text/javascript"
        || value == "application/javascript"
        || value == "importmap"
        || value == "speculationrules")
}

/// The SPA's page (`index.html`) as last read, kept in memory in its three
/// encodings. A visit then costs no file read and no compression: brotli on
/// the fly took ~1 ms per visit and sent a larger page, right on the path to
/// the widget's first render (bench/first-render). The page's CSP (hashes of
/// its inline scripts) comes from the same read, so the two always agree.
struct Page {
    identity: Bytes,
    br: Bytes,
    gzip: Bytes,
    /// Weak: the three encodings are different bytes of the same page.
    etag: HeaderValue,
    csp: HeaderValue,
    /// The file's size and modification time when it was read.
    stamp: Stamp,
}

type Stamp = (u64, Option<std::time::SystemTime>);

fn stamp(m: &std::fs::Metadata) -> Stamp {
    (m.len(), m.modified().ok())
}

impl Page {
    fn load(dist: &Path, frame_ancestors: &str) -> std::io::Result<Page> {
        use sha2::Digest;
        let path = dist.join("index.html");
        // Stamped before the read: a write landing during the read changes
        // the stamp again, so the next visit reads the file once more.
        let stamp = stamp(&std::fs::metadata(&path)?);
        let html = std::fs::read(&path)?;
        let csp =
            content_security_policy(std::str::from_utf8(&html).unwrap_or(""), frame_ancestors);
        let digest = sha2::Sha256::digest(&html);
        let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        Ok(Page {
            br: Bytes::from(compressed(&path, "br", &html, brotli_bytes, unbrotli)?),
            gzip: Bytes::from(compressed(&path, "gz", &html, gzip_bytes, gunzip)?),
            etag: HeaderValue::from_str(&format!("W/\"{hex}\"")).map_err(std::io::Error::other)?,
            csp: HeaderValue::from_str(&csp).map_err(std::io::Error::other)?,
            stamp,
            identity: Bytes::from(html),
        })
    }

    fn respond(&self, req: &HeaderMap) -> Response {
        let etag = (header::ETAG, self.etag.clone());
        let vary = (header::VARY, HeaderValue::from_static("accept-encoding"));
        let revalidated = req
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|tag| {
                let tag = tag.trim();
                tag == "*" || tag.trim_start_matches("W/") == self.etag_opaque()
            });
        let csp = (header::CONTENT_SECURITY_POLICY, self.csp.clone());
        if revalidated {
            return (StatusCode::NOT_MODIFIED, [etag, vary, csp]).into_response();
        }
        let accept = req
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let (body, encoding) = if accepts_encoding(accept, "br") {
            (self.br.clone(), Some("br"))
        } else if accepts_encoding(accept, "gzip") {
            (self.gzip.clone(), Some("gzip"))
        } else {
            (self.identity.clone(), None)
        };
        let mut res = (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                ),
                etag,
                vary,
                csp,
            ],
            Body::from(body),
        )
            .into_response();
        if let Some(encoding) = encoding {
            res.headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        res
    }

    /// The tag without `W/`, as weak comparison (RFC 9110 8.8.3.2) wants it.
    fn etag_opaque(&self) -> &str {
        let tag = self.etag.to_str().unwrap_or_default();
        tag.trim_start_matches("W/")
    }
}

/// The page, read again when `dist/index.html` changes: a new build of the
/// widget deployed under a running server replaces its hashed assets, and a
/// page kept from before would load files that are gone.
struct Pages {
    dist: PathBuf,
    frame_ancestors: String,
    current: std::sync::RwLock<Arc<Page>>,
    /// One reload at a time: visits arriving during it wait and get its page.
    reloading: tokio::sync::Mutex<()>,
}

impl Pages {
    /// The page for a visit: one `stat` of the file (a local file's metadata,
    /// microseconds, so not worth a blocking-pool hop on the page's path); a
    /// changed file is read and compressed again off the async workers. A
    /// file missing or unreadable (a deploy half done) keeps the last page.
    async fn get(self: &Arc<Self>) -> Arc<Page> {
        let changed = |cur: &Page| {
            std::fs::metadata(self.dist.join("index.html")).is_ok_and(|m| stamp(&m) != cur.stamp)
        };
        let cur = self.last();
        if !changed(&cur) {
            return cur;
        }
        let _reloading = self.reloading.lock().await;
        let cur = self.last();
        if !changed(&cur) {
            return cur;
        }
        let pages = self.clone();
        match tokio::task::spawn_blocking(move || Page::load(&pages.dist, &pages.frame_ancestors))
            .await
        {
            Ok(Ok(page)) => {
                let page = Arc::new(page);
                *self.current.write().unwrap_or_else(|e| e.into_inner()) = page.clone();
                tracing::info!("dist/index.html changed: serving the new page");
                // The new build's assets are compressed on the fly until
                // their .br/.gz exist, as at start.
                let dist = self.dist.clone();
                tokio::task::spawn_blocking(move || match precompress(&dist) {
                    Ok(n) => tracing::info!(files = n, "precompressed the new build"),
                    Err(e) => tracing::warn!(error = %e, "cannot precompress the new build"),
                });
                page
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "dist/index.html changed but cannot be read: serving the page read before");
                cur
            }
            Err(e) => {
                tracing::warn!(error = %e, "reading dist/index.html failed");
                cur
            }
        }
    }

    fn last(&self) -> Arc<Page> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// Whether an `Accept-Encoding` value accepts `coding`: named (or `*`) with a
/// q-value above 0. A named coding's own entry wins over `*`.
fn accepts_encoding(accept: &str, coding: &str) -> bool {
    let mut star = None;
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case(coding) {
            return q > 0.0;
        }
        if name == "*" {
            star = Some(q > 0.0);
        }
    }
    star.unwrap_or(false)
}

type Codec = fn(&[u8]) -> std::io::Result<Vec<u8>>;

/// `data` (the file at `path`) compressed: the `.ext` file beside it when it
/// holds exactly `data`, as `precompress` writes it just before the router
/// reads the page at start; else compressed here and written there (best
/// effort: `dist/` may be read-only), so `precompress` after a rebuild finds
/// the page done. At quality 11 the ~170 KB page (the wasm is inline) takes
/// longer to compress than to check.
fn compressed(
    path: &Path,
    ext: &str,
    data: &[u8],
    compress: Codec,
    decompress: Codec,
) -> std::io::Result<Vec<u8>> {
    let beside = sibling(path, ext);
    if let Ok(done) = std::fs::read(&beside) {
        if decompress(&done).is_ok_and(|d| d == data) {
            return Ok(done);
        }
    }
    let bytes = compress(data)?;
    if let Err(e) = write_atomically(&beside, &bytes) {
        tracing::debug!(error = %e, path = %beside.display(), "cannot keep the compressed page");
    }
    Ok(bytes)
}

/// `path` with `.ext` appended (`index.html` -> `index.html.br`).
fn sibling(path: &Path, ext: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(ext);
    PathBuf::from(name)
}

/// Writes `bytes` to `path` through a temporary file renamed over it: the
/// server may be answering from `dist/` meanwhile (a build deployed under a
/// running `serve` is precompressed in the background), and `ServeDir` picks
/// a `.br`/`.gz` by its name, so it must never see one half written.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = sibling(path, &format!("{}-{n}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

fn unbrotli(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    brotli::BrotliDecompress(&mut &data[..], &mut out)?;
    Ok(out)
}

fn gunzip(data: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(data).read_to_end(&mut out)?;
    Ok(out)
}

fn brotli_bytes(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &data[..], &mut out, &params)?;
    Ok(out)
}

fn gzip_bytes(data: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(data)?;
    gz.finish()
}

pub fn router(dist: PathBuf, frame_ancestors: &str) -> Router {
    let pages = match Page::load(&dist, frame_ancestors) {
        Ok(page) => Some(Arc::new(Pages {
            dist: dist.clone(),
            frame_ancestors: frame_ancestors.to_string(),
            current: std::sync::RwLock::new(Arc::new(page)),
            reloading: tokio::sync::Mutex::new(()),
        })),
        Err(e) => {
            tracing::warn!(error = %e, dist = %dist.display(), "cannot read the widget's index.html: pages are not served");
            None
        }
    };
    // The assets' CSP: the current page's (a page response carries its own).
    let fallback_csp = HeaderValue::from_str(&content_security_policy("", frame_ancestors))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
    let csp_pages = pages.clone();
    let assets = ServeDir::new(&dist)
        .precompressed_br()
        .precompressed_gzip()
        .append_index_html_on_directories(false)
        // POST to an unknown path is a 404 envelope too, not an empty 405.
        .call_fallback_on_method_not_allowed(true)
        .not_found_service(axum::routing::any(crate::route_not_found));
    let mut routes = Router::new();
    if let Some(pages) = pages {
        let index = get(move |req: HeaderMap| async move { pages.get().await.respond(&req) });
        routes = routes
            .route("/", index.clone())
            .route("/invoices/{id}", index.clone())
            .route("/pay/{id}", index.clone())
            .route("/l/{slug}", index);
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
                h.insert(
                    header::REFERRER_POLICY,
                    HeaderValue::from_static("same-origin"),
                );
                h.insert(
                    header::X_CONTENT_TYPE_OPTIONS,
                    HeaderValue::from_static("nosniff"),
                );
                res
            }
        }))
        .layer(CompressionLayer::new())
}

/// Writes `.br` (quality 11) and `.gz` (level 9) beside every text or wasm
/// asset that lacks them, so browsers get the smallest file without the
/// server compressing on each request. Best effort: a read-only `dist/` is
/// still served, compressed on the fly.
pub fn precompress(dist: &std::path::Path) -> std::io::Result<usize> {
    let mut written = 0;
    for entry in std::fs::read_dir(dist)? {
        let path = entry?.path();
        let compressible = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("wasm" | "js" | "css" | "html" | "svg" | "json")
        );
        if !compressible || !path.is_file() {
            continue;
        }
        let data = std::fs::read(&path)?;
        let modified = std::fs::metadata(&path)?.modified()?;
        let fresh = |ext: &str| {
            std::fs::metadata(sibling(&path, ext))
                .and_then(|m| m.modified())
                .is_ok_and(|m| m >= modified)
        };
        if !fresh("br") {
            write_atomically(&sibling(&path, "br"), &brotli_bytes(&data)?)?;
            written += 1;
        }
        if !fresh("gz") {
            write_atomically(&sibling(&path, "gz"), &gzip_bytes(&data)?)?;
            written += 1;
        }
    }
    Ok(written)
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
    let stem = file.split('.').next().unwrap_or("");
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    stem.rsplit_once('-')
        .is_some_and(|(_, hash)| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn recognises_trunk_hashed_names() {
        assert!(super::is_hashed_asset(
            "/paylink-widget-1a2b3c4d5e6f7a8b_bg.wasm"
        ));
        assert!(super::is_hashed_asset("/main-0123456789abcdef.css"));
        assert!(!super::is_hashed_asset("/index.html"));
        assert!(!super::is_hashed_asset("/config.json"));
        assert!(!super::is_hashed_asset("/embed.js"));
        assert!(!super::is_hashed_asset("/mount.js"));
        assert!(super::is_public_asset("/embed.js"));
        assert!(super::is_public_asset("/config.json"));
        assert!(!super::is_public_asset("/index.html"));
    }

    #[test]
    fn allows_each_inline_script_of_the_page_by_its_hash_and_no_other() {
        use base64::Engine;
        use sha2::Digest;
        let hash = |body: &str| {
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(body.as_bytes()))
        };
        // index.html's shape: the placeholder's script in <head>; the inline wasm (a data
        // block, never run) and the glue's script at the end of <body>.
        let (start, glue) = ("{window.paylinkFailed = 1;}", "//# hint\n(()=>{})();\n");
        let page = format!(
            "<head><script>{start}</script><script src=\"/x.js\"></script><script> </script></head>\
             <body><script type=\"application/x-paylink-wasm\" id=\"w\">AGFzbQ==</script>\n\
             <script>{glue}</script></body>"
        );
        let csp = super::content_security_policy(&page, "'self'");
        let script_src = csp
            .split(';')
            .find(|d| d.trim().starts_with("script-src"))
            .unwrap();
        assert_eq!(
            script_src.trim(),
            format!(
                "script-src 'self' 'wasm-unsafe-eval' 'sha256-{}' 'sha256-{}'",
                hash(start),
                hash(glue)
            )
        );
    }

    #[test]
    fn a_script_with_a_type_other_than_javascript_is_a_data_block() {
        for (tag, data) in [
            ("<script", false),
            ("<script type=\"module\"", false),
            ("<script type=\"text/javascript\"", false),
            ("<script type='application/javascript' id=a", false),
            ("<script type=\"\"", false),
            (
                "<script id=\"paylink-wasm\" type=\"application/x-paylink-wasm\"",
                true,
            ),
            ("<script type=application/json", true),
            ("<script type=\"importmap\"", false),
            ("<script type=\"speculationrules\"", false),
        ] {
            assert_eq!(super::is_data_block(tag), data, "{tag}");
        }
    }

    #[test]
    fn the_page_reuses_a_compressed_file_only_when_it_holds_the_page() {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("index.html");
        let html = "<!doctype html><p>paylink</p>".repeat(50);
        std::fs::write(&page, &html).unwrap();
        let br = super::sibling(&page, "br");
        let unbrotli = |b: &[u8]| String::from_utf8(super::unbrotli(b).unwrap()).unwrap();
        let page_br = || {
            super::compressed(
                &page,
                "br",
                html.as_bytes(),
                super::brotli_bytes,
                super::unbrotli,
            )
        };

        // Written by precompress (here at another quality, so its bytes are told apart).
        let quick = |data: &[u8]| {
            let mut out = Vec::new();
            let params = brotli::enc::BrotliEncoderParams {
                quality: 1,
                ..Default::default()
            };
            brotli::BrotliCompress(&mut &data[..], &mut out, &params).map(|_| out)
        };
        std::fs::write(&br, quick(html.as_bytes()).unwrap()).unwrap();
        let got = page_br().unwrap();
        assert_eq!(
            got,
            std::fs::read(&br).unwrap(),
            "the file holding the page is used as it is"
        );

        // A file left from another page is not served: compressed again, and replaced.
        std::fs::write(&br, quick(b"<p>an older build</p>").unwrap()).unwrap();
        let got = page_br().unwrap();
        assert_eq!(unbrotli(&got), html);
        assert_eq!(
            unbrotli(&std::fs::read(&br).unwrap()),
            html,
            "the file now holds the page"
        );

        // Nothing half written or temporary is left beside the page.
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["index.html", "index.html.br"]);
    }
}
