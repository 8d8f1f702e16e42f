//! Operator accounts: argon2id passwords, logins refused per address (and
//! per account from that address) and slowed per account, sessions with an idle and an absolute limit. The HTTP side
//! (cookie, CSRF, routes) is `http::session`; the rows are `store::operators`.

use std::sync::OnceLock;
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use paylink_model::Violations;
use sha2::{Digest, Sha256};

use super::now_ms;
use crate::store::operators::{self as rows, OperatorRow, SessionTimes};
use crate::store::tokens::LiveToken;
use crate::store::{Application, Db, DbError};

/// How long sessions last and how many failed logins are allowed.
///
/// Failures are counted three ways within `window`. From one address, for
/// one account (`account_failures`) or for all (`address_failures`): past
/// either that address is refused, so a guesser is stopped where it stands.
/// For one account from every address (`account_failures` again): past it
/// every attempt on the account waits `account_delay` before its password is
/// checked, and is never refused, so five wrong passwords from anywhere
/// cannot lock the operator out (a lockout anyone could trigger, again and
/// again, was issue 38).
#[derive(Clone, Copy, Debug)]
pub struct SessionConfig {
    /// A session unused this long is over.
    pub idle: Duration,
    /// A session is over this long after the login, used or not.
    pub absolute: Duration,
    /// Failed logins allowed for one account from one client address within
    /// `window`; also how many, from all addresses, slow the account's logins.
    pub account_failures: u32,
    /// Failed logins allowed from one client address within `window`
    /// (higher: a shop's staff may share one address).
    pub address_failures: u32,
    pub window: Duration,
    /// What each login of an account past `account_failures` waits.
    pub account_delay: Duration,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            idle: Duration::from_secs(12 * 3600),
            absolute: Duration::from_secs(24 * 3600),
            account_failures: 5,
            address_failures: 20,
            window: Duration::from_secs(15 * 60),
            account_delay: Duration::from_secs(1),
        }
    }
}

fn ms(d: Duration) -> i64 {
    d.as_millis().min(i64::MAX as u128) as i64
}

/// argon2id with the crate's defaults (19 MiB, 2 passes, 1 lane: OWASP's
/// minimum for argon2id), as a PHC string that carries its parameters.
pub fn hash_password(password: &str) -> Result<String, HashError> {
    let mut salt = [0u8; 16];
    getrandom::getrandom(&mut salt).map_err(HashError::Random)?;
    let salt = SaltString::encode_b64(&salt)?;
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

/// Why a password could not be hashed: no randomness for its salt, or argon2's refusal.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    #[error("{0}")]
    Random(getrandom::Error),
    #[error("{0}")]
    Argon2(argon2::password_hash::Error),
}

// password_hash's error implements no std Error without its `std` feature: no `#[from]`.
impl From<argon2::password_hash::Error> for HashError {
    fn from(e: argon2::password_hash::Error) -> Self {
        HashError::Argon2(e)
    }
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
    hex::encode(Sha256::digest(session_id.as_bytes()))
}

/// Why an operator was not added.
#[derive(Debug, thiserror::Error)]
pub enum AddError {
    #[error("the operator's e-mail, name or password breaks a rule")]
    Invalid(Violations),
    #[error("an operator has this e-mail already")]
    Taken,
    #[error("{0}")]
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
        .map_err(|e| AddError::Failed(e.to_string()))?;
    rows::insert(db, &email, &name, &hash).await.map_err(
        |e| match crate::store::is_unique_violation(&e) {
            true => AddError::Taken,
            false => AddError::Failed(e.to_string()),
        },
    )
}

/// Why a login was refused.
#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    /// Wrong e-mail, wrong password or a disabled account: one answer for all.
    #[error("bad credentials")]
    BadCredentials,
    /// Too many failures; try again in this many seconds.
    #[error("too many failed logins: try again in {0} s")]
    Throttled(u64),
    #[error("database error: {0}")]
    Db(DbError),
    #[error("{0}")]
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

