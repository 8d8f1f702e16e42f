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

/// Application `app`, customer `cus` (Maria da Silva) and invoice `inv` (`pedido-1`, due
/// 2027-01-31) of `cents` in `count` installments, as an older paylink wrote them.
async fn old_invoice(pool: &sqlx::AnyPool, cents: i64, count: i64) {
    for sql in [
        "INSERT INTO applications (id, user_id, name, secret_hash, created_at)
         VALUES ('app', 'user', 'loja', 'x', '2026-01-01T00:00:00.000Z')",
        "INSERT INTO customers (id, application_id, user_id, full_name, created_at)
         VALUES ('cus', 'app', 'user', 'Maria da Silva', '2026-01-01T00:00:00.000Z')",
    ] {
        sqlx::query(sql).execute(pool).await.unwrap();
    }
    sqlx::query(
        "INSERT INTO invoices (id, application_id, customer_id, external_id, invoice_type, price_cents,
                               price_by_customer, due_date, installment_count, created_at)
         VALUES ('inv', 'app', 'cus', 'pedido-1', 'INSTALLMENT', $1, FALSE, '2027-01-31', $2,
                 '2026-01-01T00:00:00.000Z')",
    )
    .bind(cents)
    .bind(count)
    .execute(pool)
    .await
    .unwrap();
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

/// Rows written before the search keys (migration 0016) are keyed when
/// paylink opens the database, in batches (more rows than one batch), so
/// `q` finds them as it finds new ones; opening again changes nothing.
#[tokio::test]
async fn search_keys_are_filled_for_rows_written_before_them() {
    let (_dir, target, pool) = database_before(16).await;
    let mut tx = pool.begin().await.unwrap();
    sqlx::query(
        "INSERT INTO applications (id, user_id, name, secret_hash, created_at)
         VALUES ('app', 'user', 'loja', 'x', '2026-01-01T00:00:00.000Z')",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    let mut customers = vec![
        (
            "c-joao".to_string(),
            "JOÃO da Conceição".to_string(),
            Some("Joao@Loja.example"),
        ),
        ("c-ana".to_string(), "Ana Souza".to_string(), None),
    ];
    for n in 0..1200 {
        customers.push((format!("c-{n:04}"), format!("Cliente {n}"), None));
    }
    for (id, name, email) in &customers {
        sqlx::query(
            "INSERT INTO customers (id, application_id, user_id, full_name, email, created_at)
             VALUES ($1, 'app', 'user', $2, $3, '2026-01-01T00:00:00.000Z')",
        )
        .bind(id)
        .bind(name)
        .bind(*email)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    sqlx::query(
        "INSERT INTO invoices (id, application_id, customer_id, external_id, invoice_type, price_cents,
                               price_by_customer, due_date, installment_count, created_at)
         VALUES ('inv', 'app', 'c-joao', 'Pedido-AÇÃO', 'SINGLE', 1000, $1, '2027-01-01', 1,
                 '2026-01-01T00:00:00.000Z')",
    )
    .bind(false)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    pool.close().await;

    let db = Db::open(&target).await.unwrap();
    let pool = raw_pool(&target).await;
    let keys = |sql: &'static str| {
        let pool = pool.clone();
        async move {
            let mut rows: Vec<(String, Option<String>)> =
                sqlx::query_as(sql).fetch_all(&pool).await.unwrap();
            rows.sort();
            rows
        }
    };
    let named = "SELECT id, search_key FROM customers WHERE id IN ('c-joao', 'c-ana', 'c-1199')";
    let before = keys(named).await;
    assert_eq!(
        before,
        [
            ("c-1199".to_string(), Some("cliente 1199\n".to_string())),
            ("c-ana".to_string(), Some("ana souza\n".to_string())),
            (
                "c-joao".to_string(),
                Some("joao da conceicao\njoao@loja.example".to_string())
            ),
        ]
    );
    assert_eq!(
        keys("SELECT id, search_key FROM invoices").await,
        [("inv".to_string(), Some("pedido-acao".to_string()))]
    );
    let unkeyed: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM customers WHERE search_key IS NULL)
              + (SELECT COUNT(*) FROM invoices WHERE search_key IS NULL)",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(unkeyed, 0);

    // Found by `q` as a merchant types it.
    for (q, expected) in [
        ("joão", vec!["c-joao"]),
        ("CONCEICAO", vec!["c-joao"]),
        ("joao@loja", vec!["c-joao"]),
        ("souza", vec!["c-ana"]),
        ("ninguém", vec![]),
    ] {
        let filter = paylink_model::list::ListParams {
            q: Some(q.to_string()),
            ..Default::default()
        }
        .customer_filter()
        .unwrap();
        let page = paylink_server::store::lists::customer_page(&db, "app", &filter)
            .await
            .unwrap();
        let ids: Vec<&str> = page.data.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, expected, "q={q}");
    }

    Db::open(&target).await.unwrap();
    assert_eq!(keys(named).await, before);
}

