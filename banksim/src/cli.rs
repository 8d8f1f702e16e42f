//! `paylink-bank-sim`'s options and start: the local bank for demos, over HTTPS with mutual
//! TLS. Its certificates are made once in `--dir` (and reused, so a paylink configured with
//! them keeps working after a restart): point `paylink serve` at them with `--pix-ca
//! DIR/ca.pem --pix-cert DIR/client.pem --pix-cert-key DIR/client-key.pem`. In the library, so
//! tests start the bank as the binary does, options and all.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{tls::FILES, Bank, Callbacks, Pki};

#[derive(clap::Parser)]
#[command(name = "paylink-bank-sim", version, about)]
pub struct Options {
    /// Address to listen on (port 0 picks a free port; the chosen one is printed).
    #[arg(long, default_value = "127.0.0.1:8443")]
    pub listen: SocketAddr,
    /// Where the test CA and the server and client certificates are (made there when missing).
    #[arg(long, default_value = "bank-sim")]
    pub dir: PathBuf,
    /// The OAuth2 client id paylink uses.
    #[arg(long, default_value = "paylink")]
    pub client_id: String,
    /// File holding the client secret (its last non-empty line).
    #[arg(long, env = "PAYLINK_BANKSIM_SECRET_FILE")]
    pub client_secret_file: PathBuf,
    /// Wait this many milliseconds before each answer.
    #[arg(long, default_value_t = 0)]
    pub slow_ms: u64,
    /// What happens to payment callbacks: deliver, fail-first-time, lose.
    #[arg(long, default_value = "deliver")]
    pub callbacks: String,
    /// Refuse (400) a PUT of a txid that already has a charge, as some banks do.
    #[arg(long)]
    pub refuse_repeated_puts: bool,
    /// Refuse (400) every charge whose payer has this CPF or CNPJ (digits); repeatable.
    #[arg(long = "refuse-document", value_name = "DIGITS")]
    pub refuse_documents: Vec<String>,
}

impl Options {
    /// The bank serving as the options say, its certificates read from `--dir` or made there.
    pub async fn start(&self) -> Result<Bank, String> {
        let secret = secret_from_file(&self.client_secret_file)?;
        let callbacks = match self.callbacks.as_str() {
            "deliver" => Callbacks::Deliver,
            "fail-first-time" => Callbacks::FailFirstTime,
            "lose" => Callbacks::Lose,
            other => {
                return Err(format!(
                    "--callbacks must be deliver, fail-first-time or lose, not {other:?}"
                ))
            }
        };
        let pki = if FILES.iter().all(|f| self.dir.join(f).is_file()) {
            Pki::read(&self.dir)?
        } else {
            let pki = Pki::generate()?;
            pki.write(&self.dir)?;
            pki
        };
        let listener = tokio::net::TcpListener::bind(self.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", self.listen))?;
        let bank = Bank::start(listener, &pki, &self.client_id, &secret)?;
        bank.set_slow(Duration::from_millis(self.slow_ms));
        bank.set_callbacks(callbacks);
        bank.set_refuse_repeated_puts(self.refuse_repeated_puts);
        for d in &self.refuse_documents {
            bank.refuse_document(d);
        }
        Ok(bank)
    }
}

/// Starts the bank, says where it is, and serves until Ctrl-C.
pub async fn run(options: Options) -> Result<(), String> {
    let bank = options.start().await?;
    println!("bank-sim listening on {}", bank.url());
    println!("token url: {}", bank.token_url());
    println!("certificates: {}", options.dir.display());
    tokio::signal::ctrl_c().await.map_err(|e| e.to_string())?;
    bank.stop();
    Ok(())
}

/// A secret from a file: its last non-empty line, trimmed (as `paylink serve` reads its own).
fn secret_from_file(file: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    text.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
        .ok_or_else(|| format!("{} is empty", file.display()))
}
