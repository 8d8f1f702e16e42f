//! Operator accounts: the merchant's people who log in to the back office.
//! The login body and the rules of a new account (e-mail, name, password),
//! keyed by field path, so the login screen, `paylink operator add` and the
//! server refuse the same things with the same words; and where a login may
//! send the operator back to ([`return_path`]).

use serde::{Deserialize, Serialize};

use crate::{br, Lang, Msg, Violations};

/// A password shorter than this is refused: with the login throttled (a few
/// guesses per quarter hour) twelve characters are out of reach of guessing,
/// and a passphrase of a few words fits.
pub const MIN_PASSWORD_CHARS: usize = 12;
/// argon2 takes any length; the cap keeps one login from hashing megabytes.
pub const MAX_PASSWORD_CHARS: usize = 256;
pub const MAX_NAME_CHARS: usize = 100;

/// `POST /api/session`: the login form's fields.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoginRequest {
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub password: Option<String>,
}

/// `GET /api/session`: who is logged in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionInfo {
    pub id: String,
    pub email: String,
    pub name: String,
}

/// An e-mail as accounts are keyed: trimmed and lower-case, so
/// `Ana@Loja.example` logs in as `ana@loja.example`.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_ascii_lowercase()
}

impl LoginRequest {
    /// The e-mail (normalized) and password, or what is missing. Only
    /// presence and size: a wrong-looking e-mail is a wrong login like any
    /// other, so it says nothing about which accounts exist.
    pub fn check(&self) -> Result<(String, String), Violations> {
        let mut v = Violations::default();
        let email = self
            .email
            .as_deref()
            .map(normalize_email)
            .filter(|e| !e.is_empty());
        if email.is_none() {
            v.add("email", Msg::Required);
        }
        match self.password.as_deref() {
            None | Some("") => v.add("password", Msg::Required),
            Some(p) if p.chars().count() > MAX_PASSWORD_CHARS => {
                v.add("password", Msg::MaxChars(MAX_PASSWORD_CHARS));
            }
            Some(_) => {}
        }
        match (email, &self.password) {
            (Some(e), Some(p)) if v.is_empty() => Ok((e, p.clone())),
            _ => Err(v),
        }
    }

    pub fn validate(&self, lang: Lang) -> crate::Errors {
        self.check()
            .err()
            .map(|v| v.render(lang))
            .unwrap_or_default()
    }
}

/// The rules of a new operator account: a valid e-mail, a name, a password
/// of at least [`MIN_PASSWORD_CHARS`]. Returns the normalized e-mail and the
/// trimmed name.
pub fn check_new_operator(
    email: &str,
    name: &str,
    password: &str,
) -> Result<(String, String), Violations> {
    let mut v = Violations::default();
    let email = normalize_email(email);
    if email.is_empty() {
        v.add("email", Msg::Required);
    } else if !br::email_is_valid(&email) {
        v.add("email", Msg::Email);
    }
    let name = name.trim().to_string();
    if name.is_empty() {
        v.add("name", Msg::Required);
    } else if name.chars().count() > MAX_NAME_CHARS {
        v.add("name", Msg::MaxChars(MAX_NAME_CHARS));
    }
    check_password(&mut v, password);
    if v.is_empty() {
        Ok((email, name))
    } else {
        Err(v)
    }
}

fn check_password(v: &mut Violations, password: &str) {
    let n = password.chars().count();
    if n < MIN_PASSWORD_CHARS {
        v.add("password", Msg::MinChars(MIN_PASSWORD_CHARS));
    } else if n > MAX_PASSWORD_CHARS {
        v.add("password", Msg::MaxChars(MAX_PASSWORD_CHARS));
    } else if password.trim().is_empty() {
        v.add("password", Msg::Required);
    }
}

