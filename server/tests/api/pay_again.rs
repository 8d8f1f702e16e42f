//! Pay again (issue 41) through the real binary and the local bank: the payer page of an
//! installment whose Pix came back in full offers to pay it again, unless the bank returned it
//! for fraud (`MED_FRAUDE`). Paying again makes the installment WAITING_PAYMENT with a fresh
//! Pix charge at the bank (a new txid), which the payer pays and paylink confirms.

use std::time::Duration;

use paylink_banksim::{Bank, Devolve};
use serde_json::Value;

use crate::settlement_pix::start_bank;
use crate::settlement_pix_serve::{txids, wait_status, wait_until, Shop};

/// A browser without JavaScript: forms, no redirects followed.
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn page(shop: &Shop, id: &str) -> String {
    let res = browser()
        .get(format!("{}/pay/{id}", shop.addr))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res.text().await.unwrap()
}

/// An invoice whose first installment was paid by Pix and returned in full for `natureza`:
/// its id and that installment's txid.
async fn reversed(shop: &Shop, bank: &Bank, natureza: &str) -> (String, String) {
    let invoice = shop.invoice("http://127.0.0.1:9/hook").await;
    let id = invoice["id"].as_str().unwrap().to_string();
    let txid = txids(&invoice)[0].clone();
    wait_until("the charge", Duration::from_secs(30), || {
        bank.charge(&txid).is_some()
    })
    .await;
    let pix = bank.pay(&txid, None).await.unwrap();
    wait_status(shop, &id, 0, "CONFIRMED").await;
    let e2eid = pix["endToEndId"].as_str().unwrap();
    bank.devolve(
        e2eid,
        Devolve {
            natureza: Some(natureza),
            ..Devolve::default()
        },
    )
    .await
    .unwrap();
    wait_status(shop, &id, 0, "REVERSED").await;
    (id, txid)
}

/// The payer view once the bank's code of the first installment is on it.
async fn wait_code(shop: &Shop, id: &str) -> Value {
    let started = std::time::Instant::now();
    loop {
        let view = shop.payer(id).await;
        if view["installments"][0]["pix"]["payload"].is_string() {
            return view;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no code: {view}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn pay_again(shop: &Shop, id: &str) -> reqwest::Response {
    browser()
        .post(format!("{}/pay/{id}/installments/1/pay-again", shop.addr))
        .send()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pix_returned_by_med_operacional_is_paid_again_and_one_for_fraud_is_not() {
    let (bank, pki) = start_bank().await;
    let dir = tempfile::tempdir().unwrap();
    let shop = Shop::start(&bank, &pki, dir.path(), &["--pix-reconcile-secs", "3600"]).await;
    wait_until("the webhook at the bank", Duration::from_secs(20), || {
        bank.webhook("pix@loja.example").is_some()
    })
    .await;

    let (id, txid) = reversed(&shop, &bank, "MED_OPERACIONAL").await;
    let html = page(&shop, &id).await;
    assert!(html.contains(r#"data-pay-again="1""#), "{html}");
    assert!(html.contains(&format!(r#"action="/pay/{id}/installments/1/pay-again""#)));
    let before = shop.payer(&id).await;
    assert_eq!(before["installments"][0]["payAgain"], true);
    // The returned payment's receipt says it came back.
    let old_receipt = before["installments"][0]["receipt"].clone();
    assert_eq!(old_receipt["reversed"], true, "{before}");

    let res = pay_again(&shop, &id).await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], format!("/pay/{id}"));
    let d = shop.detail(&id).await;
    let i = &d["installments"][0];
    assert_eq!(i["_status"], "WAITING_PAYMENT", "{d}");
    assert_eq!(i["pricePaid"], 0.0);
    // What came back stays on the record.
    assert_eq!(i["devolucoes"].as_array().unwrap().len(), 1, "{i}");
    // A fresh charge at the bank, under a new txid; the page shows its code.
    let fresh = format!("{txid}r1");
    wait_until("the fresh charge", Duration::from_secs(30), || {
        bank.charge(&fresh).is_some()
    })
    .await;
    let view = wait_code(&shop, &id).await;
    assert!(view["installments"][0]["payAgain"].is_null(), "{view}");
    let html = page(&shop, &id).await;
    assert!(!html.contains("data-pay-again"));
    let pix = bank.pay(&fresh, None).await.unwrap();
    let d = wait_status(&shop, &id, 0, "CONFIRMED").await;
    let price: Value = d["installments"][0]["price"].clone();
    assert_eq!(d["installments"][0]["pricePaid"], price);
    assert!(pix["endToEndId"].as_str().is_some());
    // Paid again: a receipt of its own (the new Pix, a new code); the old code finds nothing.
    let receipt = shop.payer(&id).await["installments"][0]["receipt"].clone();
    assert_eq!(receipt["reference"], pix["endToEndId"], "{receipt}");
    assert_ne!(receipt["reversed"], true, "{receipt}");
    assert_ne!(receipt["code"], old_receipt["code"]);
    for (code, status) in [(&receipt["code"], 200), (&old_receipt["code"], 404)] {
        let res = browser()
            .get(format!("{}/r/{}", shop.addr, code.as_str().unwrap()))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), status, "/r/{code}");
    }
    // Asked again once paid: nothing changes.
    let res = pay_again(&shop, &id).await;
    assert_eq!(res.status(), 303);
    wait_status(&shop, &id, 0, "CONFIRMED").await;

    // For fraud: no offer, and the form changes nothing.
    let (id, _) = reversed(&shop, &bank, "MED_FRAUDE").await;
    let html = page(&shop, &id).await;
    assert!(!html.contains("data-pay-again"), "{html}");
    assert!(shop.payer(&id).await["installments"][0]["payAgain"].is_null());
    let res = pay_again(&shop, &id).await;
    assert_eq!(res.status(), 303);
    assert_eq!(
        shop.detail(&id).await["installments"][0]["_status"],
        "REVERSED"
    );
    // Bad input: an installment that is not a number, or not there, is the page's 404.
    for n in ["x", "9"] {
        let res = browser()
            .post(format!("{}/pay/{id}/installments/{n}/pay-again", shop.addr))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404, "{n}");
    }
}
