//! PIX through a bank's API Pix with the real binary (issue 24, item 1, "Done when"): `paylink
//! serve --pix-*` against the local bank (in this process, over HTTPS with mutual TLS): charges
//! made through the outbox while the bank was down, the payer page, the callback confirmed at the
//! bank, forged callbacks, reconciliation of a lost callback, removals and CLI refunds. Over 400
//! lines: the issue's path is one scenario whose steps depend on each other, and its harness
//! (a merchant's server with the bank's certificates) belongs beside it.

use std::time::{Duration, Instant};

use paylink_banksim::{Bank, Pki};
use paylink_server::domain::pix_api;
use serde_json::{json, Value};

use crate::settlement_pix::{schema_errors, start_bank, SECRET};

const BIN: &str = env!("CARGO_BIN_EXE_paylink");

/// The bank's certificates and paylink's secret in `dir`, and the `--pix-*` options naming them.
pub(crate) fn pix_options(bank: &Bank, pki: &Pki, dir: &std::path::Path) -> Vec<String> {
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

pub(crate) fn cli(args: &[&str]) -> String {
    let out = std::process::Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A merchant: its token (also in `dir/token` for the proxy), and a server with the bank.
pub(crate) struct Shop {
    /// Killed when the shop is dropped.
    _server: crate::helpers::Running,
    pub(crate) addr: String,
    pub(crate) token: String,
    pub(crate) db: String,
    pub(crate) client: reqwest::Client,
}

impl Shop {
    pub(crate) async fn start(
        bank: &Bank,
        pki: &Pki,
        dir: &std::path::Path,
        extra: &[&str],
    ) -> Shop {
        let db = crate::helpers::migrated_database(dir, "pix.db").await;
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
            _server: child,
            addr,
            token,
            db,
            client: reqwest::Client::new(),
        }
    }

    /// A customer and an invoice of 3 PIX installments (PAYMENT_CONFIRMED to `hook`); its detail.
    pub(crate) async fn invoice(&self, hook: &str) -> Value {
        self.invoice_of(hook, &["PIX"]).await
    }

    /// The same, payable by `types`.
    pub(crate) async fn invoice_of(&self, hook: &str, types: &[&str]) -> Value {
        let auth = format!("Basic {}", self.token);
        let customer: Value = self
            .client
            .post(format!("{}/invoices/applications/customers", self.addr))
            .header("authorization", &auth)
            .json(&json!({"fullName": "Maria da Silva", "document": "529.982.247-25", "email": "maria@example.com.br"}))
            .send().await.unwrap().json().await.unwrap();
        let body = crate::helpers::with(
            crate::helpers::invoice_body(customer["id"].as_str().unwrap()),
            json!({"paymentTypes": types, "notifications": null,
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

    pub(crate) async fn detail(&self, id: &str) -> Value {
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

    pub(crate) async fn payer(&self, id: &str) -> Value {
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

pub(crate) async fn wait_until<F: Fn() -> bool>(what: &str, limit: Duration, f: F) {
    let started = Instant::now();
    while !f() {
        assert!(started.elapsed() < limit, "waited {limit:?} for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(crate) async fn wait_status(shop: &Shop, id: &str, n: usize, status: &str) -> Value {
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

pub(crate) fn txids(invoice: &Value) -> Vec<String> {
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
    // Down for a minute, as the issue puts it: the outbox retries after 2 s, 5 s, 15 s and 1 min.
    bank.down_for(Duration::from_secs(60));
    let shop = Shop::start(&bank, &pki, dir.path(), &["--pix-reconcile-secs", "3600"]).await;
    // The signing secret is shown only when made: a new one, before anything is signed.
    let rotated = cli(&[
        "webhook",
        "rotate-secret",
        "--token-name",
        "loja",
        "--db",
        &shop.db,
    ]);
    let secret = rotated
        .lines()
        .last()
        .unwrap_or_default()
        .trim()
        .to_string();
    let invoice = shop.invoice(&receiver.url).await;
    let id = invoice["id"].as_str().unwrap().to_string();
    let txids = txids(&invoice);

    let pending = shop.payer(&id).await;
    assert_eq!(pending["installments"][0]["pixPending"], true, "{pending}");
    assert!(pending["installments"][0]["pix"].is_null());

    wait_until("the charges at the bank", Duration::from_secs(150), || {
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
    assert!(got[0].verify(&secret), "{}", got[0].body);
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
    bank.set_callbacks(paylink_banksim::Callbacks::Lose);
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
    let refund_as = |amount: &str, id: Option<&str>| {
        let mut args = vec![
            "pix".to_string(),
            "refund".into(),
            "--e2eid".into(),
            e2eid.clone(),
        ];
        if !amount.is_empty() {
            args.extend(["--amount".to_string(), amount.to_string()]);
        }
        if let Some(id) = id {
            args.extend(["--id".to_string(), id.to_string()]);
        }
        args.extend(["--db".to_string(), shop.db.clone()]);
        args.extend(pix_options(&bank, &pki, dir.path()));
        std::process::Command::new(BIN)
            .args(&args)
            .output()
            .unwrap()
    };
    let refund = |amount: &str| refund_as(amount, None);
    let part = refund_as("10,00", Some("D1"));
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
    // The same refund again (its answer lost, say): recorded once, counted once.
    let again = refund_as("10,00", Some("D1"));
    assert!(again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("recorded already"),
        "{}",
        String::from_utf8_lossy(&again.stdout)
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
    let reversed = shop.detail(id).await["installments"][1].clone();
    assert_eq!(reversed["_status"], "REVERSED");
    // Both refunds, as the bank answered them: the merchant's own, carried out.
    let kept = reversed["devolucoes"].as_array().unwrap();
    assert_eq!(kept.len(), 2, "{reversed}");
    assert_eq!(kept[0]["id"], "D1");
    assert_eq!(kept[0]["amount"], json!(10.0));
    assert!(kept
        .iter()
        .all(|d| d["natureza"] == "ORIGINAL" && d["status"] == "DEVOLVIDO"));
    assert_eq!(reversed["priceReturned"], reversed["pricePaid"]);
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

/// The bank's first callback attempt fails and it tries again: the installment is confirmed once,
/// by the callback (reconciliation is an hour away here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_callback_that_fails_the_first_time_still_confirms_once() {
    let (bank, pki) = start_bank().await;
    bank.set_callbacks(paylink_banksim::Callbacks::FailFirstTime);
    let receiver = crate::receiver::Receiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    let shop = Shop::start(&bank, &pki, dir.path(), &["--pix-reconcile-secs", "3600"]).await;
    let invoice = shop.invoice(&receiver.url).await;
    let id = invoice["id"].as_str().unwrap();
    let txids = txids(&invoice);
    wait_until(
        "the charge and the webhook",
        Duration::from_secs(20),
        || bank.charge(&txids[2]).is_some() && bank.webhook("pix@loja.example").is_some(),
    )
    .await;
    let lists = || {
        bank.requests()
            .iter()
            .filter(|r| r.path.starts_with("/pix?"))
            .count()
    };
    let listed_before = lists();
    bank.pay(&txids[2], Some("33.33")).await.unwrap();
    let detail = wait_status(&shop, id, 2, "CONFIRMED").await;
    assert_eq!(detail["installments"][2]["pricePaid"], 33.33);
    receiver
        .wait_for(20, "PAYMENT_CONFIRMED", |g| g.len() == 1)
        .await;
    assert_eq!(
        lists(),
        listed_before,
        "confirmed by the callback, not by reconciliation"
    );
}

/// The hybrid boleto: an invoice payable by PIX and boleto prints, on each installment's boleto,
/// the bank's PIX code for that installment, as a QR a phone reads and as copyable text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_boleto_of_an_invoice_that_takes_pix_carries_the_banks_code() {
    let (bank, pki) = start_bank().await;
    let receiver = crate::receiver::Receiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    let shop = Shop::start(&bank, &pki, dir.path(), &["--pix-reconcile-secs", "3600"]).await;
    let invoice = shop.invoice_of(&receiver.url, &["PIX", "BOLETO"]).await;
    let id = invoice["id"].as_str().unwrap().to_string();
    let txid = txids(&invoice)[0].clone();
    let started = Instant::now();
    while !shop.payer(&id).await["installments"][0]["pix"].is_object() {
        assert!(started.elapsed() < Duration::from_secs(30), "no bank code");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let code = bank.charge(&txid).unwrap()["pixCopiaECola"]
        .as_str()
        .unwrap()
        .to_string();

    let res = shop
        .client
        .get(format!(
            "{}/api/pay/{id}/installments/1/boleto.pdf",
            shop.addr
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let file = dir.path().join("boleto.pdf");
    std::fs::write(&file, res.bytes().await.unwrap()).unwrap();
    let file = file.to_str().unwrap();
    let text = crate::boleto_pdf::run("pdftotext", &[file, "-"]);
    assert!(text.contains("Pague com PIX"), "{text}");
    assert!(text.replace('\n', "").contains(&code), "{text}");
    let png = dir.path().join("page");
    crate::boleto_pdf::run(
        "pdftoppm",
        &[
            "-r",
            "300",
            "-png",
            "-singlefile",
            file,
            png.to_str().unwrap(),
        ],
    );
    let page = dir.path().join("page.png");
    let decoded = crate::boleto_pdf::run(
        "zbarimg",
        &[
            "--raw",
            "-q",
            "-Sdisable",
            "-Sqrcode.enable",
            page.to_str().unwrap(),
        ],
    );
    assert_eq!(
        decoded.trim_end(),
        code,
        "the QR a phone reads is the bank's code"
    );
}
