//! `paylink serve`: its options, and turning them into the app's state,
//! options and workers.

use crate::cli::common::{BoletoArgs, DbArg};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Parser;

use super::common::open_as;
use super::config::ConfigError;
use crate::app::{app, Options, Service};
use crate::domain::outbound::Outbound;
use crate::proxy::{ProxyConfig, DEFAULT_UPSTREAM_TIMEOUT};
use crate::workers::notifications::{Notifier, NotifyConfig};
use crate::workers::webhooks::Deliverer;
use crate::workers::Workers;

#[derive(Parser)]
pub(super) struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the chosen one is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    #[command(flatten)]
    db: DbArg,
    /// Do not apply pending migrations at start: refuse to start on a database that needs
    /// one (run `paylink migrate` first). For servers that must not change the schema.
    #[arg(long)]
    no_migrate: bool,
    /// Base URL of payment links (`{public-url}/pay/{id}`); default: the listen address.
    #[arg(long)]
    public_url: Option<String>,
    /// The built widget to serve.
    #[arg(long, default_value = "dist")]
    dist: PathBuf,
    /// A remote invoicing service for the proxy; default: this server's own.
    #[arg(long)]
    upstream: Option<String>,
    /// File holding the proxy's token (alternative to the PAYLINK_TOKEN variable).
    #[arg(long)]
    token_file: Option<PathBuf>,
    /// The proxy's token: a secret, so only from the PAYLINK_TOKEN variable (cli/config.rs
    /// refuses it as a flag or in the file).
    #[arg(long, hide = true)]
    token: Option<String>,
    /// Sandbox mode (simulated payments); the README's run command uses it.
    #[arg(long)]
    sandbox: bool,
    /// Let webhooks use http:// and reach loopback/private addresses (local tests only).
    #[arg(long)]
    allow_insecure_webhooks: bool,
    /// Send webhooks through this HTTP proxy (an egress proxy that refuses internal addresses):
    /// it resolves the names, paylink still refuses internal addresses written in a URL.
    #[arg(long, value_name = "URL")]
    webhook_proxy: Option<String>,
    /// No longer needed: the merchant's screens need an operator's login on every address
    /// (`paylink operator add`). Accepted so existing command lines keep working.
    #[arg(long, hide = true)]
    operator_ui: bool,
    /// Origins allowed to frame the widget (CSP frame-ancestors), e.g. "https://loja.example"; default: this origin only.
    #[arg(long)]
    frame_ancestors: Vec<String>,
    /// Merchant name on the payer page and in the PIX code (at most 25 characters are used).
    /// Required outside --sandbox.
    #[arg(long)]
    merchant_name: Option<String>,
    /// Merchant city in the PIX code. Required outside --sandbox.
    #[arg(long)]
    merchant_city: Option<String>,
    /// The PIX key that receives payments. Required outside --sandbox when PIX is offered.
    #[arg(long)]
    pix_key: Option<String>,
    /// What the merchant offers payers: PIX, BOLETO or both (an invoice or a link asking
    /// for another is refused on paymentTypes).
    #[arg(long, value_delimiter = ',', default_values = ["PIX", "BOLETO"])]
    payment_types: Vec<String>,
    #[command(flatten)]
    boleto: BoletoArgs,
    /// The merchant's CNPJ or CPF, printed as the beneficiário on boletos. Required outside
    /// --sandbox.
    #[arg(long)]
    merchant_document: Option<String>,
    /// Agência/Código do Beneficiário as your bank prints it, e.g. "1234-5 / 12345-6".
    /// Required outside --sandbox when BOLETO is offered (the sandbox shows the agreement).
    #[arg(long)]
    boleto_beneficiary_code: Option<String>,
    /// SMTP server for Email notifications: smtp://USER@HOST:587 (STARTTLS required) or
    /// smtps://USER@HOST:465 (TLS); smtp://127.0.0.1:25?tls=none for a relay on this machine.
    #[arg(long, requires = "smtp_from")]
    smtp_url: Option<String>,
    /// File holding the password of --smtp-url's user (never on the command line).
    #[arg(long, requires = "smtp_url")]
    smtp_password_file: Option<PathBuf>,
    /// A root certificate to trust for the SMTP server beside the usual ones (PEM).
    #[arg(long, requires = "smtp_url")]
    smtp_ca: Option<PathBuf>,
    /// Sender of notification e-mails, e.g. "Loja <cobranca@loja.example>".
    #[arg(long)]
    smtp_from: Option<String>,
    /// HTTP provider for WhatsApp and SMS notifications (one JSON POST per message), for a
    /// channel whose own provider (--whatsapp-*, --twilio-*) is not set.
    #[arg(long)]
    notify_http_url: Option<String>,
    #[command(flatten)]
    providers: ProviderArgs,
    /// An origin allowed to call the proxy cross-origin (CORS) and to frame the widget, e.g. "https://loja.example" (repeatable).
    #[arg(long)]
    allowed_origin: Vec<String>,
    /// Payment links' creations allowed per minute per client address (0: no limit).
    #[arg(long, default_value_t = crate::http::ratelimit::Budget::LINK_CREATIONS.0)]
    public_rate_limit: u32,
    /// The payer's requests (/api/pay/*, boleto PDFs) allowed per minute per client address
    /// (0: no limit). A payer's page needs under 30.
    #[arg(long, default_value_t = crate::http::ratelimit::Budget::PAYER.0)]
    payer_rate_limit: u32,
    /// Take the client address from X-Forwarded-For (only behind your own reverse proxy).
    #[arg(long)]
    trust_forwarded_for: bool,
    /// After SIGTERM, how long to keep serving while /readyz answers 503, so a load
    /// balancer moves new clients off first (e.g. 5s, 0 for none; Ctrl-C skips it).
    #[arg(long, default_value = "5s", value_parser = super::common::parse_duration)]
    drain_delay: std::time::Duration,
    /// How long a request's headers may take to arrive in full, from the connection's
    /// accept (or, on a kept-alive one, from the request's first byte); past it the
    /// connection is closed (e.g. 10s).
    #[arg(long, default_value = "10s", value_parser = parse_timeout)]
    header_timeout: std::time::Duration,
    /// How long a kept-alive connection may wait for its next request before it is
    /// closed; keep it above your load balancer's idle timeout (e.g. 75s).
    #[arg(long, default_value = "75s", value_parser = parse_timeout)]
    idle_timeout: std::time::Duration,
    /// Connections served at once; past it a connection is answered 503 and closed.
    #[arg(long, default_value_t = crate::app::MAX_CONNECTIONS, value_parser = parse_connections)]
    max_connections: usize,
    #[command(flatten)]
    pix: PixArgs,
    #[command(flatten)]
    workers: super::workers_args::WorkersArgs,
    #[command(flatten)]
    observability: super::observability::ObservabilityArgs,
}

