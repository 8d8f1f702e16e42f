//! PIX through a bank's API Pix (issue 24, item 1): the local bank (`paylink_server::banksim`)
//! and paylink's client of it (`paylink_server::bank`) over HTTPS with mutual TLS, every request
//! body and every bank answer validated against BACEN's document (`server/pix-api/openapi.yaml`);
//! and `paylink serve`'s `--pix-*` options refusing bad input with clear messages.

use std::time::{Duration, Instant};

use paylink_server::bank::{BankError, PixClient, PixConfig};
use paylink_server::banksim::{Bank, Pki};
use paylink_server::domain::pix_api::{self, CobV, Devedor};
use serde_json::{json, Value};

use crate::helpers::today;

const BIN: &str = env!("CARGO_BIN_EXE_paylink");
const SECRET: &str = "s3cr3t-client-secret";

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

fn config(bank: &Bank, pki: &Pki) -> PixConfig {
    PixConfig {
        api_url: bank.url(),
        token_url: bank.token_url(),
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

#[tokio::test]
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

#[tokio::test]
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
    assert!(PixClient::new(broken).unwrap_err().contains("--pix-ca"));
}

#[tokio::test]
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

#[tokio::test]
async fn a_payment_is_found_by_e2eid_and_by_time_and_can_be_refunded_in_parts() {
    let (bank, pki) = start_bank().await;
    let client = PixClient::new(config(&bank, &pki)).unwrap();
    let before = paylink_model::date::iso_utc_from_millis(now_ms() - 60_000);
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

    let after = paylink_model::date::iso_utc_from_millis(now_ms() + 60_000);
    let listed = client.list_pix(&before, &after).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["endToEndId"], e2eid);
    let earlier = paylink_model::date::iso_utc_from_millis(now_ms() - 30_000);
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

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
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

/// The bank's certificates and paylink's secret in `dir`, and the `--pix-*` options naming them.
fn pix_options(bank: &Bank, pki: &Pki, dir: &std::path::Path) -> Vec<String> {
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    [
        ("--pix-api-url", bank.url()),
        ("--pix-token-url", bank.token_url()),
        ("--pix-client-id", "paylink".into()),
        ("--pix-client-secret-file", file("secret", SECRET)),
        ("--pix-cert", file("client.pem", &pki.client_cert)),
        ("--pix-cert-key", file("client-key.pem", &pki.client_key)),
        ("--pix-ca", file("ca.pem", &pki.ca_cert)),
        ("--pix-key", "pix@loja.example".into()),
    ]
    .into_iter()
    .flat_map(|(k, v)| [k.to_string(), v])
    .collect()
}

fn cli(args: &[&str]) -> String {
    let out = std::process::Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A merchant: its token (also in `dir/token` for the proxy), and a server with the bank.
struct Shop {
    child: std::process::Child,
    addr: String,
    token: String,
    db: String,
    client: reqwest::Client,
}

impl Drop for Shop {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Shop {
    async fn start(bank: &Bank, pki: &Pki, dir: &std::path::Path, extra: &[&str]) -> Shop {
        let db = crate::helpers::test_database(dir, "pix.db").await;
        let out = cli(&["token", "create", "--name", "loja", "--db", &db]);
        let token = out.lines().last().unwrap().trim().to_string();
        let token_file = dir.join("token");
        std::fs::write(&token_file, &token).unwrap();
        let mut args = vec![
            "--db".to_string(),
            db.clone(),
            "--token-file".into(),
            token_file.to_str().unwrap().into(),
            "--allow-insecure-webhooks".into(),
        ];
        args.extend(pix_options(bank, pki, dir));
        args.extend(extra.iter().map(|s| s.to_string()));
        let (child, addr) = crate::helpers::serve_binary(&args);
        Shop {
            child,
            addr,
            token,
            db,
            client: reqwest::Client::new(),
        }
    }

    /// A customer and an invoice of 3 PIX installments (PAYMENT_CONFIRMED to `hook`); its detail.
    async fn invoice(&self, hook: &str) -> Value {
        let auth = format!("Basic {}", self.token);
        let customer: Value = self
            .client
            .post(format!("{}/invoices/applications/customers", self.addr))
            .header("authorization", &auth)
            .json(&json!({"fullName": "Maria da Silva", "document": "529.982.247-25", "email": "maria@example.com.br"}))
            .send().await.unwrap().json().await.unwrap();
        let body = crate::helpers::with(
            crate::helpers::invoice_body(customer["id"].as_str().unwrap()),
            json!({"paymentTypes": ["PIX"], "notifications": null,
                   "webhooks": [{"hookType": "PAYMENT_CONFIRMED", "url": hook}]}),
        );
        let res = self
            .client
            .post(format!("{}/invoices/applications/invoices", self.addr))
            .header("authorization", &auth)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let id = res.json::<Value>().await.unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        self.detail(&id).await
    }

    async fn detail(&self, id: &str) -> Value {
        self.client
            .get(format!("{}/invoices/applications/invoices/{id}", self.addr))
            .header("authorization", format!("Basic {}", self.token))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    async fn payer(&self, id: &str) -> Value {
        self.client
            .get(format!("{}/api/pay/{id}", self.addr))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }
}

async fn wait_until<F: Fn() -> bool>(what: &str, limit: Duration, f: F) {
    let started = Instant::now();
    while !f() {
        assert!(started.elapsed() < limit, "waited {limit:?} for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn wait_status(shop: &Shop, id: &str, n: usize, status: &str) -> Value {
    let started = Instant::now();
    loop {
        let d = shop.detail(id).await;
        if d["installments"][n]["_status"] == status {
            return d;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "installment {n} never {status}: {d}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn txids(invoice: &Value) -> Vec<String> {
    invoice["installments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| pix_api::txid(i["id"].as_str().unwrap()).unwrap())
        .collect()
}

/// The issue's path, through the real binary: the bank is down when the invoice is made (the
/// payer page says the code is being generated), paylink keeps trying, and then each installment
/// is one `cobv` whose body the document accepts; the payer page shows the bank's code; the
/// bank's callback confirms the installment (pricePaid and paidAt from the bank) and the merchant
/// gets its signed PAYMENT_CONFIRMED once, however often the callback comes; forged callbacks
/// change nothing; deleting the invoice removes its open charges at the bank.
// Multi-threaded: the bank lives in this process and must answer while a CLI call blocks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoice_is_charged_at_the_bank_paid_by_callback_and_removed_when_deleted() {
    let (bank, pki) = start_bank().await;
    let receiver = crate::receiver::Receiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    bank.down_for(Duration::from_secs(3));
    let shop = Shop::start(&bank, &pki, dir.path(), &["--pix-reconcile-secs", "3600"]).await;
    let invoice = shop.invoice(&receiver.url).await;
    let id = invoice["id"].as_str().unwrap().to_string();
    let txids = txids(&invoice);

    let pending = shop.payer(&id).await;
    assert_eq!(pending["installments"][0]["pixPending"], true, "{pending}");
    assert!(pending["installments"][0]["pix"].is_null());

    wait_until("the charges at the bank", Duration::from_secs(30), || {
        txids.iter().all(|t| bank.charge(t).is_some())
    })
    .await;
    let tokens = bank
        .requests()
        .iter()
        .filter(|r| r.path == "/oauth/token")
        .count();
    assert!(
        tokens >= 2,
        "paylink tried while the bank was down, then again"
    );
    for (i, txid) in invoice["installments"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&txids)
    {
        assert_eq!(
            bank.puts(txid),
            1,
            "one PUT per charge once the bank answers"
        );
        let put = bank
            .requests()
            .into_iter()
            .find(|r| r.method == "PUT" && r.path == format!("/cobv/{txid}"))
            .unwrap();
        let body = put.body.unwrap();
        assert_eq!(
            schema_errors("CobVSolicitada", &body),
            Vec::<String>::new(),
            "{body}"
        );
        assert_eq!(
            body["calendario"]["dataDeVencimento"],
            i["dueDate"].as_str().unwrap()[..10]
        );
        let cents = (i["price"].as_f64().unwrap() * 100.0).round() as i64;
        assert_eq!(body["valor"]["original"], pix_api::reais(cents));
        assert_eq!(body["devedor"]["cpf"], "52998224725");
        assert_eq!(body["chave"], "pix@loja.example");
    }

    // The payer page shows the bank's code (a moment after the answer is recorded).
    let started = Instant::now();
    let page = loop {
        let page = shop.payer(&id).await;
        if page["installments"][0]["pix"].is_object() || started.elapsed() > Duration::from_secs(10)
        {
            break page;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let first = &page["installments"][0];
    assert_eq!(first["pixPending"], false);
    assert_eq!(
        first["pix"]["payload"],
        bank.charge(&txids[0]).unwrap()["pixCopiaECola"]
    );
    assert!(first["pix"]["qrSvg"].as_str().unwrap().contains("<svg"));

    wait_until("the webhook at the bank", Duration::from_secs(20), || {
        bank.webhook("pix@loja.example").is_some()
    })
    .await;
    let hook = bank.webhook("pix@loja.example").unwrap();
    assert!(
        hook.starts_with(&format!("{}/webhooks/pix/", shop.addr)),
        "{hook}"
    );
    let put = bank
        .requests()
        .into_iter()
        .find(|r| r.path.starts_with("/webhook/"))
        .unwrap();
    assert_eq!(
        schema_errors("WebhookSolicitado", put.body.as_ref().unwrap()),
        Vec::<String>::new()
    );

    // Forged: a Pix the bank never saw, and a wrong token.
    let forged = json!({"pix": [{"endToEndId": format!("E{}", "1".repeat(31)), "txid": txids[0],
                                 "valor": "33.34", "horario": "2026-01-01T00:00:00.000Z"}]});
    let res = shop
        .client
        .post(format!("{hook}/pix"))
        .json(&forged)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let wrong = format!("{}/webhooks/pix/{}/pix", shop.addr, "0".repeat(32));
    let res = shop.client.post(&wrong).json(&forged).send().await.unwrap();
    assert_eq!(res.status(), 404);
    let res = shop
        .client
        .post(format!("{hook}/pix"))
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(
        shop.detail(&id).await["installments"][0]["_status"],
        "WAITING_PAYMENT"
    );

    // Paid: the callback confirms it with the bank's amount and time.
    let pix = bank.pay(&txids[0], None).await.unwrap();
    let detail = wait_status(&shop, &id, 0, "CONFIRMED").await;
    let paid = &detail["installments"][0];
    assert_eq!(
        pix_api::reais((paid["pricePaid"].as_f64().unwrap() * 100.0).round() as i64),
        pix["valor"].as_str().unwrap()
    );
    assert_eq!(
        paid["paidAt"].as_str().unwrap()[..19],
        pix["horario"].as_str().unwrap()[..19]
    );
    let got = receiver
        .wait_for(20, "PAYMENT_CONFIRMED", |g| !g.is_empty())
        .await;
    let secret = cli(&[
        "webhook",
        "secret",
        "--token-name",
        "loja",
        "--db",
        &shop.db,
    ]);
    assert!(got[0].verify(secret.trim()), "{}", got[0].body);
    assert_eq!(got[0].json()["type"], "PAYMENT_CONFIRMED");

    // The same callback again (the bank retries): nothing more happens.
    let again = json!({"pix": [pix]});
    let res = shop
        .client
        .post(format!("{hook}/pix"))
        .json(&again)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(receiver.received().len(), 1, "one PAYMENT_CONFIRMED");

    // Deleted: the open charges are removed at the bank; the paid one stays.
    cli(&["invoice", "delete", &id, "--db", &shop.db]);
    wait_until("the removals", Duration::from_secs(20), || {
        txids[1..]
            .iter()
            .all(|t| bank.charge(t).unwrap()["status"] == "REMOVIDA_PELO_USUARIO_RECEBEDOR")
    })
    .await;
    assert_eq!(bank.charge(&txids[0]).unwrap()["status"], "CONCLUIDA");
    for r in bank.requests().iter().filter(|r| r.method == "PATCH") {
        assert_eq!(
            schema_errors("CobVRevisada", r.body.as_ref().unwrap()),
            Vec::<String>::new()
        );
    }
}

/// A callback that never arrives: reconciliation (`GET /pix` of the last hours) finds the
/// payment and confirms the installment once.
// Multi-threaded: the bank lives in this process and must answer while a CLI call blocks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_callback_is_found_by_reconciliation() {
    let (bank, pki) = start_bank().await;
    bank.set_callbacks(paylink_server::banksim::Callbacks::Lose);
    let receiver = crate::receiver::Receiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    let shop = Shop::start(&bank, &pki, dir.path(), &["--pix-reconcile-secs", "1"]).await;
    let invoice = shop.invoice(&receiver.url).await;
    let id = invoice["id"].as_str().unwrap();
    let txids = txids(&invoice);
    wait_until("the charge", Duration::from_secs(20), || {
        bank.charge(&txids[1]).is_some()
    })
    .await;
    bank.pay(&txids[1], None).await.unwrap();
    wait_status(&shop, id, 1, "CONFIRMED").await;
    assert!(bank
        .requests()
        .iter()
        .any(|r| r.path.starts_with("/pix?inicio=")));
    receiver
        .wait_for(20, "PAYMENT_CONFIRMED", |g| g.len() == 1)
        .await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(receiver.received().len(), 1, "later passes change nothing");
    assert_eq!(
        shop.detail(id).await["installments"][0]["_status"],
        "WAITING_PAYMENT"
    );

    // Refunds from the CLI: in part, then the rest (the installment is REVERSED), no more.
    let e2eid = bank.charge(&txids[1]).unwrap()["pix"][0]["endToEndId"]
        .as_str()
        .unwrap()
        .to_string();
    let refund = |amount: &str| {
        let mut args = vec![
            "pix".to_string(),
            "refund".into(),
            "--e2eid".into(),
            e2eid.clone(),
        ];
        if !amount.is_empty() {
            args.extend(["--amount".to_string(), amount.to_string()]);
        }
        args.extend(["--db".to_string(), shop.db.clone()]);
        args.extend(pix_options(&bank, &pki, dir.path()));
        std::process::Command::new(BIN)
            .args(&args)
            .output()
            .unwrap()
    };
    let part = refund("10,00");
    assert!(
        part.status.success(),
        "{}",
        String::from_utf8_lossy(&part.stderr)
    );
    assert!(String::from_utf8_lossy(&part.stdout).contains("10.00"));
    assert_eq!(
        shop.detail(id).await["installments"][1]["_status"],
        "CONFIRMED"
    );
    let too_much = refund("30,00");
    assert_eq!(too_much.status.code(), Some(2));
    let err = String::from_utf8_lossy(&too_much.stderr);
    assert!(err.contains("at most 23.33"), "{err}");
    let rest = refund("");
    assert!(
        rest.status.success(),
        "{}",
        String::from_utf8_lossy(&rest.stderr)
    );
    assert!(String::from_utf8_lossy(&rest.stdout).contains("REVERSED"));
    assert_eq!(
        shop.detail(id).await["installments"][1]["_status"],
        "REVERSED"
    );
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
    let none = refund("1,00");
    assert_eq!(none.status.code(), Some(2));
    let unknown = std::process::Command::new(BIN)
        .args([
            "pix",
            "refund",
            "--e2eid",
            &"E".repeat(32),
            "--db",
            &shop.db,
        ])
        .args(pix_options(&bank, &pki, dir.path()))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("was received through paylink"));
}
