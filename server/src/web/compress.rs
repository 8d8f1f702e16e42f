//! The widget's files compressed once, not per request: `.br` and `.gz`
//! beside each asset (`precompress`), and the page's own encodings
//! (`compressed`), written so that no reader ever sees half a file.

use std::path::{Path, PathBuf};

pub(super) type Codec = fn(&[u8]) -> std::io::Result<Vec<u8>>;

/// `data` (the file at `path`) compressed: the `.ext` file beside it when it
/// holds exactly `data`, as `precompress` writes it just before the router
/// reads the page at start; else compressed here and written there (best
/// effort: `dist/` may be read-only), so `precompress` after a rebuild finds
/// the page done. At quality 11 compressing takes longer than checking.
pub(super) fn compressed(
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

pub(super) fn unbrotli(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    brotli::BrotliDecompress(&mut &data[..], &mut out)?;
    Ok(out)
}

pub(super) fn gunzip(data: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(data).read_to_end(&mut out)?;
    Ok(out)
}

pub(super) fn brotli_bytes(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &data[..], &mut out, &params)?;
    Ok(out)
}

pub(super) fn gzip_bytes(data: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(data)?;
    gz.finish()
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

#[cfg(test)]
mod tests {
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
