//! A PIX charge's life at the bank after it is made (issue 24's follow-up), with the charges
//! worker in process against the local bank: a charge that stops being payable (a `cob` whose
//! amount no longer holds, a `cobv` past its validity) is made again under the txid + `r1`, `r2`,
//! ..., and a Pix of an old txid still pays its installment; a `cob` retried after midnight is
//! paylink's own, not a conflict; the charge of an installment paid another way is removed.
//! The passing of days is played by moving the expiry paylink recorded and the bank's clock of
//! the charge (`Bank::expire`), and an installment's due date in the database.

use paylink_server::domain::pix_api;
use serde_json::{json, Value};

use crate::helpers::{spawn_app_options, today, TestApp};
use crate::settlement_pix::{
    get_json, pix_charge, pix_invoice, pix_invoice_as, removals, settle, single_pix_invoice,
    start_bank, worker,
};

/// A single PIX invoice of R$ 100,00 with `terms` (fine, interest) for a customer without a
/// document, whose charge is one payable now (`cob`): (invoice id, installment id, txid).
async fn undocumented_invoice(app: &TestApp, terms: Value) -> (String, String, String) {
    single_pix_invoice(app, json!({"fullName": "João Sem Documento"}), terms).await
}

/// Moves the expiry paylink recorded for `installment`'s charge into the past, as the passing of
/// the days it was made for would.
async fn expired_in_paylink(app: &TestApp, installment: &str) {
    sqlx::query("UPDATE pix_charges SET expires_at = $1 WHERE id = $2")
        .bind("2000-01-01T00:00:00.000Z")
        .bind(installment)
        .execute(&app.raw_pool().await)
        .await
        .unwrap();
}

/// A customer without a document gets a charge payable now (`cob`), which carries one amount:
/// it lasts while that amount holds (here, with interest after it, until the end of the
/// business-day due date in Brasília). Once its time ran out unpaid, the bank refuses to pay it,
/// the payer page stops showing its code, and paylink makes a new charge under a new txid whose
/// code the payer page shows. A Pix of the old charge heard of later (paid before it expired)
/// still pays the installment, and a paid installment's charge is not made again.
#[tokio::test]
async fn a_charge_payable_now_is_made_again_under_a_new_txid_once_it_expires() {
    use paylink_model::charges::next_business_day;
    use paylink_model::date::{brasilia_day_start, millis_from_rfc3339};

    let (bank, pki) = start_bank().await;
    let app = spawn_app_options(|o| o.payer.pix_api = true).await;
    let (id, installment, txid) =
        undocumented_invoice(&app, json!({"interest": {"value": 1.0}})).await;
    let worker = worker(&app, &bank, &pki);

    let (_, status, ..) = settle(&worker, &app, &installment).await;
    assert_eq!(status, "done");
    let first = bank.charge(&txid).unwrap();
    assert!(
        first["calendario"]["dataDeVencimento"].is_null(),
        "a cob: {first}"
    );
    let made = millis_from_rfc3339(first["calendario"]["criacao"].as_str().unwrap()).unwrap();
    let ends = made / 1000 + first["calendario"]["expiracao"].as_i64().unwrap();
    let last_day = next_business_day(crate::helpers::next_jan_31());
    assert!(
        (ends - brasilia_day_start(last_day.add_days(1).unwrap())).abs() <= 1,
        "payable until midnight ending {last_day}: {first}"
    );
    let page = get_json(&app, &format!("/api/pay/{id}")).await;
    assert_eq!(
        page["installments"][0]["pix"]["payload"],
        first["pixCopiaECola"]
    );

    // Its time runs out, at the bank and in paylink's record (as the day after it would).
    bank.expire(&txid);
    expired_in_paylink(&app, &installment).await;
    let refused = bank.pay(&txid, None).await.unwrap_err();
    assert!(refused.contains("expired"), "{refused}");
    let page = get_json(&app, &format!("/api/pay/{id}")).await;
    assert!(page["installments"][0]["pix"].is_null(), "{page}");
    assert_eq!(page["installments"][0]["pixPending"], true);
    // The payer page the server renders says so, in words, and shows no stale code.
    let html = app.get(&format!("/pay/{id}")).await.text().await.unwrap();
    assert!(html.contains("O banco está gerando o código PIX"), "{html}");
    assert!(!html.contains("data-pix-payload"));

    // The next pass makes it again, under the installment's txid + `r1`.
    let (_, status, ..) = settle(&worker, &app, &installment).await;
    assert_eq!(status, "done");
    let renewed = format!("{txid}r1");
    let second = bank
        .charge(&renewed)
        .unwrap_or_else(|| panic!("no charge {renewed}: {:?}", bank.requests()));
    assert_eq!(bank.charge_count(), 2);
    assert_eq!(second["valor"]["original"], "100.00");
    assert_ne!(second["pixCopiaECola"], first["pixCopiaECola"]);
    let page = get_json(&app, &format!("/api/pay/{id}")).await;
    assert_eq!(
        page["installments"][0]["pix"]["payload"], second["pixCopiaECola"],
        "{page}"
    );
    assert_eq!(page["installments"][0]["pixPending"], false);

    // A Pix of the first charge, paid before it expired, heard of only now: it pays the installment.
    let applied = pix_api::apply(
        &app.db,
        &pix_api::ConfirmedPix {
            end_to_end_id: "E9999999920270110120012345678901".into(),
            txid: txid.clone(),
            cents: 10_000,
            horario: paylink_model::date::iso_utc_from_millis(made + 60_000),
        },
    )
    .await
    .unwrap();
    assert!(
        matches!(
            applied,
            paylink_server::store::pix_payments::Applied::Confirmed(_)
        ),
        "{applied:?}"
    );
    let detail = get_json(&app, &format!("/api/invoices/{id}")).await;
    assert_eq!(
        detail["installments"][0]["_status"], "CONFIRMED",
        "{detail}"
    );

    // Paid: an expired charge is not made again.
    expired_in_paylink(&app, &installment).await;
    worker.pass().await.unwrap();
    assert_eq!(bank.charge_count(), 2);
    assert_eq!(
        paylink_server::store::pix_charges::state(&app.db, &installment)
            .await
            .unwrap()
            .unwrap()
            .1,
        "done"
    );
}

