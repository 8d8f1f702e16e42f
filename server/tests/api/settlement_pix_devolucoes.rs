//! Devoluções from the bank (issue 41): a Pix paylink received and the bank returned, in part or
//! in full, for each `natureza` (the merchant in the bank's app, a payer's MED claim), through the
//! real binary and the local bank: reported by the bank's Pix callback, and found by
//! reconciliation when the callback is lost. What the merchant's invoice detail shows (each
//! devolução, the amount returned, REVERSED with `updatedAt` once all of it is back), and that
//! the same report twice, or a callback the bank does not confirm, changes nothing; and the
//! application's webhook of paylink's own `PAYMENT_REVERSED`, once per installment reversed.

use std::time::{Duration, Instant};

use paylink_banksim::{Bank, Callbacks, Devolve};
use serde_json::{json, Value};

use crate::settlement_pix::start_bank;
use crate::settlement_pix_serve::{txids, wait_status, wait_until, Shop};

const NATUREZAS: [&str; 4] = [
    "ORIGINAL",
    "MED_OPERACIONAL",
    "MED_FRAUDE",
    "MED_PIX_AUTOMATICO",
];

/// The installment's detail once `f` holds for it.
async fn wait_installment(
    shop: &Shop,
    id: &str,
    n: usize,
    what: &str,
    f: impl Fn(&Value) -> bool,
) -> Value {
    let started = Instant::now();
    loop {
        let d = shop.detail(id).await;
        if f(&d["installments"][n]) {
            return d["installments"][n].clone();
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "installment {n} never {what}: {d}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Four paid installments (the first two of two invoices): their invoice ids, numbers and e2eids.
async fn paid_installments(shop: &Shop, bank: &Bank, hook: &str) -> Vec<(String, usize, String)> {
    let mut paid = vec![];
    for _ in 0..2 {
        let invoice = shop.invoice(hook).await;
        let id = invoice["id"].as_str().unwrap().to_string();
        let txids = txids(&invoice);
        wait_until("the charges", Duration::from_secs(30), || {
            txids[..2].iter().all(|t| bank.charge(t).is_some())
        })
        .await;
        for (n, txid) in txids[..2].iter().enumerate() {
            let pix = bank.pay(txid, None).await.unwrap();
            wait_status(shop, &id, n, "CONFIRMED").await;
            paid.push((
                id.clone(),
                n,
                pix["endToEndId"].as_str().unwrap().to_string(),
            ));
        }
    }
    paid
}

/// The application's webhook of `PAYMENT_REVERSED` (paylink's own event) to `url`.
async fn subscribe_reversed(shop: &Shop, url: &str) {
    let res = shop
        .client
        .post(format!("{}/invoices/applications/webhooks", shop.addr))
        .header("authorization", format!("Basic {}", shop.token))
        .json(&json!({"hookType": "PAYMENT_REVERSED", "url": url}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
}

/// The `PAYMENT_REVERSED` deliveries the service recorded (each event is recorded with the
/// change that caused it, so this is what will ever be sent).
async fn reversed_deliveries(shop: &Shop) -> Vec<Value> {
    let page: Value = shop
        .client
        .get(format!("{}/invoices/applications/deliveries", shop.addr))
        .header("authorization", format!("Basic {}", shop.token))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    page["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["eventType"] == "PAYMENT_REVERSED")
        .cloned()
        .collect()
}

fn reais(v: &Value) -> i64 {
    (v.as_f64().unwrap() * 100.0).round() as i64
}

/// Every natureza in part, then the rest in processing, then settled: a part shows what came
/// back and leaves the installment CONFIRMED; in processing nothing is back yet; settled, all of
/// it is, and the installment is REVERSED with `updatedAt`. However the bank's reports arrive
/// (the callback or reconciliation, as `bank` and `shop` are set up).
async fn every_natureza_in_part_then_whole(shop: &Shop, bank: &Bank, hook: &str) {
    let paid = paid_installments(shop, bank, hook).await;
    for ((id, n, e2eid), natureza) in paid.iter().zip(NATUREZAS) {
        let (id, n) = (id.as_str(), *n);
        let before = shop.detail(id).await["installments"][n].clone();
        let price = reais(&before["pricePaid"]);
        let part = bank
            .devolve(
                e2eid,
                Devolve {
                    valor: Some("10.00"),
                    natureza: Some(natureza),
                    ..Devolve::default()
                },
            )
            .await
            .unwrap();
        let i = wait_installment(shop, id, n, "partly returned", |i| {
            i["devolucoes"].as_array().is_some_and(|d| d.len() == 1)
        })
        .await;
        assert_eq!(i["_status"], "CONFIRMED", "{natureza}: {i}");
        assert_eq!(i["priceReturned"], json!(10.0), "{i}");
        assert_eq!(
            i["updatedAt"], before["updatedAt"],
            "a part changes the installment's state not at all"
        );
        let d = &i["devolucoes"][0];
        assert_eq!(d["id"], part["id"]);
        assert_eq!(d["rtrId"], part["rtrId"]);
        assert_eq!(d["endToEndId"], e2eid.as_str());
        assert_eq!(
            (d["natureza"].as_str(), d["status"].as_str()),
            (Some(natureza), Some("DEVOLVIDO"))
        );
        assert_eq!(d["amount"], json!(10.0));
        assert_eq!(
            d["settledAt"].as_str().unwrap()[..19],
            part["horario"]["liquidacao"].as_str().unwrap()[..19]
        );

        let rest = bank
            .devolve(
                e2eid,
                Devolve {
                    natureza: Some(natureza),
                    status: Some("EM_PROCESSAMENTO"),
                    ..Devolve::default()
                },
            )
            .await
            .unwrap();
        assert_eq!(
            paylink_server::domain::pix_api::cents_of(rest["valor"].as_str().unwrap()).unwrap(),
            price - 1000
        );
        let i = wait_installment(shop, id, n, "told of the rest", |i| {
            i["devolucoes"].as_array().is_some_and(|d| d.len() == 2)
        })
        .await;
        assert_eq!(
            i["_status"], "CONFIRMED",
            "in processing, nothing more is back: {i}"
        );
        assert_eq!(i["priceReturned"], json!(10.0));
        assert_eq!(i["devolucoes"][1]["status"], "EM_PROCESSAMENTO");

        bank.devolve(
            e2eid,
            Devolve {
                id: rest["id"].as_str(),
                status: Some("DEVOLVIDO"),
                ..Devolve::default()
            },
        )
        .await
        .unwrap();
        let i = wait_installment(shop, id, n, "REVERSED", |i| i["_status"] == "REVERSED").await;
        assert_eq!(reais(&i["priceReturned"]), price, "{i}");
        assert_eq!(i["devolucoes"][1]["status"], "DEVOLVIDO");
        assert_eq!(i["devolucoes"][1]["natureza"], natureza);
        assert!(
            i["updatedAt"].as_str() > before["updatedAt"].as_str(),
            "{i}"
        );
        // The payment stays as it was: what was paid, and when.
        assert_eq!(i["pricePaid"], before["pricePaid"]);
        assert_eq!(i["paidAt"], before["paidAt"]);
        // The payer page says it was returned, and why.
        let view = shop.payer(id).await;
        assert_eq!(view["installments"][n]["status"], "REVERSED");
        assert_eq!(view["installments"][n]["returned"], natureza, "{view}");
        let html = shop
            .client
            .get(format!("{}/pay/{id}", shop.addr))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let why = if natureza.starts_with("MED_") {
            "Devolvido por contestação (MED)"
        } else {
            "Devolvido pelo recebedor"
        };
        assert!(html.contains(why), "{natureza}: {html}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_natureza_in_part_and_whole_through_the_banks_callback() {
    let (bank, pki) = start_bank().await;
    let receiver = crate::receiver::Receiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    let shop = Shop::start(&bank, &pki, dir.path(), &["--pix-reconcile-secs", "3600"]).await;
    wait_until("the webhook at the bank", Duration::from_secs(20), || {
        bank.webhook("pix@loja.example").is_some()
    })
    .await;
    subscribe_reversed(&shop, &receiver.url).await;
    every_natureza_in_part_then_whole(&shop, &bank, &receiver.url).await;
    // One PAYMENT_REVERSED per installment reversed, none for a part.
    let got = receiver
        .wait_for(20, "four PAYMENT_REVERSED", |g| {
            crate::receiver::Receiver::types(g)
                .iter()
                .filter(|t| *t == "PAYMENT_REVERSED")
                .count()
                == 4
        })
        .await;
    let reversed: Vec<Value> = got
        .iter()
        .map(|g| g.json())
        .filter(|e| e["type"] == "PAYMENT_REVERSED")
        .collect();
    for e in &reversed {
        assert_eq!(e["data"]["installment"]["status"], "REVERSED", "{e}");
        assert_eq!(e["data"]["method"], "PIX");
    }
    // Why each came back: the natureza its installment was returned with, one each.
    let mut returned: Vec<&str> = reversed
        .iter()
        .map(|e| e["data"]["returned"].as_str().unwrap_or("(none)"))
        .collect();
    returned.sort_unstable();
    let mut naturezas = NATUREZAS.to_vec();
    naturezas.sort_unstable();
    assert_eq!(returned, naturezas, "{reversed:?}");
    assert_eq!(reversed_deliveries(&shop).await.len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_natureza_in_part_and_whole_found_by_reconciliation() {
    let (bank, pki) = start_bank().await;
    bank.set_callbacks(Callbacks::Lose);
    let receiver = crate::receiver::Receiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    let shop = Shop::start(&bank, &pki, dir.path(), &["--pix-reconcile-secs", "1"]).await;
    every_natureza_in_part_then_whole(&shop, &bank, &receiver.url).await;
}

/// A payer disputes a Pix weeks after paying it (MED 2.0 allows 80 days) and the bank's callback
/// is lost: the 6-hour pass cannot see that Pix, the devolução sweep (the last 90 days, every
/// page of the bank's listing) finds it and reverses the installment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_devolucao_on_a_pix_of_weeks_ago_is_found_by_the_sweep() {
    let (bank, pki) = start_bank().await;
    bank.set_callbacks(Callbacks::Lose);
    // Two Pix to a page: the four Pix are read over two pages.
    bank.set_page_cap(2);
    let receiver = crate::receiver::Receiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    let shop = Shop::start(
        &bank,
        &pki,
        dir.path(),
        &[
            "--pix-reconcile-secs",
            "1",
            "--pix-devolucao-sweep-secs",
            "1",
        ],
    )
    .await;
    let paid = paid_installments(&shop, &bank, &receiver.url).await;
    let (id, n, e2eid) = &paid[3];
    assert!(bank.age(e2eid, 30), "the Pix is 30 days old");
    bank.devolve(
        e2eid,
        Devolve {
            natureza: Some("MED_FRAUDE"),
            ..Devolve::default()
        },
    )
    .await
    .unwrap();
    let i = wait_installment(&shop, id, *n, "reversed", |i| i["_status"] == "REVERSED").await;
    assert_eq!(i["devolucoes"][0]["natureza"], "MED_FRAUDE", "{i}");
    // The listings that found it reached back past 30 days, and read the second page.
    let listings: Vec<String> = bank
        .requests()
        .into_iter()
        .filter(|r| r.method == "GET" && r.path.starts_with("/pix?"))
        .map(|r| r.path)
        .collect();
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let month_ago = paylink_model::date::iso_utc_from_millis(now_ms - 30 * 86_400_000);
    assert!(
        listings
            .iter()
            .any(|p| p.contains("paginacao.paginaAtual=1")),
        "{listings:?}"
    );
    assert!(
        listings
            .iter()
            .filter_map(|p| p.split("inicio=").nth(1)?.get(..19).map(str::to_string))
            .any(|inicio| inicio.as_str() < &month_ago[..19]),
        "a listing from before the Pix's day ({month_ago}): {listings:?}"
    );
}

/// The same devolução reported again (the bank retries its callback, reconciliation passes over
/// it) changes nothing; a callback claiming a devolução the bank's own record does not hold
/// changes nothing either; one the bank has not settled yet (EM_PROCESSAMENTO) returns nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_devolucao_twice_or_one_the_bank_does_not_confirm_changes_nothing() {
    let (bank, pki) = start_bank().await;
    let receiver = crate::receiver::Receiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    let shop = Shop::start(&bank, &pki, dir.path(), &["--pix-reconcile-secs", "2"]).await;
    wait_until("the webhook at the bank", Duration::from_secs(20), || {
        bank.webhook("pix@loja.example").is_some()
    })
    .await;
    let hook = format!("{}/pix", bank.webhook("pix@loja.example").unwrap());
    subscribe_reversed(&shop, &receiver.url).await;
    let paid = paid_installments(&shop, &bank, &receiver.url).await;
    let (id, n, e2eid) = &paid[0];
    let (id, n) = (id.as_str(), *n);

    // Forged: the Pix as paid, with a whole MED devolução the bank never made.
    let mut forged = bank.pix(e2eid).unwrap();
    forged["devolucoes"] = json!([{"id": "FORJADA1", "rtrId": format!("D{}", "9".repeat(31)),
        "valor": forged["valor"], "natureza": "MED_FRAUDE", "status": "DEVOLVIDO",
        "horario": {"solicitacao": "2026-02-03T10:00:00.000Z", "liquidacao": "2026-02-03T10:00:00.000Z"}}]);
    let before = shop.detail(id).await;
    let res = shop
        .client
        .post(&hook)
        .json(&json!({"pix": [forged]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    // And a devolução of a Pix the bank does not know.
    let mut unknown = forged.clone();
    unknown["endToEndId"] = json!(format!("E{}", "7".repeat(31)));
    let res = shop
        .client
        .post(&hook)
        .json(&json!({"pix": [unknown]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        shop.detail(id).await,
        before,
        "the callback is answered once applied: nothing changed"
    );

    let whole = bank
        .devolve(
            e2eid,
            Devolve {
                natureza: Some("MED_FRAUDE"),
                ..Devolve::default()
            },
        )
        .await
        .unwrap();
    let reversed = wait_installment(&shop, id, n, "REVERSED", |i| i["_status"] == "REVERSED").await;
    assert_eq!(
        reversed["devolucoes"].as_array().unwrap().len(),
        1,
        "{reversed}"
    );
    assert_eq!(reversed["devolucoes"][0]["id"], whole["id"]);
    let after = shop.detail(id).await;

    // The bank's callback again, as it retries: answered, nothing changes.
    let again = json!({"pix": [bank.pix(e2eid).unwrap()]});
    for _ in 0..2 {
        let res = shop.client.post(&hook).json(&again).send().await.unwrap();
        assert_eq!(res.status(), 200);
    }
    // Two more reconciliation passes over the same Pix.
    let passes = || {
        bank.requests()
            .iter()
            .filter(|r| r.path.starts_with("/pix?inicio="))
            .count()
    };
    let seen = passes();
    wait_until("two reconciliation passes", Duration::from_secs(20), || {
        passes() >= seen + 2
    })
    .await;
    assert_eq!(
        shop.detail(id).await,
        after,
        "the same devolução twice changes nothing"
    );
    let fired = reversed_deliveries(&shop).await;
    assert_eq!(fired.len(), 1, "PAYMENT_REVERSED once: {fired:?}");
    assert_eq!(fired[0]["invoiceId"], id);
    assert_eq!(fired[0]["source"], "application");
}
