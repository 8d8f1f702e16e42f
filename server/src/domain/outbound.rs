//! The outbound policy: every URL paylink calls on a merchant's behalf (the
//! application's and the invoices' webhooks) goes through [`Outbound`], when it
//! is registered (API, CLI) and when it is called (the delivery worker). The
//! address rule is the model's (`paylink_model::outbound`, which the invoice
//! form applies too); this adds what only the server can do: resolve names,
//! at registration and again at every connection, since a DNS answer can
//! change in between (DNS rebinding), and a client that connects to public
//! addresses only and follows no redirect.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use paylink_model::outbound::{check_webhook_url, is_public, parse_host, Host};
use paylink_model::{Lang, Msg};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// How long a registration waits for a name's addresses; past it (or when the
/// name does not resolve yet) the name is accepted and each delivery judges it.
const REGISTRATION_LOOKUP: Duration = Duration::from_secs(2);

/// Where merchant URLs may lead. The default, and production's only policy,
/// is public addresses over HTTPS; [`Outbound::allow_private`] is the escape
/// hatch of local development and tests (`serve --allow-insecure-webhooks`).
#[derive(Clone)]
pub struct Outbound {
    allow_private: bool,
    dns: Arc<dyn Resolve>,
    /// `serve --webhook-proxy`: deliveries go through this HTTP proxy, which
    /// resolves names itself (and must refuse internal addresses itself).
    proxy: Option<String>,
}

impl std::fmt::Debug for Outbound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the proxy's URL: it may carry a password.
        f.debug_struct("Outbound")
            .field("allow_private", &self.allow_private)
            .field("proxy", &self.proxy.is_some())
            .finish()
    }
}

impl Default for Outbound {
    fn default() -> Self {
        Outbound::public_only()
    }
}

/// `--webhook-proxy` that is not a proxy URL.
#[derive(Debug, thiserror::Error)]
#[error("--webhook-proxy {url:?}: {why}")]
pub struct BadProxy {
    url: String,
    why: reqwest::Error,
}

/// Why a URL may not be called: recorded on the delivery or the send, in English.
#[derive(Debug, thiserror::Error)]
pub enum RefusedUrl {
    /// The model's rule for a webhook URL.
    #[error("refused URL: {}", .0.render(Lang::En))]
    Rule(Msg),
    #[error("refused URL: {0}")]
    Unparsed(url::ParseError),
    /// An address written in the URL that is not public.
    #[error("refused URL: {0} is an internal address")]
    Internal(IpAddr),
}

impl Outbound {
    /// HTTPS to public addresses only, names resolved by the system.
    pub fn public_only() -> Outbound {
        Outbound {
            allow_private: false,
            dns: Arc::new(SystemDns),
            proxy: None,
        }
    }

    /// Also `http://` and any address, loopback and private networks included:
    /// for webhook receivers on the developer's machine and in tests only.
    pub fn allow_private() -> Outbound {
        Outbound {
            allow_private: true,
            ..Outbound::public_only()
        }
    }

    /// Names resolved by `dns` instead of the system (tests: a name that only
    /// the test's resolver knows, pointing where a rebinding attack would).
    pub fn with_resolver(self, dns: Arc<dyn Resolve>) -> Outbound {
        Outbound { dns, ..self }
    }

    /// Deliveries through the HTTP proxy at `url`, named by the operator (the
    /// environment's `HTTPS_PROXY` is never used: it would take the names out
    /// of the filter's reach unseen). The proxy resolves names, so paylink
    /// does not: names are the proxy's to judge (an egress proxy that refuses
    /// internal addresses, such as Smokescreen), addresses written in a URL
    /// are still paylink's. `Err` when `url` is no proxy URL.
    pub fn through_proxy(self, url: &str) -> Result<Outbound, BadProxy> {
        reqwest::Proxy::all(url).map_err(|why| BadProxy {
            url: url.to_string(),
            why,
        })?;
        Ok(Outbound {
            proxy: Some(url.to_string()),
            ..self
        })
    }

    pub fn allows_private(&self) -> bool {
        self.allow_private
    }

    /// A webhook URL being registered: the model's rule, then the name's
    /// addresses now: one that is not public refuses it, as an address
    /// written in the URL would be.
    pub async fn check_new(&self, url: &str) -> Result<(), Msg> {
        check_webhook_url(url, self.allow_private)?;
        if self.allow_private || self.proxy.is_some() {
            return Ok(());
        }
        let name = paylink_model::br::parse_http_url(url)
            .and_then(|p| parse_host(p.host))
            .and_then(|h| match h {
                Host::Name(n) => n.parse::<Name>().ok(),
                Host::Ip(_) => None,
            });
        let Some(name) = name else {
            return Ok(());
        };
        let internal = match tokio::time::timeout(REGISTRATION_LOOKUP, self.dns.resolve(name)).await
        {
            Ok(Ok(mut addrs)) => addrs.any(|a| !is_public(a.ip())),
            _ => false,
        };
        if internal {
            Err(Msg::InternalHost)
        } else {
            Ok(())
        }
    }

    /// The URL to send to, parsed as the client parses it, or why it may not
    /// be called. An address written in the URL never reaches the resolver,
    /// so it is judged here, on the client's reading.
    pub fn target(&self, url: &str) -> Result<reqwest::Url, RefusedUrl> {
        check_webhook_url(url, self.allow_private).map_err(RefusedUrl::Rule)?;
        let parsed = reqwest::Url::parse(url).map_err(RefusedUrl::Unparsed)?;
        let literal = parsed
            .host_str()
            .map(|h| h.trim_start_matches('[').trim_end_matches(']'))
            .and_then(|h| h.parse::<IpAddr>().ok());
        match literal {
            Some(ip) if !self.allow_private && !is_public(ip) => Err(RefusedUrl::Internal(ip)),
            _ => Ok(parsed),
        }
    }

    /// A client for merchant URLs, from `builder`'s timeouts and agent: names
    /// connect only to their public addresses, redirects are not followed (a
    /// redirect could point anywhere), and no proxy from the environment is
    /// used (a proxy would resolve the name itself, past the filter).
    pub fn client(&self, builder: reqwest::ClientBuilder) -> reqwest::Result<reqwest::Client> {
        let builder = builder.redirect(reqwest::redirect::Policy::none());
        if let Some(proxy) = &self.proxy {
            // Only the proxy's own name is resolved here: the operator's, not a merchant's.
            return builder.proxy(reqwest::Proxy::all(proxy)?).build();
        }
        let resolver = PublicOnly {
            dns: self.dns.clone(),
            allow_private: self.allow_private,
        };
        builder.no_proxy().dns_resolver(Arc::new(resolver)).build()
    }
}

/// The system's resolver (getaddrinfo, off the async threads).
struct SystemDns;

impl Resolve for SystemDns {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// The connection-time check: of a name's addresses only the public ones are
/// connected to, and a name with none fails without a connection.
struct PublicOnly {
    dns: Arc<dyn Resolve>,
    allow_private: bool,
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_string();
        let lookup = self.dns.resolve(name);
        let allow_private = self.allow_private;
        Box::pin(async move {
            let all: Vec<SocketAddr> = lookup.await?.collect();
            let addrs: Vec<SocketAddr> = all
                .iter()
                .copied()
                .filter(|a| allow_private || is_public(a.ip()))
                .collect();
            if addrs.is_empty() && !all.is_empty() {
                return Err(format!("{host} resolves only to internal addresses").into());
            }
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}