/// Records by hand (through the service's API) that installment 1 of `id` was paid in full today.
async fn paid_by_hand(app: &TestApp, id: &str) {
    let res = app
        .authed(
            reqwest::Method::POST,
            &format!("/invoices/applications/invoices/{id}/installments/1/payments"),
        )
        .await
        .json(&json!({ "amount": 100.0, "paidOn": today().to_string() }))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
}

/// An installment paid another way (here recorded by hand) has its PIX charge removed at the
/// bank, so a payer holding the code cannot pay it a second time. One its own Pix paid is left
/// as the bank concluded it. And one a payer paid at the bank just before paylink was told of a
/// payment by hand is not shown as refused when its removal is: the bank no longer holds it
/// active, and paylink records it so.
#[tokio::test]
async fn a_charge_nobody_should_pay_any_more_is_removed_at_the_bank() {
    let (bank, pki) = start_bank().await;
    let app = spawn_app_options(|o| o.payer.pix_api = true).await;
    let worker = worker(&app, &bank, &pki);
    let state = |installment: String| {
        let db = app.db.clone();
        async move {
            let s = paylink_server::store::pix_charges::state(&db, &installment)
                .await
                .unwrap()
                .unwrap();
            (s.0, s.1, s.4)
        }
    };

    // Paid by hand: removed.
    let (by_hand, installment, txid) = pix_invoice_as(&app, "by-hand").await;
    settle(&worker, &app, &installment).await;
    paid_by_hand(&app, &by_hand).await;
    worker.pass().await.unwrap();
    assert_eq!(
        state(installment.clone()).await,
        (
            "remove".into(),
            "done".into(),
            Some("REMOVIDA_PELO_USUARIO_RECEBEDOR".into())
        )
    );
    assert_eq!(
        bank.charge(&txid).unwrap()["status"],
        "REMOVIDA_PELO_USUARIO_RECEBEDOR"
    );
    let refused = bank.pay(&txid, None).await.unwrap_err();
    assert!(refused.contains("REMOVIDA"), "{refused}");
    assert_eq!(
        pix_charge(&app, &by_hand).await,
        json!({"state": "removed"})
    );

    // Paid by its own Pix: left alone, concluded.
    let (by_pix, installment, txid) = pix_invoice_as(&app, "by-pix").await;
    settle(&worker, &app, &installment).await;
    let pix = bank.pay(&txid, None).await.unwrap();
    let confirmed = pix_api::check_confirmed(&Value::Null, &pix, "pix@loja.example").unwrap();
    pix_api::apply(&app.db, &confirmed).await.unwrap();
    worker.pass().await.unwrap();
    assert_eq!(
        state(installment).await,
        ("create".into(), "done".into(), Some("CONCLUIDA".into()))
    );
    assert_eq!(removals(&bank, &txid), 0);
    let detail = get_json(&app, &format!("/api/invoices/{by_pix}")).await;
    assert_eq!(detail["installments"][0]["_status"], "CONFIRMED");

    // Paid at the bank, the callback not in yet, then recorded by hand: the removal is refused,
    // the bank holds the charge CONCLUIDA, and that is what paylink records.
    let (both, installment, txid) = pix_invoice_as(&app, "both").await;
    settle(&worker, &app, &installment).await;
    bank.pay(&txid, None).await.unwrap();
    paid_by_hand(&app, &both).await;
    worker.pass().await.unwrap();
    assert_eq!(
        state(installment).await,
        ("remove".into(), "done".into(), Some("CONCLUIDA".into()))
    );
    assert_eq!(removals(&bank, &txid), 1);
    assert_eq!(pix_charge(&app, &both).await, json!({"state": "removed"}));
}