/// A connection timeout: a duration (`parse_duration`) of at least a millisecond;
/// 0 would close every connection at once.
fn parse_timeout(text: &str) -> Result<std::time::Duration, super::common::DurationError> {
    let d = super::common::parse_duration(text)?;
    if d.is_zero() {
        return Err(super::common::DurationError::Zero(text.to_string()));
    }
    Ok(d)
}

/// `--max-connections` that is not a whole number from 1 to a million.
#[derive(Debug, thiserror::Error)]
#[error("{0:?} is not a number of connections from 1 to 1000000")]
pub struct ConnectionCountError(String);

/// `--max-connections`: a whole number from 1 to a million (each connection is a
/// socket, and up to a megabyte of buffered headers).
fn parse_connections(text: &str) -> Result<usize, ConnectionCountError> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        _ => Err(ConnectionCountError(text.to_string())),
    }
}

impl ServeArgs {
    /// The log format, read before the runtime starts (`cli::main` sets the subscriber).
    pub(super) fn log_format(&self) -> super::observability::LogFormat {
        self.observability.log_format
    }
}

/// WhatsApp Business (Cloud API) and SMS (Twilio) accounts: docs/payments.md, Notifications.
#[derive(clap::Args)]
pub struct ProviderArgs {
    /// WhatsApp Business Cloud API: the id of the sending number (WhatsApp Manager, API Setup).
    #[arg(long, requires_all = ["whatsapp_token_file", "whatsapp_template"])]
    whatsapp_phone_number_id: Option<String>,
    /// File holding the access token (a system user's, with whatsapp_business_messaging).
    #[arg(long, requires = "whatsapp_phone_number_id")]
    whatsapp_token_file: Option<PathBuf>,
    /// The approved message template's name; its body takes {{1}} payer name, {{2}} amount,
    /// {{3}} due date, {{4}} payment link.
    #[arg(long, requires = "whatsapp_phone_number_id")]
    whatsapp_template: Option<String>,
    /// The template's language code.
    #[arg(long, default_value = "pt_BR")]
    whatsapp_template_lang: String,
    /// The Graph API's base, with its version.
    #[arg(long, default_value = crate::domain::providers::GRAPH_API)]
    whatsapp_api_url: String,
    /// File holding the verify token you type in the Meta app's webhook setup.
    #[arg(long, requires = "whatsapp_phone_number_id")]
    whatsapp_verify_token_file: Option<PathBuf>,
    /// File holding the Meta app's secret, which signs its webhooks (X-Hub-Signature-256).
    #[arg(long, requires = "whatsapp_phone_number_id")]
    whatsapp_app_secret_file: Option<PathBuf>,
    /// Twilio Messages API: the Account SID (AC...).
    #[arg(long, requires_all = ["twilio_auth_token_file", "twilio_from"])]
    twilio_account_sid: Option<String>,
    /// File holding the account's auth token (also the key of X-Twilio-Signature).
    #[arg(long, requires = "twilio_account_sid")]
    twilio_auth_token_file: Option<PathBuf>,
    /// The sending number (E.164, e.g. +5511...) or a Messaging Service SID (MG...).
    #[arg(long, requires = "twilio_account_sid")]
    twilio_from: Option<String>,
    /// Twilio's REST API base.
    #[arg(long, default_value = crate::domain::providers::TWILIO_API)]
    twilio_api_url: String,
}

