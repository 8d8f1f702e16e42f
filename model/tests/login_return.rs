//! Where a login sends the operator back to (`paylink_model::operator::return_path`):
//! the open redirects a security review found (`/login?next=/\evil.example/` and
//! its tab, line-break and double-encoded forms sent the operator to
//! http://evil.example/) and a proof by parsing: every path the rule accepts,
//! joined onto paylink's origin by the `url` crate (the WHATWG parser browsers
//! follow), stays a path of that origin (not `//host`, which a router that
//! normalises dot segments hands to `pushState` as another origin), however many
//! times a router decodes it.

use paylink_model::operator::return_path;
use proptest::prelude::*;

const ORIGIN: &str = "https://paylink.loja.example/";

/// The origin `next` leads to from a page of paylink, as a browser reads it;
/// `None` also when the path it resolves to starts with `//` (the URL parser
/// keeps such a path on the origin, but a router that normalises `/.//evil.example`
/// navigates to `//evil.example`, another host).
fn lands_on(next: &str) -> Option<url::Origin> {
    let base = url::Url::parse(ORIGIN).unwrap();
    base.join(next)
        .ok()
        .filter(|u| !u.path().starts_with("//"))
        .map(|u| u.origin())
}

fn home() -> url::Origin {
    url::Url::parse(ORIGIN).unwrap().origin()
}

/// `next` and each of its percent-decodings (a router may decode again).
fn decodings(next: &str) -> Vec<String> {
    let mut out = vec![next.to_string()];
    for _ in 0..4 {
        let last = out.last().unwrap().clone();
        let decoded = percent_encoding_decode(&last);
        if decoded == last {
            break;
        }
        out.push(decoded);
    }
    out
}

fn percent_encoding_decode(s: &str) -> String {
    url::form_urlencoded::parse(format!("x={}", s.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

/// The query values of issue 30, as typed after `?next=` and as the widget
/// reads them (decoded once).
const OPEN_REDIRECTS: [&str; 20] = [
    "/\\evil.example/",
    "/%09/evil.example/",
    "/%0A/evil.example/",
    "/%0D/evil.example/",
    "/%2509/evil.example/",
    "/%250A/evil.example/",
    "//evil.example",
    "https://evil.example",
    "/%5Cevil.example/",
    "/%2F/evil.example/",
    // Issue 38: dot segments, which the router resolves to `//evil.example`.
    "/.//evil.example",
    "/a/..//evil.example",
    "/%2e%2e//evil.example",
    "/%2E//evil.example",
    "/a/%2e%2e//evil.example",
    "/a/.%2e//evil.example",
    "/%252e%252e//evil.example",
    "/./%2F/evil.example",
    "/a/b/../..//evil.example",
    "/.%2F/evil.example",
];

#[test]
fn the_open_redirects_of_the_review_are_refused() {
    for query in OPEN_REDIRECTS {
        for next in decodings(query) {
            assert_eq!(return_path(&next), None, "{query:?} read as {next:?}");
        }
        // Each of them does leave paylink once a browser (or a router that
        // decodes) has read it: the rule is what stops it.
        assert!(
            decodings(query).iter().any(|n| lands_on(n) != Some(home())),
            "{query:?} never leaves the origin: not a redirect to test"
        );
    }
    for next in [
        "",
        "evil.example",
        "javascript:alert(1)",
        "/\t/evil.example",
        "/ /evil.example",
        "/\u{3000}/evil.example",
        "/login",
        "/login?next=/invoices",
        "/login/",
        "/a/../login",
        "/./login?next=/x",
        "/%",
        "/%zz",
    ] {
        assert_eq!(return_path(next), None, "{next:?}");
    }
}

#[test]
fn the_widgets_own_places_are_kept() {
    for next in [
        "/",
        "/invoices",
        "/invoices?status=open&q=maria%20silva",
        "/invoices/0190f5e2-7c1a-7cc3-9a65-1f2e3d4c5b6a",
        "/customers#top",
        "/painel",
        "/clientes/Jos%C3%A9",
        "/a/../b",
        "/loginhelp",
    ] {
        assert_eq!(return_path(next), Some(next), "{next:?}");
        assert_eq!(lands_on(next), Some(home()), "{next:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20000, ..ProptestConfig::default() })]

    /// Nothing the rule accepts leaves the origin, decoded any number of times.
    #[test]
    fn an_accepted_path_stays_on_paylinks_origin(
        next in "[/\\\\%0259AaFfCcEe\t\n :.@e?#]{1,14}"
    ) {
        if return_path(&next).is_some() {
            for reading in decodings(&next) {
                prop_assert_eq!(lands_on(&reading), Some(home()), "{:?} read as {:?}", next, reading);
            }
        }
    }
}
