//! `paylink` command line: `serve`, `token`, `simulate`, `invoice`, `webhook`,
//! `notifications`, `link`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

mod common;
pub mod links;
pub mod notifications;

use common::open;
pub use common::Failure;

use crate::app::{app, AppState, Options};
use crate::http::auth;
use crate::proxy::{ProxyConfig, DEFAULT_UPSTREAM_TIMEOUT};
use crate::store::payments;
use crate::store::{webhooks as webhook_store, Db};
use crate::workers::webhooks;

#[derive(Parser)]
#[command(
    name = "paylink",
    version,
    about = "paylink: invoicing service, widget proxy and payment pages"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the invoicing API, the widget's proxy and the widget.
    Serve(Box<ServeArgs>),
    /// Manage application tokens.
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
    /// Sandbox payments: confirm or reverse an installment as a bank would.
    Simulate {
        #[command(subcommand)]
        command: SimulateCommand,
    },
    /// Invoice administration.
    Invoice {
        #[command(subcommand)]
        command: InvoiceCommand,
    },
    /// Application-level webhooks, the signing secret, and deliveries.
    Webhook {
        #[command(subcommand)]
        command: WebhookCommand,
    },
    /// Payer notifications (e-mail, WhatsApp, SMS) and their sends.
    Notifications {
        #[command(subcommand)]
        command: crate::cli::notifications::NotificationsCommand,
    },
    /// Payment links: a public page (`/l/{slug}`) that creates invoices on fixed terms.
    Link {
        #[command(subcommand)]
        command: crate::cli::links::LinkCommand,
    },
}

#[derive(Subcommand)]
enum SimulateCommand {
    /// Confirm the payment of an installment (default: the next one waiting).
    Pay {
        invoice_id: String,
        #[arg(long)]
        installment: Option<u32>,
        /// PIX or BOLETO (default: the invoice's first accepted type).
        #[arg(long)]
        method: Option<String>,
        #[arg(long, env = "PAYLINK_DB", default_value = "./paylink.db")]
        db: String,
    },
    /// Reverse a confirmed payment.
    Reverse {
        invoice_id: String,
        #[arg(long)]
        installment: u32,
        #[arg(long, env = "PAYLINK_DB", default_value = "./paylink.db")]
        db: String,
    },
}

#[derive(Subcommand)]
enum InvoiceCommand {
    /// Soft-delete an invoice (a 404 from then on; fires INVOICE_DELETED).
    Delete {
        invoice_id: String,
        #[arg(long, env = "PAYLINK_DB", default_value = "./paylink.db")]
        db: String,
    },
}

#[derive(Subcommand)]
enum WebhookCommand {
    /// Register an application-level webhook.
    Add {
        #[arg(long)]
        token_name: String,
        #[arg(long)]
        hook_type: String,
        #[arg(long)]
        url: String,
        /// Accept http:// and internal hosts (local testing only).
        #[arg(long)]
        allow_insecure: bool,
        #[arg(long, env = "PAYLINK_DB", default_value = "./paylink.db")]
        db: String,
    },
    /// Print the application's signing secret (`whsec_...`).
    Secret {
        #[arg(long)]
        token_name: String,
        #[arg(long, env = "PAYLINK_DB", default_value = "./paylink.db")]
        db: String,
    },
    /// List delivery attempts (all, or of one event).
    Deliveries {
        #[arg(long)]
        event: Option<String>,
        #[arg(long, env = "PAYLINK_DB", default_value = "./paylink.db")]
        db: String,
    },
    /// Queue an event for delivery again.
    Redeliver {
        event_id: String,
        #[arg(long, env = "PAYLINK_DB", default_value = "./paylink.db")]
        db: String,
    },
}

