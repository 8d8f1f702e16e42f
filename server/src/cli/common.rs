//! What every command shares: how it fails, how it opens the database (never changing its
//! schema but for `serve` and `migrate`), and the
//! bank's boleto options of `serve` and `boleto remessa`.

use crate::store::Db;

/// Why a command failed: bad input (exit 2, like clap's own usage errors)
/// or anything else (exit 1).
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Runtime(String),
}

/// A refused setting met while a command runs (`serve`'s checks end it with exit 1, as
/// before they were typed; `config check` says it as a usage error itself).
impl From<super::config::ConfigError> for Failure {
    fn from(e: super::config::ConfigError) -> Self {
        Failure::Runtime(e.to_string())
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Runtime(message)
    }
}

/// The database of a command other than `serve` and `migrate`: opened only when its schema
/// is current (no command but those two changes it), else refused naming `paylink migrate`.
pub(crate) async fn open(target: &str) -> Result<Db, Failure> {
    open_as(target, crate::store::OpenMode::RequireCurrent).await
}

pub(crate) async fn open_as(target: &str, mode: crate::store::OpenMode) -> Result<Db, Failure> {
    use crate::store::schema::SchemaError;
    let shown = crate::store::redacted(target);
    Db::open_with(target, mode).await.map_err(|e| {
        Failure::Runtime(match e {
            // Our own refusals (no such SQLite file) say it all.
            SchemaError::Db(sqlx::Error::Configuration(why)) => why.to_string(),
            SchemaError::Db(e) => format!("cannot open database {shown}: {e}"),
            other => format!("database {shown}: {other}"),
        })
    })
}

/// `--db`, the same on every command: a SQLite file (created if missing) or
/// `postgres://user:pass@host/db`, also read from `PAYLINK_DB`, which keeps
/// a password off the command line (and out of `ps`); `--help` never shows
/// its value.
#[derive(clap::Args, Clone, Debug)]
pub struct DbArg {
    /// SQLite file or postgres:// URL (PAYLINK_DB keeps a password off the command line).
    #[arg(
        long = "db",
        env = "PAYLINK_DB",
        default_value = "./paylink.db",
        hide_env_values = true
    )]
    pub db: String,
}

impl std::ops::Deref for DbArg {
    type Target = str;
    fn deref(&self) -> &str {
        &self.db
    }
}

/// The boleto's bank, agreement and wallet, the same on `serve` (printed
/// boletos) and `boleto remessa` (registered ones), so both make the same
/// nosso número. The bank and the agreement have no default: a made-up agreement
/// prints boletos that pay nobody (only `serve --sandbox` shows demo ones).
#[derive(clap::Args, Clone, Debug)]
pub struct BoletoArgs {
    /// Boleto bank code (3 digits). Required outside --sandbox when BOLETO is offered.
    #[arg(long)]
    boleto_bank: Option<String>,
    /// Boleto agreement (convênio, 7 digits). Required outside --sandbox when BOLETO is offered.
    #[arg(long)]
    boleto_agreement: Option<String>,
    /// Boleto wallet (carteira, 2 digits).
    #[arg(long, default_value = "17")]
    boleto_wallet: String,
}

/// The sandbox's boleto: Banco do Brasil's code and a made-up agreement.
const DEMO_BANK: &str = "001";
const DEMO_AGREEMENT: &str = "1234567";

impl BoletoArgs {
    /// The config, each option checked for its number of digits. A missing bank or
    /// agreement takes the demo value when `demo` allows it, and is otherwise added to
    /// `missing` (by its long name) for the caller to list with the others.
    pub fn config(
        &self,
        demo: bool,
        missing: &mut Vec<&'static str>,
    ) -> Result<paylink_model::boleto::BoletoConfig, super::config::ConfigError> {
        let digits = |s: &str, n: usize, flag: &'static str| {
            (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.to_string())
                .ok_or(super::config::ConfigError::Digits {
                    setting: flag,
                    digits: n,
                })
        };
        let mut given = |v: &Option<String>, long: &'static str, fallback: &str| match v
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
        {
            Some(v) => v.to_string(),
            None => {
                if !demo {
                    missing.push(long);
                }
                fallback.to_string()
            }
        };
        let bank = given(&self.boleto_bank, "boleto-bank", DEMO_BANK);
        let agreement = given(&self.boleto_agreement, "boleto-agreement", DEMO_AGREEMENT);
        Ok(paylink_model::boleto::BoletoConfig {
            bank_code: digits(&bank, 3, "--boleto-bank")?,
            agreement: digits(&agreement, 7, "--boleto-agreement")?,
            wallet: digits(&self.boleto_wallet, 2, "--boleto-wallet")?,
        })
    }
}

/// A duration an operator wrote that is not one, or not one this setting takes.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    #[error("{0:?} is not a duration like 5s, 30m, 24h or 7d")]
    NotADuration(String),
    #[error("{0:?} is too long a duration")]
    TooLong(String),
    #[error("{0:?}: the unit is one of ms, s, m, h, d")]
    Unit(String),
    #[error("{0:?}: must be longer than 0")]
    Zero(String),
}

/// A duration as an operator writes it: a whole number and its unit, `500ms`,
/// `5s`, `30m`, `24h`, `7d` (`0` alone is zero). For clap's `value_parser`.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, DurationError> {
    let text = text.trim();
    if text == "0" {
        return Ok(std::time::Duration::ZERO);
    }
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .filter(|&at| at > 0)
        .ok_or_else(|| DurationError::NotADuration(text.to_string()))?;
    let (number, unit) = text.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| DurationError::TooLong(text.to_string()))?;
    let millis = match unit {
        "ms" => Some(n),
        "s" => n.checked_mul(1000),
        "m" => n.checked_mul(60_000),
        "h" => n.checked_mul(3_600_000),
        "d" => n.checked_mul(86_400_000),
        _ => return Err(DurationError::Unit(text.to_string())),
    }
    .ok_or_else(|| DurationError::TooLong(text.to_string()))?;
    Ok(std::time::Duration::from_millis(millis))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::parse_duration;

    #[test]
    fn durations_as_operators_write_them() {
        assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert_eq!(parse_duration("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_duration("24h"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(7 * 86_400)));
        for bad in [
            "",
            "s",
            "5",
            "5 s",
            "-5s",
            "5x",
            "1.5h",
            "99999999999999999999d",
            "9999999999999999d",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