/// The nosso número an older paylink derived from an installment id: its
/// first 12 hex digits, mod 10¹⁰.
fn derived_our_number(id: &str) -> i64 {
    let hex: String = id
        .chars()
        .filter(char::is_ascii_hexdigit)
        .take(12)
        .collect();
    (u64::from_str_radix(&hex, 16).unwrap() % 10_000_000_000) as i64
}

#[tokio::test]
async fn installments_keep_the_nosso_numero_they_printed_and_new_ones_never_take_it() {
    let (_dir, target, pool) = database_before(15).await;
    old_invoice(&pool, 100_000, 12).await;
    for sql in [
        "INSERT INTO remessa_files (id, sequence, boletos, total_cents, content, created_at)
         VALUES ('rem', 1, 1, 1000, '', '2026-01-02T00:00:00.000Z')",
    ] {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    // Random ids as older versions wrote them; three that printed 1, 2 and 3
    // (a run the new numbers must step over); and two that printed the same
    // number (the bug), the later one registered at the bank.
    let mut ids: Vec<String> = (0..6).map(|_| uuid::Uuid::new_v4().to_string()).collect();
    ids.extend(
        [
            "00000000-0001-4000-8000-00000000000a",
            "00000000-0003-4000-8000-00000000000b",
            "00000000-0002-4000-8000-00000000000c",
            "abcdef01-2345-4000-8000-000000000001",
            "abcdef01-2345-4000-8000-000000000002",
        ]
        .map(String::from),
    );
    for (n, id) in ids.iter().enumerate() {
        sqlx::query(
            "INSERT INTO installments (id, invoice_id, number, price_cents, due_date, status, created_at)
             VALUES ($1, 'inv', $2, 1000, '2027-01-31', 'WAITING_PAYMENT', $3)",
        )
        .bind(id)
        .bind(n as i64 + 1)
        .bind(format!("2026-01-01T00:00:{n:02}.000Z"))
        .execute(&pool)
        .await
        .unwrap();
    }
    let (loser, winner) = (&ids[9], &ids[10]);
    sqlx::query(
        "INSERT INTO boleto_registrations (installment_id, our_number, remessa_id, state, created_at, updated_at)
         VALUES ($1, $2, 'rem', 'SENT', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z')",
    )
    .bind(winner)
    .bind(format!("1234567{:010}", derived_our_number(winner)))
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;

    Db::open(&target).await.unwrap();
    let pool = raw_pool(&target).await;
    let stored = |id: String| {
        let pool = pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT our_number FROM installments WHERE id = $1")
                .bind(id)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    let mut held = std::collections::BTreeSet::new();
    for id in ids.iter().filter(|id| *id != loser) {
        let n = stored(id.clone()).await;
        assert_eq!(
            n,
            derived_our_number(id),
            "installment {id} keeps its number"
        );
        held.insert(n);
    }
    assert_eq!(derived_our_number(loser), derived_our_number(winner));
    // New numbers: 1, 2, 3 … skipping every number an older installment holds.
    let mut free = (1..).filter(|n| !held.contains(n));
    assert_eq!(
        stored(loser.clone()).await,
        free.next().unwrap(),
        "the unregistered twin gets a new number"
    );
    for n in 13..=15 {
        let id = uuid::Uuid::new_v4().to_string();
        sqlx::query(
            "INSERT INTO installments (id, invoice_id, number, price_cents, due_date, status, created_at)
             VALUES ($1, 'inv', $2, 1000, '2027-01-31', 'WAITING_PAYMENT', '2026-02-01T00:00:00.000Z')",
        )
        .bind(&id)
        .bind(n as i64)
        .execute(&pool)
        .await
        .unwrap();
        assert_eq!(stored(id).await, free.next().unwrap());
    }
    // Opening again changes nothing.
    let before: Vec<(String, i64)> =
        sqlx::query_as("SELECT id, our_number FROM installments ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    Db::open(&target).await.unwrap();
    let after: Vec<(String, i64)> =
        sqlx::query_as("SELECT id, our_number FROM installments ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(before, after);
}

/// A `cob` made before 0018 was made to last a day, a `cobv` until 30 days after its due date:
/// each gets that expiry (and is made again once it passed).
#[tokio::test]
async fn charges_made_before_0018_expire_when_they_were_made_to() {
    let (_dir, target, pool) = database_before(18).await;
    old_invoice(&pool, 2_000, 2).await;
    for sql in [
        "INSERT INTO installments (id, invoice_id, number, price_cents, due_date, status, created_at)
         VALUES ('i1', 'inv', 1, 1000, '2027-01-31', 'WAITING_PAYMENT', '2026-01-01T00:00:00.000Z'),
                ('i2', 'inv', 2, 1000, '2027-02-28', 'WAITING_PAYMENT', '2026-01-01T00:00:00.000Z')",
        "INSERT INTO pix_charges (id, invoice_id, txid, kind, operation, status, next_attempt_at,
                                  created_at, updated_at)
         VALUES ('i1', 'inv', 'tx1', 'cob', 'create', 'done', '2026-03-01T10:00:00.000Z',
                 '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:05.250Z'),
                ('i2', 'inv', 'tx2', 'cobv', 'create', 'done', '2026-03-01T10:00:00.000Z',
                 '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:05.250Z')",
    ] {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    pool.close().await;

    Db::open(&target).await.unwrap();
    let pool = raw_pool(&target).await;
    let rows: Vec<(String, Option<String>, i64)> =
        sqlx::query_as("SELECT id, expires_at, renewals FROM pix_charges ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(
        rows,
        [
            ("i1".into(), Some("2026-03-02T10:00:05.250Z".into()), 0),
            ("i2".into(), Some("2027-03-31T03:00:00.000Z".into()), 0)
        ]
    );
}

/// A token made before 0019 (its hash on the application row) is the
/// application's first token after it, under the application's id, and still
/// authenticates; the application row keeps no hash.
#[tokio::test]
async fn a_token_made_before_0019_keeps_working() {
    let (_dir, target, pool) = database_before(19).await;
    let app_id = "0190a1b2-c3d4-7e5f-8a9b-0123456789ab";
    let secret = "segredo-antigo";
    sqlx::query(
        "INSERT INTO applications (id, user_id, name, secret_hash, created_at)
         VALUES ($1, 'user', 'loja', $2, '2026-01-01T00:00:00.000Z')",
    )
    .bind(app_id)
    .bind(paylink_server::http::auth::hash_secret(secret))
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;

    let db = Db::open(&target).await.unwrap();
    let live = paylink_server::store::tokens::live(&db, app_id, "2026-11-27T00:00:00.000Z")
        .await
        .unwrap();
    assert_eq!(live.len(), 1);
    assert_eq!(
        (live[0].token_id.as_str(), live[0].name.as_str()),
        (app_id, "loja")
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = format!("http://{}", listener.local_addr().unwrap());
    let state = paylink_server::Service {
        db,
        public_url: std::sync::Arc::from(addr.as_str()),
        outbound: Default::default(),
        merchant: Default::default(),
    };
    let app = paylink_server::service(state);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    use base64::Engine;
    let token = base64::engine::general_purpose::STANDARD.encode(format!("{app_id}:{secret}"));
    let res = reqwest::Client::new()
        .get(format!("{addr}/invoices/applications/customers"))
        .header("Authorization", format!("Basic {token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    let columns: Vec<String> = if on_postgres() {
        sqlx::query_scalar(
            "SELECT column_name::text FROM information_schema.columns
             WHERE table_name = 'applications' AND table_schema = current_schema()",
        )
        .fetch_all(&raw_pool(&target).await)
        .await
        .unwrap()
    } else {
        sqlx::query_scalar("SELECT name FROM pragma_table_info('applications')")
            .fetch_all(&raw_pool(&target).await)
            .await
            .unwrap()
    };
    assert!(
        !columns.is_empty() && !columns.iter().any(|c| c == "secret_hash"),
        "{columns:?}"
    );
}

/// A link `paylink link create` made before links had owners, and `apps`
/// applications; the links' owners once every migration ran.
async fn link_owner_after_0031(apps: &[&str]) -> Option<String> {
    let (_dir, target, pool) = database_before(31).await;
    for name in apps {
        sqlx::query(
            "INSERT INTO applications (id, user_id, name, created_at)
             VALUES ($1, 'user', $1, '2026-01-01T00:00:00.000Z')",
        )
        .bind(*name)
        .execute(&pool)
        .await
        .unwrap();
    }
    sqlx::query(
        "INSERT INTO payment_links (slug, name, description, price_cents, payment_types,
                                    invoice_type, created_at)
         VALUES ('curso', 'Curso', 'Acesso', 30000, 'PIX', 'SINGLE', '2026-01-01T00:00:00.000Z')",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let db = Db::open(&target).await.unwrap();
    let link = paylink_server::store::links::find(&db, "curso")
        .await
        .unwrap();
    link.unwrap().application_id
}

#[tokio::test]
async fn a_link_made_before_0031_is_the_only_applications_and_nobodys_among_several() {
    assert_eq!(
        link_owner_after_0031(&["loja"]).await.as_deref(),
        Some("loja")
    );
    assert_eq!(link_owner_after_0031(&["loja", "outra"]).await, None);
    assert_eq!(link_owner_after_0031(&[]).await, None);
}

/// Installments written before 0030 get their own random txid for their static PIX code
/// (issue 38: it was the invoice id's first 22 hex digits), each a different one.
#[tokio::test]
async fn installments_written_before_0030_get_a_random_txid() {
    let (_dir, target, pool) = database_before(30).await;
    for sql in [
        "INSERT INTO applications (id, user_id, name, created_at)
         VALUES ('app', 'user', 'loja', '2026-01-01T00:00:00.000Z')",
        "INSERT INTO customers (id, application_id, user_id, full_name, created_at)
         VALUES ('cus', 'app', 'user', 'Maria da Silva', '2026-01-01T00:00:00.000Z')",
        "INSERT INTO invoices (id, application_id, customer_id, external_id, invoice_type, price_cents,
                               price_by_customer, due_date, installment_count, created_at)
         VALUES ('inv', 'app', 'cus', 'pedido-1', 'INSTALLMENT', 9999, FALSE, '2027-01-31', 3,
                 '2026-01-01T00:00:00.000Z')",
    ] {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    for n in 1..=3_i64 {
        sqlx::query(
            "INSERT INTO installments (id, invoice_id, number, price_cents, price_paid_cents, due_date,
                                       status, created_at)
             VALUES ($1, 'inv', $2, 3333, 0, '2027-01-31', 'WAITING_PAYMENT', '2026-01-01T00:00:00.000Z')",
        )
        .bind(format!("ins-{n}"))
        .bind(n)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
    let db = Db::open(&target).await.unwrap();
    let txids: Vec<(String, String)> =
        paylink_server::store::invoices::static_pix_txids(&db, "inv")
            .await
            .unwrap();
    assert_eq!(txids.len(), 3, "{txids:?}");
    let mut seen: Vec<&str> = txids.iter().map(|(_, t)| t.as_str()).collect();
    for t in &seen {
        assert!(
            t.len() == 25 && t.chars().all(|c| c.is_ascii_hexdigit()),
            "{t}"
        );
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 3, "{txids:?}");
}

/// The audit trail an older paylink wrote survives 0035 (the trail rebuilt as an append-only
/// table): every line, listed by time as before, and new lines land after them.
#[tokio::test]
async fn audit_lines_written_before_0035_are_kept() {
    let (_dir, target, pool) = database_before(35).await;
    sqlx::query(
        "INSERT INTO operators (id, email, name, password_hash, active, created_at)
         VALUES ('op', 'ana@loja.example', 'Ana', 'x', 1, '2026-01-01T00:00:00.000Z')",
    )
    .execute(&pool)
    .await
    .unwrap();
    for (id, action, target_id, at) in [
        (
            "0190a1b2-0000-7000-8000-000000000002",
            "create_customer",
            Some("cus"),
            "2026-01-02T00:00:00.000Z",
        ),
        (
            "0190a1b2-0000-7000-8000-000000000001",
            "login",
            None,
            "2026-01-01T00:00:00.000Z",
        ),
    ] {
        sqlx::query(
            "INSERT INTO operator_audit (id, operator_id, action, target_id, at, client_addr)
             VALUES ($1, 'op', $2, $3, $4, '203.0.113.7')",
        )
        .bind(id)
        .bind(action)
        .bind(target_id)
        .bind(at)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;

    let db = Db::open(&target).await.unwrap();
    paylink_server::store::operators::insert_audit(&db, "op", "logout", None, "203.0.113.7")
        .await
        .unwrap();
    let lines: Vec<_> = paylink_server::store::operators::list_audit(&db)
        .await
        .unwrap()
        .into_iter()
        .map(|l| (l.action, l.target_id, l.client_addr))
        .collect();
    let addr = "203.0.113.7".to_string();
    assert_eq!(
        lines,
        [
            ("login".to_string(), None, addr.clone()),
            (
                "create_customer".to_string(),
                Some("cus".to_string()),
                addr.clone()
            ),
            ("logout".to_string(), None, addr),
        ]
    );
}
