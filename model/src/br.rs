//! Brazilian identifiers and contact data: CPF, CNPJ (numeric and the
//! alphanumeric form issued since July 2026), CEP, UF, phone; plus e-mail,
//! URL and UUID syntax. Checks, normalisation and the masks the widget types with.

use crate::errors::Msg;

pub const UFS: [&str; 27] = [
    "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR",
    "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
];

/// Drops the punctuation people type around identifiers (`.`, `-`, `/`,
/// spaces) and upper-cases letters. Anything else is kept, so it fails the check.
pub fn strip_formatting(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '.' | '-' | '/' | ' ' | '(' | ')' | '+'))
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

pub fn cpf_is_valid(digits: &str) -> bool {
    let d: Vec<u32> = digits.chars().filter_map(|c| c.to_digit(10)).collect();
    if d.len() != 11 || digits.len() != 11 || d.iter().all(|&x| x == d[0]) {
        return false;
    }
    let dv = |n: usize| {
        let sum: u32 = (0..n).map(|i| d[i] * (n as u32 + 1 - i as u32)).sum();
        (sum * 10) % 11 % 10
    };
    dv(9) == d[9] && dv(10) == d[10]
}

/// CNPJ check digits, numeric or alphanumeric: each of the first 12
/// characters is worth its ASCII code minus 48 (`0`–`9` → 0–9, `A` → 17),
/// weights 2..9 from the right, modulus 11 (Receita Federal, IN RFB 2.229/2024).
pub fn cnpj_is_valid(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 14
        || !b[..12]
            .iter()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
        || !b[12..].iter().all(u8::is_ascii_digit)
        || b.iter().all(|&c| c == b[0])
    {
        return false;
    }
    let dv = |n: usize| {
        let sum: u32 = (0..n)
            .map(|i| (b[i] - b'0') as u32 * (2 + ((n - 1 - i) % 8) as u32))
            .sum();
        let r = sum % 11;
        if r < 2 {
            0
        } else {
            11 - r
        }
    };
    dv(12) == (b[12] - b'0') as u32 && dv(13) == (b[13] - b'0') as u32
}

/// Normalises and checks a CPF or CNPJ; returns the bare form to store.
pub fn check_document(input: &str) -> Result<String, Msg> {
    let s = strip_formatting(input);
    match s.len() {
        11 if s.bytes().all(|c| c.is_ascii_digit()) => {
            cpf_is_valid(&s).then_some(s).ok_or(Msg::Cpf)
        }
        14 => cnpj_is_valid(&s).then_some(s).ok_or(Msg::Cnpj),
        _ => Err(Msg::DocumentLength),
    }
}

pub fn check_cep(input: &str) -> Result<String, Msg> {
    let s = strip_formatting(input);
    (s.len() == 8 && s.bytes().all(|c| c.is_ascii_digit()))
        .then_some(s)
        .ok_or(Msg::Cep)
}

pub fn check_uf(input: &str) -> Result<String, Msg> {
    let s = input.trim().to_ascii_uppercase();
    UFS.contains(&s.as_str()).then_some(s).ok_or(Msg::Uf)
}

/// Phone with country and area code. Stored as digits only (`5511987654321`).
/// Brazilian numbers (+55) have a 2-digit DDD (11–99) and 8 or 9 digits;
/// other countries are accepted as E.164 (up to 15 digits).
pub fn check_phone(input: &str) -> Result<String, Msg> {
    let s = strip_formatting(input);
    if !s.bytes().all(|c| c.is_ascii_digit()) || !(11..=15).contains(&s.len()) {
        return Err(Msg::Phone);
    }
    if let Some(national) = s.strip_prefix("55") {
        let ddd_ok = national.as_bytes()[0] != b'0' && national.as_bytes()[1] != b'0';
        if !(national.len() == 10 || national.len() == 11) || !ddd_ok {
            return Err(Msg::Phone);
        }
        if national.len() == 11 && national.as_bytes()[2] != b'9' {
            return Err(Msg::Phone); // 9-digit numbers are mobiles and start with 9
        }
    } else if s.starts_with('0') {
        return Err(Msg::Phone);
    } else if let Some(nanp) = s.strip_prefix('1') {
        // Country code 1 (North America): area code [2-9][0-8]x, exchange
        // [2-9]xx, 10 digits. This also rejects a Brazilian mobile typed
        // without +55 (`(11) 98765-4321`), which would otherwise pass as +1.
        let b = nanp.as_bytes();
        if b.len() != 10 || b[0] < b'2' || b[1] == b'9' || b[3] < b'2' {
            return Err(Msg::Phone);
        }
    }
    Ok(s)
}

pub fn email_is_valid(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
    s.len() <= 254 && local_ok && hostname_is_valid(domain, true)
}

