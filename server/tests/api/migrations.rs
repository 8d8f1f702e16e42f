//! Migrations that change stored data, run on a database as an older
//! version left it.

use paylink_server::store::Db;

use crate::helpers::*;

/// A database with the migrations before `version` applied, as an older
/// paylink left it, and a pool on it.
async fn database_before(version: i64) -> (tempfile::TempDir, String, sqlx::AnyPool) {
    sqlx::any::install_default_drivers();
    let dir = tempfile::tempdir().unwrap();
    let target = test_database(dir.path(), "old.db").await;
    let url = if on_postgres() {
        target.clone()
    } else {
        format!("sqlite://{target}?mode=rwc")
    };
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let set = if on_postgres() { "postgres" } else { "sqlite" };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(set);
    let mut migrator = sqlx::migrate::Migrator::new(path).await.unwrap();
    migrator.migrations = migrator
        .migrations
        .iter()
        .filter(|m| m.version < version)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    migrator.run(&pool).await.unwrap();
    (dir, target, pool)
}

#[tokio::test]
async fn phones_stored_bare_by_older_versions_get_their_plus() {
    let (_dir, target, pool) = database_before(7).await;
    sqlx::query(
        "INSERT INTO applications (id, user_id, name, secret_hash, created_at)
         VALUES ('app', 'user', 'loja', 'x', '2026-01-01T00:00:00.000Z')",
    )
    .execute(&pool)
    .await
    .unwrap();
    for (id, phone) in [
        ("bare", Some("5511987654321")),
        ("foreign", Some("14155550123")),
        ("e164", Some("+5511987654321")),
        ("none", None),
    ] {
        sqlx::query(
            "INSERT INTO customers (id, application_id, user_id, full_name, phone, created_at)
             VALUES ($1, 'app', 'user', 'Maria da Silva', $2, '2026-01-01T00:00:00.000Z')",
        )
        .bind(id)
        .bind(phone)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;

    Db::open(&target).await.unwrap();
    let pool = raw_pool(&target).await;
    let mut phones: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT id, phone FROM customers ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    phones.sort();
    assert_eq!(
        phones,
        [
            ("bare".to_string(), Some("+5511987654321".to_string())),
            ("e164".to_string(), Some("+5511987654321".to_string())),
            ("foreign".to_string(), Some("+14155550123".to_string())),
            ("none".to_string(), None),
        ]
    );
    // Opening again changes nothing more.
    Db::open(&target).await.unwrap();
    let again: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT id, phone FROM customers ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(again, phones);
}