#[derive(Parser)]
struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the chosen one is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// SQLite database file (created if missing) or `postgres://user:pass@host/db`
    /// (PAYLINK_DB keeps a password off the command line).
    #[arg(long, env = "PAYLINK_DB", default_value = "./paylink.db")]
    db: String,
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
    /// Sandbox mode (simulated payments); the README's run command uses it.
    #[arg(long)]
    sandbox: bool,
    /// Let webhooks use http:// and reach loopback/private addresses (local tests only).
    #[arg(long)]
    allow_insecure_webhooks: bool,
    /// Serve the merchant's screens (create customer/invoice, invoice detail through the proxy) on a
    /// non-loopback address. Put paylink behind your own login when you do.
    #[arg(long)]
    operator_ui: bool,
    /// Origins allowed to frame the widget (CSP frame-ancestors), e.g. "https://loja.example"; default: this origin only.
    #[arg(long)]
    frame_ancestors: Vec<String>,
    /// Merchant name on the payer page and in the PIX code (at most 25 characters are used).
    #[arg(long, default_value = "Loja Exemplo")]
    merchant_name: String,
    /// Merchant city in the PIX code.
    #[arg(long, default_value = "Sao Paulo")]
    merchant_city: String,
    /// The PIX key that receives payments.
    #[arg(long, default_value = "pix@paylink.example")]
    pix_key: String,
    /// Boleto bank code (3 digits).
    #[arg(long, default_value = "001")]
    boleto_bank: String,
    /// Boleto agreement (convênio, 7 digits).
    #[arg(long, default_value = "1234567")]
    boleto_agreement: String,
    /// Boleto wallet (carteira, 2 digits).
    #[arg(long, default_value = "17")]
    boleto_wallet: String,
    /// The merchant's CNPJ or CPF, printed as the beneficiário on boletos.
    #[arg(long)]
    merchant_document: Option<String>,
    /// Agência/Código do Beneficiário as your bank prints it, e.g. "1234-5 / 12345-6"
    /// (default: the agreement).
    #[arg(long)]
    boleto_beneficiary_code: Option<String>,
    /// SMTP relay for Email notifications: smtp://host:port (plain SMTP, no TLS).
    #[arg(long, requires = "smtp_from")]
    smtp_url: Option<String>,
    /// Sender of notification e-mails, e.g. "Loja <cobranca@loja.example>".
    #[arg(long)]
    smtp_from: Option<String>,
    /// HTTP provider for WhatsApp and SMS notifications (one JSON POST per message).
    #[arg(long)]
    notify_http_url: Option<String>,
    /// An origin allowed to call the proxy cross-origin (CORS) and to frame the widget, e.g. "https://loja.example" (repeatable).
    #[arg(long)]
    allowed_origin: Vec<String>,
    /// Payment links' creations allowed per minute per client address (0: no limit).
    #[arg(long, default_value_t = 30)]
    public_rate_limit: u32,
    /// Take the client address from X-Forwarded-For (only behind your own reverse proxy).
    #[arg(long)]
    trust_forwarded_for: bool,
}

#[derive(Subcommand)]
enum TokenCommand {
    /// Create an application and print its token (last line of stdout).
    Create {
        #[arg(long, env = "PAYLINK_DB", default_value = "./paylink.db")]
        db: String,
        #[arg(long)]
        name: String,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "paylink=info,tower_http=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("paylink: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(e)) => {
            eprintln!("paylink: {e}");
            ExitCode::from(2)
        }
        Err(Failure::Runtime(e)) => {
            eprintln!("paylink: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Token {
            command: TokenCommand::Create { db, name },
        } => {
            let db = open(&db).await?;
            let name = name.trim();
            if name.is_empty() {
                return Err(Failure::Usage("--name must not be empty".into()));
            }
            let (app, token) = auth::create_token(&db, name).await.map_err(|e| match e {
                sqlx::Error::Database(d) if d.is_unique_violation() => {
                    format!("an application named {name:?} already exists")
                }
                e => format!("cannot create the token: {e}"),
            })?;
            println!("application: {name}");
            println!("applicationId: {}", app.id);
            println!("userId: {}", app.user_id);
            println!("Use it as `Authorization: Basic <token>`. It is shown only now:");
            println!("{token}");
            Ok(())
        }
        Command::Serve(args) => Ok(serve(*args).await?),
        Command::Simulate { command } => Ok(simulate(command).await?),
        Command::Invoice {
            command: InvoiceCommand::Delete { invoice_id, db },
        } => {
            payments::delete_invoice(&open(&db).await?, &invoice_id)
                .await
                .map_err(|e| e.to_string())?;
            println!("invoice {invoice_id} deleted");
            Ok(())
        }
        Command::Webhook { command } => Ok(webhook(command).await?),
        Command::Notifications { command } => Ok(crate::cli::notifications::cli(command).await?),
        Command::Link { command } => crate::cli::links::cli(command).await,
    }
}

