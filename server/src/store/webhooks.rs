//! The application's webhooks, its deliveries and their redelivery, in the
//! database: for the API (`http::webhooks`), the CLI (`paylink webhook`) and
//! the tests. The rules come first, in `domain::webhooks`.

use paylink_model::webhooks::{
    AppWebhook, Delivery, DeliveryFilter, DeliveryPage, DeliveryStatus, MAX_APP_WEBHOOKS,
};
use paylink_model::{list::Cursor, HookType};
use sqlx::Row;

use crate::store::{new_id, now_iso, stored_fault, Db, DbError, DbRow, WriteTx};

/// Stores a webhook as given, without a check (the domain's `register`
/// checks and makes the secret; tests store rows the checks would refuse).
/// Returns its id.
pub async fn add_app_webhook(
    db: &Db,
    app_id: &str,
    hook_type: HookType,
    url: &str,
) -> Result<String, DbError> {
    let mut tx = db.begin_write().await?;
    let (id, _) = insert_app_webhook(&mut tx, app_id, hook_type, url).await?;
    tx.commit().await?;
    Ok(id)
}

async fn insert_app_webhook(
    tx: &mut WriteTx,
    app_id: &str,
    hook_type: HookType,
    url: &str,
) -> Result<(String, String), DbError> {
    let (id, now) = (new_id(), now_iso());
    sqlx::query("INSERT INTO app_webhooks (id, application_id, hook_type, url, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&id)
        .bind(app_id)
        .bind(hook_type.as_str())
        .bind(url)
        .bind(&now)
        .execute(&mut **tx)
        .await?;
    Ok((id, now))
}

/// What [`register`] did.
pub enum Registered {
    /// Stored; with the application's signing secret when this made it.
    Added(AppWebhook),
    /// The application already has an enabled webhook of this event at this URL.
    Exists,
    /// The application has [`MAX_APP_WEBHOOKS`] enabled webhooks already.
    Full,
}

/// Stores a checked webhook, unless the same one is there, and makes the
/// application's signing secret if it has none, in one transaction.
pub async fn register(
    db: &Db,
    app_id: &str,
    hook_type: HookType,
    url: &str,
) -> Result<Registered, DbError> {
    let mut tx = db.begin_write().await?;
    let exists: Option<String> = sqlx::query_scalar(
        "SELECT id FROM app_webhooks
         WHERE application_id = $1 AND hook_type = $2 AND url = $3 AND disabled_at IS NULL",
    )
    .bind(app_id)
    .bind(hook_type.as_str())
    .bind(url)
    .fetch_optional(&mut *tx)
    .await?;
    if exists.is_some() {
        return Ok(Registered::Exists);
    }
    let enabled: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM app_webhooks WHERE application_id = $1 AND disabled_at IS NULL",
    )
    .bind(app_id)
    .fetch_one(&mut *tx)
    .await?;
    if enabled >= MAX_APP_WEBHOOKS as i64 {
        return Ok(Registered::Full);
    }
    let (id, created_at) = insert_app_webhook(&mut tx, app_id, hook_type, url).await?;
    let secret = crate::store::applications::create_secret_if_none(&mut tx, app_id).await?;
    tx.commit().await?;
    Ok(Registered::Added(AppWebhook {
        id,
        hook_type,
        url: url.to_string(),
        created_at,
        disabled_at: None,
        secret: secret.map(|(s, _)| s),
    }))
}

/// The application's webhooks, oldest first.
pub async fn list_app_webhooks(db: &Db, app_id: &str) -> Result<Vec<AppWebhook>, DbError> {
    let rows = sqlx::query(
        "SELECT id, hook_type, url, created_at, disabled_at FROM app_webhooks
         WHERE application_id = $1 ORDER BY created_at, id",
    )
    .bind(app_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let kind: String = r.try_get("hook_type")?;
            Ok(AppWebhook {
                id: r.try_get("id")?,
                hook_type: HookType::parse(&kind)
                    .ok_or_else(|| stored_fault(format!("hook type {kind:?}")))?,
                url: r.try_get("url")?,
                created_at: r.try_get("created_at")?,
                disabled_at: r.try_get("disabled_at")?,
                secret: None,
            })
        })
        .collect()
}

