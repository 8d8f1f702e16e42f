//! An SMTP server as `serve --smtp-url` names it: the URL's rules (STARTTLS or TLS, a relay
//! on this machine only without TLS, a password only from its file and only over TLS), the
//! sender and the roots to trust, each refusal naming its flag; and the transport the
//! notification sender sends through.

use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, Tokio1Executor};

use std::time::Duration;

/// Why `--smtp-url`, `--smtp-from`, `--smtp-password-file` or `--smtp-ca` is refused. Never
/// the URL itself: a password may have been put there by mistake.
#[derive(Debug, thiserror::Error)]
pub enum SmtpError {
    #[error("--smtp-url: {0}")]
    Url(url::ParseError),
    #[error("--smtp-url must be smtp://HOST:587 (STARTTLS) or smtps://HOST:465 (TLS)")]
    Scheme,
    #[error("--smtp-url must not hold a password (ps shows it): put it in --smtp-password-file")]
    PasswordInUrl,
    #[error("--smtp-url takes no path: smtp://USER@HOST:PORT")]
    Path,
    #[error("--smtp-url: unknown option {0:?} (smtp:// takes only ?tls=none, on loopback)")]
    Option(String),
    #[error("--smtp-url has no host")]
    NoHost,
    #[error("--smtp-url: ?tls=none only reaches a relay on this machine (loopback), not {0:?}")]
    PlainNotLoopback(String),
    #[error("--smtp-url: the user is not UTF-8")]
    UserNotUtf8,
    #[error("--smtp-url has a user: give its password in --smtp-password-file")]
    NoPassword,
    #[error("--smtp-password-file needs a user in --smtp-url (smtp://USER@HOST)")]
    NoUser,
    #[error("--smtp-url: a password is sent only over TLS; drop ?tls=none")]
    PasswordWithoutTls,
    #[error("--smtp-ca needs TLS; drop ?tls=none")]
    CaWithoutTls,
    #[error("--smtp-from {0:?}: {1}")]
    From(String, lettre::address::AddressError),
    #[error("--smtp-ca is not a PEM certificate{}", .0.as_ref().map(|e| format!(": {e}")).unwrap_or_default())]
    NotPem(Option<lettre::transport::smtp::Error>),
    #[error("--smtp-ca: {0}")]
    Tls(lettre::transport::smtp::Error),
}

/// An SMTP server: any provider's submission port, or a relay on this machine.
#[derive(Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    /// STARTTLS required (`smtp://`), TLS from the start (`smtps://`), or none (`smtp://` on
    /// loopback with `?tls=none`). Its certificate checks use the usual roots and `--smtp-ca`.
    pub tls: Tls,
    /// The user of the URL, percent-decoded; always with `password`.
    pub user: Option<String>,
    /// From `--smtp-password-file`; never printed (see the `Debug` below).
    password: Option<String>,
    pub from: Mailbox,
}

impl std::fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "***"))
            .field("from", &self.from)
            .finish()
    }
}

