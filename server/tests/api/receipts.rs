//! Receipts (comprovantes, issue 41): an installment paid by Pix through the local bank, and one
//! paid by boleto through the bank's retorno, each with its receipt on the payer page (the payer's
//! document masked, the endToEndId or nosso número), as a PDF whose text says the same, and at
//! its verification page `/r/{code}`; a forged or tampered code, and an unpaid installment, find
//! nothing; a reversed payment's receipt says it was returned.
//!
//! Its tests run `paylink` commands (a blocking child process) beside the server they spawn
//! in-process, so they run on two threads (see `settlement.rs`).

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::boleto_pdf::pdf_text;
use crate::helpers::*;
use crate::settlement_pix::{settle, single_pix_invoice, start_bank, worker};

/// The merchant as `serve --merchant-name/--merchant-document` sets it.
fn merchant(o: &mut paylink_server::app::Options) {
    o.payer.merchant_name = "Loja Exemplo Ltda".into();
    o.payer.merchant_document = Some("12345678000195".into());
}

async fn page(app: &TestApp, path: &str) -> (StatusCode, String) {
    let res = app.get(path).await;
    let status = res.status();
    (status, res.text().await.unwrap())
}

async fn receipt_pdf(app: &TestApp, id: &str, n: u32, query: &str) -> reqwest::Response {
    app.get(&format!(
        "/api/pay/{id}/installments/{n}/receipt.pdf{query}"
    ))
    .await
}

/// The receipt of installment `n` in the payer view.
async fn receipt_in_view(app: &TestApp, id: &str, n: usize) -> Value {
    body(app.get(&format!("/api/pay/{id}")).await).await["installments"][n]["receipt"].clone()
}

/// A verification code with one character changed, still well formed.
fn tampered(code: &str) -> String {
    let mut chars: Vec<char> = code.chars().collect();
    let last = chars.len() - 1;
    chars[last] = if chars[last] == '7' { '8' } else { '7' };
    chars.into_iter().collect()
}