/// An API base URL given to a flag: http(s), no query or fragment, without its trailing `/`.
fn api_base(url: &str, flag: &'static str) -> Result<String, ConfigError> {
    let parsed = reqwest::Url::parse(url.trim()).map_err(|source| ConfigError::BadUrl {
        setting: flag,
        value: url.to_string(),
        source,
    })?;
    if !matches!(parsed.scheme(), "http" | "https")
        || parsed.query().is_some()
        || parsed.fragment().is_some()
        || parsed.password().is_some()
    {
        return Err(ConfigError::Disallowed {
            setting: flag,
            value: url.to_string(),
            expected: "an https:// base URL, without query or credentials",
        });
    }
    Ok(url.trim().trim_end_matches('/').to_string())
}

/// The WhatsApp and Twilio accounts, their secrets read from their files; every bad or
/// missing part named, no secret printed.
pub(super) fn provider_configs(
    p: &ProviderArgs,
) -> Result<
    (
        Option<crate::domain::providers::WhatsAppConfig>,
        Option<crate::domain::providers::TwilioConfig>,
    ),
    ConfigError,
> {
    use crate::domain::providers::{Secret, TwilioConfig, WhatsAppConfig};
    let secret = |f: &Option<PathBuf>| f.as_deref().map(secret_from_file).transpose();
    let whatsapp = match p.whatsapp_phone_number_id.as_deref().map(str::trim) {
        None => None,
        Some(id) => {
            if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ConfigError::Malformed {
                    setting: "--whatsapp-phone-number-id",
                    value: id.to_string(),
                    expected: "a phone number id (digits)",
                });
            }
            let template = p.whatsapp_template.as_deref().unwrap_or_default().trim();
            if template.is_empty()
                || !template
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            {
                return Err(ConfigError::Malformed {
                    setting: "--whatsapp-template",
                    value: template.to_string(),
                    expected: "a template name (a-z, 0-9, _)",
                });
            }
            let lang = p.whatsapp_template_lang.trim();
            let lang_ok = {
                let (l, region) = lang.split_once('_').unwrap_or((lang, ""));
                (2..=3).contains(&l.len())
                    && l.bytes().all(|b| b.is_ascii_lowercase())
                    && (region.is_empty()
                        || (region.len() == 2 && region.bytes().all(|b| b.is_ascii_uppercase())))
            };
            if !lang_ok {
                return Err(ConfigError::Malformed {
                    setting: "--whatsapp-template-lang",
                    value: lang.to_string(),
                    expected: "a language code like pt_BR",
                });
            }
            let token = secret(&p.whatsapp_token_file)?.ok_or(ConfigError::Needs {
                setting: "--whatsapp-phone-number-id",
                needs: "--whatsapp-token-file",
            })?;
            let verify_token = secret(&p.whatsapp_verify_token_file)?.map(Secret::new);
            let app_secret = secret(&p.whatsapp_app_secret_file)?.map(Secret::new);
            if verify_token.is_none() || app_secret.is_none() {
                tracing::warn!("no --whatsapp-verify-token-file or --whatsapp-app-secret-file: WhatsApp's status webhooks are refused, sends show no delivery");
            }
            Some(WhatsAppConfig {
                api_url: api_base(&p.whatsapp_api_url, "--whatsapp-api-url")?,
                phone_number_id: id.to_string(),
                token: Secret::new(token),
                template: template.to_string(),
                template_lang: lang.to_string(),
                verify_token,
                app_secret,
            })
        }
    };
    let twilio = match p.twilio_account_sid.as_deref().map(str::trim) {
        None => None,
        Some(sid) => {
            let hex32 = |s: &str| s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit());
            if !sid.strip_prefix("AC").is_some_and(hex32) {
                return Err(ConfigError::Malformed {
                    setting: "--twilio-account-sid",
                    value: sid.to_string(),
                    expected: "an Account SID (AC and 32 hex digits)",
                });
            }
            let from = p.twilio_from.as_deref().unwrap_or_default().trim();
            let from = if from.strip_prefix("MG").is_some_and(hex32) {
                from.to_string()
            } else {
                paylink_model::br::check_phone(from).map_err(|_| ConfigError::Malformed {
                    setting: "--twilio-from",
                    value: from.to_string(),
                    expected: "a phone number (+55...) or Messaging Service SID (MG...)",
                })?
            };
            let token = secret(&p.twilio_auth_token_file)?.ok_or(ConfigError::Needs {
                setting: "--twilio-account-sid",
                needs: "--twilio-auth-token-file",
            })?;
            Some(TwilioConfig {
                api_url: api_base(&p.twilio_api_url, "--twilio-api-url")?,
                account_sid: sid.to_string(),
                auth_token: Secret::new(token),
                from,
            })
        }
    };
    Ok((whatsapp, twilio))
}

