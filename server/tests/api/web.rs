//! The built widget as paylink serves it: MIME types, compression, caching and
//! the SPA's routes.

use std::sync::Arc;

use paylink_server::{app, http::auth, store::Db, Options, Service};
use reqwest::StatusCode;

/// Like trunk's output: an inline module script that loads the bundle.
const INDEX: &str = "<!doctype html><title>paylink</title><script type=\"module\">\nimport init from '/paylink-widget-0123456789abcdef.js';\nawait init();\n</script>";

async fn spawn_with_dist() -> (String, tempfile::TempDir) {
    spawn_dist(true).await
}

async fn spawn_dist(precompressed: bool) -> (String, tempfile::TempDir) {
    spawn_dist_with(precompressed, &[]).await
}

/// `spawn_dist` with `files` (name, contents) added to dist/.
async fn spawn_dist_with(
    precompressed: bool,
    files: &[(&str, &str)],
) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    std::fs::create_dir(&dist).unwrap();
    std::fs::write(dist.join("index.html"), INDEX).unwrap();
    for (name, contents) in files {
        std::fs::write(dist.join(name), contents).unwrap();
    }
    // A wasm module large and repetitive enough to be worth compressing.
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.extend(std::iter::repeat_n(b"paylink ".as_slice(), 4000).flatten());
    std::fs::write(dist.join("paylink-widget-0123456789abcdef_bg.wasm"), &wasm).unwrap();
    std::fs::write(
        dist.join("paylink-widget-0123456789abcdef.js"),
        "export default function(){}\n".repeat(100),
    )
    .unwrap();
    if precompressed {
        assert_eq!(
            paylink_server::web::precompress(&dist).unwrap(),
            6,
            "index, wasm and js, each .br and .gz"
        );
        assert_eq!(
            paylink_server::web::precompress(&dist).unwrap(),
            0,
            "up-to-date files are kept"
        );
    }
    let db = Db::open(&crate::helpers::test_database(dir.path(), "p.db").await)
        .await
        .unwrap();
    auth::create_token(&db, "t").await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = format!("http://{}", listener.local_addr().unwrap());
    let state = Service {
        db,
        public_url: Arc::from(addr.as_str()),
        outbound: Default::default(),
        merchant: Default::default(),
    };
    let options = Options {
        dist: Some(dist),
        ..Default::default()
    };
    tokio::spawn(async move { axum::serve(listener, app(state, options)).await.unwrap() });
    (addr, dir)
}

/// A client without automatic decompression: the tests see what the server sent.
fn raw_client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_brotli()
        .no_gzip()
        .build()
        .unwrap()
}

#[tokio::test]
async fn serves_wasm_compressed_with_its_mime_type_and_a_long_cache() {
    let (addr, _dir) = spawn_with_dist().await;
    let client = raw_client();
    let res = client
        .get(format!("{addr}/paylink-widget-0123456789abcdef_bg.wasm"))
        .header("Accept-Encoding", "br, gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/wasm");
    assert_eq!(res.headers()["content-encoding"], "br");
    assert_eq!(
        res.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let compressed = res.bytes().await.unwrap();
    assert!(
        compressed.len() < 32_008 / 4,
        "brotli should shrink it: {}",
        compressed.len()
    );

    let res = client
        .get(format!("{addr}/paylink-widget-0123456789abcdef.js"))
        .header("Accept-Encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-encoding"], "gzip");
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("javascript"));
}

#[tokio::test]
async fn compresses_on_the_fly_when_nothing_was_precompressed() {
    let (addr, _dir) = spawn_dist(false).await;
    let client = raw_client();
    let res = client
        .get(format!("{addr}/paylink-widget-0123456789abcdef_bg.wasm"))
        .header("Accept-Encoding", "br")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-encoding"], "br");
    assert_eq!(res.headers()["content-type"], "application/wasm");
}

