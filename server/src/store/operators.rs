//! Operator accounts in the database: `operators`, `operator_sessions`,
//! `login_failures` and `operator_audit` (migrations 0010 and 0035). Times are Unix
//! milliseconds, given by the caller (the domain's clock).

use sqlx::Row;

use crate::store::tokens::LiveToken;
use crate::store::{new_id, now_iso, Application, Backend, Db, DbError, DbRow, WriteTx};

/// A stored account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperatorRow {
    pub id: String,
    pub email: String,
    pub name: String,
    pub password_hash: String,
    pub active: bool,
    pub created_at: String,
}

/// When a session was made and last used (ms since the epoch): what its
/// idle and absolute limits are measured from.
#[derive(Clone, Copy, Debug)]
pub struct SessionTimes {
    pub created_ms: i64,
    pub last_seen_ms: i64,
}

/// A session found by its id's hash, with its operator.
#[derive(Clone, Debug)]
pub struct SessionRow {
    pub operator: OperatorRow,
    pub times: SessionTimes,
}

/// A session found by its id's hash with no more of its operator than the
/// middleware in front of each merchant call reads: the id, for the audit,
/// and whether the account is on.
#[derive(Clone, Debug)]
pub struct SessionOperatorId {
    pub operator_id: String,
    pub active: bool,
    pub times: SessionTimes,
}

/// One audit line.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AuditRow {
    pub operator_id: String,
    pub action: String,
    pub target_id: Option<String>,
    pub at: String,
    pub client_addr: String,
}

/// An operator's action, written in the same transaction as the change it
/// made (a creation's; one commit, not two), its target the created row's id.
#[derive(Clone, Debug)]
pub struct AuditLine {
    pub operator_id: String,
    pub action: &'static str,
    pub client_addr: String,
}

const COLUMNS: &str = "o.id, o.email, o.name, o.password_hash, o.active, o.created_at";

fn operator(r: &DbRow) -> Result<OperatorRow, DbError> {
    Ok(OperatorRow {
        id: r.try_get("id")?,
        email: r.try_get("email")?,
        name: r.try_get("name")?,
        password_hash: r.try_get("password_hash")?,
        active: r.try_get::<i64, _>("active")? != 0,
        created_at: r.try_get("created_at")?,
    })
}

/// Adds an account; a taken e-mail is a unique violation.
pub async fn insert(
    db: &Db,
    email: &str,
    name: &str,
    password_hash: &str,
) -> Result<OperatorRow, DbError> {
    let row = OperatorRow {
        id: new_id(),
        email: email.into(),
        name: name.into(),
        password_hash: password_hash.into(),
        active: true,
        created_at: now_iso(),
    };
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO operators (id, email, name, password_hash, active, created_at)
         VALUES ($1, $2, $3, $4, 1, $5)",
    )
    .bind(&row.id)
    .bind(&row.email)
    .bind(&row.name)
    .bind(&row.password_hash)
    .bind(&row.created_at)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(row)
}

pub async fn find_by_email(db: &Db, email: &str) -> Result<Option<OperatorRow>, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM operators o WHERE o.email = $1"
    ))
    .bind(email)
    .fetch_optional(&db.pool)
    .await?;
    row.as_ref().map(operator).transpose()
}

pub async fn list(db: &Db) -> Result<Vec<OperatorRow>, DbError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM operators o ORDER BY o.created_at, o.email"
    ))
    .fetch_all(&db.pool)
    .await?;
    rows.iter().map(operator).collect()
}

/// Turns an account off and ends its sessions, in one transaction; false
/// when there is no such account.
pub async fn disable(db: &Db, email: &str) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let id: Option<String> = sqlx::query_scalar("SELECT id FROM operators WHERE email = $1")
        .bind(email)
        .fetch_optional(&mut *tx)
        .await?;
    let Some(id) = id else {
        return Ok(false);
    };
    sqlx::query("UPDATE operators SET active = 0 WHERE id = $1")
        .bind(&id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM operator_sessions WHERE operator_id = $1")
        .bind(&id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

pub async fn insert_session(
    db: &Db,
    id_hash: &str,
    operator_id: &str,
    now_ms: i64,
) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO operator_sessions (id_hash, operator_id, created_ms, last_seen_ms)
         VALUES ($1, $2, $3, $3)",
    )
    .bind(id_hash)
    .bind(operator_id)
    .bind(now_ms)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

pub async fn find_session(db: &Db, id_hash: &str) -> Result<Option<SessionRow>, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS}, s.created_ms, s.last_seen_ms
         FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
         WHERE s.id_hash = $1"
    ))
    .bind(id_hash)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| session(&r)).transpose()
}

fn session(r: &DbRow) -> Result<SessionRow, DbError> {
    Ok(SessionRow {
        operator: operator(r)?,
        times: session_times(r)?,
    })
}

fn session_times(r: &DbRow) -> Result<SessionTimes, DbError> {
    Ok(SessionTimes {
        created_ms: r.try_get("created_ms")?,
        last_seen_ms: r.try_get("last_seen_ms")?,
    })
}

