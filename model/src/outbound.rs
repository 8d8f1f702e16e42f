//! Which URLs paylink may call on a merchant's behalf (webhooks): the host as
//! an HTTP client reads it, and which IP addresses are public. The rule the
//! invoice form, the API, the CLI and the delivery worker all apply; the
//! server's `domain::outbound` applies it again to the addresses a name
//! resolves to when it connects.
//!
//! Hosts are read by the WHATWG URL standard, the reading of browsers and of
//! the `url` crate that `reqwest` sends with: `2130706433`, `0x7f000001`,
//! `0177.0.0.1`, `127.1` and `127.000.000.001` all are 127.0.0.1 there, so
//! the address is judged after that reading, never on the text. Written by
//! hand rather than with `url` because the widget runs this in the browser,
//! where `url` (with its IDNA tables) would add ~230 KB of wasm; the model's
//! tests compare this reading with `url`'s.

use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::br::parse_http_url;
use crate::errors::Msg;

/// A URL's host as an HTTP client will connect to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Host {
    /// An address written in the URL; no DNS is asked.
    Ip(IpAddr),
    /// A DNS name, lower-cased.
    Name(String),
}

/// Reads a host as [`crate::br::parse_http_url`] returns it (a bracketed
/// IPv6 address, or labels of letters, digits and hyphens) the WHATWG way:
/// a host whose last label is a number is an IPv4 address in one of its
/// legacy spellings (decimal, octal with a leading `0`, hex with `0x`, one to
/// four parts). `None` when no client would take it: such a number that is
/// no address (`1.2.3.4.5`, `256.1.1.1`, `loja.123`), or a bracket that holds
/// no IPv6 address.
pub fn parse_host(host: &str) -> Option<Host> {
    if let Some(inner) = host.strip_prefix('[') {
        let v6: Ipv6Addr = inner.strip_suffix(']')?.parse().ok()?;
        return Some(Host::Ip(IpAddr::V6(v6)));
    }
    let host = host.to_ascii_lowercase();
    if ends_in_a_number(&host) {
        return parse_ipv4(&host).map(|v4| Host::Ip(IpAddr::V4(v4)));
    }
    Some(Host::Name(host))
}

/// WHATWG "ends in a number": the last label (a trailing dot aside) is all
/// digits or a valid IPv4 number (`0x`, `0x7f`).
fn ends_in_a_number(host: &str) -> bool {
    let mut labels = host.rsplit('.');
    let last = match labels.next() {
        Some("") => labels.next(),
        last => last,
    };
    last.is_some_and(|l| {
        (!l.is_empty() && l.bytes().all(|b| b.is_ascii_digit())) || ipv4_number(l).is_some()
    })
}

/// WHATWG IPv4 number parser: `0x`/`0X` hex, a leading `0` octal, else
/// decimal; an empty number after the prefix is 0. `Some(None)`: a valid
/// number too large for 32 bits.
fn ipv4_number(s: &str) -> Option<Option<u32>> {
    if s.is_empty() {
        return None;
    }
    let (digits, radix) = if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (hex, 16)
    } else if s.len() >= 2 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() {
        return Some(Some(0));
    }
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    Some(u32::from_str_radix(digits, radix).ok())
}

/// WHATWG IPv4 parser: one to four numbers, each but the last under 256, the
/// last filling the bytes left (`127.1` is 127.0.0.1, `2130706433` too).
fn parse_ipv4(host: &str) -> Option<Ipv4Addr> {
    let mut parts: Vec<&str> = host.split('.').collect();
    if parts.last() == Some(&"") {
        parts.pop();
    }
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut numbers = parts
        .iter()
        .map(|p| ipv4_number(p).flatten())
        .collect::<Option<Vec<u32>>>()?;
    let last = numbers.pop()?;
    if numbers.iter().any(|&n| n > 255) || last > u32::MAX >> (8 * numbers.len() as u32) {
        return None;
    }
    let leading = numbers
        .iter()
        .enumerate()
        .fold(0u32, |acc, (i, &n)| acc | (n << (8 * (3 - i as u32))));
    Some(Ipv4Addr::from(leading | last))
}