/// A bank's API Pix (README, Settlement); without `--pix-api-url` the payer page shows the
/// static BR Code of `--pix-key`.
#[derive(clap::Args)]
pub struct PixArgs {
    /// Base URL of the bank's API Pix, e.g. https://pix.banco.example/api/v2.
    #[arg(long, env = "PAYLINK_PIX_API_URL")]
    pix_api_url: Option<String>,
    /// The bank's OAuth2 token URL (client credentials).
    #[arg(long, env = "PAYLINK_PIX_TOKEN_URL")]
    pix_token_url: Option<String>,
    /// The OAuth2 client id the bank gave the merchant.
    #[arg(long, env = "PAYLINK_PIX_CLIENT_ID")]
    pix_client_id: Option<String>,
    /// File holding the OAuth2 client secret (never on the command line).
    #[arg(long, env = "PAYLINK_PIX_CLIENT_SECRET_FILE")]
    pix_client_secret_file: Option<PathBuf>,
    /// The merchant's certificate for mutual TLS with the bank (PEM).
    #[arg(long, env = "PAYLINK_PIX_CERT", requires = "pix_cert_key")]
    pix_cert: Option<PathBuf>,
    /// The key of --pix-cert (PEM, PKCS#8, RSA or EC).
    #[arg(long, env = "PAYLINK_PIX_CERT_KEY", requires = "pix_cert")]
    pix_cert_key: Option<PathBuf>,
    /// A root certificate to trust for the bank beside the usual ones (PEM).
    #[arg(long, env = "PAYLINK_PIX_CA")]
    pix_ca: Option<PathBuf>,
    /// The merchant's account at the bank each Pix Automático cycle is credited to (the
    /// recurring charges' `recebedor.conta`); without it later cycles are paid on the payer page.
    #[arg(long, env = "PAYLINK_PIX_ACCOUNT")]
    pix_account: Option<String>,
    /// That account's type: CORRENTE, POUPANCA or PAGAMENTO.
    #[arg(long, env = "PAYLINK_PIX_ACCOUNT_TYPE", default_value = "CORRENTE")]
    pix_account_type: String,
    /// That account's agency (up to 4 digits).
    #[arg(long, env = "PAYLINK_PIX_AGENCY")]
    pix_agency: Option<String>,
    /// Seconds between reconciliation passes (GET /pix of the last hours at the bank).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pix_reconcile_secs: u64,
    /// Seconds between the reconciliation passes that read the last 90 days of Pix instead, for
    /// devoluções (a MED claim) on older Pix whose callback was lost.
    #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pix_devolucao_sweep_secs: u64,
}

/// The merchant's account for Pix Automático's recurring charges (`--pix-account`), checked as the
/// document bounds it: up to 20 digits (a hyphen allowed), a known type, an agency of up to 4
/// digits.
pub(super) fn pix_account(
    pix: &PixArgs,
) -> Result<Option<crate::domain::pix_api::rec::Recebedor>, ConfigError> {
    let Some(conta) = pix.pix_account.as_deref().map(str::trim) else {
        if pix.pix_agency.is_some() {
            return Err(ConfigError::Needs {
                setting: "--pix-agency",
                needs: "--pix-account",
            });
        }
        return Ok(None);
    };
    if pix.pix_api_url.is_none() {
        return Err(ConfigError::Needs {
            setting: "--pix-account",
            needs: "--pix-api-url",
        });
    }
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit() || b == b'-');
    if conta.is_empty() || conta.len() > 20 || !digits(conta) {
        return Err(ConfigError::Malformed {
            setting: "--pix-account",
            value: conta.to_string(),
            expected: "an account number (up to 20 digits)",
        });
    }
    let tipo_conta = match pix.pix_account_type.trim() {
        "CORRENTE" => "CORRENTE",
        "POUPANCA" => "POUPANCA",
        "PAGAMENTO" => "PAGAMENTO",
        other => {
            return Err(ConfigError::NotAChoice {
                setting: "--pix-account-type",
                value: other.to_string(),
                expected: "CORRENTE, POUPANCA or PAGAMENTO",
            })
        }
    };
    let agencia = match pix.pix_agency.as_deref().map(str::trim) {
        Some(a) if a.is_empty() || a.len() > 4 || !a.bytes().all(|b| b.is_ascii_digit()) => {
            return Err(ConfigError::Malformed {
                setting: "--pix-agency",
                value: a.to_string(),
                expected: "an agency (up to 4 digits)",
            });
        }
        a => a.map(str::to_string),
    };
    Ok(Some(crate::domain::pix_api::rec::Recebedor {
        conta: conta.to_string(),
        tipo_conta,
        agencia,
    }))
}

/// The last non-empty line of `file`, trimmed: a secret, never printed.
pub(super) fn secret_from_file(file: &std::path::Path) -> Result<String, ConfigError> {
    let text = std::fs::read_to_string(file).map_err(|source| ConfigError::Unreadable {
        path: file.to_path_buf(),
        source,
    })?;
    text.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
        .ok_or_else(|| ConfigError::EmptyFile {
            path: file.to_path_buf(),
        })
}

/// The bytes of a file a setting names (a certificate, a key, a root), or its refusal.
fn read(path: &std::path::Path) -> Result<Vec<u8>, ConfigError> {
    std::fs::read(path).map_err(|source| ConfigError::Unreadable {
        path: path.to_path_buf(),
        source,
    })
}