async fn simulate(command: SimulateCommand) -> Result<(), String> {
    let paid = match command {
        SimulateCommand::Pay {
            invoice_id,
            installment,
            method,
            db,
        } => {
            let method = match method.as_deref() {
                None => None,
                Some(m) => Some(
                    paylink_model::PaymentType::parse(&m.to_ascii_uppercase())
                        .ok_or_else(|| format!("--method must be PIX or BOLETO, not {m:?}"))?,
                ),
            };
            payments::simulate_pay(&open(&db).await?, &invoice_id, installment, method).await
        }
        SimulateCommand::Reverse {
            invoice_id,
            installment,
            db,
        } => payments::simulate_reverse(&open(&db).await?, &invoice_id, installment).await,
    }
    .map_err(|e| e.to_string())?;
    println!("installment {} is now {}", paid.installment, paid.status);
    Ok(())
}

async fn application(db: &Db, name: &str) -> Result<crate::store::Application, String> {
    db.find_application_by_name(name)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no application named {name:?} (see `paylink token create`)"))
}

async fn webhook(command: WebhookCommand) -> Result<(), String> {
    match command {
        WebhookCommand::Add {
            token_name,
            hook_type,
            url,
            allow_insecure,
            db,
        } => {
            let db = open(&db).await?;
            let app = application(&db, &token_name).await?;
            let kind = paylink_model::HookType::parse(&hook_type).ok_or_else(|| {
                format!(
                    "--hook-type must be one of {}",
                    paylink_model::HookType::NAMES.join(", ")
                )
            })?;
            paylink_model::br::check_webhook_url(&url, allow_insecure)
                .map_err(|m| m.render(paylink_model::Lang::En))?;
            let id = webhook_store::add_app_webhook(&db, &app.id, kind, &url)
                .await
                .map_err(|e| e.to_string())?;
            println!("webhook {id}: {hook_type} -> {url}");
        }
        WebhookCommand::Secret { token_name, db } => {
            let db = open(&db).await?;
            let app = application(&db, &token_name).await?;
            println!(
                "{}",
                db.webhook_secret(&app.id)
                    .await
                    .map_err(|e| e.to_string())?
            );
        }
        WebhookCommand::Deliveries { event, db } => {
            let rows = webhook_store::list_deliveries(&open(&db).await?, event.as_deref())
                .await
                .map_err(|e| e.to_string())?;
            for r in rows {
                println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
            }
        }
        WebhookCommand::Redeliver { event_id, db } => {
            let n = webhook_store::redeliver(&open(&db).await?, &event_id)
                .await
                .map_err(|e| e.to_string())?;
            if n == 0 {
                return Err(format!("event {event_id} has no deliveries to repeat"));
            }
            println!("{n} deliveries queued for event {event_id}");
        }
    }
    Ok(())
}

fn proxy_token(args: &ServeArgs) -> Result<Option<String>, String> {
    if let Some(file) = &args.token_file {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let token = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .to_string();
        return Ok((!token.is_empty()).then_some(token));
    }
    Ok(std::env::var("PAYLINK_TOKEN")
        .ok()
        .filter(|t| !t.trim().is_empty()))
}

