//! What the storage backends (SQLite, PostgreSQL with PAYLINK_TEST_DATABASE_URL)
//! must both guarantee: two servers on one database agree and share the
//! webhook outbox without double delivery, and a server killed (-9) in the
//! middle of creations loses no acknowledged invoice and leaves none half-written.
//!
//! Its tests run `paylink` commands (a blocking child process) beside the server they spawn
//! in-process, so they run on two threads: on a test's single thread the server would stand
//! still, maybe inside a write transaction, while the command waits for that write lock (and
//! fails "database is locked" after the busy timeout).

use std::collections::HashSet;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;
use crate::receiver::Receiver;

const BIN: &str = env!("CARGO_BIN_EXE_paylink");

/// Two servers on one database, both with their delivery worker running:
/// what is created through one is read through the other, and each event
/// reaches the receiver exactly once, though both workers see every
/// pending delivery and race to claim it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_share_the_data_and_deliver_each_event_once() {
    let a = spawn_app_insecure().await;
    let b = spawn_second(&a).await;
    let rx = Receiver::start().await;
    let hooks: Vec<_> = ["INVOICE_CREATED", "PAYMENT_GENERATED"]
        .iter()
        .map(|k| json!({ "hookType": k, "url": rx.url }))
        .collect();

    let mut created = Vec::new();
    for i in 0..12 {
        let (via, other) = if i % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let customer = via.customer_id().await;
        let res = via
            .post_invoice(&with(
                invoice_body(&customer),
                json!({ "webhooks": hooks, "externalId": format!("order-{i}") }),
            ))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let inv = body(res).await;
        let id = inv["id"].as_str().unwrap().to_string();
        // Read back at once through the other server.
        let res = other.get_invoice(&id).await;
        assert_eq!(
            res.status(),
            StatusCode::OK,
            "invoice {i} through the other"
        );
        let detail = body(res).await;
        assert_eq!(detail["externalId"], format!("order-{i}"));
        assert_eq!(detail["installments"].as_array().unwrap().len(), 3);
        created.push(id);
    }
    for id in &created {
        for app in [&a, &b] {
            assert_eq!(app.get_invoice(id).await.status(), StatusCode::OK);
        }
    }

    // 12 invoices × (INVOICE_CREATED + 3 PAYMENT_GENERATED).
    let expected = created.len() * 4;
    rx.wait_for(30, "every event", |g| g.len() >= expected)
        .await;
    // Several more passes of both workers: nothing arrives a second time.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got = rx.received();
    let ids: HashSet<_> = got.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids.len(), expected, "distinct events");
    assert_eq!(got.len(), expected, "each event delivered exactly once");
    // And the outbox agrees: one attempt per delivery, all succeeded.
    let pool = a.raw_pool().await;
    let (deliveries, attempts, succeeded): (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM deliveries), (SELECT COUNT(*) FROM delivery_attempts),
                (SELECT COUNT(*) FROM deliveries WHERE status = 'succeeded')",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        (deliveries, attempts, succeeded),
        (expected as i64, expected as i64, expected as i64)
    );
}

/// A served binary: the child and its address.
fn serve(db: &str) -> (crate::helpers::Running, String) {
    serve_binary(&["--db", db])
}

/// An invoice the server acknowledged: its id, installment count and price in cents.
#[derive(Debug)]
struct Acked {
    id: String,
    count: usize,
    price_cents: i64,
}