/// The bank's client, when `--pix-api-url` is given; every missing or unreadable part is named.
pub(super) fn pix_client(
    pix: &PixArgs,
    key: &str,
) -> Result<Option<crate::bank::PixClient>, ConfigError> {
    let Some(api_url) = pix.pix_api_url.as_deref() else {
        let stray = [
            (pix.pix_token_url.is_some(), "--pix-token-url"),
            (pix.pix_client_id.is_some(), "--pix-client-id"),
            (
                pix.pix_client_secret_file.is_some(),
                "--pix-client-secret-file",
            ),
            (pix.pix_cert.is_some(), "--pix-cert"),
            (pix.pix_ca.is_some(), "--pix-ca"),
        ];
        if let Some((_, flag)) = stray.iter().find(|(given, _)| *given) {
            return Err(ConfigError::Needs {
                setting: flag,
                needs: "--pix-api-url",
            });
        }
        return Ok(None);
    };
    let https = |url: &str, flag: &'static str| {
        paylink_model::br::parse_http_url(url)
            .filter(|_| url.starts_with("https://"))
            .map(|_| url.trim_end_matches('/').to_string())
            .ok_or_else(|| ConfigError::Malformed {
                setting: flag,
                value: url.to_string(),
                expected: "an https:// URL",
            })
    };
    let needs = |needs| ConfigError::Needs {
        setting: "--pix-api-url",
        needs,
    };
    let token_url = pix
        .pix_token_url
        .as_deref()
        .ok_or_else(|| needs("--pix-token-url"))?;
    let client_id = pix
        .pix_client_id
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .ok_or_else(|| needs("--pix-client-id"))?;
    let secret_file = pix
        .pix_client_secret_file
        .as_deref()
        .ok_or_else(|| needs("--pix-client-secret-file"))?;
    let identity = match (&pix.pix_cert, &pix.pix_cert_key) {
        (Some(c), Some(k)) => Some((read(c)?, read(k)?)),
        _ => None,
    };
    let config = crate::bank::PixConfig {
        api_url: https(api_url, "--pix-api-url")?,
        token_url: https(token_url, "--pix-token-url")?,
        client_id: client_id.to_string(),
        client_secret: secret_from_file(secret_file)?,
        identity,
        ca: pix.pix_ca.as_deref().map(read).transpose()?,
        key: key.trim().to_string(),
    };
    Ok(Some(crate::bank::PixClient::new(config)?))
}

/// The SMTP server of `--smtp-url`, with its password and extra root read from their files.
fn smtp_config(
    args: &ServeArgs,
) -> Result<Option<crate::workers::notifications::SmtpConfig>, ConfigError> {
    let Some(url) = args.smtp_url.as_deref() else {
        return Ok(None);
    };
    let from = args.smtp_from.as_deref().ok_or(ConfigError::Needs {
        setting: "--smtp-url",
        needs: "--smtp-from",
    })?;
    let password = args
        .smtp_password_file
        .as_deref()
        .map(secret_from_file)
        .transpose()?;
    let ca = args.smtp_ca.as_deref().map(read).transpose()?;
    Ok(Some(crate::workers::notifications::SmtpConfig::new(
        url,
        from,
        password,
        ca.as_deref(),
    )?))
}

fn proxy_token(args: &ServeArgs) -> Result<Option<String>, ConfigError> {
    if let Some(file) = &args.token_file {
        return secret_from_file(file).map(Some);
    }
    Ok(args.token.clone().filter(|t| !t.trim().is_empty()))
}

/// `'self'` plus each configured origin, which must be a bare http(s) origin.
fn frame_ancestors(origins: &[String]) -> Result<Option<String>, ConfigError> {
    if origins.is_empty() {
        return Ok(None);
    }
    let mut value = String::from("'self'");
    for o in origins {
        check_origin(o, "--frame-ancestors")?;
        value.push(' ');
        value.push_str(o.trim_end_matches('/'));
    }
    Ok(Some(value))
}

fn check_origin(o: &str, flag: &'static str) -> Result<(), ConfigError> {
    let parts = paylink_model::br::parse_http_url(o)
        .filter(|_| !o.trim_end_matches('/').contains(['?', '#', ' ', ';']));
    let path_free = o.splitn(4, '/').nth(3).is_none_or(str::is_empty);
    if parts.is_none() || !path_free {
        return Err(ConfigError::Malformed {
            setting: flag,
            value: o.to_string(),
            expected: "an origin like https://loja.example",
        });
    }
    Ok(())
}

/// The values the sandbox shows payers where a setting is missing: a PIX code and a
/// boleto that pay nobody, so never outside `--sandbox`.
mod demo {
    pub const MERCHANT_NAME: &str = "Loja Exemplo";
    pub const MERCHANT_CITY: &str = "Sao Paulo";
    pub const PIX_KEY: &str = "pix@paylink.example";
}

/// A setting a payer would see: its value, the sandbox's demo value, or (outside the
/// sandbox) its name added to `missing`.
fn payer_setting(
    value: Option<&str>,
    long: &'static str,
    demo: Option<&str>,
    sandbox: bool,
    missing: &mut Vec<&'static str>,
) -> Option<String> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        Some(v) => Some(v.to_string()),
        None if sandbox => demo.map(str::to_string),
        None => {
            missing.push(long);
            None
        }
    }
}

/// What the merchant offers (`--payment-types`): at least one of PIX and BOLETO.
fn payment_types(args: &ServeArgs) -> Result<Vec<paylink_model::PaymentType>, ConfigError> {
    let mut types = Vec::new();
    for t in &args.payment_types {
        let t =
            paylink_model::PaymentType::parse(&t.trim().to_ascii_uppercase()).ok_or_else(|| {
                ConfigError::BadItem {
                    setting: "--payment-types",
                    value: t.clone(),
                    expected: "PIX or BOLETO",
                }
            })?;
        if !types.contains(&t) {
            types.push(t);
        }
    }
    if types.is_empty() {
        return Err(ConfigError::Needs {
            setting: "--payment-types",
            needs: "PIX, BOLETO or both",
        });
    }
    Ok(types)
}