/// DNS name: labels of letters, digits and hyphens; `need_tld` asks for at
/// least two labels and an alphabetic top-level one.
fn hostname_is_valid(host: &str, need_tld: bool) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    if host.len() > 253 || (need_tld && labels.len() < 2) {
        return false;
    }
    let labels_ok = labels.iter().all(|l| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    });
    let tld = labels.last().copied().unwrap_or("");
    labels_ok && (!need_tld || (tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())))
}

/// The parts of an absolute http(s) URL that paylink cares about.
#[derive(Debug, PartialEq, Eq)]
pub struct UrlParts<'a> {
    pub https: bool,
    pub host: &'a str,
    pub port: Option<u16>,
}

/// A small, strict parser for absolute `http://` / `https://` URLs: no
/// credentials (`https://bank@evil`), no spaces or control characters, a host
/// that is a DNS name, IPv4 or bracketed IPv6, an optional port.
pub fn parse_http_url(s: &str) -> Option<UrlParts<'_>> {
    if s.len() > 2048
        || s.chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return None;
    }
    let lower_scheme = s.get(..8).map(str::to_ascii_lowercase);
    let (https, rest) = if lower_scheme.as_deref() == Some("https://") {
        (true, &s[8..])
    } else if s.get(..7).map(str::to_ascii_lowercase).as_deref() == Some("http://") {
        (false, &s[7..])
    } else {
        return None;
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let close = v6.find(']')?;
        let after = &v6[close + 1..];
        let host = &authority[..close + 2];
        if !v6[..close]
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
            || v6[..close].is_empty()
        {
            return None;
        }
        let port = match after {
            "" => None,
            a => Some(a.strip_prefix(':')?),
        };
        (host, port)
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok().filter(|&p| p != 0)?),
        None => None,
    };
    if !host.starts_with('[') && !hostname_is_valid(host, false) {
        return None;
    }
    Some(UrlParts { https, host, port })
}

/// True for addresses a webhook must never reach: loopback, private,
/// link-local, CGNAT, unspecified, multicast/broadcast, unique-local IPv6, and
/// IPv4 addresses mapped into IPv6.
pub fn ip_is_internal(ip: core::net::IpAddr) -> bool {
    use core::net::IpAddr;
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (64..128).contains(&o[1]))
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return ip_is_internal(IpAddr::V4(v4));
            }
            let s = v6.segments();
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
        }
    }
}

/// The IP of a URL host given as a literal (`203.0.113.9`, `[::1]`).
pub fn literal_ip(host: &str) -> Option<core::net::IpAddr> {
    let h = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    h.parse().ok()
}

/// A webhook URL: HTTPS to a host that is not a literal internal address,
/// unless `allow_insecure` (local tests). Names are checked again when
/// sending, on the address actually connected to.
pub fn check_webhook_url(url: &str, allow_insecure: bool) -> Result<(), Msg> {
    let parts = parse_http_url(url).ok_or(Msg::HttpsUrl)?;
    if allow_insecure {
        return Ok(());
    }
    if !parts.https {
        return Err(Msg::HttpsUrl);
    }
    if parts.host.eq_ignore_ascii_case("localhost")
        || literal_ip(parts.host).is_some_and(ip_is_internal)
    {
        return Err(Msg::InternalHost);
    }
    Ok(())
}

pub fn uuid_is_valid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

// ---- Masks applied while typing (the widget calls these on every input) ----

fn apply_mask(chars: &[char], pattern: &str) -> String {
    let mut out = String::new();
    let mut it = chars.iter();
    let mut pending = String::new();
    for p in pattern.chars() {
        if p == '0' || p == 'A' {
            match it.next() {
                Some(c) => {
                    out.push_str(&pending);
                    pending.clear();
                    out.push(*c);
                }
                None => break,
            }
        } else {
            pending.push(p);
        }
    }
    out
}

/// `000.000.000-00` while it can still be a CPF (≤ 11 digits), then
/// `00.000.000/0000-00` (letters allowed in the first 12, the new CNPJ).
pub fn mask_document(input: &str) -> String {
    let chars: Vec<char> = input
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .take(14)
        .collect();
    if chars.len() <= 11 && chars.iter().all(char::is_ascii_digit) {
        apply_mask(&chars, "000.000.000-00")
    } else {
        apply_mask(&chars, "AA.AAA.AAA/AAAA-00")
    }
}

pub fn mask_cep(input: &str) -> String {
    let digits: Vec<char> = input.chars().filter(char::is_ascii_digit).take(8).collect();
    apply_mask(&digits, "00000-000")
}

/// `+55 (11) 98765-4321` (or `+55 (11) 3456-7890` for 8-digit numbers).
pub fn mask_phone(input: &str) -> String {
    let digits: Vec<char> = input
        .chars()
        .filter(char::is_ascii_digit)
        .take(13)
        .collect();
    if digits.len() == 12 {
        apply_mask(&digits, "+00 (00) 0000-0000")
    } else {
        apply_mask(&digits, "+00 (00) 00000-0000")
    }
}

/// Digits only, what the widget sends for masked fields.
pub fn digits(input: &str) -> String {
    input.chars().filter(char::is_ascii_digit).collect()
}
