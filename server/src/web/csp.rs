//! The Content-Security-Policy of the widget's pages, computed from the page
//! itself (the hashes of its inline scripts).

/// The Content-Security-Policy of the widget's pages: scripts only from this
/// origin plus the page's inline scripts (the placeholder's and the JS glue
/// that starts the widget, see embed/post-build.mjs), allowed by their
/// hashes, so no 'unsafe-inline'; wasm compilation allowed; framing only by
/// `frame_ancestors`.
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
        if !tag.contains(" src=") && !body.trim().is_empty() {
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

#[cfg(test)]
mod tests {
    #[test]
    fn allows_each_inline_script_of_the_page_by_its_hash_and_no_other() {
        use base64::Engine;
        use sha2::Digest;
        let hash = |body: &str| {
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(body.as_bytes()))
        };
        // index.html's shape: the placeholder's script in <head>, the glue's script at the end
        // of <body>.
        let (start, glue) = ("{window.paylinkFailed = 1;}", "//# hint\n(()=>{})();\n");
        let page = format!(
            "<head><script>{start}</script><script src=\"/x.js\"></script><script> </script></head>\
             <body><script>{glue}</script></body>"
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
}
