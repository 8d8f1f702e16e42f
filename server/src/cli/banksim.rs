//! `paylink bank-sim`: the local bank (`crate::banksim`) for demos, over HTTPS with mutual TLS.
//! Its certificates are made once in `--dir` (and reused, so a paylink configured with them
//! keeps working after a restart): point `paylink serve` at them with `--pix-ca DIR/ca.pem
//! --pix-cert DIR/client.pem --pix-cert-key DIR/client-key.pem`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::banksim::{tls::FILES, Bank, Callbacks, Pki};

#[derive(clap::Args)]
pub(super) struct BankSimArgs {
    /// Address to listen on (port 0 picks a free port; the chosen one is printed).
    #[arg(long, default_value = "127.0.0.1:8443")]
    listen: SocketAddr,
    /// Where the test CA and the server and client certificates are (made there when missing).
    #[arg(long, default_value = "bank-sim")]
    dir: PathBuf,
    /// The OAuth2 client id paylink uses.
    #[arg(long, default_value = "paylink")]
    client_id: String,
    /// File holding the client secret (its last non-empty line).
    #[arg(long, env = "PAYLINK_BANKSIM_SECRET_FILE")]
    client_secret_file: PathBuf,
    /// Wait this many milliseconds before each answer.
    #[arg(long, default_value_t = 0)]
    slow_ms: u64,
    /// What happens to payment callbacks: deliver, fail-first-time, lose.
    #[arg(long, default_value = "deliver")]
    callbacks: String,
    /// Refuse (400) a PUT of a txid that already has a charge, as some banks do.
    #[arg(long)]
    refuse_repeated_puts: bool,
    /// Refuse (400) every charge whose payer has this CPF or CNPJ (digits); repeatable.
    #[arg(long = "refuse-document", value_name = "DIGITS")]
    refuse_documents: Vec<String>,
}

pub(super) async fn run(args: BankSimArgs) -> Result<(), String> {
    let secret = super::serve::secret_from_file(&args.client_secret_file)?;
    let callbacks = match args.callbacks.as_str() {
        "deliver" => Callbacks::Deliver,
        "fail-first-time" => Callbacks::FailFirstTime,
        "lose" => Callbacks::Lose,
        other => {
            return Err(format!(
                "--callbacks must be deliver, fail-first-time or lose, not {other:?}"
            ))
        }
    };
    let pki = if FILES.iter().all(|f| args.dir.join(f).is_file()) {
        Pki::read(&args.dir)?
    } else {
        let pki = Pki::generate()?;
        pki.write(&args.dir)?;
        pki
    };
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let bank = Bank::start(listener, &pki, &args.client_id, &secret)?;
    bank.set_slow(Duration::from_millis(args.slow_ms));
    bank.set_callbacks(callbacks);
    bank.set_refuse_repeated_puts(args.refuse_repeated_puts);
    for d in &args.refuse_documents {
        bank.refuse_document(d);
    }
    println!("bank-sim listening on {}", bank.url());
    println!("token url: {}", bank.token_url());
    println!("certificates: {}", args.dir.display());
    tokio::signal::ctrl_c().await.map_err(|e| e.to_string())?;
    bank.stop();
    Ok(())
}