/// IPv4 blocks that are not globally reachable (IANA IPv4 Special-Purpose
/// Address Registry, RFC 6890 and its updates), plus 240/4 reserved.
const NOT_PUBLIC_V4: [(Ipv4Addr, u8); 15] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8), // "this network"; 0.0.0.0 reaches the host itself
    (Ipv4Addr::new(10, 0, 0, 0), 8), // private (RFC 1918)
    (Ipv4Addr::new(100, 64, 0, 0), 10), // shared address space, carrier-grade NAT (RFC 6598)
    (Ipv4Addr::new(127, 0, 0, 0), 8), // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16), // link-local, cloud metadata (169.254.169.254)
    (Ipv4Addr::new(172, 16, 0, 0), 12), // private (RFC 1918)
    (Ipv4Addr::new(192, 0, 0, 0), 24), // IETF protocol assignments (RFC 6890)
    (Ipv4Addr::new(192, 0, 2, 0), 24), // documentation TEST-NET-1 (RFC 5737)
    (Ipv4Addr::new(192, 88, 99, 0), 24), // 6to4 relay anycast, deprecated (RFC 7526)
    (Ipv4Addr::new(192, 168, 0, 0), 16), // private (RFC 1918)
    (Ipv4Addr::new(198, 18, 0, 0), 15), // benchmarking (RFC 2544)
    (Ipv4Addr::new(198, 51, 100, 0), 24), // documentation TEST-NET-2
    (Ipv4Addr::new(203, 0, 113, 0), 24), // documentation TEST-NET-3
    (Ipv4Addr::new(224, 0, 0, 0), 4), // multicast
    (Ipv4Addr::new(240, 0, 0, 0), 4), // reserved (RFC 1112), 255.255.255.255 broadcast included
];

/// IPv6 blocks inside global unicast (2000::/3) that are not public. Outside
/// 2000::/3 nothing is (loopback, `::`, IPv4-compatible `::/96`, IPv4-translated
/// `::ffff:0:0:0/96`, discard `100::/64`, NAT64 local-use `64:ff9b:1::/48`,
/// SRv6 `5f00::/16`, unique-local `fc00::/7`, link-local `fe80::/10`, site-local
/// `fec0::/10`, multicast `ff00::/8`), except the forms that carry an IPv4
/// address, judged by it ([`embedded_v4`]).
const NOT_PUBLIC_V6: [(Ipv6Addr, u8); 3] = [
    // IETF protocol assignments (RFC 2928): Teredo 2001::/32 (a tunnel to
    // an address it hides), benchmarking 2001:2::/48, ORCHID.
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23),
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32), // documentation (RFC 3849)
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20),     // documentation (RFC 9637)
];

fn in_v4(ip: Ipv4Addr, (net, len): (Ipv4Addr, u8)) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
    u32::from(ip) & mask == u32::from(net) & mask
}

fn in_v6(ip: Ipv6Addr, (net, len): (Ipv6Addr, u8)) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0);
    u128::from(ip) & mask == u128::from(net) & mask
}

/// The IPv4 address an IPv6 address stands for, where the packet ends up
/// there: IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` (RFC 6052)
/// and 6to4 `2002:aabb:ccdd::/48` (RFC 3056).
pub fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let bits = u128::from(ip);
    let low = Ipv4Addr::from(bits as u32);
    if in_v6(ip, (Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0, 0), 96))
        || in_v6(ip, (Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96))
    {
        Some(low)
    } else if in_v6(ip, (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16)) {
        Some(Ipv4Addr::from((bits >> 80) as u32))
    } else {
        None
    }
}

/// Whether a webhook may reach `ip`: a globally reachable unicast address,
/// by the IANA special-purpose registries for IPv4 and IPv6. An IPv6 form
/// that carries an IPv4 address is judged by that address.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => !NOT_PUBLIC_V4.iter().any(|&block| in_v4(v4, block)),
        IpAddr::V6(v6) => match embedded_v4(v6) {
            Some(v4) => is_public(IpAddr::V4(v4)),
            None => {
                in_v6(v6, (Ipv6Addr::new(0x2000, 0, 0, 0, 0, 0, 0, 0), 3))
                    && !NOT_PUBLIC_V6.iter().any(|&block| in_v6(v6, block))
            }
        },
    }
}

