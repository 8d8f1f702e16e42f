//! `paylink operator ...`: add, list and disable the accounts that log in to
//! the merchant's screens. The password never comes as an argument (it would
//! sit in the shell's history and in `ps`): stdin or `--password-file`.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use crate::cli::common::{open, DbArg, Failure};
use crate::domain::operators::{add_operator, AddError};
use crate::store::operators as rows;
use paylink_model::Lang;

#[derive(clap::Subcommand)]
pub enum OperatorCommand {
    /// Create an account; the password is read from stdin (one line) or --password-file.
    Add {
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
        /// A file holding the password (its first line).
        #[arg(long)]
        password_file: Option<PathBuf>,
        #[command(flatten)]
        db: DbArg,
    },
    /// One line per account: e-mail, state, created at, name.
    List {
        #[command(flatten)]
        db: DbArg,
    },
    /// Turn an account off: no more logins, and its sessions end now.
    Disable {
        #[arg(long)]
        email: String,
        #[command(flatten)]
        db: DbArg,
    },
}

pub async fn cli(command: OperatorCommand) -> Result<(), Failure> {
    match command {
        OperatorCommand::Add {
            email,
            name,
            password_file,
            db,
        } => {
            let password = match password_file {
                Some(file) => std::fs::read_to_string(&file)
                    .map_err(|e| format!("cannot read {}: {e}", file.display()))?,
                None => read_stdin_password()?,
            };
            let password = password.lines().next().unwrap_or("").to_string();
            let db = open(&db).await?;
            let op = add_operator(&db, &email, &name, &password)
                .await
                .map_err(|e| match e {
                    AddError::Invalid(v) => Failure::Usage(
                        v.0.iter()
                            .map(|(path, m)| format!("--{path}: {}", m.render(Lang::En)))
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                    AddError::Taken => Failure::Usage(format!(
                        "an operator with e-mail {:?} already exists",
                        paylink_model::operator::normalize_email(&email)
                    )),
                    AddError::Failed(e) => {
                        Failure::Runtime(format!("cannot add the operator: {e}"))
                    }
                })?;
            println!(
                "operator {} ({}) added: log in at /login",
                op.email, op.name
            );
            Ok(())
        }
        OperatorCommand::List { db } => {
            let db = open(&db).await?;
            for o in rows::list(&db).await.map_err(|e| e.to_string())? {
                let state = if o.active { "active" } else { "disabled" };
                println!("{}\t{state}\t{}\t{}", o.email, o.created_at, o.name);
            }
            Ok(())
        }
        OperatorCommand::Disable { email, db } => {
            let email = paylink_model::operator::normalize_email(&email);
            let db = open(&db).await?;
            if !rows::disable(&db, &email)
                .await
                .map_err(|e| e.to_string())?
            {
                return Err(Failure::Usage(format!("no operator with e-mail {email:?}")));
            }
            println!("operator {email} disabled; its sessions are ended");
            Ok(())
        }
    }
}

/// One line from stdin. At a terminal, asks on stderr and turns the
/// terminal's echo off while the password is typed.
fn read_stdin_password() -> Result<String, super::Failure> {
    let stdin = std::io::stdin();
    let terminal = stdin.is_terminal();
    if terminal {
        eprint!(
            "Password (at least {} characters): ",
            paylink_model::operator::MIN_PASSWORD_CHARS
        );
        let _ = std::io::stderr().flush();
        stty("-echo");
    }
    let mut line = String::new();
    let read = stdin.lock().read_line(&mut line);
    if terminal {
        stty("echo");
        eprintln!();
    }
    read.map_err(|e| super::Failure::Runtime(format!("cannot read the password from stdin: {e}")))?;
    Ok(line)
}

fn stty(setting: &str) {
    let _ = std::process::Command::new("stty")
        .arg(setting)
        .stdin(std::process::Stdio::inherit())
        .status();
}
