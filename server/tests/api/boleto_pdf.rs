//! The printable boleto through the payer's API: the PDF's text as
//! `pdftotext` extracts it, its barcode as `zbarimg` decodes it from a 300 dpi
//! rendering (Debian's poppler-utils and zbar-tools, installed by
//! scripts/setup), and the envelopes of installments that have no boleto.
//!
//! Its tests run `paylink` commands (a blocking child process) beside the server they spawn
//! in-process, so they run on two threads: on a test's single thread the server would stand
//! still, maybe inside a write transaction, while the command waits for that write lock (and
//! fails "database is locked" after the busy timeout).

use std::process::Command;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

/// A customer with document, e-mail, phone and address, and an invoice of
/// 3 × R$ 1.000,00 due from 31/01/2027 with `patch` applied.
async fn created(app: &TestApp, patch: Value) -> String {
    let res = app
        .post("/api/customers", &json!({
            "fullName": "Maria da Silva",
            "document": "529.982.247-25",
            "email": "maria@example.com",
            "phone": "+55 11 98765-4321",
            "address": {
                "address": "Av. Paulista", "number": "1000", "complement": "cj 12",
                "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP", "zipcode": "01310-100"
            }
        }))
        .await;
    let customer = body(res).await;
    let req = with(
        invoice_body(customer["id"].as_str().unwrap()),
        with(json!({ "price": 3000.00 }), patch),
    );
    let res = app.post("/api/invoices", &req).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

pub(crate) fn run(cmd: &str, args: &[&str]) -> String {
    let out = Command::new(cmd)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{cmd} (scripts/setup installs it): {e}"));
    assert!(
        out.status.success(),
        "{cmd} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

async fn boleto(app: &TestApp, id: &str, n: &str) -> reqwest::Response {
    app.get(&format!("/api/pay/{id}/installments/{n}/boleto.pdf"))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prints_the_boleto_the_payer_page_shows_and_nothing_private() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(&app, json!({})).await;
    let view = body(app.get(&format!("/api/pay/{id}")).await).await;
    let second = &view["installments"][1]["boleto"];
    let (line, code) = (
        second["line"].as_str().unwrap(),
        second["barcode"].as_str().unwrap(),
    );

    assert!(view["installments"][1]["dueDate"]
        .as_str()
        .unwrap()
        .starts_with(&invoice_body_dues()[1]));

    let res = boleto(&app, &id, "2").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"boleto-order-42-2.pdf\""
    );
    assert_eq!(res.headers()["cache-control"], "no-store");
    let pdf = res.bytes().await.unwrap();
    assert!(pdf.starts_with(b"%PDF-"));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boleto.pdf");
    std::fs::write(&file, &pdf).unwrap();
    let file = file.to_str().unwrap();
    let text = run("pdftotext", &["-layout", file, "-"]);
    for expected in [
        line,                        // the linha digitável, as printed
        "R$ 1.000,00",               // valor do documento
        "28/02/2027",                // vencimento of the second installment
        "Maria da Silva",            // pagador
        "529.982.247-25",            // and the pagador's CPF
        "Av. Paulista, 1000, cj 12", // and address
        "CEP 01310-100 — São Paulo/SP",
        "order-42",                  // número do documento (externalId)
        "001-9",                     // the bank's code and check digit
        "Loja Exemplo",              // beneficiário
        "Parcela 2 de 3.",           // instructions
        "BOLETO DE TESTE (sandbox)", // a sandbox boleto says so
        "Recibo do Pagador",
        "Ficha de Compensação",
    ] {
        assert!(text.contains(expected), "{expected:?} not in:\n{text}");
    }
    for private in [
        "maria@example.com",
        "98765-4321",
        "5511987654321",
        &app.token,
        "hooks/paylink",
    ] {
        assert!(!text.contains(private), "the boleto shows {private}");
        let raw = String::from_utf8_lossy(&pdf);
        assert!(!raw.contains(private), "the PDF carries {private}");
    }
    assert_eq!(
        text.matches(line).count(),
        2,
        "recibo and ficha both carry it"
    );

    // A bank's scanner: the bars, rendered at 300 dpi, read back as the 44 digits.
    let png = dir.path().join("page");
    run(
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
    let decoded = run(
        "zbarimg",
        &[
            "--raw",
            "-q",
            "-Sdisable",
            "-Si25.enable",
            dir.path().join("page.png").to_str().unwrap(),
        ],
    );
    assert_eq!(decoded.trim(), code);
    assert_eq!(code.len(), 44);
    assert_eq!(&code[9..19], "0000100000", "the amount field: R$ 1.000,00");

    // The print view: the same document, shown instead of saved.
    let res = app
        .get(&format!("/api/pay/{id}/installments/2/boleto.pdf?print=1"))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        res.headers()["content-disposition"],
        "inline; filename=\"boleto-order-42-2.pdf\""
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn installments_without_an_open_boleto_get_envelopes() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(&app, json!({})).await;
    let unknown = "6f1c1b7e-0a4e-4c8e-9d2a-1b2c3d4e5f60";
    envelope(boleto(&app, unknown, "1").await, StatusCode::NOT_FOUND).await;
    envelope(
        boleto(&app, "not-a-uuid", "1").await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    for n in ["0", "4", "abc", "99999999999"] {
        let res = boleto(&app, &id, n).await;
        envelope(res, StatusCode::NOT_FOUND).await;
    }
    let res = app
        .client
        .get(app.url(&format!("/api/pay/{id}/installments/9/boleto.pdf")))
        .header("Accept-Language", "en")
        .send()
        .await
        .unwrap();
    let res = body(res).await;
    assert_eq!(
        res["message"],
        "This invoice has no installment with that number."
    );

    // A paid installment has no boleto to print; the next one still has.
    let res = app.post_empty(&format!("/api/pay/{id}/simulate")).await;
    assert_eq!(res.status(), StatusCode::OK);
    envelope(boleto(&app, &id, "1").await, StatusCode::CONFLICT).await;
    assert_eq!(boleto(&app, &id, "2").await.status(), StatusCode::OK);

    // An invoice paid by PIX only has none either.
    let pix_only = created(&app, json!({ "paymentTypes": ["PIX"] })).await;
    let res = boleto(&app, &pix_only, "1").await;
    let v = envelope(res, StatusCode::CONFLICT).await;
    assert_eq!(v, Value::Null, "no field errors for a state problem");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_proxy_token_the_route_answers_503() {
    let app = spawn_app().await;
    let res = boleto(&app, "6f1c1b7e-0a4e-4c8e-9d2a-1b2c3d4e5f60", "1").await;
    envelope(res, StatusCode::SERVICE_UNAVAILABLE).await;
}

pub(crate) async fn pdf_text(res: reqwest::Response) -> String {
    assert_eq!(res.status(), StatusCode::OK);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boleto.pdf");
    std::fs::write(&file, res.bytes().await.unwrap()).unwrap();
    run("pdftotext", &["-layout", file.to_str().unwrap(), "-"])
}

/// A boleto made at 21:45 in Brasília (00:45 UTC the next day) is dated that
/// evening: its "Data do Documento" was the UTC day before (issue 30), one
/// day after its "Data Processamento" when printed that same evening.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_date_is_the_day_in_brasilia() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(&app, json!({})).await;
    sqlx::query("UPDATE invoices SET created_at = $1 WHERE id = $2")
        .bind("2026-03-02T00:45:00.000Z")
        .bind(&id)
        .execute(&app.raw_pool().await)
        .await
        .unwrap();
    let text = pdf_text(boleto(&app, &id, "1").await).await;
    assert_eq!(
        text.matches("01/03/2026").count(),
        2,
        "recibo and ficha:\n{text}"
    );
    assert!(
        !text.contains("02/03/2026"),
        "the UTC day is printed:\n{text}"
    );
}

/// Outside the sandbox, with the merchant's CNPJ and the bank's code for
/// them: the beneficiário box carries both and no test warning.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prints_the_merchants_cnpj_and_beneficiary_code() {
    let app = spawn_app_options(|o| {
        o.payer.merchant_document = Some("11222333000181".into());
        o.payer.boleto_beneficiary_code = Some("1234-5 / 12345-6".into());
    })
    .await;
    let id = created(&app, json!({})).await;
    let text = pdf_text(boleto(&app, &id, "1").await).await;
    assert!(
        text.contains("Loja Exemplo — CNPJ/CPF: 11.222.333/0001-81"),
        "{text}"
    );
    assert!(text.contains("1234-5 / 12345-6"), "{text}");
    assert!(text.contains("31/01/2027"), "{text}");
    assert!(!text.contains("TESTE"), "not a sandbox boleto:\n{text}");
}

/// Through a remote invoicing service: the same boleto, whose pagador has no
/// address (the service's invoice detail carries only the address id).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prints_through_a_remote_upstream_without_the_address() {
    let upstream = spawn_app().await;
    let (token, base) = (upstream.token.clone(), upstream.addr.clone());
    let app = spawn_app_with(move |_| {
        Some(paylink_server::proxy::ProxyConfig {
            token,
            upstream: Some(base),
            timeout: paylink_server::proxy::DEFAULT_UPSTREAM_TIMEOUT,
        })
    })
    .await;
    let id = created(&app, json!({})).await;
    let text = pdf_text(boleto(&app, &id, "3").await).await;
    assert!(
        text.contains("Maria da Silva — CPF/CNPJ: 529.982.247-25"),
        "{text}"
    );
    assert!(text.contains("R$ 1.000,00"), "{text}");
    assert!(!text.contains("Paulista"), "{text}");
}

#[test]
fn serve_refuses_a_merchant_document_that_is_not_a_cnpj_or_cpf() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_paylink"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--merchant-document",
            "11.222.333/0001-00",
        ])
        .arg("--db")
        .arg(dir.path().join("x.db"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--merchant-document \"11.222.333/0001-00\" is not a valid CNPJ or CPF"),
        "{stderr}"
    );
}