#[tokio::test]
async fn spa_routes_answer_with_the_page_and_unknown_files_with_an_envelope() {
    let (addr, _dir) = spawn_with_dist().await;
    for path in [
        "/",
        "/painel",
        "/login",
        "/login?next=%2Finvoices%3Fstatus%3Dopen",
        "/invoices",
        "/invoices?status=overdue&dueFrom=2026-01-01&q=maria&limit=20",
        "/customers",
        "/customers?q=ana&cursor=2026-11-25T12:00:00.000Z~6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11",
        "/links",
        "/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11",
        "/webhooks",
        "/webhooks?invoiceId=6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11&status=failed",
    ] {
        let res = reqwest::get(format!("{addr}{path}")).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        assert_eq!(
            res.headers()["cache-control"],
            "no-cache",
            "{path}: pages must pick up new asset hashes"
        );
        assert!(res.text().await.unwrap().contains("<title>paylink</title>"));
    }
    let res = reqwest::get(format!("{addr}/nothing-here.js"))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let v: serde_json::Value = res.json().await.unwrap();
    assert_eq!(v["code"], 404);
    // A browser sent to an address no page answers: the widget's "not found" screen, a 404.
    let res = reqwest::Client::new()
        .get(format!("{addr}/dashboard"))
        .header("accept", "text/html,application/xhtml+xml,*/*;q=0.8")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(res.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("script-src"));
    assert!(res.text().await.unwrap().contains("<title>paylink</title>"));
    let res = reqwest::Client::new()
        .post(format!("{addr}/nothing"))
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(res.json::<serde_json::Value>().await.unwrap()["code"], 404);
    // The API is still the API.
    assert_eq!(
        reqwest::get(format!("{addr}/healthz"))
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
}

/// The page is kept in memory and sent precompressed: brotli or gzip as
/// the browser accepts, plain otherwise, and a revalidation with its ETag is
/// a 304 without a body.
#[tokio::test]
async fn pages_are_sent_precompressed_and_revalidated_by_etag() {
    use std::io::Read;
    let (addr, _dir) = spawn_with_dist().await;
    let client = raw_client();
    let get = |path: &'static str, headers: Vec<(&'static str, String)>| {
        let mut req = client.get(format!("{addr}{path}"));
        for (k, v) in headers {
            req = req.header(k, v);
        }
        req.send()
    };
    let cases = [
        ("gzip, deflate, br, zstd", Some("br")),
        ("gzip;q=1.0, br;q=0", Some("gzip")),
        ("*", Some("br")),
        ("br;q=0, *;q=0.5", Some("gzip")),
        ("identity", None),
        ("", None),
    ];
    let mut etags = Vec::new();
    for (accept, encoding) in cases {
        let res = get(
            "/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11",
            vec![("Accept-Encoding", accept.into())],
        )
        .await
        .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{accept}");
        let h = res.headers().clone();
        assert_eq!(h["content-type"], "text/html; charset=utf-8", "{accept}");
        assert_eq!(h["vary"], "accept-encoding", "{accept}");
        assert_eq!(h["cache-control"], "no-cache", "{accept}");
        assert_eq!(
            h.get("content-encoding").map(|v| v.to_str().unwrap()),
            encoding,
            "{accept}"
        );
        etags.push(h["etag"].to_str().unwrap().to_string());
        let body = res.bytes().await.unwrap();
        let mut html = String::new();
        match encoding {
            Some("br") => {
                brotli::Decompressor::new(&body[..], 4096)
                    .read_to_string(&mut html)
                    .unwrap();
            }
            Some("gzip") => {
                flate2::read::GzDecoder::new(&body[..])
                    .read_to_string(&mut html)
                    .unwrap();
            }
            _ => html = String::from_utf8(body.to_vec()).unwrap(),
        }
        assert_eq!(html, INDEX, "{accept}");
        assert_eq!(
            h["content-length"].to_str().unwrap(),
            body.len().to_string(),
            "{accept}"
        );
    }
    assert!(
        etags.iter().all(|e| e == &etags[0]),
        "one page, one tag: {etags:?}"
    );
    assert!(etags[0].starts_with("W/\""), "{}", etags[0]);

    // Revalidation: the tag (weak or strong spelling, alone or in a list) is a 304.
    let strong = etags[0].trim_start_matches("W/").to_string();
    for tag in [
        etags[0].clone(),
        strong.clone(),
        format!("\"other\", {strong}"),
    ] {
        let res = get("/", vec![("If-None-Match", tag.clone())])
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_MODIFIED, "{tag}");
        assert_eq!(res.headers()["etag"].to_str().unwrap(), etags[0]);
        assert_eq!(res.headers()["cache-control"], "no-cache", "{tag}");
        assert!(res.bytes().await.unwrap().is_empty());
    }
    // Another page version's tag gets the page.
    let res = get("/", vec![("If-None-Match", "W/\"0000\"".into())])
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

