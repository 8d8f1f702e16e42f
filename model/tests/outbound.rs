//! The webhook address rule (`paylink_model::outbound`) against the forms a
//! security review used to reach loopback and the cloud's metadata service,
//! and its reading of hosts against the `url` crate's, the parser `reqwest`
//! connects with: a host the rule reads differently from the client would
//! let an address through.

use std::net::IpAddr;

use paylink_model::br::parse_http_url;
use paylink_model::outbound::{check_webhook_url, is_public, parse_host, Host};
use paylink_model::Msg;
use proptest::prelude::*;

/// The forms of issue 30: each reached an internal address through the
/// checks of the time.
pub const INTERNAL_FORMS: [&str; 17] = [
    "https://2130706433/hook",
    "https://0x7f000001/hook",
    "https://0177.0.0.1/hook",
    "https://127.1/hook",
    "https://0/hook",
    "https://127.000.000.001/hook",
    "https://2852039166/latest/meta-data",
    "https://[::127.0.0.1]/hook",
    "https://[::ffff:0:7f00:1]/hook",
    "https://[64:ff9b::a9fe:a9fe]/hook",
    "https://[2002:a9fe:a9fe::1]/hook",
    "https://[fec0::1]/hook",
    "https://198.18.0.1/hook",
    "https://240.0.0.1/hook",
    "https://192.0.0.1/hook",
    "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
    "https://[64:ff9b:1::a9fe:a9fe]/hook",
];

#[test]
fn every_spelling_of_an_internal_address_is_refused() {
    for url in INTERNAL_FORMS {
        assert_eq!(
            check_webhook_url(url, false),
            Err(Msg::InternalHost),
            "{url}"
        );
        // What the client will connect to is indeed internal.
        let parsed = url::Url::parse(url).unwrap();
        let ip: IpAddr = match parsed.host().unwrap() {
            url::Host::Ipv4(a) => a.into(),
            url::Host::Ipv6(a) => a.into(),
            url::Host::Domain(d) => panic!("{url} is the name {d}"),
        };
        assert!(!is_public(ip), "{url} -> {ip}");
        // Allowed only when the server lets webhooks reach private addresses.
        assert_eq!(check_webhook_url(url, true), Ok(()), "{url}");
    }
}

/// Our reading of `https://{host}/` next to `url`'s, when ours accepts it.
fn same_reading(host: &str) -> Result<(), String> {
    let text = format!("https://{host}/");
    let Some(parts) = parse_http_url(&text) else {
        return Ok(());
    };
    let ours = parse_host(parts.host);
    let theirs = url::Url::parse(&text).ok().and_then(|u| {
        u.host().map(|h| match h {
            url::Host::Ipv4(a) => Host::Ip(a.into()),
            url::Host::Ipv6(a) => Host::Ip(a.into()),
            url::Host::Domain(d) => Host::Name(d.to_string()),
        })
    });
    if ours == theirs {
        Ok(())
    } else {
        Err(format!("{host}: ours {ours:?}, url's {theirs:?}"))
    }
}

#[test]
fn hosts_are_read_as_the_url_crate_reads_them() {
    for host in [
        "2130706433",
        "0x7f000001",
        "0X7F000001",
        "0177.0.0.1",
        "127.1",
        "0",
        "127.000.000.001",
        "2852039166",
        "0x",
        "0x.0x.0x.0x",
        "1.2.3.4.5",
        "256.0.0.1",
        "4294967295",
        "4294967296",
        "09.1",
        "08",
        "0xffffffff",
        "0x100000000",
        "00000000000000000000000000000177.1",
        "loja.123",
        "123.loja",
        "0xg.loja",
        "Loja.Example",
        "[::127.0.0.1]",
        "[::ffff:0:7f00:1]",
        "[64:ff9b::a9fe:a9fe]",
        "[2002:a9fe:a9fe::1]",
        "[fec0::1]",
        "[::ffff:127.0.0.1]",
        "[0:0:0:0:0:ffff:7f00:1]",
        "[::1.2.3]",
        "[1::2::3]",
    ] {
        same_reading(host).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn any_numeric_looking_host_is_read_as_url_reads_it(host in "[0-9a-fxX.]{1,24}") {
        prop_assert!(same_reading(&host).is_ok(), "{}", same_reading(&host).unwrap_err());
    }

    #[test]
    fn any_bracketed_host_is_read_as_url_reads_it(host in "\\[[0-9a-f:.]{2,40}\\]") {
        prop_assert!(same_reading(&host).is_ok(), "{}", same_reading(&host).unwrap_err());
    }
}
