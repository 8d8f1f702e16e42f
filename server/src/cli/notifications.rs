//! `paylink notifications ...`: the scheduled sends, as JSON lines.

use crate::cli::common::DbArg;
use crate::store::notifications::{list_sends, STATUSES};

#[derive(clap::Subcommand)]
pub enum NotificationsCommand {
    /// List scheduled sends, one JSON line each, in due order.
    List {
        /// pending, sent, failed or skipped.
        #[arg(long)]
        status: Option<String>,
        #[arg(long)]
        invoice: Option<String>,
        #[command(flatten)]
        db: DbArg,
    },
}

/// `paylink notifications ...`
pub async fn cli(command: NotificationsCommand) -> Result<(), super::Failure> {
    match command {
        NotificationsCommand::List {
            status,
            invoice,
            db: path,
        } => {
            if let Some(s) = &status {
                if !STATUSES.contains(&s.as_str()) {
                    return Err(super::Failure::Runtime(format!(
                        "--status must be one of {}",
                        STATUSES.join(", ")
                    )));
                }
            }
            let db = super::common::open(&path).await?;
            let rows = list_sends(&db, status.as_deref(), invoice.as_deref())
                .await
                .map_err(|e| super::Failure::Runtime(e.to_string()))?;
            for r in rows {
                println!(
                    "{}",
                    serde_json::to_string(&r)
                        .map_err(|e| super::Failure::Runtime(e.to_string()))?
                );
            }
            Ok(())
        }
    }
}
