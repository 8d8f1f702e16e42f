//! Links to a payer's page of charges (`/c/{token}`): each a random token of 32 bytes (256 bits,
//! URL-safe base64) of which only the SHA-256 is kept, as for operators' sessions and API
//! tokens, for one customer of one application, ending [`LIFETIME`] after it is made or when the
//! merchant revokes the customer's links. The merchant makes one to copy (the token API's
//! `charges-link`); each e-mail notification makes its own (a token cannot be read back to be
//! reused), a retried send replacing the link of its earlier attempt.

use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use crate::store::{charges_links, Db, DbError};

/// How long a link opens its page: 30 days, a month of a payer's charges and reminders.
pub const LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);

/// A link just made: its address (shown once; only its hash is kept) and when it ends.
#[derive(Clone, Debug)]
pub struct Minted {
    pub url: String,
    pub expires_at: String,
}

/// What the database keeps of a token: its SHA-256 (hex).
pub fn token_hash(token: &str) -> String {
    super::operators::session_hash(token)
}

/// A token's look: 43 URL-safe base64 characters (32 bytes). Anything else is no link, and
/// is answered without a query.
pub fn token_is_well_formed(token: &str) -> bool {
    token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A new link to `customer_id`'s page with `application_id`, made at `now_ms`, its address on
/// `public_url`; `send_id` for a notification's (see [`charges_links::insert`]).
pub async fn mint(
    db: &Db,
    public_url: &str,
    application_id: &str,
    customer_id: &str,
    now_ms: i64,
    send_id: Option<&str>,
) -> Result<Minted, DbError> {
    let mut raw = [0u8; 32];
    getrandom::getrandom(&mut raw).expect("the operating system's random generator");
    let token = URL_SAFE_NO_PAD.encode(raw);
    let now = paylink_model::date::iso_utc_from_millis(now_ms);
    let expires_at = paylink_model::date::iso_utc_from_millis(now_ms + LIFETIME.as_millis() as i64);
    charges_links::insert(
        db,
        &token_hash(&token),
        application_id,
        customer_id,
        &now,
        &expires_at,
        send_id,
    )
    .await?;
    Ok(Minted {
        url: format!("{}/c/{token}", public_url.trim_end_matches('/')),
        expires_at,
    })
}