/// Removes the application's webhook `id` (`false`: it has none such); its
/// deliveries still waiting are not attempted again (`disabled`).
pub async fn remove_app_webhook(db: &Db, app_id: &str, id: &str) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let removed = sqlx::query("DELETE FROM app_webhooks WHERE id = $1 AND application_id = $2")
        .bind(id)
        .bind(app_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if removed == 0 {
        return Ok(false);
    }
    sqlx::query(
        "UPDATE deliveries SET status = 'disabled', next_attempt_at = NULL, updated_at = $1
         WHERE webhook_source = 'application' AND webhook_id = $2 AND status = 'pending'",
    )
    .bind(now_iso())
    .bind(id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// The columns of a [`Delivery`], read by [`delivery_of`].
const DELIVERY_SELECT: &str = "SELECT d.id, d.event_id, e.type, e.invoice_id, i.external_id, d.url,
        d.webhook_source, d.status, d.attempts, d.last_status_code, d.last_error,
        d.next_attempt_at, d.created_at, d.updated_at
    FROM deliveries d JOIN events e ON e.id = d.event_id JOIN invoices i ON i.id = e.invoice_id";

fn delivery_of(r: &DbRow) -> Result<Delivery, DbError> {
    let kind: String = r.try_get("type")?;
    let status: String = r.try_get("status")?;
    Ok(Delivery {
        id: r.try_get("id")?,
        event_id: r.try_get("event_id")?,
        event_type: HookType::parse(&kind)
            .ok_or_else(|| stored_fault(format!("event type {kind:?}")))?,
        invoice_id: r.try_get("invoice_id")?,
        external_id: r.try_get("external_id")?,
        url: r.try_get("url")?,
        source: r.try_get("webhook_source")?,
        status: DeliveryStatus::parse(&status)
            .ok_or_else(|| stored_fault(format!("delivery status {status:?}")))?,
        attempts: r.try_get("attempts")?,
        last_status_code: r.try_get("last_status_code")?,
        last_error: r.try_get("last_error")?,
        next_attempt_at: r.try_get("next_attempt_at")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

/// A page of the application's deliveries matching `f`, newest first,
/// keyset-paginated on (created_at, id) as the other lists are.
pub async fn delivery_page(
    db: &Db,
    app_id: &str,
    f: &DeliveryFilter,
) -> Result<DeliveryPage, DbError> {
    let mut binds: Vec<String> = vec![app_id.to_string()];
    let mut bind = |v: String| {
        binds.push(v);
        format!("${}", binds.len())
    };
    let mut sql = format!("{DELIVERY_SELECT} WHERE e.application_id = $1");
    if let Some(id) = &f.invoice_id {
        sql += &format!(" AND e.invoice_id = {}", bind(id.clone()));
    }
    if let Some(s) = f.status {
        sql += &format!(" AND d.status = {}", bind(s.as_str().to_string()));
    }
    if let Some(c) = &f.cursor {
        let at = bind(c.created_at.clone());
        let id = bind(c.id.clone());
        sql += &format!(" AND (d.created_at < {at} OR (d.created_at = {at} AND d.id < {id}))");
    }
    sql += &format!(
        " ORDER BY d.created_at DESC, d.id DESC LIMIT {}",
        f.limit + 1
    );
    let rows = binds
        .into_iter()
        .fold(sqlx::query(&sql), |q, v| q.bind(v))
        .fetch_all(&db.pool)
        .await?;
    let mut data = rows
        .iter()
        .map(delivery_of)
        .collect::<Result<Vec<_>, _>>()?;
    let next_cursor = (data.len() > f.limit as usize).then(|| {
        data.truncate(f.limit as usize);
        let last = data.last().expect("a page past its limit has rows");
        Cursor {
            created_at: last.created_at.clone(),
            id: last.id.clone(),
        }
        .encode()
    });
    Ok(DeliveryPage { data, next_cursor })
}

/// What [`redeliver_one`] did.
pub enum Redelivery {
    /// Due again now: the delivery as it is after that.
    Queued(Box<Delivery>),
    /// The application has no such delivery.
    NotFound,
    /// Not tried yet, or an attempt is under way: its outcome comes first.
    Pending,
}

/// Makes delivery `id` due again now, unless it was never tried (it is
/// about to be) or an attempt holds its lease: one more attempt of the same
/// event (same `webhook-id`, so a receiver that has it can drop it) to the
/// same URL, signed with the current secret, and retried on the schedule
/// while attempts remain. Whether it did.
async fn reopen(tx: &mut WriteTx, id: &str, now: &str) -> Result<bool, DbError> {
    let n = sqlx::query(
        "UPDATE deliveries SET status = 'pending', next_attempt_at = $1, updated_at = $1
         WHERE id = $2 AND (status <> 'pending' OR attempts > 0)
           AND (locked_until IS NULL OR locked_until < $1)",
    )
    .bind(now)
    .bind(id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Sends the application's delivery `id` again (see [`reopen`]).
pub async fn redeliver_one(db: &Db, app_id: &str, id: &str) -> Result<Redelivery, DbError> {
    let mut tx = db.begin_write().await?;
    let found: Option<String> = sqlx::query_scalar(
        "SELECT d.id FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE d.id = $1 AND e.application_id = $2",
    )
    .bind(id)
    .bind(app_id)
    .fetch_optional(&mut *tx)
    .await?;
    if found.is_none() {
        return Ok(Redelivery::NotFound);
    }
    if !reopen(&mut tx, id, &now_iso()).await? {
        return Ok(Redelivery::Pending);
    }
    tx.commit().await?;
    let row = sqlx::query(&format!("{DELIVERY_SELECT} WHERE d.id = $1"))
        .bind(id)
        .fetch_one(&db.pool)
        .await?;
    Ok(Redelivery::Queued(Box::new(delivery_of(&row)?)))
}

/// One row of `paylink webhook deliveries`.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryRow {
    pub id: String,
    pub event_id: String,
    pub event_type: String,
    pub url: String,
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: Option<String>,
    pub last_status_code: Option<i64>,
    pub last_error: Option<String>,
    /// Every attempt so far, oldest first.
    pub attempt_log: Vec<AttemptRow>,
}

/// One attempt of a delivery.
#[derive(Debug, serde::Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct AttemptRow {
    pub at: String,
    pub status_code: Option<i64>,
    pub error: Option<String>,
    pub duration_ms: i64,
}

pub async fn list_deliveries(db: &Db, event_id: Option<&str>) -> Result<Vec<DeliveryRow>, DbError> {
    let rows = sqlx::query(
        "SELECT d.id, d.event_id, e.type, d.url, d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error
         FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE ($1 IS NULL OR d.event_id = $1) ORDER BY d.created_at, d.id",
    )
    .bind(event_id)
    .fetch_all(&db.pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let id: String = r.try_get("id")?;
        let attempt_log = sqlx::query_as(
            "SELECT attempted_at AS at, status_code, error, duration_ms FROM delivery_attempts
             WHERE delivery_id = $1 ORDER BY attempted_at, id",
        )
        .bind(&id)
        .fetch_all(&db.pool)
        .await?;
        out.push(DeliveryRow {
            id,
            event_id: r.try_get("event_id")?,
            event_type: r.try_get("type")?,
            url: r.try_get("url")?,
            status: r.try_get("status")?,
            attempts: r.try_get("attempts")?,
            next_attempt_at: r.try_get("next_attempt_at")?,
            last_status_code: r.try_get("last_status_code")?,
            last_error: r.try_get("last_error")?,
            attempt_log,
        });
    }
    Ok(out)
}

/// Sends an event again to every endpoint it was delivered to, each
/// delivery as [`redeliver_one`] does (`paylink webhook redeliver`).
/// Returns how many deliveries were made due; 0 means no such event (or
/// none that may be sent again yet).
pub async fn redeliver(db: &Db, event_id: &str) -> Result<usize, DbError> {
    let mut tx = db.begin_write().await?;
    let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM deliveries WHERE event_id = $1")
        .bind(event_id)
        .fetch_all(&mut *tx)
        .await?;
    let now = now_iso();
    let mut n = 0;
    for id in &ids {
        n += usize::from(reopen(&mut tx, id, &now).await?);
    }
    tx.commit().await?;
    Ok(n)
}
