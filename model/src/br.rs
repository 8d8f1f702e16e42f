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

/// The DDDs (area codes) in ANATEL's numbering plan: 67 codes, 11 to 99.
/// A code not on this list (`10`, `20`, `23`, `25`, `26`, `29`, `30`, `36`,
/// `39`, `40`, `50`, `52`, `56`–`60`, `70`, `72`, `76`, `78`, `80`, `90`) is a typo.
pub const DDDS: [u8; 67] = [
    11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77,
    79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
];

pub fn ddd_is_valid(ddd: u8) -> bool {
    DDDS.contains(&ddd)
}

/// A Brazilian number without country code: DDD + 8-digit landline (first
/// digit 2–5) or DDD + 9-digit mobile (first digit 9), per ANATEL's plan.
fn check_national(national: &str) -> Result<(), Msg> {
    let b = national.as_bytes();
    if !(b.len() == 10 || b.len() == 11) {
        return Err(Msg::Phone);
    }
    if !ddd_is_valid((b[0] - b'0') * 10 + (b[1] - b'0')) {
        return Err(Msg::PhoneDdd);
    }
    let first = b[2];
    let ok = if b.len() == 11 {
        first == b'9'
    } else {
        (b'2'..=b'5').contains(&first)
    };
    ok.then_some(()).ok_or(Msg::Phone)
}

/// A phone as people type it, normalised to E.164 with its `+`
/// (`+5511987654321`), the form stored and answered.
///
/// - Without `+`, it is Brazilian, as Brazilians write it: DDD and number,
///   10 or 11 digits (`11987654321`, `(11) 98765-4321`), optionally with the
///   trunk `0` (`011 98765-4321`). The DDD must be one of ANATEL's; an
///   11-digit number is a mobile and starts with 9, a 10-digit one is a
///   landline starting with 2–5. Bare digits with the country code
///   (`5511987654321`, what older clients send) are read the same way.
/// - With `+`, it is international E.164: a country code not starting with 0
///   and 8 to 15 digits in all. `+55` gets the Brazilian rule above, and
///   `+1` (North America) needs area code `[2-9][0-8]x` and exchange `[2-9]xx`.
pub fn check_phone(input: &str) -> Result<String, Msg> {
    let international = input.trim_start().starts_with('+');
    let s = strip_formatting(input);
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return Err(Msg::Phone);
    }
    if !international {
        let national = match s.len() {
            11 | 12 if s.starts_with('0') => &s[1..],
            12 | 13 if s.starts_with("55") => &s[2..],
            _ => s.as_str(),
        };
        check_national(national)?;
        return Ok(format!("+55{national}"));
    }
    if !(8..=15).contains(&s.len()) || s.starts_with('0') {
        return Err(Msg::Phone);
    }
    if let Some(national) = s.strip_prefix("55") {
        check_national(national)?;
    } else if let Some(nanp) = s.strip_prefix('1') {
        // Country code 1 (North America): area code [2-9][0-8]x, exchange [2-9]xx, 10 digits.
        let b = nanp.as_bytes();
        if b.len() != 10 || b[0] < b'2' || b[1] == b'9' || b[3] < b'2' {
            return Err(Msg::Phone);
        }
    }
    Ok(format!("+{s}"))
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

/// A stored phone (E.164) as a Brazilian reads it on a screen: a Brazilian
/// number without its `+55`, `(11) 98765-4321`; another country's with its
/// `+` and digits. The input mask ([`mask_phone`]) keeps a typed `+55`, this
/// does not: nobody in Brazil writes their own country code.
pub fn display_phone(stored: &str) -> String {
    let digits: Vec<char> = stored.chars().filter(char::is_ascii_digit).collect();
    let brazilian = stored.trim_start().starts_with("+55") || !stored.contains('+');
    match digits.as_slice() {
        ['5', '5', national @ ..] if brazilian && (10..=11).contains(&national.len()) => {
            mask_national(national, "")
        }
        _ => mask_phone(stored),
    }
}

/// The phone as typed, masked: Brazilian input (no `+`) shows
/// `(11) 98765-4321` or `(11) 3456-7890`, dropping a trunk `0`; input
/// starting with `+` stays international, `+55 (11) 98765-4321` for Brazil
/// and `+` with the digits for other countries (their groupings vary).
pub fn mask_phone(input: &str) -> String {
    let international = input.trim_start().starts_with('+');
    let all: Vec<char> = input.chars().filter(char::is_ascii_digit).collect();
    if international {
        if all.starts_with(&['5', '5']) {
            let national = &all[2..all.len().min(13)];
            return format!("+55{}", mask_national(national, " "));
        }
        return format!("+{}", all.iter().take(15).collect::<String>());
    }
    // Bare digits with the country code, as stored by older versions.
    if all.len() >= 12 && all.starts_with(&['5', '5']) {
        return format!("+55{}", mask_national(&all[2..all.len().min(13)], " "));
    }
    let national = match all.as_slice() {
        ['0'] => return "0".into(),
        ['0', rest @ ..] => rest,
        rest => rest,
    };
    mask_national(&national[..national.len().min(11)], "")
}

/// `(11) 98765-4321` for 11 digits, `(11) 3456-7890` up to 10, each part
/// appearing as it is typed; `lead` goes before the parenthesis.
fn mask_national(digits: &[char], lead: &str) -> String {
    if digits.is_empty() {
        return String::new();
    }
    let body = if digits.len() == 11 {
        apply_mask(digits, "(00) 00000-0000")
    } else {
        apply_mask(digits, "(00) 0000-0000")
    };
    format!("{lead}{body}")
}

/// The phone to send from a masked field: digits, with the leading `+` kept
/// when there was one (it tells a foreign number from a Brazilian one).
pub fn phone_for_request(input: &str) -> String {
    let d = digits(input);
    if input.trim_start().starts_with('+') {
        format!("+{d}")
    } else {
        d
    }
}

/// Digits only, what the widget sends for masked fields.
pub fn digits(input: &str) -> String {
    input.chars().filter(char::is_ascii_digit).collect()
}