fn payer_config(args: &ServeArgs) -> Result<crate::domain::payer::PayerConfig, ConfigError> {
    use paylink_model::PaymentType;
    let sandbox = args.sandbox;
    let offered = payment_types(args)?;
    let pix = offered.contains(&PaymentType::Pix);
    let boleto = offered.contains(&PaymentType::Boleto);
    let mut missing = Vec::new();
    let m = &mut missing;
    let merchant_name = payer_setting(
        args.merchant_name.as_deref(),
        "merchant-name",
        Some(demo::MERCHANT_NAME),
        sandbox,
        m,
    );
    let merchant_city = payer_setting(
        args.merchant_city.as_deref(),
        "merchant-city",
        Some(demo::MERCHANT_CITY),
        sandbox,
        m,
    );
    let pix_key = if pix || args.pix_key.is_some() {
        payer_setting(
            args.pix_key.as_deref(),
            "pix-key",
            Some(demo::PIX_KEY),
            sandbox,
            m,
        )
    } else {
        Some(String::new())
    };
    let merchant_document = payer_setting(
        args.merchant_document.as_deref(),
        "merchant-document",
        None,
        sandbox,
        m,
    )
    .map(|d| {
        paylink_model::br::check_document(&d).map_err(|_| ConfigError::Malformed {
            setting: "--merchant-document",
            value: d.clone(),
            expected: "a valid CNPJ or CPF",
        })
    })
    .transpose()?;
    let boleto_config = args.boleto.config(sandbox || !boleto, m);
    let boleto_beneficiary_code = if boleto {
        payer_setting(
            args.boleto_beneficiary_code.as_deref(),
            "boleto-beneficiary-code",
            None,
            sandbox,
            m,
        )
    } else {
        args.boleto_beneficiary_code.clone()
    };
    if !missing.is_empty() {
        return Err(ConfigError::DemoValues { missing });
    }
    let (Some(merchant_name), Some(merchant_city), Some(pix_key)) =
        (merchant_name, merchant_city, pix_key)
    else {
        unreachable!("every missing setting was listed above");
    };
    Ok(crate::domain::payer::PayerConfig {
        merchant_name,
        merchant_city,
        pix_key,
        boleto: boleto_config?,
        merchant_document,
        boleto_beneficiary_code,
        sandbox,
        pix_api: args.pix.pix_api_url.is_some(),
        offers_boleto: boleto,
        offers_pix: pix,
        clock: crate::domain::Clock::System,
    })
}