impl SmtpConfig {
    /// `smtp://[USER@]HOST[:587][?tls=none]` or `smtps://[USER@]HOST[:465]`, the sender (e.g.
    /// `Loja <cobranca@loja.example>`), the password of USER (`--smtp-password-file`'s) and
    /// a root certificate to trust beside the usual ones (`--smtp-ca`, PEM).
    pub fn new(
        url: &str,
        from: &str,
        password: Option<String>,
        ca_pem: Option<&[u8]>,
    ) -> Result<SmtpConfig, SmtpError> {
        // Never echo the URL: a password may have been put there by mistake.
        let parsed = reqwest::Url::parse(url).map_err(SmtpError::Url)?;
        let implicit = match parsed.scheme() {
            "smtp" => false,
            "smtps" => true,
            _ => return Err(SmtpError::Scheme),
        };
        if parsed.password().is_some() {
            return Err(SmtpError::PasswordInUrl);
        }
        if !matches!(parsed.path(), "" | "/") || parsed.fragment().is_some() {
            return Err(SmtpError::Path);
        }
        let mut plain = false;
        for (k, v) in parsed.query_pairs() {
            match (k.as_ref(), v.as_ref()) {
                ("tls", "none") if !implicit => plain = true,
                _ => return Err(SmtpError::Option(k.into_owned())),
            }
        }
        let host = parsed
            .host_str()
            .ok_or(SmtpError::NoHost)?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let loopback = host.eq_ignore_ascii_case("localhost")
            || host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        if plain && !loopback {
            return Err(SmtpError::PlainNotLoopback(host));
        }
        let user = percent_encoding::percent_decode_str(parsed.username())
            .decode_utf8()
            .map_err(|_| SmtpError::UserNotUtf8)?
            .into_owned();
        let user = (!user.is_empty()).then_some(user);
        let password = password.filter(|p| !p.is_empty());
        match (&user, &password) {
            (Some(_), None) => return Err(SmtpError::NoPassword),
            (None, Some(_)) => return Err(SmtpError::NoUser),
            (Some(_), Some(_)) if plain => return Err(SmtpError::PasswordWithoutTls),
            _ => {}
        }
        if plain && ca_pem.is_some() {
            return Err(SmtpError::CaWithoutTls);
        }
        let from = from
            .parse::<Mailbox>()
            .map_err(|e| SmtpError::From(from.to_string(), e))?;
        let tls = if plain {
            Tls::None
        } else {
            let mut params = TlsParameters::builder(host.clone());
            if let Some(pem) = ca_pem {
                // lettre's rustls side takes a file without any certificate as none at all.
                if !String::from_utf8_lossy(pem).contains("-----BEGIN CERTIFICATE-----") {
                    return Err(SmtpError::NotPem(None));
                }
                let cert = Certificate::from_pem(pem).map_err(|e| SmtpError::NotPem(Some(e)))?;
                params = params.add_root_certificate(cert);
            }
            let params = params.build_rustls().map_err(SmtpError::Tls)?;
            if implicit {
                Tls::Wrapper(params)
            } else {
                Tls::Required(params)
            }
        };
        Ok(SmtpConfig {
            port: parsed.port().unwrap_or(if implicit { 465 } else { 587 }),
            host,
            tls,
            user,
            password,
            from,
        })
    }

    /// The transport, each command within `timeout`.
    pub(crate) fn transport(&self, timeout: Duration) -> AsyncSmtpTransport<Tokio1Executor> {
        let builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&self.host)
            .port(self.port)
            .tls(self.tls.clone())
            .timeout(Some(timeout));
        match (&self.user, &self.password) {
            (Some(u), Some(p)) => builder.credentials(Credentials::new(u.clone(), p.clone())),
            _ => builder,
        }
        .build()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smtp_urls_need_tls_and_keep_passwords_out() {
        let from = "Loja <cobranca@loja.example>";
        let pw = || Some("s3cret".to_string());
        let c =
            SmtpConfig::new("smtp://ana%40loja.example@smtp.example", from, pw(), None).unwrap();
        assert_eq!((c.host.as_str(), c.port), ("smtp.example", 587));
        assert!(matches!(c.tls, Tls::Required(_)), "STARTTLS required");
        assert_eq!(c.user.as_deref(), Some("ana@loja.example"));
        assert!(!format!("{c:?}").contains("s3cret"), "{c:?}");
        let c = SmtpConfig::new("smtps://u@smtp.example", from, pw(), None).unwrap();
        assert_eq!(c.port, 465);
        assert!(matches!(c.tls, Tls::Wrapper(_)), "implicit TLS");
        let c = SmtpConfig::new("smtp://127.0.0.1:2525?tls=none", from, None, None).unwrap();
        assert!(matches!(c.tls, Tls::None));
        assert!(SmtpConfig::new("smtp://[::1]:25?tls=none", from, None, None).is_ok());

        for (url, password, why) in [
            ("smtp://u:p@smtp.example", None, "must not hold a password"),
            ("smtp://smtp.example?tls=none", None, "loopback"),
            ("smtps://localhost?tls=none", None, "unknown option"),
            ("smtp://smtp.example?auth=plain", None, "unknown option"),
            ("smtp://u@127.0.0.1?tls=none", pw(), "only over TLS"),
            ("smtp://u@smtp.example", None, "--smtp-password-file"),
            ("smtp://smtp.example", pw(), "needs a user"),
            ("http://smtp.example", None, "smtp://HOST:587"),
            ("smtp://smtp.example/x", None, "no path"),
            ("smtp:///", None, "no host"),
        ] {
            let e = SmtpConfig::new(url, from, password, None)
                .unwrap_err()
                .to_string();
            assert!(e.contains(why), "{url}: {e}");
            assert!(!e.contains("s3cret"), "{e}");
        }
        let e = SmtpConfig::new("smtp://relay", "not an address", None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--smtp-from"), "{e}");
        let e = SmtpConfig::new("smtp://relay", from, None, Some(b"not a certificate"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--smtp-ca"), "{e}");
        let e = SmtpConfig::new("smtp://127.0.0.1?tls=none", from, None, Some(b"x"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--smtp-ca needs TLS"), "{e}");
    }
}
