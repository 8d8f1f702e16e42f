//! `paylink-bank-sim`: the local bank for demos, over HTTPS with mutual TLS (see `cli.rs`).

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let options = <paylink_banksim::cli::Options as clap::Parser>::parse();
    match paylink_banksim::cli::run(options).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("paylink-bank-sim: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