/// Checks the throttles, then the password, and opens a session. Failed and
/// throttled logins of an existing account are in its audit trail
/// (`login_failed`, `login_throttled`); those of an unknown e-mail, which has
/// no trail, are only logged by the caller.
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
    let pair_key = format!("account-address:{email} {client_addr}");
    let operator = rows::find_by_email(db, email).await?;
    for (key, allowed) in [
        (&pair_key, config.account_failures),
        (&address_key, config.address_failures),
    ] {
        let (n, oldest) = rows::failures_since(db, key, now - window).await?;
        if n >= i64::from(allowed) {
            if let Some(o) = &operator {
                audit(db, &o.id, "login_throttled", client_addr).await;
            }
            let free_at = oldest.unwrap_or(now) + window;
            let secs = (free_at - now).max(0) as u64;
            return Err(LoginError::Throttled(secs.div_ceil(1000).max(1)));
        }
    }
    // Guessed at from many addresses: slowed, never refused.
    let (n, _) = rows::failures_since(db, &account_key, now - window).await?;
    if n >= i64::from(config.account_failures) {
        tokio::time::sleep(config.account_delay).await;
    }
    let hash = operator
        .as_ref()
        .map_or_else(|| dummy_hash().to_string(), |o| o.password_hash.clone());
    let password = password.to_string();
    let matches = tokio::task::spawn_blocking(move || verify_password(&hash, &password))
        .await
        .map_err(|e| LoginError::Internal(e.to_string()))?;
    let operator = match operator {
        Some(o) if matches && o.active => o,
        operator => {
            rows::record_failure(
                db,
                &[&account_key, &address_key, &pair_key],
                now,
                now - window,
            )
            .await?;
            if let Some(o) = &operator {
                audit(db, &o.id, "login_failed", client_addr).await;
            }
            return Err(LoginError::BadCredentials);
        }
    };
    rows::clear_failures(db, &account_key).await?;
    rows::clear_failures(db, &pair_key).await?;
    rows::delete_expired_sessions(db, now - ms(config.idle), now - ms(config.absolute)).await?;
    let mut raw = [0u8; 32];
    getrandom::getrandom(&mut raw).map_err(|e| LoginError::Internal(e.to_string()))?;
    let id = URL_SAFE_NO_PAD.encode(raw);
    rows::insert_session(db, &session_hash(&id), &operator.id, now).await?;
    Ok(NewSession { id, operator })
}

/// One line of an account's audit trail; a trail that cannot be written is
/// logged, and does not change the login's answer.
async fn audit(db: &Db, operator_id: &str, action: &str, client_addr: &str) {
    if let Err(e) = rows::insert_audit(db, operator_id, action, None, client_addr).await {
        tracing::error!(error = %e, action, "cannot write the operator audit");
    }
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
    let live = keep_live(db, config, &hash, s.operator.active, s.times).await?;
    Ok(live.then_some(s.operator))
}

/// [`session_operator`]'s operator id (all the middleware in front of a
/// merchant call reads), and the tokens of `app` in force now (`now_ms`),
/// read by the same statement.
pub async fn session_operator_and_tokens(
    db: &Db,
    config: &SessionConfig,
    session_id: &str,
    app: &Application,
    now_ms: i64,
) -> Result<(Option<String>, Vec<LiveToken>), DbError> {
    let hash = session_hash(session_id);
    let now = paylink_model::date::iso_utc_from_millis(now_ms);
    let Some((s, tokens)) = rows::find_session_and_tokens(db, &hash, app, &now).await? else {
        return Ok((None, Vec::new()));
    };
    let live = keep_live(db, config, &hash, s.active, s.times).await?;
    Ok((live.then_some(s.operator_id), tokens))
}

/// Whether the session is live (its operator's account on, neither idle nor
/// too old); its last use is recorded at most once a minute, and a session
/// that is not live is deleted.
async fn keep_live(
    db: &Db,
    config: &SessionConfig,
    hash: &str,
    active: bool,
    SessionTimes {
        created_ms,
        last_seen_ms,
    }: SessionTimes,
) -> Result<bool, DbError> {
    let now = now_ms();
    let expired = now - last_seen_ms >= ms(config.idle) || now - created_ms >= ms(config.absolute);
    if expired || !active {
        rows::delete_session(db, hash).await?;
        return Ok(false);
    }
    if now - last_seen_ms >= TOUCH_EVERY_MS.min(ms(config.idle) / 2) {
        rows::touch_session(db, hash, now).await?;
    }
    Ok(true)
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
