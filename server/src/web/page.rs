//! The SPA's page (`index.html`; the payer page is rendered by the server,
//! `pay::pages`): kept in memory in its three encodings with its CSP and
//! ETag, answered with 304 when the browser has it, and read again when a new
//! build replaces it under a running server.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::compress::{brotli_bytes, compressed, gunzip, gzip_bytes, precompress, unbrotli};
use super::csp::content_security_policy;

/// The SPA's page (`index.html`) as last read, kept in memory in its three
/// encodings. A visit then costs no file read and no compression: brotli on
/// the fly took ~1 ms per visit and sent a larger page, right on the path to
/// the widget's first render (bench/first-render). The page's CSP (hashes of
/// its inline scripts) comes from the same read, so the two always agree.
pub(super) struct Page {
    identity: Bytes,
    br: Bytes,
    gzip: Bytes,
    /// Weak: the three encodings are different bytes of the same page.
    etag: HeaderValue,
    pub(super) csp: HeaderValue,
    /// The file's size and modification time when it was read.
    stamp: Stamp,
}

type Stamp = (u64, Option<std::time::SystemTime>);

fn stamp(m: &std::fs::Metadata) -> Stamp {
    (m.len(), m.modified().ok())
}

impl Page {
    pub(super) fn load(dist: &Path, file: &str, frame_ancestors: &str) -> std::io::Result<Page> {
        use sha2::Digest;
        let path = dist.join(file);
        // Stamped before the read: a write landing during the read changes
        // the stamp again, so the next visit reads the file once more.
        let stamp = stamp(&std::fs::metadata(&path)?);
        let html = std::fs::read(&path)?;
        let csp =
            content_security_policy(std::str::from_utf8(&html).unwrap_or(""), frame_ancestors);
        let digest = sha2::Sha256::digest(&html);
        let hex = hex::encode(&digest[..12]);
        Ok(Page {
            br: Bytes::from(compressed(&path, "br", &html, brotli_bytes, unbrotli)?),
            gzip: Bytes::from(compressed(&path, "gz", &html, gzip_bytes, gunzip)?),
            etag: HeaderValue::from_str(&format!("W/\"{hex}\"")).map_err(std::io::Error::other)?,
            csp: HeaderValue::from_str(&csp).map_err(std::io::Error::other)?,
            stamp,
            identity: Bytes::from(html),
        })
    }

    pub(super) fn respond(&self, req: &HeaderMap) -> Response {
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

/// A page, read again when its file in `dist/` changes: a new build of the
/// widget deployed under a running server replaces its hashed assets, and a
/// page kept from before would load files that are gone.
pub(super) struct Pages {
    dist: PathBuf,
    /// `index.html`.
    file: &'static str,
    frame_ancestors: String,
    current: std::sync::RwLock<Arc<Page>>,
    /// One reload at a time: visits arriving during it wait and get its page.
    reloading: tokio::sync::Mutex<()>,
}

impl Pages {
    pub(super) fn load(
        dist: &Path,
        file: &'static str,
        frame_ancestors: &str,
    ) -> std::io::Result<Arc<Pages>> {
        let page = Page::load(dist, file, frame_ancestors)?;
        Ok(Arc::new(Pages {
            dist: dist.to_path_buf(),
            file,
            frame_ancestors: frame_ancestors.to_string(),
            current: std::sync::RwLock::new(Arc::new(page)),
            reloading: tokio::sync::Mutex::new(()),
        }))
    }

    /// The page for a visit: one `stat` of the file (a local file's metadata,
    /// microseconds, so not worth a blocking-pool hop on the page's path); a
    /// changed file is read and compressed again off the async workers. A
    /// file missing or unreadable (a deploy half done) keeps the last page.
    pub(super) async fn get(self: &Arc<Self>) -> Arc<Page> {
        let changed = |cur: &Page| {
            std::fs::metadata(self.dist.join(self.file)).is_ok_and(|m| stamp(&m) != cur.stamp)
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
        match tokio::task::spawn_blocking(move || {
            Page::load(&pages.dist, pages.file, &pages.frame_ancestors)
        })
        .await
        {
            Ok(Ok(page)) => {
                let page = Arc::new(page);
                *self.current.write().unwrap_or_else(|e| e.into_inner()) = page.clone();
                tracing::info!(page = self.file, "the page changed: serving the new one");
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
                tracing::warn!(error = %e, page = self.file, "the page changed but cannot be read: serving the one read before");
                cur
            }
            Err(e) => {
                tracing::warn!(error = %e, page = self.file, "reading the page failed");
                cur
            }
        }
    }

    pub(super) fn last(&self) -> Arc<Page> {
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
