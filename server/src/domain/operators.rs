//! Operator accounts: argon2id passwords, logins throttled per account and
//! per address, sessions with an idle and an absolute limit. The HTTP side
//! (cookie, CSRF, routes) is `proxy::session`; the rows are `store::operators`.

use std::sync::OnceLock;
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use paylink_model::Violations;
use sha2::{Digest, Sha256};

use super::now_ms;
use crate::store::operators::{self as rows, OperatorRow};
use crate::store::{Db, DbError};

/// How long sessions last and how many failed logins are allowed.
#[derive(Clone, Copy, Debug)]
pub struct SessionConfig {
    /// A session unused this long is over.
    pub idle: Duration,
    /// A session is over this long after the login, used or not.
    pub absolute: Duration,
    /// Failed logins allowed for one account within `window`.
    pub account_failures: u32,
    /// Failed logins allowed from one client address within `window`
    /// (higher: a shop's staff may share one address).
    pub address_failures: u32,
    pub window: Duration,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            idle: Duration::from_secs(12 * 3600),
            absolute: Duration::from_secs(24 * 3600),
            account_failures: 5,
            address_failures: 20,
            window: Duration::from_secs(15 * 60),
        }
    }
}

fn ms(d: Duration) -> i64 {
    d.as_millis().min(i64::MAX as u128) as i64
}

/// argon2id with the crate's defaults (19 MiB, 2 passes, 1 lane: OWASP's
/// minimum for argon2id), as a PHC string that carries its parameters.
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::getrandom(&mut salt).map_err(|e| e.to_string())?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

pub fn verify_password(hash: &str, password: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A hash no password matches, verified for unknown e-mails so that they
/// take as long to refuse as a wrong password (no account enumeration by timing).
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let mut random = [0u8; 32];
        let _ = getrandom::getrandom(&mut random);
        hash_password(&URL_SAFE_NO_PAD.encode(random)).unwrap_or_default()
    })
}

/// What the database keeps of a session id: its SHA-256.
pub fn session_hash(session_id: &str) -> String {
    Sha256::digest(session_id.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub enum AddError {
    Invalid(Violations),
    Taken,
    Failed(String),
}

/// Creates an account after checking the model's rules.
pub async fn add_operator(
    db: &Db,
    email: &str,
    name: &str,
    password: &str,
) -> Result<OperatorRow, AddError> {
    let (email, name) = paylink_model::operator::check_new_operator(email, name, password)
        .map_err(AddError::Invalid)?;
    let password = password.to_string();
    let hash = tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .map_err(|e| AddError::Failed(e.to_string()))?
        .map_err(AddError::Failed)?;
    rows::insert(db, &email, &name, &hash).await.map_err(
        |e| match crate::store::is_unique_violation(&e) {
            true => AddError::Taken,
            false => AddError::Failed(e.to_string()),
        },
    )
}

pub enum LoginError {
    /// Wrong e-mail, wrong password or a disabled account: one answer for all.
    BadCredentials,
    /// Too many failures; try again in this many seconds.
    Throttled(u64),
    Db(DbError),
    Internal(String),
}

impl From<DbError> for LoginError {
    fn from(e: DbError) -> Self {
        LoginError::Db(e)
    }
}

/// A new session: its id (the cookie's value, shown only now) and operator.
pub struct NewSession {
    pub id: String,
    pub operator: OperatorRow,
}

/// Checks the throttles, then the password, and opens a session.
pub async fn login(
    db: &Db,
    config: &SessionConfig,
    email: &str,
    password: &str,
    client_addr: &str,
) -> Result<NewSession, LoginError> {
    let now = now_ms();
    let window = ms(config.window);
    let account_key = format!("account:{email}");
    let address_key = format!("address:{client_addr}");
    for (key, allowed) in [
        (&account_key, config.account_failures),
        (&address_key, config.address_failures),
    ] {
        let (n, oldest) = rows::failures_since(db, key, now - window).await?;
        if n >= i64::from(allowed) {
            let free_at = oldest.unwrap_or(now) + window;
            let secs = (free_at - now).max(0) as u64;
            return Err(LoginError::Throttled(secs.div_ceil(1000).max(1)));
        }
    }
    let operator = rows::find_by_email(db, email).await?;
    let hash = operator
        .as_ref()
        .map_or_else(|| dummy_hash().to_string(), |o| o.password_hash.clone());
    let password = password.to_string();
    let matches = tokio::task::spawn_blocking(move || verify_password(&hash, &password))
        .await
        .map_err(|e| LoginError::Internal(e.to_string()))?;
    let operator = match operator {
        Some(o) if matches && o.active => o,
        _ => {
            rows::record_failure(db, &[&account_key, &address_key], now, now - window).await?;
            return Err(LoginError::BadCredentials);
        }
    };
    rows::clear_failures(db, &account_key).await?;
    rows::delete_expired_sessions(db, now - ms(config.idle), now - ms(config.absolute)).await?;
    let mut raw = [0u8; 32];
    getrandom::getrandom(&mut raw).map_err(|e| LoginError::Internal(e.to_string()))?;
    let id = URL_SAFE_NO_PAD.encode(raw);
    rows::insert_session(db, &session_hash(&id), &operator.id, now).await?;
    Ok(NewSession { id, operator })
}

/// Writes of `last_seen` are spaced by this much: a screen's burst of calls
/// costs one write, and the idle limit is still kept to the minute.
const TOUCH_EVERY_MS: i64 = 60_000;

/// The operator of a live session; an expired session is deleted and
/// answers `None`, like an unknown one or a disabled account's.
pub async fn session_operator(
    db: &Db,
    config: &SessionConfig,
    session_id: &str,
) -> Result<Option<OperatorRow>, DbError> {
    let hash = session_hash(session_id);
    let Some(s) = rows::find_session(db, &hash).await? else {
        return Ok(None);
    };
    let now = now_ms();
    let expired =
        now - s.last_seen_ms >= ms(config.idle) || now - s.created_ms >= ms(config.absolute);
    if expired || !s.operator.active {
        rows::delete_session(db, &hash).await?;
        return Ok(None);
    }
    if now - s.last_seen_ms >= TOUCH_EVERY_MS.min(ms(config.idle) / 2) {
        rows::touch_session(db, &hash, now).await?;
    }
    Ok(Some(s.operator))
}

pub async fn logout(db: &Db, session_id: &str) -> Result<(), DbError> {
    rows::delete_session(db, &session_hash(session_id)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argon2id_hashes_verify_only_their_password() {
        let h = hash_password("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify_password(&h, "correct horse battery"));
        assert!(!verify_password(&h, "correct horse batterY"));
        assert!(!verify_password("not a hash", "x"));
        assert!(!verify_password(dummy_hash(), ""));
    }
}