/// The 404 page `/r/` answers, telling nothing of the receipt or the code asked for.
fn assert_reveals_nothing(status: StatusCode, html: &str, asked: &str) {
    assert_eq!(status, StatusCode::NOT_FOUND, "{html}");
    assert!(html.contains("Comprovante não encontrado"), "{html}");
    for secret in ["Loja Exemplo", "Maria", "982.247", "R$", asked] {
        assert!(!html.contains(secret), "{secret} in {html}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pix_paid_installment_has_its_receipt_on_the_page_as_a_pdf_and_at_its_code() {
    let (bank, pki) = start_bank().await;
    let app = spawn_app_options(|o| {
        o.payer.pix_api = true;
        merchant(o);
    })
    .await;
    let maria = json!({"fullName": "Maria da Silva", "document": "529.982.247-25"});
    let (id, installment, txid) = single_pix_invoice(
        &app,
        maria,
        json!({ "externalId": "order-42", "price": 1000.00 }),
    )
    .await;

    // Unpaid: no receipt on the page, nor a PDF.
    let (status, html) = page(&app, &format!("/pay/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!html.contains("data-receipt"), "{html}");
    envelope(receipt_pdf(&app, &id, 1, "").await, StatusCode::NOT_FOUND).await;
    assert_eq!(receipt_in_view(&app, &id, 0).await, Value::Null);

    let worker = worker(&app, &bank, &pki);
    settle(&worker, &app, &installment).await;
    let pix = bank.pay(&txid, None).await.unwrap();
    let confirmed =
        paylink_server::domain::pix_api::check_confirmed(&Value::Null, &pix, "pix@loja.example")
            .unwrap();
    paylink_server::domain::pix_api::apply(&app.db, &confirmed)
        .await
        .unwrap();
    let e2eid = pix["endToEndId"].as_str().unwrap();

    let receipt = receipt_in_view(&app, &id, 0).await;
    let code = receipt["code"].as_str().unwrap().to_string();
    assert_eq!(receipt["reference"], e2eid, "{receipt}");
    assert_eq!(receipt["method"], "PIX");
    assert_eq!(receipt["amount"], 1000.0);

    // The page, without JavaScript: the receipt's lines and the PDF's link.
    let (status, html) = page(&app, &format!("/pay/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    for shown in [
        "Comprovante de pagamento",
        "***.982.247-**",
        "12.345.678/0001-95",
        "R$ 1.000,00",
        e2eid,
        &code,
        "(horário de Brasília)",
        &format!("/api/pay/{id}/installments/1/receipt.pdf"),
    ] {
        assert!(html.contains(shown), "{shown} not in {html}");
    }
    assert!(
        !html.contains("529.982.247-25") && !html.contains("52998224725"),
        "the payer's document in full: {html}"
    );

    // The PDF: its text, read back, says the same.
    let res = receipt_pdf(&app, &id, 1, "").await;
    assert_eq!(res.headers()["content-type"], "application/pdf");
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"comprovante-order-42-1.pdf\""
    );
    assert_eq!(res.headers()["cache-control"], "no-store");
    let text = pdf_text(res).await;
    for printed in [
        "Comprovante de pagamento",
        "R$ 1.000,00",
        "***.982.247-**",
        e2eid,
        &code,
        "Loja Exemplo Ltda",
        &format!("{}/r/{code}", app.addr),
    ] {
        assert!(text.contains(printed), "{printed} not in:\n{text}");
    }
    assert!(!text.contains("529.982.247-25"), "{text}");
    let en = pdf_text(receipt_pdf(&app, &id, 1, "?lang=en").await).await;
    assert!(
        en.contains("Payment receipt") && en.contains("R$ 1,000.00"),
        "{en}"
    );
    let (_, html) = page(&app, &format!("/pay/{id}?lang=en")).await;
    assert!(
        html.contains("Payment receipt") && html.contains("receipt.pdf?lang=en"),
        "{html}"
    );

    // Its code: genuine, with what the receipt says, however it is typed.
    for asked in [code.clone(), code.to_lowercase().replace('-', "")] {
        let (status, html) = page(&app, &format!("/r/{asked}")).await;
        assert_eq!(status, StatusCode::OK, "{html}");
        for shown in [
            "Comprovante autêntico",
            "Loja Exemplo Ltda",
            "R$ 1.000,00",
            "***.982.247-**",
            "Pix",
            e2eid,
        ] {
            assert!(html.contains(shown), "{shown} not in {html}");
        }
        assert!(!html.contains("529.982.247-25"), "{html}");
    }

    // Another invoice, paid: its own code works; tampered, or forged, finds nothing.
    let joao = json!({"fullName": "João Souza", "document": "111.444.777-35"});
    let (other, _, _) = single_pix_invoice(&app, joao, json!({ "externalId": "order-43" })).await;
    paylink_server::store::payments::simulate_pay(&app.db, &other, None, None)
        .await
        .unwrap();
    let other_code = receipt_in_view(&app, &other, 0).await["code"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(other_code, code);
    let (status, html) = page(&app, &format!("/r/{other_code}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("***.444.777-**"), "{html}");
    for asked in [tampered(&other_code), tampered(&code), "forged".to_string()] {
        let (status, html) = page(&app, &format!("/r/{asked}")).await;
        assert_reveals_nothing(status, &html, &asked);
    }
    let (status, html) = page(&app, "/r/forged?lang=en").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("Receipt not found"), "{html}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_boleto_paid_at_the_bank_has_its_receipt_with_the_nosso_numero_and_its_day() {
    use crate::settlement::{boleto_invoice, fixture, ok, remessa_args};
    let app = spawn_app_options(merchant).await;
    let id = boleto_invoice(&app, "https://loja.example.com/hooks/paylink").await;
    envelope(receipt_pdf(&app, &id, 1, "").await, StatusCode::NOT_FOUND).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("remessa-1.rem");
    ok(&remessa_args(out.to_str().unwrap()), &app.db_target);
    let ret = fixture("retorno-ok.ret");
    ok(
        &["boleto", "retorno", ret.to_str().unwrap()],
        &app.db_target,
    );

    let (status, html) = page(&app, &format!("/pay/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    for shown in [
        "Comprovante de pagamento",
        "***.982.247-**",
        "R$ 50,00",
        "Boleto",
        "Nosso número",
        "12345670000000001",
        // The bank reports the day it was paid, not the time.
        "29/01/2027",
    ] {
        assert!(html.contains(shown), "{shown} not in {html}");
    }
    // Installment 2 was written off, not paid: no receipt of it.
    assert_eq!(html.matches("data-receipt=").count(), 1, "{html}");
    envelope(receipt_pdf(&app, &id, 2, "").await, StatusCode::NOT_FOUND).await;
    envelope(receipt_pdf(&app, &id, 9, "").await, StatusCode::NOT_FOUND).await;
    // Bad input: an installment that is not a number, an id that is not one, a code far too long.
    let res = app
        .get(&format!("/api/pay/{id}/installments/x/receipt.pdf"))
        .await;
    envelope(res, StatusCode::NOT_FOUND).await;
    let res = app
        .get("/api/pay/not-an-id/installments/1/receipt.pdf")
        .await;
    envelope(res, StatusCode::BAD_REQUEST).await;
    let long = "Z".repeat(2000);
    let (status, html) = page(&app, &format!("/r/{long}")).await;
    assert_reveals_nothing(status, &html, &long);

    let code = receipt_in_view(&app, &id, 0).await["code"]
        .as_str()
        .unwrap()
        .to_string();
    let text = pdf_text(receipt_pdf(&app, &id, 1, "").await).await;
    for printed in [
        "R$ 50,00",
        "***.982.247-**",
        "12345670000000001",
        "29/01/2027",
        &code,
    ] {
        assert!(text.contains(printed), "{printed} not in:\n{text}");
    }
    let (status, html) = page(&app, &format!("/r/{code}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("Boleto") && html.contains("R$ 50,00"),
        "{html}"
    );

    // Paid before receipts were kept (no row): its receipt is made when first shown, how it was
    // paid read from the boleto's liquidação, under a new code; the old one finds nothing.
    sqlx::query("DELETE FROM receipts")
        .execute(&app.raw_pool().await)
        .await
        .unwrap();
    let (status, html) = page(&app, &format!("/r/{code}")).await;
    assert_reveals_nothing(status, &html, &code);
    let again = receipt_in_view(&app, &id, 0).await;
    assert_eq!(again["method"], "BOLETO", "{again}");
    assert_eq!(again["reference"], "12345670000000001", "{again}");
    assert_ne!(again["code"], code.as_str());
    assert_eq!(
        receipt_in_view(&app, &id, 0).await["code"],
        again["code"],
        "kept"
    );
}

#[tokio::test]
async fn a_reversed_payments_receipt_says_it_was_returned() {
    let app = spawn_app_options(merchant).await;
    let customer = body(
        app.post_customer(
            &json!({"fullName": "Empresa Cliente", "document": "11.222.333/0001-81"}),
        )
        .await,
    )
    .await;
    let res = app
        .post_invoice(&with(
            invoice_body(customer["id"].as_str().unwrap()),
            json!({ "price": 3000.00 }),
        ))
        .await;
    let id = body(res).await["id"].as_str().unwrap().to_string();
    paylink_server::store::payments::simulate_pay(&app.db, &id, Some(1), None)
        .await
        .unwrap();
    let code = receipt_in_view(&app, &id, 0).await["code"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, html) = page(&app, &format!("/r/{code}")).await;
    assert!(
        html.contains("**.222.333/0001-**") && html.contains("1 de 3"),
        "{html}"
    );
    assert!(!html.contains("data-receipt-reversed"), "{html}");

    paylink_server::store::payments::simulate_reverse(&app.db, &id, 1)
        .await
        .unwrap();
    let (_, html) = page(&app, &format!("/pay/{id}")).await;
    assert!(html.contains("data-receipt-reversed"), "{html}");
    assert!(
        html.contains("Este pagamento foi devolvido ao pagador"),
        "{html}"
    );
    let (status, html) = page(&app, &format!("/r/{code}")).await;
    assert_eq!(status, StatusCode::OK, "still paylink's receipt");
    assert!(
        html.contains("Este pagamento foi devolvido ao pagador"),
        "{html}"
    );
    let text = pdf_text(receipt_pdf(&app, &id, 1, "").await).await;
    assert!(text.contains("devolvido ao pagador"), "{text}");
    assert!(text.contains("R$ 1.000,00"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_payment_confirmed_email_links_the_receipt_and_attaches_its_pdf() {
    use crate::smtp::{Mode, SmtpServer};
    let sink = SmtpServer::start(Mode::StartTls).await;
    let app = spawn_app_with_channels(Some(sink.config()), None).await;
    let customer = body(
        app.post_customer(&json!({
            "fullName": "Maria da Silva", "document": "529.982.247-25",
            "email": "maria@example.com"
        }))
        .await,
    )
    .await;
    let req = with(
        invoice_body(customer["id"].as_str().unwrap()),
        json!({ "price": 3000.00, "webhooks": [], "notifications": [
            { "type": "INVOICE_CONFIRM_PAYMENT", "channel": "Email" }
        ] }),
    );
    let id = body(app.post_invoice(&req).await).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    paylink_server::store::payments::simulate_pay(&app.db, &id, Some(2), None)
        .await
        .unwrap();
    let mail = sink.wait_for(10, 1).await.remove(0);
    assert!(mail
        .header("Content-Type")
        .unwrap()
        .starts_with("multipart/mixed"));
    let code: String = sqlx::query_scalar(
        "SELECT r.code FROM receipts r JOIN installments i ON i.id = r.installment_id
         WHERE i.invoice_id = $1 AND i.number = 2",
    )
    .bind(&id)
    .fetch_one(&app.raw_pool().await)
    .await
    .unwrap();
    let link = format!("{}/api/pay/{id}/installments/2/receipt.pdf", app.addr);
    let text = mail.text();
    assert!(
        text.contains(&format!("Comprovante de pagamento:\n{link}")),
        "{text}"
    );
    assert!(text.contains("O comprovante segue anexo"), "{text}");
    assert!(
        mail.html()
            .contains(&format!("<a href=\"{link}\">{link}</a>")),
        "{}",
        mail.html()
    );
    let files = mail.attachments();
    assert_eq!(files.len(), 1, "{files:?}");
    let (name, content_type, pdf) = &files[0];
    assert_eq!(name, "comprovante-order-42-2.pdf");
    assert_eq!(content_type, "application/pdf");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("receipt.pdf");
    std::fs::write(&file, pdf).unwrap();
    let text = crate::boleto_pdf::run("pdftotext", &["-layout", file.to_str().unwrap(), "-"]);
    for printed in ["R$ 1.000,00", "***.982.247-**", "2 de 3", &code] {
        assert!(text.contains(printed), "{printed} not in:\n{text}");
    }
}
