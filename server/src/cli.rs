//! `paylink` command line: `serve`, `token create`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use crate::{
    app, auth,
    db::Db,
    proxy::{ProxyConfig, DEFAULT_UPSTREAM_TIMEOUT},
    AppState, Options,
};

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
    Serve(ServeArgs),
    /// Manage application tokens.
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
}

#[derive(Parser)]
struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the chosen one is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// SQLite database file (created if missing).
    #[arg(long, default_value = "./paylink.db")]
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
}

#[derive(Subcommand)]
enum TokenCommand {
    /// Create an application and print its token (last line of stdout).
    Create {
        #[arg(long, default_value = "./paylink.db")]
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
        Err(e) => {
            eprintln!("paylink: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Token {
            command: TokenCommand::Create { db, name },
        } => {
            let db = open(&db).await?;
            let name = name.trim();
            if name.is_empty() {
                return Err("--name must not be empty".into());
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
        Command::Serve(args) => serve(args).await,
    }
}

async fn open(path: &str) -> Result<Db, String> {
    Db::open(path)
        .await
        .map_err(|e| format!("cannot open database {path}: {e}"))
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
    if dist.is_none() {
        tracing::warn!(dist = %args.dist.display(), "no built widget found: pages are not served");
    }
    let state = AppState {
        db,
        public_url: Arc::from(public_url.as_str()),
    };
    let options = Options {
        proxy: token.map(|token| ProxyConfig {
            token,
            upstream: args.upstream.clone(),
            timeout: DEFAULT_UPSTREAM_TIMEOUT,
        }),
        dist,
    };
    let router = app(state, options);
    // Printed on stdout so scripts and tests can find the port when --listen ends in :0.
    println!("paylink listening on http://{addr}");
    tracing::info!(%addr, %public_url, sandbox = args.sandbox, "serving");
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| e.to_string())
}
