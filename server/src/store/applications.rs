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

/// The application's webhook signing secret, created on first use.
pub async fn webhook_secret(db: &Db, app_id: &str) -> Result<String, DbError> {
    // Set only where still empty, so two callers racing agree on one secret.
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "UPDATE applications SET webhook_secret = $1 WHERE id = $2 AND webhook_secret IS NULL",
    )
    .bind(new_secret())
    .bind(app_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    sqlx::query_scalar("SELECT webhook_secret FROM applications WHERE id = $1")
        .bind(app_id)
        .fetch_one(&db.pool)
        .await
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