/// Where a login may send the operator back to (`/login?next=…`, already
/// decoded once from the query): a path of paylink's own origin, or `None`
/// (the caller goes to its default page).
///
/// An allow-list, not a parse: a path starting with one `/` whose characters
/// are those of a URL's path, query and fragment (RFC 3986's unreserved,
/// sub-delims, `:@/?#`, and `%` with two hex digits), and which stays such a
/// path however many times a router percent-decodes it: no `//` or `/\` at
/// its start (another host: `//evil.example`), no backslash (a URL parser
/// reads it as `/`), no control character (the parser drops tabs and line
/// breaks, so `/\t/evil.example` is `//evil.example`), raw or encoded
/// (`%09`, and `%2509` decoded twice). Each reading is also resolved as a
/// URL parser and the router resolve it, dot segments (`.`, `..`, `%2e`)
/// removed, and must still be such a path: `/.//evil.example` and
/// `/a/..//evil.example` resolve to `//evil.example`, another host once the
/// router hands it to `pushState`. `/login` itself is refused (a loop), in
/// any spelling that resolves to it. The model's tests check every accepted
/// path against the `url` crate's join onto paylink's origin (the widget
/// does not ship `url`: ~230 KB of wasm).
pub fn return_path(next: &str) -> Option<&str> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/?#%".contains(c);
    if next.len() > 2048 || !next.chars().all(allowed) {
        return None;
    }
    let off_site = |text: &str| {
        let b = text.as_bytes();
        b.first() != Some(&b'/') || matches!(b.get(1), Some(b'/' | b'\\'))
    };
    let mut text = next.to_string();
    // Each round decodes one level; a path deeper than a few levels is no
    // place the widget sent anyone.
    for _ in 0..4 {
        if off_site(&text) || text.chars().any(|c| c.is_control() || c == '\\') {
            return None;
        }
        let route = resolved_path(text.split(['?', '#']).next().unwrap_or(""));
        if off_site(&route) || route == "/login" || route.starts_with("/login/") {
            return None;
        }
        match percent_decode(&text)? {
            decoded if decoded == text => return Some(next),
            decoded => text = decoded,
        }
    }
    None
}

/// `path` (starting with `/`) with its dot segments removed as the WHATWG URL
/// parser removes them: `.` and `%2e` (any case) are the segment itself,
/// `..` and its encoded spellings the one before; a dot segment at the end
/// leaves the path ending in `/`.
fn resolved_path(path: &str) -> String {
    let segments: Vec<&str> = path.get(1..).unwrap_or("").split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut out: Vec<&str> = Vec::with_capacity(segments.len());
    for (i, segment) in segments.iter().enumerate() {
        let lower = segment.to_ascii_lowercase();
        let single = matches!(lower.as_str(), "." | "%2e");
        let double = matches!(lower.as_str(), ".." | ".%2e" | "%2e." | "%2e%2e");
        if double {
            out.pop();
        }
        if single || double {
            if i == last {
                out.push("");
            }
        } else {
            out.push(segment);
        }
    }
    format!("/{}", out.join("/"))
}

/// One level of percent-decoding; `None` for a `%` without two hex digits
/// after it, or bytes that are not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_resolve_as_a_url_parser_resolves_them() {
        for (path, resolved) in [
            ("/", "/"),
            ("/a/b", "/a/b"),
            ("/.//evil.example", "//evil.example"),
            ("/a/..//evil.example", "//evil.example"),
            ("/%2e%2E//evil.example", "//evil.example"),
            ("/a/.%2e/b", "/b"),
            ("/a/b/..", "/a/"),
            ("/a/.", "/a/"),
            ("/../../a", "/a"),
            ("/a..b/.c", "/a..b/.c"),
        ] {
            assert_eq!(resolved_path(path), resolved, "{path}");
        }
    }

    #[test]
    fn a_new_account_needs_an_email_a_name_and_a_long_password() {
        assert_eq!(
            check_new_operator(" Ana@Loja.Example ", " Ana ", "correct horse battery"),
            Ok(("ana@loja.example".into(), "Ana".into()))
        );
        let v = check_new_operator("ana", "", "short").unwrap_err();
        assert_eq!(
            v.0,
            vec![
                ("email".into(), Msg::Email),
                ("name".into(), Msg::Required),
                ("password".into(), Msg::MinChars(MIN_PASSWORD_CHARS)),
            ]
        );
        let v = check_new_operator("a@b.example", "A", &" ".repeat(12)).unwrap_err();
        assert!(v.has("password"));
    }

    #[test]
    fn a_login_needs_both_fields() {
        let req = LoginRequest {
            email: Some(" X@Y.example".into()),
            password: Some("pw".into()),
        };
        assert_eq!(req.check(), Ok(("x@y.example".into(), "pw".into())));
        let v = LoginRequest::default().check().unwrap_err();
        assert!(v.has("email") && v.has("password"));
    }
}