/// A due-dated charge (`cobv`) is payable until its days of validity after the due date have
/// passed; an installment still open then gets a charge payable now (`cob`) of what it costs
/// that day, under a new txid, and its code on the payer page.
#[tokio::test]
async fn a_due_dated_charge_past_its_validity_is_made_again_as_one_payable_now() {
    use paylink_model::date::brasilia_day_start;

    let (bank, pki) = start_bank().await;
    let app = spawn_app_options(|o| o.payer.pix_api = true).await;
    let (id, installment, txid) = pix_invoice(&app).await;
    let worker = worker(&app, &bank, &pki);
    settle(&worker, &app, &installment).await;
    let first = bank.charge(&txid).unwrap();
    assert_eq!(first["calendario"]["validadeAposVencimento"], 30, "{first}");
    let pool = app.raw_pool().await;
    let expires: String = sqlx::query_scalar("SELECT expires_at FROM pix_charges WHERE id = $1")
        .bind(&installment)
        .fetch_one(&pool)
        .await
        .unwrap();
    let last_day = crate::helpers::next_jan_31().add_days(31).unwrap();
    assert_eq!(
        paylink_model::date::millis_from_rfc3339(&expires).unwrap() / 1000,
        brasilia_day_start(last_day),
        "payable to the end of the 30th day after the due date"
    );

    // 40 days later (the installment's due date moved back, the bank's charge with it).
    let due = today().add_days(-40).unwrap();
    sqlx::query("UPDATE installments SET due_date = $1 WHERE id = $2")
        .bind(due.to_string())
        .bind(&installment)
        .execute(&pool)
        .await
        .unwrap();
    bank.expire(&txid);
    expired_in_paylink(&app, &installment).await;
    let refused = bank.pay(&txid, None).await.unwrap_err();
    assert!(refused.contains("expired"), "{refused}");

    settle(&worker, &app, &installment).await;
    let renewed = format!("{txid}r1");
    let second = bank.charge(&renewed).unwrap();
    assert!(
        second["calendario"]["dataDeVencimento"].is_null(),
        "a cob: {second}"
    );
    assert_eq!(second["valor"]["original"], "100.00");
    assert_eq!(second["devedor"]["cpf"], "52998224725");
    assert!(bank
        .requests()
        .iter()
        .any(|r| r.method == "PUT" && r.path == format!("/cob/{renewed}")));
    let page = get_json(&app, &format!("/api/pay/{id}")).await;
    assert_eq!(
        page["installments"][0]["pix"]["payload"], second["pixCopiaECola"],
        "{page}"
    );
}

/// A `cob` whose first `PUT` arrived (its answer lost) and whose retry comes after midnight, when
/// the installment costs more: the bank refuses the repeated `PUT` and holds yesterday's charge,
/// expired. It is paylink's own, not a conflict: taken, then made again for today's amount under
/// the txid + `r1`.
#[tokio::test]
async fn a_charge_payable_now_retried_after_midnight_is_made_again_not_a_conflict() {
    let (bank, pki) = start_bank().await;
    bank.lose_answers(1);
    bank.set_refuse_repeated_puts(true);
    let app = spawn_app_options(|o| o.payer.pix_api = true).await;
    let (id, installment, txid) =
        undocumented_invoice(&app, json!({"fine": {"type": "PERCENTAGE", "value": 2.0}})).await;
    let worker = worker(&app, &bank, &pki);

    // The first PUT makes the charge; its answer is lost.
    worker.pass().await.unwrap();
    assert_eq!(bank.puts(&txid), 1);
    assert_eq!(bank.charge(&txid).unwrap()["valor"]["original"], "100.00");
    // Midnight passes: that charge expired, and the installment is late (its 2 % fine due).
    bank.expire(&txid);
    sqlx::query("UPDATE installments SET due_date = $1 WHERE id = $2")
        .bind(today().add_days(-10).unwrap().to_string())
        .bind(&installment)
        .execute(&app.raw_pool().await)
        .await
        .unwrap();

    let (_, status, _, error, _) = settle(&worker, &app, &installment).await;
    assert_eq!((status.as_str(), error), ("done", None));
    assert_eq!(bank.puts(&txid), 2, "the retry, refused");
    worker.pass().await.unwrap();
    let renewed = format!("{txid}r1");
    let second = bank
        .charge(&renewed)
        .unwrap_or_else(|| panic!("no charge {renewed}: {:?}", bank.requests()));
    assert_eq!(second["valor"]["original"], "102.00");
    assert_eq!(pix_charge(&app, &id).await, json!({"state": "created"}));
    let page = get_json(&app, &format!("/api/pay/{id}")).await;
    assert_eq!(
        page["installments"][0]["pix"]["payload"], second["pixCopiaECola"],
        "{page}"
    );
}