/// `'self'` plus each configured origin, which must be a bare http(s) origin.
fn frame_ancestors(origins: &[String]) -> Result<Option<String>, String> {
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

fn check_origin(o: &str, flag: &str) -> Result<(), String> {
    let parts = paylink_model::br::parse_http_url(o)
        .filter(|_| !o.trim_end_matches('/').contains(['?', '#', ' ', ';']));
    let path_free = o.splitn(4, '/').nth(3).is_none_or(str::is_empty);
    if parts.is_none() || !path_free {
        return Err(format!(
            "{flag} {o:?} is not an origin like https://loja.example"
        ));
    }
    Ok(())
}

fn payer_config(args: &ServeArgs) -> Result<crate::domain::payer::PayerConfig, String> {
    let digits = |s: &str, n: usize, flag: &str| {
        (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.to_string())
            .ok_or_else(|| format!("{flag} must be {n} digits"))
    };
    if args.pix_key.trim().is_empty()
        || args.merchant_name.trim().is_empty()
        || args.merchant_city.trim().is_empty()
    {
        return Err("--pix-key, --merchant-name and --merchant-city must not be empty".into());
    }
    Ok(crate::domain::payer::PayerConfig {
        merchant_name: args.merchant_name.clone(),
        merchant_city: args.merchant_city.clone(),
        pix_key: args.pix_key.clone(),
        boleto: paylink_model::boleto::BoletoConfig {
            bank_code: digits(&args.boleto_bank, 3, "--boleto-bank")?,
            agreement: digits(&args.boleto_agreement, 7, "--boleto-agreement")?,
            wallet: digits(&args.boleto_wallet, 2, "--boleto-wallet")?,
        },
        merchant_document: args
            .merchant_document
            .as_deref()
            .map(|d| {
                paylink_model::br::check_document(d)
                    .map_err(|_| format!("--merchant-document {d:?} is not a valid CNPJ or CPF"))
            })
            .transpose()?,
        boleto_beneficiary_code: args
            .boleto_beneficiary_code
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        sandbox: args.sandbox,
    })
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let db = open(&args.db).await?;
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let public_url = args
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}"));
    let token = proxy_token(&args)?;
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
                tracing::warn!(error = %e, "cannot precompress the widget; compressing on the fly")
            }
            Err(e) => tracing::warn!(error = %e, "precompression task failed"),
        }
    }
    if dist.is_none() {
        tracing::warn!(dist = %args.dist.display(), "no built widget found: pages are not served");
    }
    tokio::spawn(webhooks::Deliverer::new(db.clone(), args.allow_insecure_webhooks).run());
    let notify = crate::workers::notifications::NotifyConfig::new(
        &public_url,
        args.smtp_url.as_deref(),
        args.smtp_from.as_deref(),
        args.notify_http_url.as_deref(),
    )?;
    tokio::spawn(crate::workers::notifications::Notifier::new(db.clone(), notify).run());
    tokio::spawn(crate::workers::scheduler::run(db.clone()));
    let state = AppState {
        allow_insecure_webhooks: args.allow_insecure_webhooks,
        db,
        public_url: Arc::from(public_url.as_str()),
        tokens: Default::default(),
    };
    for o in &args.allowed_origin {
        check_origin(o, "--allowed-origin")?;
    }
    let options = Options {
        proxy: token.map(|token| ProxyConfig {
            token,
            upstream: args.upstream.clone(),
            timeout: DEFAULT_UPSTREAM_TIMEOUT,
        }),
        dist,
        payer: payer_config(&args)?,
        frame_ancestors: frame_ancestors(
            &args
                .frame_ancestors
                .iter()
                .chain(&args.allowed_origin)
                .cloned()
                .collect::<Vec<_>>(),
        )?,
        public_only: !(addr.ip().is_loopback() || args.operator_ui),
        allowed_origins: args.allowed_origin.clone(),
        public_rate_limit: crate::proxy::ratelimit::Budget(args.public_rate_limit),
        trust_forwarded_for: args.trust_forwarded_for,
    };
    let router = app(state, options);
    // Printed on stdout so scripts and tests can find the port when --listen ends in :0.
    println!("paylink listening on http://{addr}");
    tracing::info!(%addr, %public_url, sandbox = args.sandbox, "serving");
    // Connection info gives the rate limiter each client's address.
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
    .map_err(|e| e.to_string())
}
