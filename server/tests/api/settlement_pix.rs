//! PIX through a bank's API Pix (issue 24, item 1): the local bank (`paylink_banksim`)
//! and paylink's client of it (`paylink_server::bank`) over HTTPS with mutual TLS, every request
//! body and every bank answer validated against BACEN's document (`server/pix-api/openapi.yaml`);
//! and `paylink serve`'s `--pix-*` options refusing bad input with clear messages; then the
//! charges worker in process against a bank that loses an answer and refuses the retry, holds
//! another charge under the txid, or refuses a charge for good (what the merchant's detail and
//! the payer page show of each). Charges that expire and are made again, and charges removed
//! when nobody should pay them any more, are `settlement_pix_lifecycle.rs`; the real binary's
//! whole path (charges, callback, reconciliation, refunds) is `settlement_pix_serve.rs`. Over 400 lines: the bank's faults and
//! paylink's answer to each are read together.
//!
//! Its tests run `paylink` commands (a blocking child process) beside the server they spawn
//! in-process, so they run on two threads: on a test's single thread the server would stand
//! still, maybe inside a write transaction, while the command waits for that write lock (and
//! fails "database is locked" after the busy timeout).

use std::time::{Duration, Instant};

use paylink_banksim::{Bank, Pki};
use paylink_server::bank::{BankError, PixClient, PixConfig};
use paylink_server::domain::pix_api::{self, CobV, Devedor};
use serde_json::{json, Value};

use crate::helpers::{body, invoice_body, spawn_app_options, today, with, TestApp};

const BIN: &str = env!("CARGO_BIN_EXE_paylink");
pub const SECRET: &str = "s3cr3t-client-secret";

/// A validator for one schema of the document, its `$ref`s resolved inside it. The document's
/// errata (`server/pix-api/README.md`) are corrected first: `PessoaFisica.cpf`'s `/.../`
/// delimiters (as the unit tests of `domain::pix_api` do), and, for the bank's answers,
/// `DadosRecebedor`'s address required at the top level instead of inside `recebedor` and
/// `PayloadLocation.location`'s `format: uri` (its own example, like every BR Code location,
/// has no scheme).
pub fn validator(schema: &str) -> jsonschema::Validator {
    let text = include_str!("../../pix-api/openapi.yaml");
    let doc: Value = serde_yaml::from_str(text).unwrap();
    let mut components = doc["components"].clone();
    components["schemas"]["PessoaFisica"]["properties"]["cpf"]["pattern"] = json!("^\\d{11}$");
    let schemas = components["schemas"].as_object_mut().unwrap();
    schemas["DadosRecebedor"]
        .as_object_mut()
        .unwrap()
        .remove("required");
    let location = &mut schemas["PayloadLocation"]["properties"]["location"];
    location.as_object_mut().unwrap().remove("format");
    let root = json!({"$ref": format!("#/components/schemas/{schema}"), "components": components});
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(true)
        .build(&root)
        .unwrap()
}