/// A new build deployed under a running server (its `index.html` names new
/// hashed assets, the old ones are gone) is served at the next visit, with a
/// new ETag and the CSP of its own inline scripts; while the file is missing
/// (a deploy half done) the last page read stays.
#[tokio::test]
async fn a_rebuilt_page_is_served_with_its_own_csp() {
    use base64::Engine;
    use sha2::Digest;
    let (addr, dir) = spawn_with_dist().await;
    let index = dir.path().join("dist/index.html");
    let first = reqwest::get(format!("{addr}/")).await.unwrap();
    let old_etag = first.headers()["etag"].clone();
    assert_eq!(first.text().await.unwrap(), INDEX);

    let script = "window.paylinkBuild = 2;";
    let rebuilt = format!("<!doctype html><title>paylink 2</title><script>{script}</script>");
    std::fs::write(&index, &rebuilt).unwrap();
    let hash =
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script.as_bytes()));
    for path in ["/", "/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11"] {
        let res = reqwest::get(format!("{addr}{path}")).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_ne!(res.headers()["etag"], old_etag, "{path}");
        let csp = res.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(csp.contains(&format!("'sha256-{hash}'")), "{path}: {csp}");
        assert!(!csp.contains("import init"), "{path}: {csp}");
        assert_eq!(res.text().await.unwrap(), rebuilt, "{path}");
    }
    // The old page's tag no longer revalidates: the browser gets the new page.
    let res = raw_client()
        .get(format!("{addr}/"))
        .header("If-None-Match", old_etag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);

    // The new build's assets are precompressed in the background, as at start.
    let fresh = dir
        .path()
        .join("dist/paylink-widget-fedcba9876543210_bg.wasm");
    std::fs::write(&fresh, b"\0asm\x01\0\0\0 fresh build".repeat(200)).unwrap();
    let rebuilt_again = rebuilt.replace("paylink 2", "paylink 3");
    std::fs::write(&index, &rebuilt_again).unwrap();
    assert_eq!(
        reqwest::get(format!("{addr}/")).await.unwrap().status(),
        StatusCode::OK
    );
    let br = dir
        .path()
        .join("dist/paylink-widget-fedcba9876543210_bg.wasm.br");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !br.exists() {
        assert!(std::time::Instant::now() < deadline, "no {}", br.display());
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    std::fs::remove_file(&index).unwrap();
    let res = reqwest::get(format!("{addr}/")).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.unwrap(), rebuilt_again);
}

#[tokio::test]
async fn pages_carry_a_csp_that_allows_only_our_scripts() {
    use base64::Engine;
    use sha2::Digest;
    let (addr, _dir) = spawn_with_dist().await;
    let res = reqwest::get(format!("{addr}/customers")).await.unwrap();
    let csp = res.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    let inline = "\nimport init from '/paylink-widget-0123456789abcdef.js';\nawait init();\n";
    let hash =
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(inline.as_bytes()));
    assert!(
        csp.contains(&format!(
            "script-src 'self' 'wasm-unsafe-eval' 'sha256-{hash}';"
        )),
        "{csp}"
    );
    let script_src = csp
        .split(';')
        .find(|d| d.trim().starts_with("script-src"))
        .unwrap();
    assert!(
        !script_src.contains("unsafe-inline"),
        "inline scripts are allowed only by hash: {csp}"
    );
    assert!(csp.ends_with("frame-ancestors 'self'"), "{csp}");
    assert_eq!(res.headers()["referrer-policy"], "same-origin");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
}

/// The widget's code is public (a merchant page may import it cross-origin);
/// `embed.js` and `mount.js` keep their names across releases, so they are
/// revalidated, never cached as immutable.
#[tokio::test]
async fn widget_code_is_readable_from_any_origin_and_unhashed_scripts_are_revalidated() {
    let (addr, dir) = spawn_with_dist().await;
    let dist = dir.path().join("dist");
    std::fs::write(dist.join("embed.js"), "// embed\n").unwrap();
    std::fs::write(dist.join("mount.js"), "// mount\n").unwrap();
    std::fs::write(dist.join("config.json"), "{}").unwrap();
    let client = reqwest::Client::new();
    for path in ["/embed.js", "/mount.js", "/config.json"] {
        let res = client
            .get(format!("{addr}{path}"))
            .header("Origin", "https://loja.example")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(res.headers()["access-control-allow-origin"], "*", "{path}");
        assert_eq!(res.headers()["cache-control"], "no-cache", "{path}");
    }
    let res = client
        .get(format!("{addr}/paylink-widget-0123456789abcdef_bg.wasm"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["access-control-allow-origin"], "*");
    // Pages are not widget code: no CORS on them.
    let res = client
        .get(format!("{addr}/customers"))
        .send()
        .await
        .unwrap();
    assert!(res.headers().get("access-control-allow-origin").is_none());
}
