//! Pix Automático end to end in process (issue 31): paylink's charges and recurrences workers
//! and its callback routes on real HTTP against the local bank (mutual TLS) and a real database.
//! An invoice that asks for it gets its first cycle's immediate charge and its recurrence
//! (`POST /rec`, valid against the document) through the outbox; the payer authorizes it by paying
//! the composite code; the bank down or an answer lost loses nothing and makes nothing twice;
//! callbacks are believed only as the bank reads them back, in any order, any number of times;
//! the merchant's deletion and the payer's cancellation end the recurrence. Each later cycle is
//! a recurring charge sent inside its window (`PUT /cobr`), paid, or retried after a rejected
//! attempt (each retry on a new day), or given back to the payer page when no retry is left (the
//! payer's INVOICE_FAIL held back while the bank retries, then sent at once, the merchant seeing
//! every attempt and why); a payer who
//! declined gets a new recurrence; deleting the invoice cancels an open recurring charge. After
//! each test every request body paylink sent is checked against the document (`World`'s drop).
//!
//! Its tests run `paylink` commands (a blocking child process) beside the server they spawn
//! in-process, so they run on two threads: on a test's single thread the server would stand
//! still, maybe inside a write transaction, while the command waits for that write lock (and
//! fails "database is locked" after the busy timeout).

use std::time::{Duration, Instant};

use paylink_banksim::{Bank, Pki};
use paylink_server::bank::PixClient;
use paylink_server::domain::pix_api;
use paylink_server::store::pix_recurrences;
use paylink_server::workers::pix::PixCharges;
use paylink_server::workers::pix_rec::PixRecurrences;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use paylink_server::workers::notifications::{Notifier, NotifyConfig};

use crate::helpers::{body, spawn_app_pix, today, TestApp};
use crate::pix_automatico_bank::rec_schema_errors;
use crate::settlement_pix::{config, start_bank};
use crate::smtp::{Mode, SmtpServer};

struct World {
    bank: Bank,
    app: TestApp,
    client: PixClient,
    charges: PixCharges,
    recs: PixRecurrences,
    _stop: tokio_util::sync::DropGuard,
}

/// A bank, a paylink whose PIX goes through it with its callbacks registered there (as `serve`
/// registers them), and its two workers, which the tests drive pass by pass.
async fn world() -> World {
    let (bank, pki): (Bank, Pki) = start_bank().await;
    let client = PixClient::new(config(&bank, &pki))
        .unwrap()
        .with_timeout(Duration::from_millis(1500));
    let app = spawn_app_pix(client.clone()).await;
    let stop = CancellationToken::new();
    tokio::spawn(paylink_server::workers::pix::register_webhook(
        client.clone(),
        app.addr.clone(),
        stop.clone(),
    ));
    tokio::spawn(paylink_server::workers::pix_rec::register_webhooks(
        client.clone(),
        app.addr.clone(),
        stop.clone(),
    ));
    for _ in 0..100 {
        if bank.rec_webhooks().1.is_some() && bank.webhook(client.key()).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (rec_hook, cobr_hook) = bank.rec_webhooks();
    let expected = format!("{}/webhooks/pix/{}", app.addr, client.webhook_token());
    assert_eq!(rec_hook.as_deref(), Some(expected.as_str()));
    assert_eq!(cobr_hook.as_deref(), Some(expected.as_str()));
    World {
        charges: PixCharges::new(app.db.clone(), client.clone()).with_account(account()),
        recs: PixRecurrences::new(app.db.clone(), client.clone()),
        bank,
        app,
        client,
        _stop: stop.drop_guard(),
    }
}

/// At the end of every test of this file (unless it already failed), every request body paylink
/// sent the bank is valid against its schema in `openapi.yaml` (this release's errata corrected:
/// `rec_schema_errors`), and no request carried a body this list does not know.
impl Drop for World {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        for r in self.bank.requests() {
            let p = r.path.as_str();
            let prefixed = |prefix: &str| p.starts_with(prefix);
            let schema = match r.method.as_str() {
                "PUT" if prefixed("/cob/") => "CobSolicitada",
                "PUT" if prefixed("/cobv/") => "CobVSolicitada",
                "PATCH" if prefixed("/cob/") => "CobRevisada",
                "PATCH" if prefixed("/cobv/") => "CobVRevisada",
                "PUT" if prefixed("/cobr/") => "CobRSolicitada",
                "PATCH" if prefixed("/cobr/") => "CobRRevisada",
                "POST" if p == "/locrec" => "PayloadLocationRecSolicitada",
                "POST" if p == "/rec" => "RecSolicitada",
                "PATCH" if prefixed("/rec/") => "RecRevisada",
                "PUT" if p == "/webhookrec" => "WebhookRecSolicitado",
                "PUT" if p == "/webhookcobr" => "WebhookCobRSolicitado",
                "PUT" if prefixed("/webhook/") => "WebhookSolicitado",
                _ => {
                    // GETs, the token (a form), retentativa: no JSON body.
                    assert!(
                        r.body.is_none(),
                        "{} {} sent a body no test checks",
                        r.method,
                        p
                    );
                    continue;
                }
            };
            let body = r
                .body
                .as_ref()
                .unwrap_or_else(|| panic!("{} {} sent no body", r.method, p));
            assert_eq!(
                rec_schema_errors(schema, body),
                Vec::<String>::new(),
                "{} {p} ({schema}): {body}",
                r.method
            );
        }
    }
}

fn account() -> pix_api::rec::Recebedor {
    pix_api::rec::Recebedor {
        conta: "123456-7".into(),
        tipo_conta: "CORRENTE",
        agencia: Some("0001".into()),
    }
}