/// The base URL payers' links carry: `--public-url`, or the listen address. Outside the
/// sandbox a public URL beyond loopback must be https (a payer's personal data and the
/// operators' session cross the network), and a server listening beyond loopback must be
/// told the name browsers use.
fn public_url(args: &ServeArgs, addr: SocketAddr) -> Result<String, ConfigError> {
    let Some(url) = args.public_url.as_deref().map(str::trim) else {
        if !addr.ip().is_loopback() {
            if !args.sandbox {
                return Err(ConfigError::PublicUrlMissing { addr });
            }
            // Browsers reach it by another name: links would carry the listen
            // address, and the pages' writes fail the origin check (CSRF).
            tracing::warn!(%addr, "listening beyond loopback without --public-url: set it to the address browsers use");
        }
        return Ok(format!("http://{addr}"));
    };
    let parsed = reqwest::Url::parse(url)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
        .ok_or_else(|| ConfigError::Malformed {
            setting: "--public-url",
            value: url.to_string(),
            expected: "an http(s) URL",
        })?;
    let loopback = match parsed.host() {
        Some(url::Host::Domain(d)) => d == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    if parsed.scheme() != "https" && !loopback && !args.sandbox {
        return Err(ConfigError::Disallowed {
            setting: "--public-url",
            value: url.to_string(),
            expected: "https:// outside loopback (PAYLINK_PUBLIC_URL)",
        });
    }
    Ok(url.trim_end_matches('/').to_string())
}

/// Everything `serve` takes from its settings, checked and read (secret files included)
/// before anything starts: the same check `config check` runs.
pub(super) struct Checked {
    pix: Option<crate::bank::PixClient>,
    account: Option<crate::domain::pix_api::rec::Recebedor>,
    token: Option<String>,
    outbound: Outbound,
    notify: NotifyConfig,
    payer: crate::domain::payer::PayerConfig,
    frame_ancestors: Option<String>,
}

/// Every setting of `args` checked, each bad or missing one named. `public_url` is the
/// links' base (from [`public_url`]).
pub(super) fn check(args: &ServeArgs, public_url: &str) -> Result<Checked, ConfigError> {
    // The merchant's settings a payer sees come last, so a malformed setting is named
    // even while others are still missing.
    let key = args
        .pix_key
        .clone()
        .or_else(|| args.sandbox.then(|| demo::PIX_KEY.to_string()))
        .unwrap_or_default();
    let pix = pix_client(&args.pix, &key)?;
    let account = pix_account(&args.pix)?;
    let token = proxy_token(args)?;
    let mut outbound = if args.allow_insecure_webhooks {
        Outbound::allow_private()
    } else {
        Outbound::public_only()
    };
    if let Some(proxy) = &args.webhook_proxy {
        outbound = outbound.through_proxy(proxy)?;
    }
    let mut notify = NotifyConfig::new(
        public_url,
        smtp_config(args)?,
        args.notify_http_url.as_deref(),
    )?;
    (notify.whatsapp, notify.twilio) = provider_configs(&args.providers)?;
    notify.outbound = outbound.clone();
    notify.check_urls()?;
    for o in &args.allowed_origin {
        check_origin(o, "--allowed-origin")?;
    }
    let frame_ancestors = frame_ancestors(
        &args
            .frame_ancestors
            .iter()
            .chain(&args.allowed_origin)
            .cloned()
            .collect::<Vec<_>>(),
    )?;
    let payer = payer_config(args)?;
    notify.payer = payer.clone();
    Ok(Checked {
        pix,
        account,
        token,
        outbound,
        notify,
        payer,
        frame_ancestors,
    })
}

/// `paylink config check`: every setting checked as `serve` checks it (no database opened,
/// nothing listened on), then printed with its origin; secrets masked.
pub(super) fn config_check(
    args: &ServeArgs,
    effective: &[(String, String, super::config::Origin)],
) -> Result<(), super::Failure> {
    let checked = public_url(args, args.listen).and_then(|url| check(args, &url).map(|_| ()));
    let width = effective.iter().map(|(n, ..)| n.len()).max().unwrap_or(0);
    for (name, value, origin) in effective {
        let shown = if value.is_empty() { "-" } else { value };
        println!("{name:width$}  {shown}  ({})", origin.word());
    }
    match checked {
        Ok(()) => {
            println!("configuration ok");
            Ok(())
        }
        Err(e) => Err(super::Failure::Usage(format!("invalid configuration: {e}"))),
    }
}

pub(super) async fn serve(args: ServeArgs) -> Result<(), super::Failure> {
    // Every setting first: a refused configuration opens no database and binds no port.
    let checked = check(&args, &public_url(&args, args.listen)?)?;
    let mode = if args.no_migrate {
        crate::store::OpenMode::RequireCurrent
    } else {
        crate::store::OpenMode::Migrate
    };
    let db = open_as(&args.db, mode).await?;
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| super::Failure::Runtime(format!("cannot listen on {}: {e}", args.listen)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| super::Failure::Runtime(e.to_string()))?;
    // Port 0 picks a port: the links' default base is the one bound.
    let public_url = public_url(&args, addr)?;
    let Checked {
        pix,
        account,
        token,
        outbound,
        mut notify,
        payer,
        frame_ancestors,
    } = checked;
    // The notices' links carry the bound base (nothing else the check read depends on it).
    notify.public_url.clone_from(&public_url);
    if pix.is_some() && account.is_none() {
        tracing::info!(
            "no --pix-account: Pix Automático's later cycles are paid on the payer page"
        );
    }
    if let Some(bank) = &pix {
        tracing::info!(?bank, "PIX charges through the bank's API Pix");
    }
    // Bound and installed before any worker starts, so their first attempts are counted;
    // served only once every option has been checked, with the public listener.
    let metrics = match args.observability.metrics_listen {
        Some(at) => {
            let listener = tokio::net::TcpListener::bind(at).await.map_err(|e| {
                super::Failure::Runtime(format!("--metrics-listen: cannot listen on {at}: {e}"))
            })?;
            Some((
                listener,
                crate::metrics::install(db.clone())
                    .map_err(|e| super::Failure::Runtime(e.to_string()))?,
            ))
        }
        None => None,
    };
    if token.is_none() {
        tracing::warn!("no PAYLINK_TOKEN or --token-file: the widget's proxy (/api) answers 503");
    }
    let dist = args
        .dist
        .join("index.html")
        .is_file()
        .then(|| args.dist.clone());
    if let Some(dir) = dist.clone() {
        // Before listening, so the first visitor already gets the small files.
        match tokio::task::spawn_blocking(move || crate::web::precompress(&dir)).await {
            Ok(Ok(n)) if n > 0 => tracing::info!(files = n, "precompressed the widget"),
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "cannot precompress the widget; compressing on the fly");
            }
            Err(e) => tracing::warn!(error = %e, "precompression task failed"),
        }
    }
    if dist.is_none() {
        tracing::warn!(dist = %args.dist.display(), "no built widget found: pages are not served");
    }
    let state_db = db.clone();
    let state = Service {
        outbound: outbound.clone(),
        db,
        public_url: Arc::from(public_url.as_str()),
        merchant: payer.merchant_setup(),
    };
    let options = Options {
        proxy: token.map(|token| ProxyConfig {
            token,
            upstream: args.upstream.clone(),
            timeout: DEFAULT_UPSTREAM_TIMEOUT,
        }),
        dist,
        payer,
        frame_ancestors,
        sessions: Default::default(),
        allowed_origins: args.allowed_origin.clone(),
        public_rate_limit: crate::http::ratelimit::Budget(args.public_rate_limit),
        payer_rate_limit: crate::http::ratelimit::Budget(args.payer_rate_limit),
        trust_forwarded_for: args.trust_forwarded_for,
        provider_hooks: crate::http::provider_webhooks::ProviderHooks::of(
            &state_db,
            notify.whatsapp.as_ref(),
            notify.twilio.as_ref(),
            notify.sms_callback_url(),
        ),
        pix_webhook: pix
            .clone()
            .map(|bank| crate::http::pix_webhook::PixWebhook {
                db: state_db.clone(),
                bank,
            }),
        metrics: metrics.is_some(),
        ..Default::default()
    };
    if args.operator_ui {
        tracing::warn!("--operator-ui is no longer needed: merchant screens need an operator login (paylink operator add)");
    }
    let readiness = options.readiness.clone();
    let router = app(state, options);
    // Only now that every option has been checked: a refused configuration
    // starts no delivery, send or bank call.
    let mut workers = Workers::new();
    let run = &args.workers.workers;
    if run.runs("webhooks") {
        let deliverer = Deliverer::new(state_db.clone(), outbound.clone())
            .with_retry_base(args.workers.retry_base_delay);
        workers.spawn("webhooks", move |stop| deliverer.clone().run(stop));
    }
    if run.runs("notifications") {
        let notifier = Notifier::new(state_db.clone(), notify);
        workers.spawn("notifications", move |stop| notifier.clone().run(stop));
    }
    if let Some(bank) = &pix {
        if run.runs("pix-charges") {
            let charges = crate::workers::pix::PixCharges::new(state_db.clone(), bank.clone());
            let charges = match account.clone() {
                Some(a) => charges.with_account(a),
                None => charges,
            };
            workers.spawn("pix-charges", move |stop| charges.clone().run(stop));
            let (hook_bank, hook_url) = (bank.clone(), public_url.clone());
            workers.spawn("pix-webhook", move |stop| {
                crate::workers::pix::register_webhook(hook_bank.clone(), hook_url.clone(), stop)
            });
        }
        if run.runs("pix-recurrences") {
            let recurrences =
                crate::workers::pix_rec::PixRecurrences::new(state_db.clone(), bank.clone());
            workers.spawn("pix-recurrences", move |stop| recurrences.clone().run(stop));
            let (hook_bank, hook_url) = (bank.clone(), public_url.clone());
            workers.spawn("pix-rec-webhooks", move |stop| {
                crate::workers::pix_rec::register_webhooks(
                    hook_bank.clone(),
                    hook_url.clone(),
                    stop,
                )
            });
        }
        if run.runs("pix-reconcile") {
            let (rec_db, rec_bank) = (state_db.clone(), bank.clone());
            let every = std::time::Duration::from_secs(args.pix.pix_reconcile_secs);
            let sweep = std::time::Duration::from_secs(args.pix.pix_devolucao_sweep_secs);
            workers.spawn("pix-reconcile", move |stop| {
                crate::workers::pix::reconcile(rec_db.clone(), rec_bank.clone(), every, sweep, stop)
            });
        }
    }
    if run.runs("scheduler") {
        let scheduler_db = state_db.clone();
        workers.spawn("scheduler", move |stop| {
            crate::workers::scheduler::run(scheduler_db.clone(), stop)
        });
    }
    if run.runs("prune") {
        let (prune_db, retention) = (state_db.clone(), args.workers.retention());
        workers.spawn("prune", move |stop| {
            crate::workers::prune::run(prune_db.clone(), retention.clone(), stop)
        });
    }
    let signals = crate::app::StopSignals::listen().map_err(|e| {
        super::Failure::Runtime(format!("cannot listen for SIGTERM and Ctrl-C: {e}"))
    })?;
    let metrics = match metrics {
        Some((listener, metrics)) => {
            let at = listener
                .local_addr()
                .map_err(|e| super::Failure::Runtime(e.to_string()))?;
            let task = tokio::spawn(crate::metrics::serve(listener, metrics));
            Some((at, tokio_util::task::AbortOnDropHandle::new(task)))
        }
        None => None,
    };
    // Printed on stdout so scripts and tests can find the port when --listen ends in :0.
    println!("paylink listening on http://{addr}");
    if let Some((at, _)) = &metrics {
        // After the line above, which scripts read first. Not `println!`: a reader that
        // stopped after the first line must not make this panic on a closed pipe.
        use std::io::Write;
        let _ = writeln!(std::io::stdout(), "paylink metrics on http://{at}/metrics");
        tracing::info!(%at, "serving /metrics");
    }
    tracing::info!(%addr, %public_url, sandbox = args.sandbox, "serving");
    let shutdown = crate::app::Shutdown {
        signals,
        readiness,
        drain_delay: args.drain_delay,
    };
    let limits = crate::app::Limits {
        header_timeout: args.header_timeout,
        idle_timeout: args.idle_timeout,
        max_connections: args.max_connections,
    };
    let served = crate::app::serve(listener, router, workers, shutdown, limits)
        .await
        .map_err(|e| super::Failure::Runtime(e.to_string()));
    // Scraped until the public listener has stopped; dropping the handle ends it.
    drop(metrics);
    served
}
