//! What every command shares: how it fails, how it opens the database, and the
//! bank's boleto options of `serve` and `boleto remessa`.

use crate::store::Db;

/// Why a command failed: bad input (exit 2, like clap's own usage errors)
/// or anything else (exit 1).
pub enum Failure {
    Usage(String),
    Runtime(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Runtime(message)
    }
}

pub(crate) async fn open(target: &str) -> Result<Db, String> {
    Db::open(target).await.map_err(|e| {
        format!(
            "cannot open database {}: {e}",
            crate::store::redacted(target)
        )
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
/// nosso número.
#[derive(clap::Args, Clone, Debug)]
pub struct BoletoArgs {
    /// Boleto bank code (3 digits).
    #[arg(long, default_value = "001")]
    boleto_bank: String,
    /// Boleto agreement (convênio, 7 digits).
    #[arg(long, default_value = "1234567")]
    boleto_agreement: String,
    /// Boleto wallet (carteira, 2 digits).
    #[arg(long, default_value = "17")]
    boleto_wallet: String,
}

impl BoletoArgs {
    /// The config, each option checked for its number of digits.
    pub fn config(&self) -> Result<paylink_model::boleto::BoletoConfig, String> {
        let digits = |s: &str, n: usize, flag: &str| {
            (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.to_string())
                .ok_or_else(|| format!("{flag} must be {n} digits"))
        };
        Ok(paylink_model::boleto::BoletoConfig {
            bank_code: digits(&self.boleto_bank, 3, "--boleto-bank")?,
            agreement: digits(&self.boleto_agreement, 7, "--boleto-agreement")?,
            wallet: digits(&self.boleto_wallet, 2, "--boleto-wallet")?,
        })
    }
}

/// A duration as an operator writes it: a whole number and its unit, `500ms`,
/// `5s`, `30m`, `24h`, `7d` (`0` alone is zero). For clap's `value_parser`.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    if text == "0" {
        return Ok(std::time::Duration::ZERO);
    }
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .filter(|&at| at > 0)
        .ok_or_else(|| format!("{text:?} is not a duration like 5s, 30m, 24h or 7d"))?;
    let (number, unit) = text.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is too long a duration"))?;
    let millis = match unit {
        "ms" => Some(n),
        "s" => n.checked_mul(1000),
        "m" => n.checked_mul(60_000),
        "h" => n.checked_mul(3_600_000),
        "d" => n.checked_mul(86_400_000),
        _ => return Err(format!("{text:?}: the unit is one of ms, s, m, h, d")),
    }
    .ok_or_else(|| format!("{text:?} is too long a duration"))?;
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
