//! Application tokens: only the SHA-256 of each secret, when it was made and
//! last used, and when it ends (revoked, or expired after a rotation's grace).
//! Authentication reads them on every request, so a revoked token is refused
//! at once by every server on the database.

use super::*;

/// A token as `paylink token list` shows it (never its secret, which is not stored).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TokenInfo {
    pub id: String,
    pub application: String,
    pub created_at: String,
    pub expires_at: Option<String>,
    pub revoked_at: Option<String>,
    pub last_used_at: Option<String>,
}

/// A token still in force, with its application: what a request's token is
/// compared with.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LiveToken {
    pub token_id: String,
    pub secret_hash: String,
    pub expires_at: Option<String>,
    pub last_used_at: Option<String>,
    pub id: String,
    pub user_id: String,
    pub name: String,
}

impl LiveToken {
    pub fn application(&self) -> Application {
        Application {
            id: self.id.clone(),
            user_id: self.user_id.clone(),
            name: self.name.clone(),
        }
    }
}

/// What `revoke` found.
#[derive(Debug, PartialEq, Eq)]
pub enum Revoked {
    Now,
    Already,
    NoSuchToken,
}

/// A new token for an application: the first (its id is the application's) or a rotation's.
pub(crate) async fn insert(
    tx: &mut WriteTx,
    id: &str,
    application_id: &str,
    secret_hash: &str,
    now: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO tokens (id, application_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(application_id)
    .bind(secret_hash)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The application's tokens neither revoked nor expired at `now`.
pub async fn live(db: &Db, application_id: &str, now: &str) -> Result<Vec<LiveToken>, DbError> {
    sqlx::query_as(
        "SELECT t.id AS token_id, t.secret_hash, t.expires_at, t.last_used_at,
                a.id, a.user_id, a.name
         FROM tokens t JOIN applications a ON a.id = t.application_id
         WHERE t.application_id = $1 AND t.revoked_at IS NULL
           AND (t.expires_at IS NULL OR t.expires_at > $2)",
    )
    .bind(application_id)
    .bind(now)
    .fetch_all(&db.pool)
    .await
}

/// Records a use at `now` when the stored one is older than `stale_before`
/// (or absent): at most one write a minute per token, whatever the traffic.
pub async fn touch(db: &Db, token_id: &str, now: &str, stale_before: &str) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "UPDATE tokens SET last_used_at = $1
         WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $3)",
    )
    .bind(now)
    .bind(token_id)
    .bind(stale_before)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Every token, oldest first, with its application's name.
pub async fn list(db: &Db) -> Result<Vec<TokenInfo>, DbError> {
    sqlx::query_as(
        "SELECT t.id, a.name AS application, t.created_at, t.expires_at, t.revoked_at,
                t.last_used_at
         FROM tokens t JOIN applications a ON a.id = t.application_id
         ORDER BY a.name, t.created_at, t.id",
    )
    .fetch_all(&db.pool)
    .await
}

/// Revokes a token at `now`: refused from the next request on.
pub async fn revoke(db: &Db, token_id: &str, now: &str) -> Result<Revoked, DbError> {
    let mut tx = db.begin_write().await?;
    let done =
        sqlx::query("UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
            .bind(now)
            .bind(token_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    tx.commit().await?;
    if done > 0 {
        return Ok(Revoked::Now);
    }
    let known: Option<String> = sqlx::query_scalar("SELECT id FROM tokens WHERE id = $1")
        .bind(token_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(if known.is_some() {
        Revoked::Already
    } else {
        Revoked::NoSuchToken
    })
}

/// A rotation, in one transaction: a new token for the application, and
/// every other token of it still in force ends at `old_until` (sooner if it
/// already ended sooner). Returns how many old tokens keep working until then.
pub async fn rotate(
    db: &Db,
    application_id: &str,
    new_id: &str,
    secret_hash: &str,
    now: &str,
    old_until: &str,
) -> Result<u64, DbError> {
    let mut tx = db.begin_write().await?;
    let ended = sqlx::query(
        "UPDATE tokens SET expires_at = $1
         WHERE application_id = $2 AND revoked_at IS NULL
           AND (expires_at IS NULL OR expires_at > $1)",
    )
    .bind(old_until)
    .bind(application_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    insert(&mut tx, new_id, application_id, secret_hash, now).await?;
    tx.commit().await?;
    Ok(ended)
}