/// A monthly recurring invoice of R$ 49,90 for 12 months asking for Pix Automático with retries:
/// (invoice id, first installment's txid).
async fn invoice(app: &TestApp) -> (String, String) {
    let customer = body(
        app.post_customer(&json!({"fullName": "Maria da Silva", "document": "529.982.247-25"}))
            .await,
    )
    .await;
    let res = app
        .post_invoice(&json!({
            "customerId": customer["id"], "externalId": "assinatura-7",
            "dueDate": today().add_days(5).unwrap().to_string(), "paymentTypes": ["PIX"],
            "installmentCount": 1, "invoiceType": "RECURRING", "frequency": "MONTHLY",
            "endInstallment": 12, "price": 49.90, "description": "Plano mensal",
            "pixAutomatico": {"retries": true},
        }))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let inv = body(res).await;
    let installment = inv["installments"][0]["id"].as_str().unwrap();
    (
        inv["id"].as_str().unwrap().to_string(),
        pix_api::txid(installment).unwrap(),
    )
}

/// Both workers' passes until the recurrence's row leaves `pending`.
async fn settle(w: &World, invoice: &str) -> pix_recurrences::State {
    let started = Instant::now();
    loop {
        w.charges.pass().await.unwrap();
        w.recs.pass().await.unwrap();
        let state = pix_recurrences::state(&w.app.db, invoice).await.unwrap();
        if let Some(s) = state.as_ref().filter(|s| s.1 != "pending") {
            return s.clone();
        }
        assert!(
            started.elapsed() < Duration::from_secs(40),
            "the recurrence stays pending: {state:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn detail(app: &TestApp, id: &str) -> Value {
    body(app.get_invoice(id).await).await
}

/// Waits until the invoice's detail satisfies `pred`.
async fn wait_detail(app: &TestApp, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..150 {
        let d = detail(app, id).await;
        if pred(&d) {
            return d;
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    panic!("{what}: {}", detail(app, id).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_payer_authorizes_the_recurrence_by_paying_its_composite_code() {
    let w = world().await;
    let (id, txid) = invoice(&w.app).await;
    assert_eq!(
        detail(&w.app, &id).await["pixAutomatico"]["status"],
        "pending"
    );
    let (op, status, _, id_rec, bank_status, code) = settle(&w, &id).await;
    assert_eq!((op.as_str(), status.as_str()), ("create", "done"));
    assert_eq!(bank_status.as_deref(), Some("CRIADA"));
    let id_rec = id_rec.unwrap();
    assert!(id_rec.starts_with("RR"), "{id_rec}");
    // The first cycle is an immediate charge, and the composite code carries it and the recurrence.
    let cob = w.bank.charge(&txid).unwrap();
    assert!(cob["calendario"]["expiracao"].is_u64(), "{cob}");
    let rec = w.bank.rec(&id_rec).unwrap();
    let code = code.unwrap();
    assert!(code.contains(cob["loc"]["location"].as_str().unwrap()));
    assert!(code.contains(rec["loc"]["location"].as_str().unwrap()));
    let d = detail(&w.app, &id).await;
    assert_eq!(d["pixAutomatico"]["status"], "created");
    assert_eq!(d["pixAutomatico"]["idRec"], id_rec);

    // What paylink asked for, and that it is what the document allows.
    let posts: Vec<Value> = w
        .bank
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/rec")
        .map(|r| r.body.unwrap())
        .collect();
    assert_eq!(posts.len(), 1);
    let sent = &posts[0];
    assert_eq!(
        rec_schema_errors("RecSolicitada", sent),
        Vec::<String>::new(),
        "{sent}"
    );
    assert_eq!(sent["vinculo"]["contrato"], "assinatura-7");
    assert_eq!(sent["vinculo"]["objeto"], "Plano mensal");
    assert_eq!(
        sent["vinculo"]["devedor"],
        json!({"cpf": "52998224725", "nome": "Maria da Silva"})
    );
    let first = today().add_days(5).unwrap();
    assert_eq!(
        sent["calendario"],
        json!({"dataInicial": first.to_string(), "dataFinal": first.add_months(11).unwrap().to_string(),
               "periodicidade": "MENSAL"})
    );
    assert_eq!(sent["valor"], json!({"valorRec": "49.90"}));
    assert_eq!(sent["politicaRetentativa"], "PERMITE_3R_7D");
    assert_eq!(sent["ativacao"]["dadosJornada"]["txid"], txid);
    assert_eq!(sent["loc"], rec["loc"]["id"]);

    // The payer page shows the composite code (QR drawn by paylink, copia e cola) beside the terms.
    let page = w.app.get(&format!("/pay/{id}?lang=pt-BR")).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    let at = html
        .find("data-pix-automatico-payload")
        .expect("the copia e cola");
    let shown = &html[at..];
    let shown = &shown[shown.find('>').unwrap() + 1..shown.find("</p>").unwrap()];
    assert_eq!(shown, code);
    let offer = &html[html.find("data-pix-automatico=").unwrap()..];
    assert!(offer.contains("<svg"), "the QR is in the HTML");
    for term in [
        "assinatura-7",
        "R$ 49,90",
        "Mensal",
        &first.format_for(paylink_model::Lang::PtBr),
        &first
            .add_months(11)
            .unwrap()
            .format_for(paylink_model::Lang::PtBr),
        "até 3 novas tentativas em até 7 dias",
        "cancelar a autorização a qualquer momento no app do seu banco",
    ] {
        assert!(offer.contains(term), "{term} in {offer}");
    }
    let en = w
        .app
        .get(&format!("/pay/{id}?lang=en"))
        .await
        .text()
        .await
        .unwrap();
    assert!(en.contains("You can cancel the authorization at any time in your bank"));
    let view = body(w.app.get(&format!("/api/pay/{id}")).await).await;
    assert_eq!(view["pixAutomatico"]["payload"], code);
    assert_eq!(view["pixAutomatico"]["periodicity"], "MENSAL");
    assert_eq!(view["pixAutomatico"]["amount"], 49.9);
    // The first cycle's own code is the immediate charge's, as for any PIX installment.
    assert_eq!(
        view["installments"][0]["pix"]["payload"],
        cob["pixCopiaECola"]
    );

    // Paying the code pays the first cycle and authorizes the rest (two callbacks, each read back).
    w.bank.pay_composite(&id_rec).await.unwrap();
    let d = wait_detail(&w.app, &id, "paid and approved", |d| {
        d["installments"][0]["_status"] == "CONFIRMED" && d["pixAutomatico"]["status"] == "approved"
    })
    .await;
    assert_eq!(d["installments"][0]["pricePaid"], 49.9);
    // Authorized: nothing more to authorize on the page.
    let html = w.app.get(&format!("/pay/{id}")).await.text().await.unwrap();
    assert!(!html.contains("data-pix-automatico"), "{html}");
    // Nothing more is asked of the bank for this recurrence.
    for _ in 0..3 {
        w.recs.pass().await.unwrap();
    }
    let posts = w
        .bank
        .requests()
        .iter()
        .filter(|r| r.path == "/rec")
        .count();
    assert_eq!(posts, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bank_down_during_creation_loses_nothing_and_a_lost_answer_makes_nothing_twice() {
    let w = world().await;
    // Its first charge made, the bank goes down as the recurrence is to be made.
    let (down, _) = invoice(&w.app).await;
    first_charge(&w, 1).await;
    w.bank.down_for(Duration::from_millis(2500));
    let state = settle(&w, &down).await;
    assert_eq!(state.1, "done", "{state:?}");
    assert!(state.2 > 0, "it was retried: {state:?}");
    assert_eq!(w.bank.recs().len(), 1);

    // Its first charge made, the next recurrence's answer is lost: the retry finds it on its
    // location instead of making a second one.
    let (lost, _) = invoice(&w.app).await;
    first_charge(&w, 2).await;
    w.bank.lose_answers(1);
    let state = settle(&w, &lost).await;
    assert_eq!(state.1, "done", "{state:?}");
    assert!(
        state.2 > 0,
        "the lost answer was a failed attempt: {state:?}"
    );
    assert_eq!(w.bank.recs().len(), 2, "one recurrence per invoice");
    let found = w
        .bank
        .requests()
        .iter()
        .any(|r| r.method == "GET" && r.path.starts_with("/locrec/"));
    assert!(found, "the retry asked the location");
    assert_eq!(
        detail(&w.app, &lost).await["pixAutomatico"]["idRec"],
        json!(state.3.unwrap())
    );
}

/// The charges worker's passes until the bank holds `n` charges.
async fn first_charge(w: &World, n: usize) {
    for _ in 0..100 {
        w.charges.pass().await.unwrap();
        if w.bank.charge_count() == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the bank holds {} charges", w.bank.charge_count());
}

async fn post_callback(w: &World, path: &str, body: &Value) -> reqwest::Response {
    w.app
        .client
        .post(w.app.url(&format!(
            "/webhooks/pix/{}/{path}",
            w.client.webhook_token()
        )))
        .json(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn callbacks_are_believed_only_from_the_bank_and_a_replay_changes_nothing() {
    let w = world().await;
    let (id, _) = invoice(&w.app).await;
    let id_rec = settle(&w, &id).await.3.unwrap();

    // A callback that says the payer cancelled, which the bank does not say: ignored.
    let lie = json!({"recs": [{"idRec": id_rec, "status": "CANCELADA",
                               "atualizacao": [{"status": "CANCELADA", "data": "2026-01-01T00:00:00Z"}]}]});
    assert_eq!(
        post_callback(&w, "rec", &lie).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        detail(&w.app, &id).await["pixAutomatico"]["status"],
        "created"
    );
    // One of a recurrence paylink never made, and one the bank does not know: nothing changes.
    let unknown =
        json!({"recs": [{"idRec": "RN9999999920260101zzzzzzzzzzz", "status": "APROVADA"}]});
    assert_eq!(
        post_callback(&w, "rec", &unknown).await.status(),
        StatusCode::OK
    );
    let cobr = json!({"cobsr": [{"idRec": id_rec, "txid": "a1b2c3d4e5f60718293a4b5c6d7e8f90", "status": "CONCLUIDA"}]});
    assert_eq!(
        post_callback(&w, "cobr", &cobr).await.status(),
        StatusCode::OK
    );
    // A wrong token is no route; a body that is not JSON an envelope, never a 500.
    let res = w
        .app
        .client
        .post(w.app.url("/webhooks/pix/not-the-token/rec"))
        .json(&lie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = w
        .app
        .client
        .post(
            w.app
                .url(&format!("/webhooks/pix/{}/rec", w.client.webhook_token())),
        )
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let res = post_callback(&w, "rec", &json!({"recs": "no"})).await;
    assert!(res.status().is_client_error(), "{}", res.status());

    // The payer cancels in their bank app: the bank's callback, read back, ends it.
    w.bank.approve_rec(&id_rec).unwrap();
    wait_detail(&w.app, &id, "approved", |d| {
        d["pixAutomatico"]["status"] == "approved"
    })
    .await;
    w.bank.cancel_rec_by_payer(&id_rec).unwrap();
    let d = wait_detail(&w.app, &id, "cancelled by the payer", |d| {
        d["pixAutomatico"]["status"] == "cancelled"
    })
    .await;
    let reasons = d["pixAutomatico"]["reasons"].to_string();
    assert!(reasons.contains("USUARIO_PAGADOR"), "{reasons}");
    // The merchant finds it in the list by its recurrence's state (and not under another).
    let list = |query: &'static str| {
        let app = &w.app;
        async move {
            app.authed(
                reqwest::Method::GET,
                &format!("/invoices/applications/invoices{query}"),
            )
            .await
            .send()
            .await
            .unwrap()
        }
    };
    let ids = |page: Value| -> Vec<String> {
        page["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        ids(body(list("?pixAutomatico=cancelled").await).await),
        std::slice::from_ref(&id)
    );
    assert!(ids(body(list("?pixAutomatico=approved").await).await).is_empty());
    let res = list("?pixAutomatico=revoked").await;
    let env = crate::helpers::envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(
        env["pixAutomatico"][0]
            .as_str()
            .unwrap()
            .contains("cancelled"),
        "{env}"
    );
    // Replayed, and an older callback arriving late (APROVADA): what the bank says now stands.
    let old = json!({"recs": [{"idRec": id_rec, "status": "APROVADA"}]});
    for body in [&old, &lie, &old] {
        assert_eq!(
            post_callback(&w, "rec", body).await.status(),
            StatusCode::OK
        );
    }
    let again = detail(&w.app, &id).await;
    assert_eq!(again["pixAutomatico"], d["pixAutomatico"]);
    // A payer's cancellation is not undone by the merchant's deletion: nothing to cancel.
    assert_eq!(
        w.app.cancel_invoice(&id).await.status(),
        StatusCode::NO_CONTENT
    );
    for _ in 0..3 {
        w.recs.pass().await.unwrap();
    }
    let patches = w
        .bank
        .requests()
        .iter()
        .filter(|r| r.method == "PATCH")
        .count();
    assert_eq!(patches, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_the_invoice_cancels_the_recurrence_at_the_bank() {
    let w = world().await;
    let (id, _) = invoice(&w.app).await;
    let id_rec = settle(&w, &id).await.3.unwrap();
    w.bank.approve_rec(&id_rec).unwrap();
    assert_eq!(
        w.app.cancel_invoice(&id).await.status(),
        StatusCode::NO_CONTENT
    );
    let state = settle(&w, &id).await;
    assert_eq!(
        (state.0.as_str(), state.1.as_str()),
        ("cancel", "done"),
        "{state:?}"
    );
    let rec = w.bank.rec(&id_rec).unwrap();
    assert_eq!(rec["status"], "CANCELADA");
    assert_eq!(
        rec["encerramento"]["cancelamento"]["solicitante"],
        "USUARIO_RECEBEDOR"
    );
    assert_eq!(state.4.as_deref(), Some("CANCELADA"));
    let patch = w
        .bank
        .requests()
        .into_iter()
        .find(|r| r.method == "PATCH" && r.path.starts_with("/rec/"))
        .unwrap();
    assert_eq!(
        rec_schema_errors("RecRevisada", patch.body.as_ref().unwrap()),
        Vec::<String>::new()
    );
}

/// A weekly recurring invoice asking for Pix Automático, its first cycle due today, authorized
/// through the composite code; then the scheduler makes the second cycle (due in 7 days, inside
/// the 10-to-2-day window) and the charges worker sends it: (invoice id, idRec, its txid).
async fn authorized_weekly(w: &World, retries: bool) -> (String, String, String) {
    let customer = body(
        w.app
            .post_customer(
                &json!({"fullName": "Maria da Silva", "document": "529.982.247-25",
                                   "email": "maria@example.com"}),
            )
            .await,
    )
    .await;
    let res = w
        .app
        .post_invoice(&json!({
            "customerId": customer["id"], "externalId": "academia-3",
            "dueDate": today().to_string(), "paymentTypes": ["PIX", "BOLETO"],
            "installmentCount": 1, "invoiceType": "RECURRING", "frequency": "WEEKLY",
            "endInstallment": 8, "price": 49.90,
            "notifications": [{"type": "INVOICE_FAIL", "channel": "Email"},
                              {"type": "INVOICE_GENERATED", "channel": "Email"}],
            "pixAutomatico": {"retries": retries},
        }))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let id_rec = settle(w, &id).await.3.unwrap();
    w.bank.pay_composite(&id_rec).await.unwrap();
    wait_detail(&w.app, &id, "approved", |d| {
        d["pixAutomatico"]["status"] == "approved" && d["installments"][0]["_status"] == "CONFIRMED"
    })
    .await;
    paylink_server::workers::scheduler::run_once(&w.app.db, today())
        .await
        .unwrap();
    let d = detail(&w.app, &id).await;
    let second = d["installments"][1]["id"].as_str().unwrap();
    let txid = pix_api::txid(second).unwrap();
    for _ in 0..100 {
        w.charges.pass().await.unwrap();
        if w.bank.cobr(&txid).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(w.bank.cobr(&txid).is_some(), "the cycle was sent");
    (id, id_rec, txid)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_later_cycle_is_sent_inside_its_window_and_paid_once() {
    let w = world().await;
    let (id, id_rec, txid) = authorized_weekly(&w, false).await;
    let sent: Vec<Value> = w
        .bank
        .requests()
        .into_iter()
        .filter(|r| r.method == "PUT" && r.path.starts_with("/cobr/"))
        .map(|r| r.body.unwrap())
        .collect();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        rec_schema_errors("CobRSolicitada", &sent[0]),
        Vec::<String>::new()
    );
    assert_eq!(sent[0]["idRec"], id_rec);
    assert_eq!(
        sent[0]["calendario"]["dataDeVencimento"],
        today().add_days(7).unwrap().to_string()
    );
    assert_eq!(sent[0]["valor"]["original"], "49.90");
    assert_eq!(sent[0]["ajusteDiaUtil"], true);
    assert_eq!(
        sent[0]["recebedor"],
        json!({"conta": "123456-7", "tipoConta": "CORRENTE", "agencia": "0001"})
    );
    // No code on the payer page for it, and no second charge: the payer's bank pays it.
    assert!(w.bank.charge(&txid).is_none());
    let html = w
        .app
        .get(&format!("/pay/{id}?lang=en"))
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-pix-automatico-cycle"), "{html}");
    assert!(!html.contains("data-pix-payload"), "{html}");
    let view = body(w.app.get(&format!("/api/pay/{id}")).await).await;
    assert!(
        view["installments"][1]["pixAutomatico"] == true
            && view["installments"][1]["boleto"].is_null(),
        "no boleto to pay it twice: {}",
        view["installments"][1]
    );
    // Nor does its notice ask the payer to pay it: their bank does.
    let sink = SmtpServer::start(Mode::StartTls).await;
    let notifier = notifier(&w, &sink);
    while notifier.send_due().await.unwrap() > 0 {}
    let due = today().add_days(7).unwrap().format_br();
    let mails = sink.mails();
    let cycle = mails
        .iter()
        .map(|m| m.text())
        .find(|t| t.contains(&format!("com vencimento em {due}")))
        .unwrap_or_else(|| panic!("the second cycle's INVOICE_GENERATED: {mails:?}"));
    assert!(
        cycle.contains("Seu banco vai pagá-la no vencimento, por Pix Automático")
            && !cycle.contains("Para pagar")
            && !cycle.contains("copia e cola")
            && !cycle.contains("Linha digitável"),
        "{cycle}"
    );
    for _ in 0..3 {
        w.charges.pass().await.unwrap();
    }
    assert_eq!(w.bank.puts(&txid), 1, "once per cycle");

    w.bank.pay_cycle(&txid).unwrap();
    let d = wait_detail(&w.app, &id, "the second cycle paid", |d| {
        d["installments"][1]["_status"] == "CONFIRMED"
    })
    .await;
    assert_eq!(d["installments"][1]["pricePaid"], 49.9);
    // The callback again: nothing twice.
    let cobr = w.bank.cobr(&txid).unwrap();
    let again = json!({"cobsr": [{"idRec": id_rec, "txid": txid, "status": cobr["status"]}]});
    assert_eq!(
        post_callback(&w, "cobr", &again).await.status(),
        StatusCode::OK
    );
    let pool = w.app.raw_pool().await;
    let payments: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM pix_payments WHERE txid = $1")
        .bind(&txid)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(payments, 1);
    let confirmed: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM events WHERE invoice_id = $1 AND type = 'PAYMENT_CONFIRMED'",
    )
    .bind(&id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(confirmed, 2, "one per cycle paid");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_attempt_is_retried_and_paid_and_without_retries_left_goes_to_the_page() {
    let w = world().await;
    let (id, _, txid) = authorized_weekly(&w, true).await;
    // Rejected: paylink asks for another attempt, the day after the due date.
    w.bank.fail_cycle(&txid).unwrap();
    retried(2, &w.bank, &txid).await;
    let cobr = w.bank.cobr(&txid).unwrap();
    let due = today().add_days(7).unwrap();
    assert_eq!(cobr["tentativas"][1]["tipo"], "RIFL");
    assert_eq!(
        cobr["tentativas"][1]["dataLiquidacao"],
        due.add_days(1).unwrap().to_string()
    );
    w.bank.pay_cycle(&txid).unwrap();
    let d = wait_detail(&w.app, &id, "paid on the retry", |d| {
        d["installments"][1]["_status"] == "CONFIRMED"
            && d["pixAutomatico"]["cycles"][0]["status"] == "CONCLUIDA"
    })
    .await;
    // The merchant sees the cycle and its attempts: rejected on the due date (why, in the bank's
    // words and code), paid the day after.
    let cycle = &d["pixAutomatico"]["cycles"][0];
    assert_eq!(cycle["installment"], 2);
    assert_eq!(cycle["dueDate"], due.to_string());
    assert_eq!(
        cycle["attempts"],
        json!([
            {"date": due.to_string(), "type": "AGND", "status": "REJEITADA",
             "reasonCode": "AM02", "reason": "Saldo insuficiente."},
            {"date": due.add_days(1).unwrap().to_string(), "type": "RIFL", "status": "PAGA"},
        ])
    );

    // The third cycle fails four times: three retries, then the payer page.
    paylink_server::workers::scheduler::run_once(&w.app.db, today().add_days(7).unwrap())
        .await
        .unwrap();
    let d = detail(&w.app, &id).await;
    let third = pix_api::txid(d["installments"][2]["id"].as_str().unwrap()).unwrap();
    // Due in 14 days: outside the window, so not yet sent, and no code on the page either.
    for _ in 0..3 {
        w.charges.pass().await.unwrap();
    }
    assert!(w.bank.cobr(&third).is_none());
    assert!(w.bank.charge(&third).is_none());

    // Another payer's cycle is rejected four times: the three retries, then nothing left. The
    // installment stays open and goes back to the payer page, as an ordinary charge under a new
    // txid.
    let (other, _, txid) = authorized_weekly(&w, true).await;
    for n in 2..=4 {
        w.bank.fail_cycle(&txid).unwrap();
        retried(n, &w.bank, &txid).await;
    }
    // While the bank still has a retry to make, the payer is not told the installment failed,
    // even once the notice's day has come: it waits, and says why.
    let sink = SmtpServer::start(Mode::StartTls).await;
    let notifier = notifier(&w, &sink);
    let pool = w.app.raw_pool().await;
    let second_id = detail(&w.app, &other).await["installments"][1]["id"]
        .as_str()
        .unwrap()
        .to_ascii_lowercase();
    let past = "2000-01-01T00:00:00.000Z";
    sqlx::query(
        "UPDATE notification_sends SET due_at = $1, next_attempt_at = $1
         WHERE type = 'INVOICE_FAIL' AND installment_id = $2",
    )
    .bind(past)
    .bind(&second_id)
    .execute(&pool)
    .await
    .unwrap();
    while notifier.send_due().await.unwrap() > 0 {}
    let fail_send = |d: &Value| -> Value {
        d["notificationAfterDueDate"][0]["sends"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["installment"] == 2)
            .expect("INVOICE_FAIL of the second installment")
            .clone()
    };
    let held = fail_send(&detail(&w.app, &other).await);
    assert_eq!(held["status"], "pending", "{held}");
    assert!(
        held["lastError"]
            .as_str()
            .unwrap()
            .contains("Pix Automático"),
        "{held}"
    );
    let failures = || {
        sink.mails()
            .into_iter()
            .filter(|m| m.text().contains("Não identificamos o pagamento"))
            .collect::<Vec<_>>()
    };
    assert!(failures().is_empty(), "nothing told while the bank retries");
    w.bank.fail_cycle(&txid).unwrap();
    let renewed = format!("{txid}r1");
    for _ in 0..100 {
        w.charges.pass().await.unwrap();
        if w.bank.charge(&renewed).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let cobv = w
        .bank
        .charge(&renewed)
        .expect("the installment is back on the payer page");
    assert_eq!(cobv["valor"]["original"], "49.90");
    assert_eq!(
        w.bank.cobr(&txid).unwrap()["status"],
        "REJEITADA",
        "the bank ended it"
    );
    let d = detail(&w.app, &other).await;
    assert_eq!(d["installments"][1]["_status"], "WAITING_PAYMENT");
    // Each retry was asked for a day of its own, and the merchant sees every attempt and why it
    // failed; the cycle ended unpaid.
    let cycle = &d["pixAutomatico"]["cycles"][0];
    assert_eq!(cycle["status"], "REJEITADA", "{cycle}");
    let attempts = cycle["attempts"].as_array().unwrap();
    let days: Vec<&str> = attempts
        .iter()
        .map(|a| a["date"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = (0..4)
        .map(|n| due.add_days(n).unwrap().to_string())
        .collect();
    assert_eq!(days, expected);
    for a in attempts {
        assert_eq!(
            (a["status"].as_str(), a["reasonCode"].as_str()),
            (Some("REJEITADA"), Some("AM02"))
        );
    }
    let retries: Vec<String> = w
        .bank
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.starts_with(&format!("/cobr/{txid}/retentativa/")))
        .map(|r| r.path.rsplit('/').next().unwrap().to_string())
        .collect();
    assert_eq!(retries, expected[1..], "three retries, each on a new date");
    // The payer gets INVOICE_FAIL now: its send is due at once, and goes out with the page's link.
    assert_eq!(d["notificationAfterDueDate"][0]["type"], "INVOICE_FAIL");
    let send = fail_send(&d);
    assert_eq!(send["status"], "pending");
    let now = paylink_model::date::iso_utc_from_millis(paylink_server::domain::now_ms());
    assert!(
        send["dueAt"].as_str().unwrap() <= now.as_str(),
        "{send} due by {now}"
    );
    while notifier.send_due().await.unwrap() > 0 {}
    let mails = failures();
    assert_eq!(mails.len(), 1, "one INVOICE_FAIL");
    assert_eq!(mails[0].to, ["maria@example.com"]);
    let text = mails[0].text();
    assert!(
        text.contains("R$ 49,90") && text.contains(&format!("/pay/{other}")),
        "{text}"
    );
    assert_eq!(fail_send(&detail(&w.app, &other).await)["status"], "sent");
    let view = body(w.app.get(&format!("/api/pay/{other}")).await).await;
    assert_eq!(
        view["installments"][1]["pix"]["payload"],
        cobv["pixCopiaECola"]
    );
    assert!(view["installments"][1].get("pixAutomatico").is_none());
    assert!(
        view["installments"][1]["boleto"]["line"].is_string(),
        "the boleto back with the code: {}",
        view["installments"][1]
    );
    // The page's code pays it.
    w.bank.pay(&renewed, None).await.unwrap();
    wait_detail(&w.app, &other, "paid on the page", |d| {
        d["installments"][1]["_status"] == "CONFIRMED"
    })
    .await;
}

/// The notifier of a `serve` with this world's API Pix, sending e-mail to `sink`.
fn notifier(w: &World, sink: &SmtpServer) -> Notifier {
    let mut config = NotifyConfig::new(&w.app.addr, Some(sink.config()), None).unwrap();
    config.payer.pix_api = true;
    Notifier::new(w.app.db.clone(), config)
}

/// Waits until recurring charge `txid` has `n` attempts (a retry was asked for).
async fn retried(n: usize, bank: &Bank, txid: &str) {
    for _ in 0..100 {
        let tries = bank.cobr(txid).unwrap()["tentativas"]
            .as_array()
            .unwrap()
            .len();
        if tries == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    panic!("no retry #{n}: {}", bank.cobr(txid).unwrap());
}

/// `paylink serve`'s account for the recurring charges: a bad one is named and nothing starts.
#[test]
fn serve_refuses_a_bad_pix_account() {
    let dir = tempfile::tempdir().unwrap();
    Pki::generate().unwrap().write(dir.path()).unwrap();
    let file = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    std::fs::write(dir.path().join("secret"), "s3cr3t\n").unwrap();
    let base = [
        "serve".to_string(),
        "--listen".into(),
        "127.0.0.1:0".into(),
        "--db".into(),
        file("p.db"),
        "--pix-api-url".into(),
        "https://127.0.0.1:1/api/v2".into(),
        "--pix-token-url".into(),
        "https://127.0.0.1:1/oauth/token".into(),
        "--pix-client-id".into(),
        "paylink".into(),
        "--pix-client-secret-file".into(),
        file("secret"),
        "--pix-cert".into(),
        file("client.pem"),
        "--pix-cert-key".into(),
        file("client-key.pem"),
        "--pix-ca".into(),
        file("ca.pem"),
    ];
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_paylink"))
            .args(&base)
            .args(extra)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{extra:?} was accepted");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    for (extra, says) in [
        (&["--pix-account", "12a34"][..], "is not an account number"),
        (
            &["--pix-account", "123456789012345678901"][..],
            "is not an account number",
        ),
        (
            &["--pix-account", "1234", "--pix-account-type", "SALARIO"][..],
            "--pix-account-type must be",
        ),
        (
            &["--pix-account", "1234", "--pix-agency", "12345"][..],
            "is not an agency",
        ),
        (
            &["--pix-agency", "1234"][..],
            "--pix-agency needs --pix-account",
        ),
    ] {
        let err = run(extra);
        assert!(err.contains(says), "{extra:?}: {err}");
    }
}

/// The first cycle paid with its own code, not the composite one: the page then offers Jornada 2,
/// the recurrence's own code, which authorizes the next cycles without paying anything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_cycle_paid_another_way_leaves_the_authorization_on_the_page() {
    let w = world().await;
    let (id, txid) = invoice(&w.app).await;
    let id_rec = settle(&w, &id).await.3.unwrap();
    w.bank.pay(&txid, None).await.unwrap();
    wait_detail(&w.app, &id, "the first cycle paid", |d| {
        d["installments"][0]["_status"] == "CONFIRMED"
    })
    .await;
    let html = w
        .app
        .get(&format!("/pay/{id}?lang=en"))
        .await
        .text()
        .await
        .unwrap();
    let offer = &html[html
        .find("data-pix-automatico=\"authorize\"")
        .expect("Jornada 2")..];
    assert!(offer.contains("nothing is paid now"), "{offer}");
    let own = w.client.get_rec(&id_rec, None).await.unwrap();
    assert_eq!(own["dadosQR"]["jornada"], "JORNADA_2");
    let view = body(w.app.get(&format!("/api/pay/{id}")).await).await;
    assert_eq!(view["pixAutomatico"]["paysFirst"], false);
    assert_eq!(
        view["pixAutomatico"]["payload"],
        own["dadosQR"]["pixCopiaECola"]
    );
    let cob = w.bank.charge(&txid).unwrap();
    let code = view["pixAutomatico"]["payload"].as_str().unwrap();
    assert!(
        !code.contains(cob["loc"]["location"].as_str().unwrap()),
        "no charge in it"
    );

    w.bank.approve_rec(&id_rec).unwrap();
    wait_detail(&w.app, &id, "approved", |d| {
        d["pixAutomatico"]["status"] == "approved"
    })
    .await;
    let html = w.app.get(&format!("/pay/{id}")).await.text().await.unwrap();
    assert!(
        !html.contains("data-pix-automatico="),
        "nothing left to authorize"
    );
}

/// The payer cancelled in their bank app and the callback was lost: the next cycle's recurring
/// charge is refused by the bank, and the installment goes back to the payer page instead of
/// waiting for a bank that will not charge it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recurring_charge_the_bank_refuses_goes_back_to_the_payer_page() {
    let w = world().await;
    let customer = body(
        w.app
            .post_customer(&json!({"fullName": "Maria da Silva", "document": "529.982.247-25"}))
            .await,
    )
    .await;
    let res = w
        .app
        .post_invoice(&json!({
            "customerId": customer["id"], "externalId": "academia-9",
            "dueDate": today().to_string(), "paymentTypes": ["PIX", "BOLETO"],
            "installmentCount": 1, "invoiceType": "RECURRING", "frequency": "WEEKLY",
            "endInstallment": 8, "price": 49.90, "pixAutomatico": {},
        }))
        .await;
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let id_rec = settle(&w, &id).await.3.unwrap();
    w.bank.pay_composite(&id_rec).await.unwrap();
    wait_detail(&w.app, &id, "approved", |d| {
        d["pixAutomatico"]["status"] == "approved"
    })
    .await;
    w.bank.set_callbacks(paylink_banksim::Callbacks::Lose);
    w.bank.cancel_rec_by_payer(&id_rec).unwrap();
    paylink_server::workers::scheduler::run_once(&w.app.db, today())
        .await
        .unwrap();
    let d = detail(&w.app, &id).await;
    let txid = pix_api::txid(d["installments"][1]["id"].as_str().unwrap()).unwrap();
    let renewed = format!("{txid}r1");
    for _ in 0..100 {
        w.charges.pass().await.unwrap();
        if w.bank.charge(&renewed).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        w.bank.cobr(&txid).is_none(),
        "the bank made no recurring charge"
    );
    let refused = w
        .bank
        .requests()
        .iter()
        .any(|r| r.method == "PUT" && r.path == format!("/cobr/{txid}"));
    assert!(refused, "it was asked for");
    let view = body(w.app.get(&format!("/api/pay/{id}")).await).await;
    assert_eq!(
        view["installments"][1]["pix"]["payload"],
        w.bank.charge(&renewed).expect("a code on the page")["pixCopiaECola"]
    );
    // The refusal had paylink read the recurrence back: the payer's cancellation is known.
    let d = detail(&w.app, &id).await;
    assert_eq!(d["pixAutomatico"]["status"], "cancelled", "{d}");
}

/// Deleting an invoice whose next cycle is already at the payer's bank cancels that recurring
/// charge before its due date (`PATCH /cobr/{txid}` CANCELADA, valid against the document) and
/// the recurrence; the merchant's cancelled invoice shows both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_the_invoice_cancels_its_open_recurring_charge() {
    let w = world().await;
    let (id, id_rec, txid) = authorized_weekly(&w, true).await;
    assert_eq!(w.bank.cobr(&txid).unwrap()["status"], "ATIVA");
    assert_eq!(
        w.app.cancel_invoice(&id).await.status(),
        StatusCode::NO_CONTENT
    );
    for _ in 0..100 {
        w.charges.pass().await.unwrap();
        w.recs.pass().await.unwrap();
        let cobr = w.bank.cobr(&txid).unwrap();
        if cobr["status"] == "CANCELADA" && w.bank.rec(&id_rec).unwrap()["status"] == "CANCELADA" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let cobr = w.bank.cobr(&txid).unwrap();
    assert_eq!(cobr["status"], "CANCELADA", "{cobr}");
    assert_eq!(
        cobr["encerramento"]["cancelamento"]["solicitante"],
        "USUARIO_RECEBEDOR"
    );
    assert_eq!(cobr["tentativas"][0]["status"], "CANCELADA");
    assert_eq!(w.bank.rec(&id_rec).unwrap()["status"], "CANCELADA");
    let patches: Vec<Value> = w
        .bank
        .requests()
        .into_iter()
        .filter(|r| r.method == "PATCH" && r.path == format!("/cobr/{txid}"))
        .map(|r| r.body.unwrap())
        .collect();
    assert_eq!(patches.len(), 1, "cancelled once");
    assert_eq!(
        rec_schema_errors("CobRRevisada", &patches[0]),
        Vec::<String>::new()
    );
    // More passes ask nothing more of the bank.
    for _ in 0..3 {
        w.charges.pass().await.unwrap();
        w.recs.pass().await.unwrap();
    }
    let patches = w
        .bank
        .requests()
        .iter()
        .filter(|r| r.method == "PATCH")
        .count();
    assert_eq!(patches, 2, "the charge and the recurrence, once each");
    // The cancelled invoice, in the list, shows the cycle cancelled.
    let page = body(
        w.app
            .authed(
                reqwest::Method::GET,
                "/invoices/applications/invoices?status=cancelled&pixAutomatico=cancelled",
            )
            .await
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(page["data"][0]["id"], id, "{page}");
    assert_eq!(
        page["data"][0]["pixAutomatico"]["cycles"][0]["status"],
        "CANCELADA"
    );
}

/// A payer who declined the recurrence can authorize it after all: the payer page offers a new
/// one (a form, no JavaScript needed); asking for it twice makes one; it is made at the bank
/// (valid against the document) as Jornada 3 while the first cycle is open, and as Jornada 2
/// (authorization only) once it was paid another way; the declined one is kept, and its late
/// callbacks change nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payer_who_declined_is_offered_a_new_recurrence() {
    let w = world().await;
    let (id, txid) = invoice(&w.app).await;
    let old = settle(&w, &id).await.3.unwrap();
    w.bank.reject_rec(&old).unwrap();
    wait_detail(&w.app, &id, "declined", |d| {
        d["pixAutomatico"]["status"] == "rejected"
    })
    .await;
    let html = w
        .app
        .get(&format!("/pay/{id}?lang=en"))
        .await
        .text()
        .await
        .unwrap();
    let offer = &html[html
        .find("data-pix-automatico=\"again\"")
        .expect("the offer to authorize again")..];
    assert!(
        offer.contains("You declined the Pix Automático authorization"),
        "{offer}"
    );
    assert!(
        offer.contains(&format!(
            "<form method=\"post\" action=\"/pay/{id}/pix-automatico\">"
        )),
        "{offer}"
    );
    assert!(offer.contains("<button type=\"submit\""), "{offer}");
    assert!(!html.contains("data-pix-automatico-payload"));
    let view = body(w.app.get(&format!("/api/pay/{id}")).await).await;
    assert_eq!(view["pixAutomaticoAgain"], "declined");

    // Asked for (twice, as a double click would): one new recurrence, the page says it is coming.
    let ask = || async {
        w.app
            .client
            .post(w.app.url(&format!("/pay/{id}/pix-automatico")))
            .send()
            .await
            .unwrap()
    };
    let res = ask().await;
    assert!(res.status().is_success(), "{}", res.status());
    assert!(
        res.url().path().ends_with(&format!("/pay/{id}")),
        "303 to the page"
    );
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("data-pix-automatico=\"preparing\""));
    ask().await;
    let (_, status, _, new, bank_status, code) = settle(&w, &id).await;
    assert_eq!(
        (status.as_str(), bank_status.as_deref()),
        ("done", Some("CRIADA"))
    );
    let new = new.unwrap();
    assert_ne!(new, old);
    assert_eq!(w.bank.recs().len(), 2, "one new recurrence");
    let posts: Vec<Value> = w
        .bank
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/rec")
        .map(|r| r.body.unwrap())
        .collect();
    assert_eq!(posts.len(), 2);
    assert_eq!(
        rec_schema_errors("RecSolicitada", &posts[1]),
        Vec::<String>::new()
    );
    assert_eq!(
        posts[1]["ativacao"]["dadosJornada"]["txid"], txid,
        "Jornada 3"
    );
    assert_ne!(posts[1]["loc"], posts[0]["loc"], "a new location");
    let view = body(w.app.get(&format!("/api/pay/{id}")).await).await;
    assert_eq!(view["pixAutomatico"]["payload"], json!(code.unwrap()));
    assert_eq!(view["pixAutomatico"]["paysFirst"], true);
    assert!(view.get("pixAutomaticoAgain").is_none(), "{view}");
    // The declined one is kept; its callback again changes nothing.
    let pool = w.app.raw_pool().await;
    let past: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT id_rec, bank_status FROM pix_recurrences_past WHERE invoice_id = $1",
    )
    .bind(&id)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(past, [(old.clone(), Some("REJEITADA".to_string()))]);
    let late = json!({"recs": [{"idRec": old, "status": "REJEITADA"}]});
    assert_eq!(
        post_callback(&w, "rec", &late).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        detail(&w.app, &id).await["pixAutomatico"]["status"],
        "created"
    );
    // Paying it pays the first cycle and authorizes the rest, as the first offer would have.
    w.bank.pay_composite(&new).await.unwrap();
    wait_detail(&w.app, &id, "paid and approved", |d| {
        d["installments"][0]["_status"] == "CONFIRMED" && d["pixAutomatico"]["status"] == "approved"
    })
    .await;
    let again = ask().await.text().await.unwrap();
    assert!(
        !again.contains("data-pix-automatico="),
        "nothing more to offer"
    );

    // Another payer paid the first cycle with its own code, then declined: the new recurrence
    // only authorizes (Jornada 2).
    let (id, txid) = invoice(&w.app).await;
    let old = settle(&w, &id).await.3.unwrap();
    w.bank.pay(&txid, None).await.unwrap();
    w.bank.reject_rec(&old).unwrap();
    wait_detail(&w.app, &id, "paid, then declined", |d| {
        d["installments"][0]["_status"] == "CONFIRMED" && d["pixAutomatico"]["status"] == "rejected"
    })
    .await;
    let res = w
        .app
        .client
        .post(w.app.url(&format!("/pay/{id}/pix-automatico")))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    let new = settle(&w, &id).await.3.unwrap();
    let sent = w
        .bank
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/rec")
        .map(|r| r.body.unwrap())
        .next_back()
        .unwrap();
    assert!(sent.get("ativacao").is_none(), "Jornada 2: {sent}");
    let html = w
        .app
        .get(&format!("/pay/{id}?lang=en"))
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-pix-automatico=\"authorize\""), "{html}");
    let own = w.client.get_rec(&new, None).await.unwrap();
    let view = body(w.app.get(&format!("/api/pay/{id}")).await).await;
    assert_eq!(
        view["pixAutomatico"]["payload"],
        own["dadosQR"]["pixCopiaECola"]
    );
    w.bank.approve_rec(&new).unwrap();
    wait_detail(&w.app, &id, "approved", |d| {
        d["pixAutomatico"]["status"] == "approved"
    })
    .await;
}