/// [`find_session`] (only the operator's id and whether it is on: the
/// account's other columns are not read on every merchant call) and, in the
/// same statement, the tokens of `app` in force at `now` (what `tokens::live`
/// reads, without its join: the caller has the application's row): the proxy
/// checks its own token beside the operator's session in one round trip
/// instead of two.
pub async fn find_session_and_tokens(
    db: &Db,
    id_hash: &str,
    app: &Application,
    now: &str,
) -> Result<Option<(SessionOperatorId, Vec<LiveToken>)>, DbError> {
    let rows = sqlx::query(
        "SELECT o.id, o.active, s.created_ms, s.last_seen_ms,
                t.id AS token_id, t.secret_hash, t.expires_at, t.last_used_at
         FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
         LEFT JOIN tokens t ON t.application_id = $2 AND t.revoked_at IS NULL
              AND (t.expires_at IS NULL OR t.expires_at > $3)
         WHERE s.id_hash = $1",
    )
    .bind(id_hash)
    .bind(&app.id)
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let mut tokens = Vec::new();
    for r in &rows {
        let Some(token_id) = r.try_get::<Option<String>, _>("token_id")? else {
            continue;
        };
        tokens.push(LiveToken {
            token_id,
            secret_hash: r.try_get("secret_hash")?,
            expires_at: r.try_get("expires_at")?,
            last_used_at: r.try_get("last_used_at")?,
            id: app.id.clone(),
            user_id: app.user_id.clone(),
            name: app.name.clone(),
        });
    }
    let session = SessionOperatorId {
        operator_id: first.try_get("id")?,
        active: first.try_get::<i64, _>("active")? != 0,
        times: session_times(first)?,
    };
    Ok(Some((session, tokens)))
}

pub async fn touch_session(db: &Db, id_hash: &str, now_ms: i64) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE operator_sessions SET last_seen_ms = $1 WHERE id_hash = $2")
        .bind(now_ms)
        .bind(id_hash)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

pub async fn delete_session(db: &Db, id_hash: &str) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    sqlx::query("DELETE FROM operator_sessions WHERE id_hash = $1")
        .bind(id_hash)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// Drops the sessions idle since `idle_before` or created before `created_before`.
pub async fn delete_expired_sessions(
    db: &Db,
    idle_before: i64,
    created_before: i64,
) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    sqlx::query("DELETE FROM operator_sessions WHERE last_seen_ms < $1 OR created_ms < $2")
        .bind(idle_before)
        .bind(created_before)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// The failures under `key` since `since_ms`: how many, and the oldest.
pub async fn failures_since(
    db: &Db,
    key: &str,
    since_ms: i64,
) -> Result<(i64, Option<i64>), DbError> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n, MIN(at_ms) AS oldest FROM login_failures
         WHERE throttle_key = $1 AND at_ms >= $2",
    )
    .bind(key)
    .bind(since_ms)
    .fetch_one(&db.pool)
    .await?;
    Ok((row.try_get("n")?, row.try_get("oldest")?))
}

/// Records one failure under each key, and prunes what is older than `prune_before_ms`.
pub async fn record_failure(
    db: &Db,
    keys: &[&str],
    now_ms: i64,
    prune_before_ms: i64,
) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    for key in keys {
        sqlx::query("INSERT INTO login_failures (throttle_key, at_ms) VALUES ($1, $2)")
            .bind(*key)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("DELETE FROM login_failures WHERE at_ms < $1")
        .bind(prune_before_ms)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// Forgets the failures under `key` (an account after a good login).
pub async fn clear_failures(db: &Db, key: &str) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    sqlx::query("DELETE FROM login_failures WHERE throttle_key = $1")
        .bind(key)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

pub async fn insert_audit(
    db: &Db,
    operator_id: &str,
    action: &str,
    target_id: Option<&str>,
    client_addr: &str,
) -> Result<(), DbError> {
    let mut tx = db.begin_write().await?;
    write_audit(&mut tx, operator_id, action, target_id, client_addr).await?;
    tx.commit().await
}

/// `insert` (one `INSERT` whose `$1` is the new row's id, `params` parameters in all) and
/// `line`'s audit row about that row as one statement: SQLite runs the two as one
/// multi-statement query (sqlx binds each `$N` by its number), PostgreSQL the insert as a
/// data-modifying `WITH`. One round trip to the database where two were, inside the write
/// transaction that SQLite's write gate serialises, which an operator's creation through
/// the proxy paid for beside the same creation by token (bench/api's proxy / direct).
/// The audit's values are bound after `insert`'s with [`bind_audit`].
pub(super) fn with_audit(backend: Backend, insert: &str, params: usize) -> String {
    let [id, operator, action, at, addr] = std::array::from_fn(|i| params + 1 + i);
    let audit = format!(
        "INSERT INTO operator_audit (id, operator_id, action, target_id, at, client_addr)
         VALUES (${id}, ${operator}, ${action}, $1, ${at}, ${addr})"
    );
    match backend {
        Backend::Sqlite => format!("{insert};\n{audit}"),
        Backend::Postgres => format!("WITH created AS ({insert})\n{audit}"),
    }
}

/// The audit's values of a [`with_audit`] statement, after its insert's.
pub(super) fn bind_audit<'q>(
    q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    line: &'q AuditLine,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    q.bind(new_id())
        .bind(&line.operator_id)
        .bind(line.action)
        .bind(now_iso())
        .bind(&line.client_addr)
}

async fn write_audit(
    tx: &mut WriteTx,
    operator_id: &str,
    action: &str,
    target_id: Option<&str>,
    client_addr: &str,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO operator_audit (id, operator_id, action, target_id, at, client_addr)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(new_id())
    .bind(operator_id)
    .bind(action)
    .bind(target_id)
    .bind(now_iso())
    .bind(client_addr)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The audit trail, oldest first.
pub async fn list_audit(db: &Db) -> Result<Vec<AuditRow>, DbError> {
    sqlx::query_as(
        "SELECT operator_id, action, target_id, at, client_addr FROM operator_audit
         ORDER BY at, id",
    )
    .fetch_all(&db.pool)
    .await
}