/// Names that never lead outside: one label (`intranet`, found through the
/// resolver's search list or `/etc/hosts`), `localhost` (RFC 6761) and the
/// special-use or private-use domains `.local` (mDNS), `.home.arpa`,
/// `.internal`.
pub fn is_local_name(name: &str) -> bool {
    let name = name.trim_end_matches('.');
    !name.contains('.')
        || ["localhost", "local", "home.arpa", "internal"]
            .iter()
            .any(|d| name == *d || name.strip_suffix(d).is_some_and(|r| r.ends_with('.')))
}

/// A webhook URL: HTTPS to a public host, unless `allow_private` (local
/// development and tests: `http://` and any address). A host given as an
/// address is judged here in whatever spelling; a name is judged again by
/// the server on each address it resolves to, when connecting.
pub fn check_webhook_url(url: &str, allow_private: bool) -> Result<(), Msg> {
    let parts = parse_http_url(url).ok_or(Msg::HttpsUrl)?;
    let host = parse_host(parts.host).ok_or(Msg::HttpsUrl)?;
    if allow_private {
        return Ok(());
    }
    if !parts.https {
        return Err(Msg::HttpsUrl);
    }
    let public = match &host {
        Host::Ip(ip) => is_public(*ip),
        Host::Name(name) => !is_local_name(name),
    };
    public.then_some(()).ok_or(Msg::InternalHost)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(s: &str) -> Option<Host> {
        Some(Host::Ip(IpAddr::V4(s.parse().unwrap())))
    }

    #[test]
    fn legacy_ipv4_spellings_are_the_address_a_client_connects_to() {
        for host in [
            "2130706433",
            "0x7f000001",
            "0X7F000001",
            "0177.0.0.1",
            "127.1",
            "127.0.1",
            "127.000.000.001",
            "0x7f.1",
            "127.0.0.1",
        ] {
            assert_eq!(parse_host(host), v4("127.0.0.1"), "{host}");
        }
        assert_eq!(parse_host("0"), v4("0.0.0.0"));
        assert_eq!(parse_host("2852039166"), v4("169.254.169.254"));
        assert_eq!(parse_host("0x"), v4("0.0.0.0"));
    }

    #[test]
    fn a_number_that_is_no_address_is_no_host() {
        for host in [
            "1.2.3.4.5",
            "256.0.0.1",
            "1.2.3.256",
            "4294967296",
            "0x100000000",
            "loja.123",
            "loja.0x1",
            "09.0.0.1",
            "[::1",
            "[zz::1]",
        ] {
            assert_eq!(parse_host(host), None, "{host}");
        }
        assert_eq!(
            parse_host("Loja.Example"),
            Some(Host::Name("loja.example".into()))
        );
        assert_eq!(
            parse_host("123.example"),
            Some(Host::Name("123.example".into()))
        );
        assert_eq!(
            parse_host("0xg.example"),
            Some(Host::Name("0xg.example".into()))
        );
    }

    #[test]
    fn special_purpose_addresses_are_not_public() {
        for ip in [
            "0.0.0.0",
            "0.1.2.3",
            "10.0.0.1",
            "100.64.0.1",
            "100.127.255.255",
            "127.0.0.1",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.1",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.1",
            "203.0.113.1",
            "224.0.0.1",
            "239.255.255.255",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::127.0.0.1",
            "::8.8.8.8",
            "::ffff:127.0.0.1",
            "::ffff:0:7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::808:808",
            "2002:a9fe:a9fe::1",
            "2002:7f00:1::",
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001:2::1",
            "2001:db8::1",
            "3fff::1",
            "100::1",
            "5f00::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
        ] {
            let parsed: IpAddr = ip.parse().unwrap();
            assert!(!is_public(parsed), "{ip}");
        }
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "100.63.255.255",
            "100.128.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.0.1.1",
            "198.17.255.255",
            "198.20.0.0",
            "203.0.114.10",
            "223.255.255.255",
            "2606:4700::1111",
            "2001:4860:4860::8888",
            "2a03:2880::1",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            let parsed: IpAddr = ip.parse().unwrap();
            assert!(is_public(parsed), "{ip}");
        }
    }

    #[test]
    fn local_names() {
        for name in [
            "localhost",
            "localhost.",
            "api.localhost",
            "printer.local",
            "nas.home.arpa",
            "db.internal",
            "intranet",
        ] {
            assert!(is_local_name(name), "{name}");
        }
        for name in [
            "loja.example",
            "notlocalhost.com",
            "internal.loja.com.br",
            "local.com",
        ] {
            assert!(!is_local_name(name), "{name}");
        }
    }
}
