//! `paylink` command line: `serve`, `config`, `migrate`, `backup`, `token`, `simulate`,
//! `invoice`, `webhook`, `notifications`, `link`, `boleto`, `installment`, `operator`, `pix`.

use crate::cli::common::DbArg;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod common;
pub mod config;
mod link_flags;
pub mod links;
mod maintenance;
pub mod notifications;
pub mod observability;
pub mod operators;
pub mod pix;
pub mod release;
mod serve;
pub mod settlement;
mod workers_args;

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
    /// A TOML file of settings (keys: the flags' long names); flags and PAYLINK_* variables
    /// win over it (docs/operations.md, Configuration).
    #[arg(long, global = true, value_name = "FILE", env = config::CONFIG_ENV)]
    config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the invoicing API, the widget's proxy and the widget.
    Serve(Box<serve::ServeArgs>),
    /// The configuration `serve` would run with.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Apply the database's pending migrations (`--status`: list them, change nothing).
    Migrate {
        /// List every migration, applied or pending, and change nothing.
        #[arg(long)]
        status: bool,
        #[command(flatten)]
        db: DbArg,
    },
    /// A consistent copy of a SQLite database, taken while the server writes
    /// (PostgreSQL: pg_dump, docs/operations.md).
    Backup {
        /// The copy to write (never overwritten).
        #[arg(long)]
        to: std::path::PathBuf,
        #[command(flatten)]
        db: DbArg,
    },
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
enum ConfigCommand {
    /// Check every setting as `serve` would and print the effective configuration (secrets
    /// masked, each value's origin: flag, variable, file, default); non-zero when invalid.
    Check(Box<serve::ServeArgs>),
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

/// The command line parsed with the configuration file and the `PAYLINK_*` variables
/// (cli/config.rs), and, for `config check`, each setting's effective value and origin.
struct Parsed {
    cli: Cli,
    effective: Vec<(String, String, config::Origin)>,
}

fn parse(args: &[std::ffi::OsString]) -> Result<Parsed, clap::Error> {
    let usage = |m: String| Cli::command().error(clap::error::ErrorKind::ValueValidation, m);
    let file = config::FileSettings::locate(args).map_err(|e| usage(e.to_string()))?;
    let base = Cli::command();
    let serve = base.find_subcommand("serve").expect("the serve command");
    let known = config::settings_of(serve);
    file.check_keys(&known).map_err(|e| usage(e.to_string()))?;
    let command = with_settings(base, &known, &file);
    let matches = command.clone().try_get_matches_from(args)?;
    // The one subcommand run, to read its settings' origins.
    let mut leaf = (&command, &matches);
    while let Some((name, sub)) = leaf.1.subcommand() {
        let cmd = leaf.0.find_subcommand(name).expect("a parsed subcommand");
        leaf = (cmd, sub);
    }
    let effective = config::effective(leaf.0, leaf.1, &file);
    for (name, _, origin) in &effective {
        if config::SECRET_SETTINGS.contains(&name.as_str()) && *origin == config::Origin::Flag {
            return Err(usage(format!(
                "--{name} is a secret: give it as {} or in --{name}-file, never on the command line",
                config::variable_of(name)
            )));
        }
    }
    let cli = Cli::from_arg_matches(&matches)?;
    Ok(Parsed { cli, effective })
}

/// `command` and its subcommands with their settings' variables and file values: all of
/// `serve`'s and `config check`'s (which take the same arguments), and, on every other
/// command, those that are also `serve`'s (`--db`, the boleto's bank).
fn with_settings(
    command: clap::Command,
    known: &std::collections::BTreeSet<String>,
    file: &config::FileSettings,
) -> clap::Command {
    let all = matches!(command.get_name(), "serve" | "check");
    let mut command = config::apply(command, (!all).then_some(known), file);
    let names: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, |sub| with_settings(sub, known, file));
    }
    command
}

pub fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let parsed = match parse(&args) {
        Ok(p) => p,
        Err(e) => e.exit(),
    };
    // Only `serve` chooses; the other commands' few lines are for a person.
    observability::init_logs(match &parsed.cli.command {
        Command::Serve(args) => args.log_format(),
        _ => observability::LogFormat::Text,
    });
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("paylink: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(parsed)) {
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

async fn run(parsed: Parsed) -> Result<(), Failure> {
    let Parsed { cli, effective } = parsed;
    match cli.command {
        Command::Token { command } => token(command).await,
        Command::Serve(args) => Ok(serve::serve(*args).await?),
        Command::Config {
            command: ConfigCommand::Check(args),
        } => serve::config_check(&args, &effective),
        Command::Migrate { status, db } => maintenance::migrate(&db, status).await,
        Command::Backup { to, db } => maintenance::backup(&db, &to).await,
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

async fn simulate(command: SimulateCommand) -> Result<(), Failure> {
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
                    paylink_model::PaymentType::parse(&m.to_ascii_uppercase()).ok_or_else(
                        || Failure::Runtime(format!("--method must be PIX or BOLETO, not {m:?}")),
                    )?,
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
    .map_err(|e| Failure::Runtime(e.to_string()))?;
    println!("installment {} is now {}", paid.installment, paid.status);
    Ok(())
}

async fn application(db: &Db, name: &str) -> Result<crate::store::Application, Failure> {
    crate::store::applications::find_by_name(db, name)
        .await
        .map_err(|e| Failure::Runtime(e.to_string()))?
        .ok_or_else(|| {
            Failure::Runtime(format!(
                "no application named {name:?} (see `paylink token create`)"
            ))
        })
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

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// docs/operations.md's table of settings, row for row the settings `serve` takes: a flag
    /// added, renamed or removed without its row (or a row left behind) fails here.
    #[test]
    fn the_operations_guide_lists_every_setting() {
        let doc = include_str!("../../../docs/operations.md");
        let command = super::Cli::command();
        let serve = command.find_subcommand("serve").unwrap();
        let mut in_code = std::collections::BTreeSet::new();
        for arg in serve.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            if matches!(long, "help" | "config") || arg.is_hide_set() {
                continue;
            }
            let var = super::config::variable_of(long);
            let row = format!("| `--{long}` | `{var}` |");
            assert!(doc.contains(&row), "docs/operations.md has no row {row}");
            in_code.insert(long.to_string());
        }
        for line in doc.lines().filter(|l| l.starts_with("| `--")) {
            let long = line["| `--".len()..].split('`').next().unwrap();
            assert!(
                in_code.contains(long),
                "docs/operations.md lists --{long}, which serve does not take"
            );
        }
    }

    /// Every setting of `serve` can come from its variable: one a flag's long name in upper
    /// snake case, checked on the built command.
    #[test]
    fn every_setting_has_its_variable() {
        let file = super::config::FileSettings::default();
        let base = super::Cli::command();
        let known = super::config::settings_of(base.find_subcommand("serve").unwrap());
        let command = super::with_settings(base, &known, &file);
        let serve = command.find_subcommand("serve").unwrap();
        for arg in serve.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            if matches!(long, "help" | "config") {
                continue;
            }
            assert_eq!(
                arg.get_env().map(|e| e.to_string_lossy().into_owned()),
                Some(super::config::variable_of(long)),
                "--{long}"
            );
        }
    }
}