/// The server is killed with SIGKILL while 8 clients create invoices as fast
/// as it answers. After a restart on the same database every acknowledged
/// invoice is there with all its installments (their sum is the price), and
/// no invoice lacks any of its rows: each creation is all or nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_load_keeps_every_acknowledged_invoice_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = migrated_database(dir.path(), "crash.db").await;
    let out = Command::new(BIN)
        .args(["token", "create", "--name", "loja", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let token = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .trim()
        .to_string();

    let (mut child, addr) = serve(&db);
    let client = reqwest::Client::new();
    let auth = format!("Basic {token}");
    let res = client
        .post(format!("{addr}/invoices/applications/customers"))
        .header("Authorization", &auth)
        .json(&json!({ "fullName": "Maria da Silva" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let customer = body(res).await["id"].as_str().unwrap().to_string();

    let acked = Arc::new(Mutex::new(Vec::<Acked>::new()));
    // Requests that got no answer: in flight when the server died.
    let cut = Arc::new(AtomicUsize::new(0));
    let mut clients = tokio::task::JoinSet::new();
    for c in 0..8 {
        let (client, addr, auth, customer, acked, cut) = (
            client.clone(),
            addr.clone(),
            auth.clone(),
            customer.clone(),
            acked.clone(),
            cut.clone(),
        );
        clients.spawn(async move {
            for n in 0.. {
                let count = 2 + (c + n) % 11;
                let price_cents = 10_000 + (c * 1000 + n) as i64;
                let req = with(
                    invoice_body(&customer),
                    json!({
                        "installmentCount": count,
                        "price": price_cents as f64 / 100.0,
                        "externalId": format!("c{c}-{n}"),
                    }),
                );
                let sent = client
                    .post(format!("{addr}/invoices/applications/invoices"))
                    .header("Authorization", &auth)
                    .json(&req)
                    .send()
                    .await;
                // At the kill: connection reset (or refused, if not yet sent).
                let Ok(res) = sent else {
                    cut.fetch_add(1, Ordering::Relaxed);
                    return;
                };
                let status = res.status();
                let Ok(text) = res.text().await else {
                    cut.fetch_add(1, Ordering::Relaxed);
                    return;
                };
                assert_eq!(status, StatusCode::OK, "{text}");
                let v: Value = serde_json::from_str(&text).unwrap();
                acked.lock().unwrap().push(Acked {
                    id: v["id"].as_str().unwrap().to_string(),
                    count,
                    price_cents,
                });
            }
        });
    }
    // Kill once the load is well under way, with requests in flight.
    for _ in 0..600 {
        if acked.lock().unwrap().len() >= 40 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(r) = clients.join_next().await {
            r.unwrap();
        }
    })
    .await
    .expect("clients stop once the server is gone");
    let acked = std::mem::take(&mut *acked.lock().unwrap());
    assert!(
        acked.len() >= 40,
        "only {} creations before the kill",
        acked.len()
    );

    let (mut child, addr) = serve(&db);
    for a in &acked {
        let res = client
            .get(format!("{addr}/invoices/applications/invoices/{}", a.id))
            .header("Authorization", &auth)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "acknowledged {a:?} is gone");
        let detail = body(res).await;
        let installments = detail["installments"].as_array().unwrap();
        assert_eq!(installments.len(), a.count, "{a:?}");
        let sum: i64 = installments
            .iter()
            .map(|i| (i["price"].as_f64().unwrap() * 100.0).round() as i64)
            .sum();
        assert_eq!(sum, a.price_cents, "{a:?}");
    }
    child.kill().unwrap();
    child.wait().unwrap();

    // In the database itself, including creations that were never
    // acknowledged: every invoice has all of its rows or does not exist.
    let pool = raw_pool(&db).await;
    let (invoices, broken): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*),
                COALESCE(SUM(CASE WHEN
                    installment_count <> (SELECT COUNT(*) FROM installments s WHERE s.invoice_id = i.id)
                    OR price_cents <> (SELECT COALESCE(SUM(s.price_cents), 0) FROM installments s WHERE s.invoice_id = i.id)
                    OR 2 <> (SELECT COUNT(*) FROM invoice_payment_types p WHERE p.invoice_id = i.id)
                    OR 4 <> (SELECT COUNT(*) FROM invoice_notifications n WHERE n.invoice_id = i.id)
                    OR 1 <> (SELECT COUNT(*) FROM invoice_webhooks w WHERE w.invoice_id = i.id)
                    OR 1 <> (SELECT COUNT(*) FROM events e WHERE e.invoice_id = i.id AND e.type = 'INVOICE_CREATED')
                THEN 1 ELSE 0 END), 0)
         FROM invoices i",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert!(invoices >= acked.len() as i64);
    assert_eq!(broken, 0, "invoices missing some of their rows");
    eprintln!(
        "killed after {} acknowledged creations, {} requests cut; {} invoices stored ({} committed but never answered)",
        acked.len(),
        cut.load(Ordering::Relaxed),
        invoices,
        invoices - acked.len() as i64
    );
}
