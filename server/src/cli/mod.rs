//! `paylink` command line: `serve`, `token`, `simulate`, `invoice`, `webhook`,
//! `notifications`, `link`, `boleto`, `installment`, `operator`, `pix`.

use crate::cli::common::DbArg;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod common;
pub mod links;
pub mod notifications;
pub mod operators;
pub mod pix;
pub mod release;
mod serve;
pub mod settlement;

use common::open;
pub use common::Failure;

use crate::http::auth;
use crate::store::payments;
use crate::store::{webhooks as webhook_store, Db};

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
    Serve(Box<serve::ServeArgs>),
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
    /// Boletos at the bank: CNAB 240 remessa (registration) and retorno (settlement).
    Boleto {
        #[command(subcommand)]
        command: settlement::BoletoCommand,
    },
    /// PIX through a bank's API Pix: refunds.
    Pix {
        // Boxed like `Serve`: it carries the bank's options.
        #[command(subcommand)]
        command: Box<pix::PixCommand>,
    },
    /// Installments settled outside paylink (cash, a transfer, a check).
    Installment {
        #[command(subcommand)]
        command: settlement::InstallmentCommand,
    },
    /// Operator accounts: who logs in to the merchant's screens.
    Operator {
        #[command(subcommand)]
        command: crate::cli::operators::OperatorCommand,
    },
    #[command(flatten)]
    Release(release::ReleaseCommand),
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
        #[command(flatten)]
        db: DbArg,
    },
    /// Reverse a confirmed payment.
    Reverse {
        invoice_id: String,
        #[arg(long)]
        installment: u32,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
enum InvoiceCommand {
    /// Soft-delete an invoice (a 404 from then on; fires INVOICE_DELETED).
    Delete {
        invoice_id: String,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
enum WebhookCommand {
    /// Register an application-level webhook; the application's first prints
    /// the signing secret (last line), shown only then.
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
        #[command(flatten)]
        db: DbArg,
    },
    /// List the application's webhooks: id, event, URL, created, disabled.
    List {
        #[arg(long)]
        token_name: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Remove one of the application's webhooks (`webhook list` gives its id).
    Remove {
        webhook_id: String,
        #[arg(long)]
        token_name: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Replace the application's signing secret and print the new one (last
    /// line), shown only now; every delivery from then on is signed with it.
    RotateSecret {
        #[arg(long)]
        token_name: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// List delivery attempts (all, or of one event).
    Deliveries {
        #[arg(long)]
        event: Option<String>,
        #[command(flatten)]
        db: DbArg,
    },
    /// Queue an event for delivery again.
    Redeliver {
        event_id: String,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
enum TokenCommand {
    /// Create an application and print its token (last line of stdout).
    Create {
        #[command(flatten)]
        db: DbArg,
        #[arg(long)]
        name: String,
    },
    /// List every token: id, application, state, created, last used (never a secret).
    List {
        #[command(flatten)]
        db: DbArg,
    },
    /// Refuse a token from now on, on every server using this database.
    Revoke {
        /// The token's id (`paylink token list`).
        token_id: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Give an application a new token (last line of stdout); its other tokens
    /// keep working for the grace period, then are refused.
    Rotate {
        /// The application (`token create --name`).
        #[arg(long)]
        name: String,
        /// How long the old tokens keep working: 24h, 30m, 7d, 0 for not at all.
        #[arg(long, default_value = "24h", value_parser = common::parse_duration)]
        grace: std::time::Duration,
        #[command(flatten)]
        db: DbArg,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "paylink=info,tower_http=info".into()),
        )
        .with_writer(std::io::stderr)
        // Colours only for a person at a terminal, not in a log file or a collector.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
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
        Command::Token { command } => token(command).await,
        Command::Serve(args) => Ok(serve::serve(*args).await?),
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
        Command::Webhook { command } => webhook(command).await,
        Command::Notifications { command } => Ok(crate::cli::notifications::cli(command).await?),
        Command::Link { command } => crate::cli::links::cli(command).await,
        Command::Boleto { command } => settlement::boleto(command).await,
        Command::Installment { command } => settlement::installment(command).await,
        Command::Operator { command } => crate::cli::operators::cli(command).await,
        Command::Pix { command } => pix::cli(*command).await,
        Command::Release(command) => release::cli(command).await,
    }
}

/// `token create | list | revoke | rotate`.
async fn token(command: TokenCommand) -> Result<(), Failure> {
    use crate::store::tokens::{self, Revoked};
    match command {
        TokenCommand::Create { db, name } => {
            let db = open(&db).await?;
            let name = name.trim();
            if name.is_empty() {
                return Err(Failure::Usage("--name must not be empty".into()));
            }
            let (app, token) = auth::create_token(&db, name).await.map_err(|e| {
                if crate::store::is_unique_violation(&e) {
                    format!("an application named {name:?} already exists")
                } else {
                    format!("cannot create the token: {e}")
                }
            })?;
            println!("application: {name}");
            println!("applicationId: {}", app.id);
            println!("userId: {}", app.user_id);
            println!("token id: {}", app.id);
            println!("Use it as `Authorization: Basic <token>`. It is shown only now:");
            println!("{token}");
            Ok(())
        }
        TokenCommand::List { db } => {
            let db = open(&db).await?;
            let now = crate::store::now_iso();
            let rows = tokens::list(&db).await.map_err(|e| e.to_string())?;
            println!("id\tapplication\tstate\tcreated\tlast used");
            for t in rows {
                let state = match (&t.revoked_at, &t.expires_at) {
                    (Some(at), _) => format!("revoked {at}"),
                    (None, Some(at)) if *at <= now => format!("expired {at}"),
                    (None, Some(at)) => format!("expires {at}"),
                    (None, None) => "active".to_string(),
                };
                println!(
                    "{}\t{}\t{state}\t{}\t{}",
                    t.id,
                    t.application,
                    t.created_at,
                    t.last_used_at.as_deref().unwrap_or("never")
                );
            }
            Ok(())
        }
        TokenCommand::Revoke { token_id, db } => {
            let db = open(&db).await?;
            match tokens::revoke(&db, token_id.trim(), &crate::store::now_iso())
                .await
                .map_err(|e| e.to_string())?
            {
                Revoked::Now => {
                    println!("token {token_id} revoked: refused from now on");
                    Ok(())
                }
                Revoked::Already => {
                    println!("token {token_id} was already revoked");
                    Ok(())
                }
                Revoked::NoSuchToken => Err(Failure::Usage(format!(
                    "no token {token_id:?} (see `paylink token list`)"
                ))),
            }
        }
        TokenCommand::Rotate { name, grace, db } => {
            let db = open(&db).await?;
            let app = application(&db, name.trim()).await?;
            let rotated = auth::rotate_token(&db, &app, grace)
                .await
                .map_err(|e| format!("cannot rotate the token: {e}"))?;
            println!("application: {}", app.name);
            println!("new token id: {}", rotated.token_id);
            if rotated.old_tokens > 0 {
                println!(
                    "the {} older token(s) keep working until {} (grace {}), then are refused",
                    rotated.old_tokens,
                    rotated.old_until,
                    describe(grace)
                );
            }
            println!("Use it as `Authorization: Basic <token>`. It is shown only now:");
            println!("{}", rotated.token);
            Ok(())
        }
    }
}

/// A grace period as it was given: `24h`, `90s`.
fn describe(d: std::time::Duration) -> String {
    let s = d.as_secs();
    match s {
        0 => "none".into(),
        _ if s % 86_400 == 0 => format!("{}d", s / 86_400),
        _ if s % 3600 == 0 => format!("{}h", s / 3600),
        _ if s % 60 == 0 => format!("{}m", s / 60),
        _ => format!("{s}s"),
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
    crate::store::applications::find_by_name(db, name)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no application named {name:?} (see `paylink token create`)"))
}

async fn webhook(command: WebhookCommand) -> Result<(), Failure> {
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
            let outbound = if allow_insecure {
                crate::domain::outbound::Outbound::allow_private()
            } else {
                crate::domain::outbound::Outbound::public_only()
            };
            let req = paylink_model::webhooks::AppWebhookRequest {
                hook_type: Some(hook_type),
                url: Some(url),
            };
            let hook = crate::domain::webhooks::register(&db, &outbound, &app.id, &req)
                .await
                .map_err(|e| e.to_string())?
                .map_err(|v| {
                    // Bad input, as clap's own usage errors (exit 2).
                    let flag = |path: &str| match path {
                        "hookType" => "--hook-type".to_string(),
                        other => format!("--{other}"),
                    };
                    let said: Vec<String> =
                        v.0.iter()
                            .map(|(path, m)| {
                                format!("{}: {}", flag(path), m.render(paylink_model::Lang::En))
                            })
                            .collect();
                    Failure::Usage(said.join("; "))
                })?;
            println!("webhook {}: {} -> {}", hook.id, hook.hook_type, hook.url);
            if let Some(secret) = hook.secret {
                println!("The application's signing secret. It is shown only now:");
                println!("{secret}");
            }
        }
        WebhookCommand::List { token_name, db } => {
            let db = open(&db).await?;
            let app = application(&db, &token_name).await?;
            let hooks = webhook_store::list_app_webhooks(&db, &app.id)
                .await
                .map_err(|e| e.to_string())?;
            println!("id\tevent\turl\tcreated\tdisabled");
            for h in hooks {
                println!(
                    "{}\t{}\t{}\t{}\t{}",
                    h.id,
                    h.hook_type,
                    h.url,
                    h.created_at,
                    h.disabled_at.as_deref().unwrap_or("-")
                );
            }
        }
        WebhookCommand::Remove {
            webhook_id,
            token_name,
            db,
        } => {
            let db = open(&db).await?;
            let app = application(&db, &token_name).await?;
            let id = webhook_id.trim().to_ascii_lowercase();
            if !webhook_store::remove_app_webhook(&db, &app.id, &id)
                .await
                .map_err(|e| e.to_string())?
            {
                return Err(Failure::Usage(format!(
                    "{token_name:?} has no webhook {webhook_id:?} (see `paylink webhook list`)"
                )));
            }
            println!("webhook {id} removed");
        }
        WebhookCommand::RotateSecret { token_name, db } => {
            let db = open(&db).await?;
            let app = application(&db, &token_name).await?;
            let r = crate::store::applications::rotate_webhook_secret(&db, &app.id)
                .await
                .map_err(|e| e.to_string())?;
            if let Some(until) = r.previous_until {
                println!("The previous secret also signs every delivery until {until}.");
            }
            println!("The new signing secret. It is shown only now:");
            println!("{}", r.secret);
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
                return Err(format!("event {event_id} has no deliveries to repeat").into());
            }
            println!("{n} deliveries queued for event {event_id}");
        }
    }
    Ok(())
}
