//! Applications (the owners of tokens) and their webhook secrets.

use super::*;
use base64::Engine;

/// A stored application (the owner of tokens, `store::tokens`).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Application {
    pub id: String,
    pub user_id: String,
    pub name: String,
}

/// A new application and its first token (whose id is the application's),
/// of which only `secret_hash` is stored.
pub async fn create(db: &Db, name: &str, secret_hash: &str) -> Result<Application, DbError> {
    let app = Application {
        id: new_id(),
        user_id: new_id(),
        name: name.to_string(),
    };
    let now = now_iso();
    let mut tx = db.begin_write().await?;
    sqlx::query("INSERT INTO applications (id, user_id, name, created_at) VALUES ($1, $2, $3, $4)")
        .bind(&app.id)
        .bind(&app.user_id)
        .bind(&app.name)
        .bind(&now)
        .execute(&mut *tx)
        .await?;
    super::tokens::insert(&mut tx, &app.id, &app.id, secret_hash, &now).await?;
    tx.commit().await?;
    Ok(app)
}

pub async fn find(db: &Db, id: &str) -> Result<Option<Application>, DbError> {
    sqlx::query_as("SELECT id, user_id, name FROM applications WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

/// Every application, oldest first.
pub async fn list(db: &Db) -> Result<Vec<Application>, DbError> {
    sqlx::query_as("SELECT id, user_id, name FROM applications ORDER BY created_at, id")
        .fetch_all(&db.pool)
        .await
}

/// How long a rotated secret goes on signing beside the new one.
pub const PREVIOUS_SECRET_HOURS: u64 = 24;

/// The secrets a delivery is signed with now.
pub struct SigningSecrets {
    pub current: String,
    /// The one rotated away, during its [`PREVIOUS_SECRET_HOURS`].
    pub previous: Option<String>,
}

/// The application's webhook signing secrets, the current one created on first use (the
/// delivery worker signs with them).
pub async fn webhook_secrets(db: &Db, app_id: &str) -> Result<SigningSecrets, DbError> {
    let now = now_iso();
    let mut tx = db.begin_write().await?;
    create_secret_if_none(&mut tx, app_id).await?;
    let (current, previous, until): (String, Option<String>, Option<String>) = sqlx::query_as(
        "SELECT webhook_secret, webhook_secret_previous, webhook_secret_previous_until
         FROM applications WHERE id = $1",
    )
    .bind(app_id)
    .fetch_one(&mut *tx)
    .await?;
    let previous = match until {
        Some(until) if until > now => previous,
        // A rotated secret past its hours is not kept: it signs nothing any more.
        Some(_) => {
            sqlx::query(
                "UPDATE applications SET webhook_secret_previous = NULL, webhook_secret_previous_until = NULL
                 WHERE id = $1",
            )
            .bind(app_id)
            .execute(&mut *tx)
            .await?;
            None
        }
        None => None,
    };
    tx.commit().await?;
    Ok(SigningSecrets { current, previous })
}

/// A new secret and when it was made, if the application had none: set only
/// where still empty, so two callers racing agree on one secret, and only
/// the one that made it gets it back (to show it, that once).
pub async fn create_secret_if_none(
    tx: &mut WriteTx,
    app_id: &str,
) -> Result<Option<(String, String)>, DbError> {
    let (secret, at) = (new_secret(), now_iso());
    let made = sqlx::query(
        "UPDATE applications SET webhook_secret = $1, webhook_secret_at = $2
         WHERE id = $3 AND webhook_secret IS NULL",
    )
    .bind(&secret)
    .bind(&at)
    .bind(app_id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok((made == 1).then_some((secret, at)))
}

/// A secret just made by a rotation.
pub struct Rotated {
    pub secret: String,
    pub created_at: String,
    /// Until when the secret it replaced also signs; `None` when there was none.
    pub previous_until: Option<String>,
}

/// Replaces the application's signing secret: every delivery from now on is signed with the
/// new one, which is returned this once (with its time), and for [`PREVIOUS_SECRET_HOURS`]
/// with the replaced one too. Rotating again within them drops the older one at once.
pub async fn rotate_webhook_secret(db: &Db, app_id: &str) -> Result<Rotated, DbError> {
    let now = now_millis();
    let (secret, at) = (new_secret(), paylink_model::date::iso_utc_from_millis(now));
    let until =
        paylink_model::date::iso_utc_from_millis(now + PREVIOUS_SECRET_HOURS as i64 * 3_600_000);
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "UPDATE applications SET webhook_secret_previous = webhook_secret,
                webhook_secret_previous_until = CASE WHEN webhook_secret IS NULL THEN NULL ELSE $3 END,
                webhook_secret = $1, webhook_secret_at = $2
         WHERE id = $4",
    )
    .bind(&secret)
    .bind(&at)
    .bind(&until)
    .bind(app_id)
    .execute(&mut *tx)
    .await?;
    let previous_until: Option<String> =
        sqlx::query_scalar("SELECT webhook_secret_previous_until FROM applications WHERE id = $1")
            .bind(app_id)
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    Ok(Rotated {
        secret,
        created_at: at,
        previous_until,
    })
}

/// When the application's signing secret was made (`None`: there is none), and until when
/// the one it replaced also signs (`None`: it no longer does).
pub async fn webhook_secret_at(
    db: &Db,
    app_id: &str,
) -> Result<(Option<String>, Option<String>), DbError> {
    let at: Option<(Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT webhook_secret_at,
                CASE WHEN webhook_secret_previous_until > $2 THEN webhook_secret_previous_until END
         FROM applications WHERE id = $1 AND webhook_secret IS NOT NULL",
    )
    .bind(app_id)
    .bind(now_iso())
    .fetch_optional(&db.pool)
    .await?;
    Ok(at.unwrap_or_default())
}

pub async fn find_by_name(db: &Db, name: &str) -> Result<Option<Application>, DbError> {
    let id: Option<String> = sqlx::query_scalar("SELECT id FROM applications WHERE name = $1")
        .bind(name)
        .fetch_optional(&db.pool)
        .await?;
    match id {
        Some(id) => crate::store::applications::find(db, &id).await,
        None => Ok(None),
    }
}

/// A webhook signing secret: `whsec_` and 24 random bytes in base64.
fn new_secret() -> String {
    let mut raw = [0u8; 24];
    getrandom::getrandom(&mut raw).expect("the OS random source is available");
    format!(
        "whsec_{}",
        base64::engine::general_purpose::STANDARD.encode(raw)
    )
}