pub fn schema_errors(schema: &str, body: &Value) -> Vec<String> {
    validator(schema)
        .iter_errors(body)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// A bank on a free port with fresh certificates, and the PKI to reach it.
pub async fn start_bank() -> (Bank, Pki) {
    let pki = Pki::generate().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let bank = Bank::start(listener, &pki, "paylink", SECRET).unwrap();
    (bank, pki)
}

pub fn config(bank: &Bank, pki: &Pki) -> PixConfig {
    PixConfig {
        api_url: bank.url(),
        token_url: bank.token_url(),
        ..config_for(pki)
    }
}

/// The client's side of `pki` (its certificate, the CA), to be pointed at a bank.
fn config_for(pki: &Pki) -> PixConfig {
    PixConfig {
        api_url: String::new(),
        token_url: String::new(),
        client_id: "paylink".into(),
        client_secret: SECRET.into(),
        identity: Some((
            pki.client_cert.clone().into_bytes(),
            pki.client_key.clone().into_bytes(),
        )),
        ca: Some(pki.ca_cert.clone().into_bytes()),
        key: "pix@loja.example".into(),
    }
}

fn cobv(cents: i64) -> CobV {
    CobV::new(
        "pix@loja.example",
        today().add_days(10).unwrap(),
        30,
        Devedor::new("52998224725", "Maria da Silva").unwrap(),
        cents,
    )
}

const TXID: &str = "6c12042fd304437b9dc0c240401925f4";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charge_goes_to_the_bank_over_mtls_with_one_cached_token_and_valid_bodies() {
    let (bank, pki) = start_bank().await;
    let client = PixClient::new(config(&bank, &pki)).unwrap();

    let made = client.put_cobv(TXID, &cobv(33334)).await.unwrap();
    assert_eq!(
        schema_errors("CobVGerada", &made),
        Vec::<String>::new(),
        "{made}"
    );
    assert_eq!(made["status"], "ATIVA");
    assert_eq!(made["valor"]["original"], "333.34");
    let code = made["pixCopiaECola"].as_str().unwrap();
    let location = made["loc"]["location"].as_str().unwrap();
    assert!(code.contains(location), "{code} carries {location}");

    // A retry is the same charge, not a second one.
    let again = client.put_cobv(TXID, &cobv(33334)).await.unwrap();
    assert_eq!(again["loc"]["location"], made["loc"]["location"]);
    assert_eq!(bank.puts(TXID), 2);
    let fetched = client.get_cobv(TXID).await.unwrap();
    assert_eq!(fetched["txid"], TXID);

    let requests = bank.requests();
    let tokens = requests.iter().filter(|r| r.path == "/oauth/token").count();
    assert_eq!(tokens, 1, "the token is cached: {requests:?}");
    for r in requests
        .iter()
        .filter(|r| r.path.starts_with("/cobv/") && r.method == "PUT")
    {
        let body = r.body.as_ref().unwrap();
        assert_eq!(schema_errors("CobVSolicitada", body), Vec::<String>::new());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bank_refuses_clients_without_its_certificate_or_secret_and_bad_bodies() {
    let (bank, pki) = start_bank().await;

    // No client certificate: the TLS handshake fails, no handler sees the request.
    let mut no_cert = config(&bank, &pki);
    no_cert.identity = None;
    let err = PixClient::new(no_cert)
        .unwrap()
        .put_cobv(TXID, &cobv(100))
        .await
        .unwrap_err();
    assert!(matches!(err, BankError::Unavailable(_)), "{err}");
    assert!(bank.requests().is_empty());

    // Another CA's certificate is refused the same way.
    let stranger = Pki::generate().unwrap();
    let mut other = config(&bank, &pki);
    other.identity = Some((
        stranger.client_cert.into_bytes(),
        stranger.client_key.into_bytes(),
    ));
    let err = PixClient::new(other)
        .unwrap()
        .get_cobv(TXID)
        .await
        .unwrap_err();
    assert!(matches!(err, BankError::Unavailable(_)), "{err}");

    // Without the bank's CA, paylink does not trust the bank.
    let mut no_ca = config(&bank, &pki);
    no_ca.ca = None;
    let err = PixClient::new(no_ca)
        .unwrap()
        .get_cobv(TXID)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("certificate"), "{err}");

    let mut wrong = config(&bank, &pki);
    wrong.client_secret = "not-it".into();
    match PixClient::new(wrong).unwrap().get_cobv(TXID).await {
        Err(BankError::Refused { status: 401, body }) => {
            assert_eq!(body["error"], "invalid_client");
        }
        other => panic!("{other:?}"),
    }

    let client = PixClient::new(config(&bank, &pki)).unwrap();
    // An unknown charge: the document's NaoEncontrado problem.
    match client.get_cobv(TXID).await {
        Err(BankError::Refused { status: 404, body }) => {
            assert_eq!(schema_errors("Problema", &body), Vec::<String>::new());
            assert_eq!(
                body["type"],
                "https://pix.bcb.gov.br/api/v2/error/NaoEncontrado"
            );
        }
        other => panic!("{other:?}"),
    }
    // A body that breaks the document: 400 CobVOperacaoInvalida naming the field.
    let mut bad = cobv(100);
    bad.valor.original = "1.0".into();
    match client.put_cobv(TXID, &bad).await {
        Err(BankError::Refused { status: 400, body }) => {
            assert_eq!(schema_errors("Problema", &body), Vec::<String>::new());
            assert_eq!(
                body["type"],
                "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida"
            );
            assert_eq!(body["violacoes"][0]["propriedade"], "cob.valor.original");
        }
        other => panic!("{other:?}"),
    }
    // A txid outside the document's pattern.
    let err = client.put_cobv("short", &cobv(100)).await.unwrap_err();
    assert!(err.to_string().contains("txid"), "{err}");
    // Bad API Pix configuration files are named.
    let mut broken = config(&bank, &pki);
    broken.ca = Some(b"not a certificate".to_vec());
    assert!(PixClient::new(broken)
        .unwrap_err()
        .to_string()
        .contains("--pix-ca"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bank_can_be_down_or_slow_and_then_answers() {
    let (bank, pki) = start_bank().await;
    let client = PixClient::new(config(&bank, &pki)).unwrap();
    bank.down_for(Duration::from_millis(600));
    match client.put_cobv(TXID, &cobv(500)).await {
        Err(e @ BankError::Unavailable(_)) => assert!(e.retryable()),
        other => panic!("{other:?}"),
    }
    tokio::time::sleep(Duration::from_millis(700)).await;
    client.put_cobv(TXID, &cobv(500)).await.unwrap();

    bank.set_slow(Duration::from_millis(300));
    let started = Instant::now();
    client.get_cobv(TXID).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_is_found_by_e2eid_and_by_time_and_can_be_refunded_in_parts() {
    let (bank, pki) = start_bank().await;
    let client = PixClient::new(config(&bank, &pki)).unwrap();
    let before =
        paylink_model::date::iso_utc_from_millis(paylink_server::domain::now_ms() - 60_000);
    client.put_cobv(TXID, &cobv(10_000)).await.unwrap();
    let pix = bank.pay(TXID, None).await.unwrap();
    let e2eid = pix["endToEndId"].as_str().unwrap();
    assert_eq!(e2eid.len(), 32);
    assert!(
        bank.pay(TXID, None).await.is_err(),
        "a concluded charge is not paid twice"
    );
    assert_eq!(client.get_cobv(TXID).await.unwrap()["status"], "CONCLUIDA");

    let found = client.get_pix(e2eid).await.unwrap().unwrap();
    assert_eq!(
        schema_errors("Pix", &found),
        Vec::<String>::new(),
        "{found}"
    );
    assert_eq!(
        (found["txid"].as_str(), found["valor"].as_str()),
        (Some(TXID), Some("100.00"))
    );
    assert_eq!(client.get_pix(&"E".repeat(32)).await.unwrap(), None);

    let after = paylink_model::date::iso_utc_from_millis(paylink_server::domain::now_ms() + 60_000);
    let listed = client.list_pix(&before, &after).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["endToEndId"], e2eid);
    let earlier =
        paylink_model::date::iso_utc_from_millis(paylink_server::domain::now_ms() - 30_000);
    assert!(client.list_pix(&before, &earlier).await.unwrap().is_empty());

    let part = client.refund(e2eid, "r1", 4_000).await.unwrap();
    assert_eq!(
        schema_errors("Devolucao", &part),
        Vec::<String>::new(),
        "{part}"
    );
    assert_eq!(part["valor"], "40.00");
    match client.refund(e2eid, "r2", 6_001).await {
        Err(BankError::Refused { status: 400, body }) => {
            assert_eq!(
                body["type"],
                "https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida"
            );
        }
        other => panic!("{other:?}"),
    }
    client.refund(e2eid, "r2", 6_000).await.unwrap();
    for r in bank
        .requests()
        .iter()
        .filter(|r| r.path.contains("/devolucao/"))
    {
        let body = r.body.as_ref().unwrap();
        assert_eq!(
            schema_errors("DevolucaoSolicitada", body),
            Vec::<String>::new()
        );
    }
    assert_eq!(pix_api::reais(6_000), "60.00");
}

/// The bank's own devoluções (a MED claim, a refund from the bank's app): any natureza, in part
/// or in full, read back in the Pix's `devolucoes` as the document describes them, and posted in
/// the Pix callback; a devolução of more than is left, or of an unknown natureza, is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bank_returns_a_pix_on_its_own_and_reports_it_in_the_pix() {
    use paylink_banksim::Devolve;
    let (bank, pki) = start_bank().await;
    let (hook, callbacks) = callback_catcher().await;
    let client = PixClient::new(config(&bank, &pki)).unwrap();
    client.put_webhook(&hook).await.unwrap();
    client.put_cobv(TXID, &cobv(10_000)).await.unwrap();
    let pix = bank.pay(TXID, None).await.unwrap();
    let e2eid = pix["endToEndId"].as_str().unwrap();
    let arrived = |n: usize| {
        let callbacks = callbacks.clone();
        async move {
            let started = Instant::now();
            loop {
                let got = callbacks.lock().unwrap().clone();
                if got.len() >= n {
                    return got;
                }
                assert!(
                    started.elapsed() < Duration::from_secs(20),
                    "{n} callbacks: {got:?}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    arrived(1).await;

    let med = |valor, natureza, status| Devolve {
        valor,
        natureza: Some(natureza),
        status,
        ..Devolve::default()
    };
    let first = bank
        .devolve(
            e2eid,
            med(Some("30.00"), "MED_FRAUDE", Some("EM_PROCESSAMENTO")),
        )
        .await
        .unwrap();
    assert_eq!(
        schema_errors("Devolucao", &first),
        Vec::<String>::new(),
        "{first}"
    );
    assert_eq!(
        (first["natureza"].as_str(), first["status"].as_str()),
        (Some("MED_FRAUDE"), Some("EM_PROCESSAMENTO"))
    );
    // Settled later: the same id, its status now DEVOLVIDO.
    let id = first["id"].as_str().unwrap();
    let settled = bank
        .devolve(
            e2eid,
            Devolve {
                id: Some(id),
                status: Some("DEVOLVIDO"),
                ..Devolve::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (settled["status"].as_str(), settled["valor"].as_str()),
        (Some("DEVOLVIDO"), Some("30.00"))
    );
    assert!(bank
        .devolve(e2eid, med(Some("70.01"), "MED_OPERACIONAL", None))
        .await
        .is_err());
    assert!(bank
        .devolve(e2eid, med(None, "MED_QUALQUER", None))
        .await
        .is_err());
    let rest = bank
        .devolve(e2eid, med(None, "MED_OPERACIONAL", None))
        .await
        .unwrap();
    assert_eq!(rest["valor"], "70.00");

    let found = client.get_pix(e2eid).await.unwrap().unwrap();
    assert_eq!(
        schema_errors("Pix", &found),
        Vec::<String>::new(),
        "{found}"
    );
    let devolucoes = found["devolucoes"].as_array().unwrap();
    assert_eq!(devolucoes.len(), 2, "{found}");
    assert_eq!(devolucoes[0]["id"], id);
    assert_eq!(devolucoes[0]["status"], "DEVOLVIDO");
    assert_eq!(devolucoes[1]["natureza"], "MED_OPERACIONAL");
    assert_eq!(devolucoes[1]["rtrId"].as_str().unwrap().len(), 32);
    assert!(devolucoes[1]["horario"]["liquidacao"].is_string());

    // Each one posted the Pix, its devoluções so far with it, to the callback. The callbacks
    // are posted side by side and may arrive in any order, as a bank's may.
    let got = arrived(4).await;
    assert!(
        got.iter().all(|c| c["pix"][0]["endToEndId"] == e2eid),
        "{got:?}"
    );
    let mut counts: Vec<usize> = got
        .iter()
        .map(|c| c["pix"][0]["devolucoes"].as_array().map_or(0, Vec::len))
        .collect();
    counts.sort_unstable();
    assert_eq!(counts, [0, 1, 1, 2], "{got:?}");

    // Through the simulator's control, as a demo reaches it.
    let http = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(pki.ca_cert.as_bytes()).unwrap())
        .identity(
            reqwest::Identity::from_pem(
                format!("{}{}", pki.client_cert, pki.client_key).as_bytes(),
            )
            .unwrap(),
        )
        .build()
        .unwrap();
    let res = http
        .post(format!("{}/sim/devolucao/{e2eid}", bank.url()))
        .json(&json!({"valor": "1.00", "natureza": "ORIGINAL"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400, "nothing is left to return");
    let res = http
        .post(format!("{}/sim/devolucao/{}", bank.url(), "E".repeat(32)))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
}

/// A webhook URL whose Pix callbacks (`{url}/pix`) are kept, in order.
async fn callback_catcher() -> (String, std::sync::Arc<std::sync::Mutex<Vec<Value>>>) {
    use axum::{extract::State, routing::post, Json, Router};
    type Kept = std::sync::Arc<std::sync::Mutex<Vec<Value>>>;
    let kept = Kept::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/cb", listener.local_addr().unwrap());
    let app = Router::new()
        .route(
            "/cb/pix",
            post(|State(k): State<Kept>, Json(v): Json<Value>| async move {
                k.lock().unwrap().push(v);
            }),
        )
        .with_state(kept.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, kept)
}

/// `paylink serve` with API Pix options that cannot work: it names the problem and exits
/// before listening, and never prints the client secret.
#[test]
fn serve_refuses_incomplete_or_unreadable_pix_options() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.db");
    let secret = dir.path().join("secret");
    std::fs::write(&secret, format!("{SECRET}\n")).unwrap();
    let secret = secret.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(BIN)
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--db",
                db.to_str().unwrap(),
            ])
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(!err.contains(SECRET), "{err}");
        err
    };
    let api = ["--pix-api-url", "https://127.0.0.1:1/api/v2"];
    assert!(run(&api).contains("--pix-api-url needs --pix-token-url"));
    let token = ["--pix-token-url", "https://127.0.0.1:1/oauth/token"];
    assert!(run(&[&api[..], &token[..]].concat()).contains("--pix-api-url needs --pix-client-id"));
    let id = ["--pix-client-id", "paylink"];
    assert!(run(&[&api[..], &token[..], &id[..]].concat())
        .contains("--pix-api-url needs --pix-client-secret-file"));
    let plain = run(&[
        "--pix-api-url",
        "http://127.0.0.1:1/api",
        "--pix-token-url",
        "https://127.0.0.1:1/t",
        "--pix-client-id",
        "paylink",
        "--pix-client-secret-file",
        secret,
    ]);
    assert!(
        plain.contains("--pix-api-url \"http://127.0.0.1:1/api\" is not an https:// URL"),
        "{plain}"
    );
    let full = [
        &api[..],
        &token[..],
        &id[..],
        &["--pix-client-secret-file", secret][..],
    ]
    .concat();
    let missing = run(&[&full[..], &["--pix-ca", "/nonexistent/ca.pem"][..]].concat());
    assert!(
        missing.contains("cannot read /nonexistent/ca.pem"),
        "{missing}"
    );
    let half = run(&[&full[..], &["--pix-cert", secret][..]].concat());
    assert!(half.contains("--pix-cert-key"), "{half}");
    let bad_cert = run(&[
        &full[..],
        &["--pix-cert", secret, "--pix-cert-key", secret][..],
    ]
    .concat());
    assert!(bad_cert.contains("--pix-cert/--pix-cert-key"), "{bad_cert}");
    assert!(run(&token).contains("--pix-token-url needs --pix-api-url"));
}

/// A single PIX invoice of R$ 100,00 for Maria (CPF 529.982.247-25), due next 31 January, on an
/// app whose payer page takes PIX codes from the bank: (invoice id, installment id, txid).
pub(crate) async fn pix_invoice(app: &TestApp) -> (String, String, String) {
    pix_invoice_as(app, "order-42").await
}

/// [`pix_invoice`] under another `externalId`.
pub(crate) async fn pix_invoice_as(app: &TestApp, external_id: &str) -> (String, String, String) {
    let maria = json!({"fullName": "Maria da Silva", "document": "529.982.247-25"});
    single_pix_invoice(app, maria, json!({ "externalId": external_id })).await
}

/// A single PIX invoice of R$ 100,00, due next 31 January, for a new `customer`, with `patch`
/// merged into its body: (invoice id, installment id, txid).
pub(crate) async fn single_pix_invoice(
    app: &TestApp,
    customer: Value,
    patch: Value,
) -> (String, String, String) {
    let customer = body(app.post_customer(&customer).await).await;
    let base = with(
        invoice_body(customer["id"].as_str().unwrap()),
        json!({"paymentTypes": ["PIX"], "invoiceType": "SINGLE", "installmentCount": 1,
               "notifications": null}),
    );
    let res = app.post_invoice(&with(base, patch)).await;
    assert!(res.status().is_success(), "{}", res.status());
    let invoice = body(res).await;
    let installment = invoice["installments"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let txid = pix_api::txid(&installment).unwrap();
    let id = invoice["id"].as_str().unwrap().to_string();
    (id, installment, txid)
}

/// The charges worker of `app`, its calls giving up after 1.5 s (an answer held back is lost).
pub(crate) fn worker(
    app: &TestApp,
    bank: &Bank,
    pki: &Pki,
) -> paylink_server::workers::pix::PixCharges {
    let client = PixClient::new(config(bank, pki))
        .unwrap()
        .with_timeout(Duration::from_millis(1500));
    paylink_server::workers::pix::PixCharges::new(app.db.clone(), client)
}

/// The worker's passes until the charge's row leaves `pending` (the outbox's first retry comes
/// 2 s after a failure): its (operation, status, attempts, last_error, bank_status).
pub(crate) async fn settle(
    worker: &paylink_server::workers::pix::PixCharges,
    app: &TestApp,
    installment: &str,
) -> (String, String, i64, Option<String>, Option<String>) {
    let started = Instant::now();
    loop {
        worker.pass().await.unwrap();
        let state = paylink_server::store::pix_charges::state(&app.db, installment)
            .await
            .unwrap();
        if let Some(s) = state.filter(|s| s.1 != "pending") {
            return s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the charge stays pending"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Installment 1's PIX charge as the merchant's detail shows it (`pixCharge`).
pub(crate) async fn pix_charge(app: &TestApp, id: &str) -> Value {
    get_json(app, &format!("/api/invoices/{id}")).await["installments"][0]["pixCharge"].clone()
}

pub(crate) async fn get_json(app: &TestApp, path: &str) -> Value {
    body(app.client.get(app.url(path)).send().await.unwrap()).await
}

/// A bank that refuses a repeated `PUT` of a txid: the first `PUT` made the charge but its answer
/// was lost, the retry is refused (400), and paylink asks for the charge, finds the one it asked
/// for and takes it: one charge at the bank, its code on the payer page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_retry_after_a_lost_answer_finds_the_charge_the_first_put_made() {
    let (bank, pki) = start_bank().await;
    bank.lose_answers(1);
    bank.set_refuse_repeated_puts(true);
    let app = spawn_app_options(|o| o.payer.pix_api = true).await;
    let (id, installment, txid) = pix_invoice(&app).await;
    let worker = worker(&app, &bank, &pki);

    let (operation, status, attempts, error, bank_status) =
        settle(&worker, &app, &installment).await;
    assert_eq!(
        (
            operation.as_str(),
            status.as_str(),
            error,
            bank_status.as_deref()
        ),
        ("create", "done", None, Some("ATIVA"))
    );
    assert_eq!(attempts, 1, "one failed call (the lost answer) before it");
    assert_eq!(bank.puts(&txid), 2, "the first PUT and its refused retry");
    assert_eq!(bank.charge_count(), 1, "the charge was made once");
    let paths: Vec<String> = bank
        .requests()
        .iter()
        .filter(|r| r.path.starts_with("/cobv/"))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    let cobv = format!("/cobv/{txid}");
    assert_eq!(
        paths,
        [
            format!("PUT {cobv}"),
            format!("PUT {cobv}"),
            format!("GET {cobv}")
        ]
    );

    let charge = bank.charge(&txid).unwrap();
    let page = get_json(&app, &format!("/api/pay/{id}")).await;
    assert_eq!(
        page["installments"][0]["pix"]["payload"], charge["pixCopiaECola"],
        "{page}"
    );
    assert_eq!(page["installments"][0]["pixPending"], false);
    assert_eq!(pix_charge(&app, &id).await, json!({"state": "created"}));
}

/// The bank refuses the retry and holds, under the txid, a charge that is not the one paylink
/// asked for: paylink does not take it; the charge fails as a conflict naming what differs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_different_charge_under_the_txid_is_a_conflict_not_a_creation() {
    let (bank, pki) = start_bank().await;
    bank.set_refuse_repeated_puts(true);
    let app = spawn_app_options(|o| o.payer.pix_api = true).await;
    let (id, installment, txid) = pix_invoice(&app).await;
    // Someone else's charge of R$ 55,00 due in 10 days under this txid.
    let client = PixClient::new(config(&bank, &pki)).unwrap();
    client.put_cobv(&txid, &cobv(5_500)).await.unwrap();

    let worker = worker(&app, &bank, &pki);
    let (_, status, _, error, _) = settle(&worker, &app, &installment).await;
    assert_eq!(status, "failed");
    assert!(error.unwrap().contains("another charge"));
    let detail = get_json(&app, &format!("/api/invoices/{id}")).await;
    let charge = &detail["installments"][0]["pixCharge"];
    assert_eq!(charge["state"], "conflict", "{detail}");
    let reasons: Vec<&str> = charge["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let due = crate::helpers::next_jan_31();
    assert_eq!(
        reasons,
        [
            "valor.original: 55.00 ≠ 100.00".to_string(),
            format!(
                "calendario.dataDeVencimento: {} ≠ {due}",
                today().add_days(10).unwrap()
            ),
        ]
    );
    let page = get_json(&app, &format!("/api/pay/{id}")).await;
    assert!(page["installments"][0]["pix"].is_null(), "{page}");
    // No code of paylink's will come under that txid: not available, not pending.
    assert_eq!(page["installments"][0]["pixPending"], false);
    assert_eq!(page["installments"][0]["pixUnavailable"], true);
    // The payer page the server renders says to pay another way, with no code.
    let html = app.get(&format!("/pay/{id}")).await.text().await.unwrap();
    assert!(
        html.contains("O pagamento por PIX não está disponível"),
        "{html}"
    );
    assert!(!html.contains("data-pix-payload"));

    // Cancelled: paylink removes its charges, not this one, which is not paylink's.
    let res = app.cancel_invoice(&id).await;
    assert!(res.status().is_success(), "{}", res.status());
    worker.pass().await.unwrap();
    assert_eq!(removals(&bank, &txid), 0);
    assert_eq!(bank.charge(&txid).unwrap()["status"], "ATIVA");
}

/// A charge the bank refuses for good (a payer document it rejects): not retried; the merchant's
/// detail (the widget's proxy and the service's own) says so with the bank's reasons, and the
/// payer page only that the code is not there, with nothing of the bank's answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charge_the_bank_refuses_is_shown_to_the_merchant_with_its_reasons_not_to_the_payer() {
    let (bank, pki) = start_bank().await;
    bank.refuse_document("52998224725");
    let app = spawn_app_options(|o| o.payer.pix_api = true).await;
    let (id, installment, txid) = pix_invoice(&app).await;
    let worker = worker(&app, &bank, &pki);

    let (_, status, attempts, error, _) = settle(&worker, &app, &installment).await;
    assert_eq!((status.as_str(), attempts), ("failed", 1));
    assert!(error.unwrap().contains("bank refused (400)"));
    // Refused for good: later passes do not send it again.
    worker.pass().await.unwrap();
    assert_eq!(bank.puts(&txid), 1);
    assert_eq!(bank.charge_count(), 0);

    let expected = json!({"state": "refused", "reasons": [
        "A requisição que busca criar uma cobrança não respeita o _schema_ ou está semanticamente errada.",
        "O CPF ou CNPJ do devedor está cancelado na Receita Federal. (cobv.devedor)",
    ]});
    let proxied = get_json(&app, &format!("/api/invoices/{id}")).await;
    assert_eq!(
        proxied["installments"][0]["pixCharge"], expected,
        "{proxied}"
    );
    let service = body(app.get_invoice(&id).await).await;
    assert_eq!(service["installments"][0]["pixCharge"], expected);
    // As the service's document (openapi.json) describes it.
    let doc = crate::openapi::served_document(&app).await;
    let response = &doc["paths"]["/invoices/applications/invoices/{id}"]["get"]["responses"]["200"];
    assert_eq!(
        crate::openapi::conforms(&doc, response, &service),
        Vec::<String>::new()
    );

    let res = app
        .client
        .get(app.url(&format!("/api/pay/{id}")))
        .send()
        .await
        .unwrap();
    let text = res.text().await.unwrap();
    let page: Value = serde_json::from_str(&text).unwrap();
    // No code will come: the page says PIX is not available, not that it is being generated.
    assert_eq!(page["installments"][0]["pixUnavailable"], true, "{page}");
    assert_eq!(page["installments"][0]["pixPending"], false, "{page}");
    assert!(page["installments"][0]["pix"].is_null());
    for internal in ["Receita", "devedor", "pixCharge", "refused"] {
        assert!(!text.contains(internal), "{internal} in {text}");
    }
}

/// `paylink-bank-sim`'s own options switch the same faults on: a repeated `PUT` refused with the
/// document's 400 naming the txid, a payer document refused. The options are parsed and the bank
/// started as the binary does (`paylink_banksim::cli`), its certificates made in `--dir`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bank_sim_refuses_repeated_puts_and_a_document_when_told_to() {
    use clap::Parser;
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret");
    std::fs::write(&secret, SECRET).unwrap();
    let certs = dir.path().join("certs");
    let mut args: Vec<std::ffi::OsString> = [
        "paylink-bank-sim",
        "--listen",
        "127.0.0.1:0",
        "--refuse-repeated-puts",
        "--refuse-document",
        "11144477735",
    ]
    .map(Into::into)
    .to_vec();
    args.extend(["--dir".into(), certs.clone().into_os_string()]);
    args.extend(["--client-secret-file".into(), secret.into_os_string()]);
    let options = paylink_banksim::cli::Options::try_parse_from(args).unwrap();
    let bank = options.start().await.unwrap();
    let url = bank.url();
    let pki = Pki::read(&certs).unwrap();
    let client = PixClient::new(PixConfig {
        api_url: url.clone(),
        token_url: format!("{url}/oauth/token"),
        ..config_for(&pki)
    })
    .unwrap();

    client.put_cobv(TXID, &cobv(100)).await.unwrap();
    let again = client.put_cobv(TXID, &cobv(100)).await;
    let other = CobV::new(
        "pix@loja.example",
        today().add_days(10).unwrap(),
        30,
        Devedor::new("11144477735", "João Souza").unwrap(),
        100,
    );
    let refused = client
        .put_cobv("0c12042fd304437b9dc0c240401925f4", &other)
        .await;
    bank.stop();
    match again {
        Err(BankError::Refused { status: 400, body }) => {
            assert_eq!(schema_errors("Problema", &body), Vec::<String>::new());
            assert_eq!(
                body["type"],
                "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida"
            );
            assert_eq!(body["violacoes"][0]["propriedade"], "txid");
        }
        other => panic!("{other:?}"),
    }
    match refused {
        Err(e @ BankError::Refused { status: 400, .. }) => {
            assert!(e.to_string().contains("cobv.devedor"), "{e}");
        }
        other => panic!("{other:?}"),
    }
}

/// The PATCHes (removals) the bank received for `txid`.
pub(crate) fn removals(bank: &Bank, txid: &str) -> usize {
    bank.requests()
        .iter()
        .filter(|r| r.method == "PATCH" && r.path.ends_with(txid))
        .count()
}
