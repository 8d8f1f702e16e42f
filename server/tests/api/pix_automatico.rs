//! Pix Automático (issue 31) through the invoicing API: who may ask for it (`pixAutomatico` of
//! the request, refused with a field error under `pixAutomatico` in the envelope, in both
//! languages) and what the detail says of it (`pixAutomatico`, null when not asked).

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{body, envelope, spawn_app, spawn_app_options, with, TestApp};

const MERCHANT_CNPJ: &str = "11222333000181";
const MERCHANT_CPF: &str = "52998224725";

/// A server whose PIX goes through a bank (no bank worker runs: the recurrence stays pending)
/// and whose merchant is `document`.
async fn merchant(document: Option<&str>) -> TestApp {
    let document = document.map(str::to_string);
    spawn_app_options(move |o| {
        o.payer.pix_api = true;
        o.payer.merchant_document = document;
    })
    .await
}

async fn customer(app: &TestApp, document: Option<&str>) -> String {
    let mut c = json!({"fullName": "Maria da Silva"});
    if let Some(d) = document {
        c["document"] = json!(d);
    }
    let res = app.post_customer(&c).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    body(res).await["id"].as_str().unwrap().to_string()
}

fn monthly(customer_id: &str, pix_automatico: Value) -> Value {
    json!({
        "customerId": customer_id,
        "externalId": "assinatura-7",
        "dueDate": crate::helpers::days_from_today(5),
        "paymentTypes": ["PIX"],
        "installmentCount": 1,
        "invoiceType": "RECURRING",
        "frequency": "MONTHLY",
        "endInstallment": 12,
        "price": 49.90,
        "description": "Plano mensal",
        "pixAutomatico": pix_automatico,
    })
}

async fn refused(app: &TestApp, req: &Value, lang: &str) -> Vec<String> {
    let res = app
        .authed(reqwest::Method::POST, "/invoices/applications/invoices")
        .await
        .header("Accept-Language", lang)
        .json(req)
        .send()
        .await
        .unwrap();
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    serde_json::from_value(errors["pixAutomatico"].clone())
        .unwrap_or_else(|_| panic!("no pixAutomatico error: {errors}"))
}

#[tokio::test]
async fn an_accepted_recurrence_is_in_the_detail_and_an_invoice_without_it_has_null() {
    let app = merchant(Some(MERCHANT_CNPJ)).await;
    let payer = customer(&app, Some("529.982.247-25")).await;
    let res = app
        .post_invoice(&monthly(&payer, json!({"retries": true})))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let detail = body(app.get_invoice(&id).await).await;
    assert_eq!(
        detail["pixAutomatico"],
        json!({"status": "pending", "idRec": null, "periodicity": "MENSAL",
               "retryPolicy": "PERMITE_3R_7D"})
    );
    let res = app
        .post_invoice(&with(
            monthly(&payer, json!({})),
            json!({"invoiceType": "SUBSCRIPTION", "frequency": "WEEKLY", "endInstallment": null}),
        ))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let detail = body(app.get_invoice(&id).await).await;
    assert_eq!(detail["pixAutomatico"]["periodicity"], "SEMANAL");
    assert_eq!(detail["pixAutomatico"]["retryPolicy"], "NAO_PERMITE");

    let res = app
        .post_invoice(&with(
            monthly(&payer, json!(null)),
            json!({"pixAutomatico": null}),
        ))
        .await;
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let detail = body(app.get_invoice(&id).await).await;
    assert!(
        detail.get("pixAutomatico").is_some_and(Value::is_null),
        "{detail}"
    );
}

#[tokio::test]
async fn a_server_without_api_pix_refuses_it_in_both_languages() {
    let app = spawn_app().await;
    let payer = customer(&app, Some("52998224725")).await;
    let req = monthly(&payer, json!({"retries": false}));
    let pt = refused(&app, &req, "pt-BR").await;
    assert!(pt.iter().any(|m| m.contains("API Pix")), "{pt:?}");
    let en = refused(&app, &req, "en").await;
    assert!(en.iter().any(|m| m.contains("API Pix")), "{en:?}");
    assert_ne!(pt, en);
}

#[tokio::test]
async fn a_merchant_that_is_not_a_company_or_a_payer_without_a_document_is_refused() {
    let app = merchant(Some(MERCHANT_CPF)).await;
    let payer = customer(&app, Some("52998224725")).await;
    let msgs = refused(&app, &monthly(&payer, json!({})), "en").await;
    assert_eq!(
        msgs,
        ["Only companies receive through Pix Automático: the merchant's document (--merchant-document) must be a CNPJ."]
    );
    let app = merchant(None).await;
    let payer = customer(&app, Some("52998224725")).await;
    let msgs = refused(&app, &monthly(&payer, json!({})), "pt-BR").await;
    assert!(msgs[0].contains("CNPJ"), "{msgs:?}");

    let app = merchant(Some(MERCHANT_CNPJ)).await;
    let no_document = customer(&app, None).await;
    let msgs = refused(&app, &monthly(&no_document, json!({})), "pt-BR").await;
    assert_eq!(
        msgs,
        ["O cliente precisa de CPF ou CNPJ para autorizar o Pix Automático."]
    );
    // Nothing was made of the refused requests.
    let list = body(
        app.authed(reqwest::Method::GET, "/invoices/applications/invoices")
            .await
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(list["data"].as_array().map(Vec::len), Some(0), "{list}");
}

#[tokio::test]
async fn requests_that_cannot_be_pix_automatico_are_field_errors_never_a_500() {
    let app = merchant(Some(MERCHANT_CNPJ)).await;
    let payer = customer(&app, Some("52998224725")).await;
    let base = monthly(&payer, json!({}));
    let cases = [
        (
            "every 14 days",
            json!({"frequency": "FORTWEEKLY"}),
            "FORTWEEKLY",
        ),
        (
            "every 2 months",
            json!({"frequency": "BIMONTHLY"}),
            "BIMONTHLY",
        ),
        ("no PIX", json!({"paymentTypes": ["BOLETO"]}), "PIX"),
        (
            "the payer sets the amount",
            json!({"priceByCustomer": true}),
            "priceByCustomer",
        ),
        (
            "a SINGLE invoice",
            json!({"invoiceType": "SINGLE", "frequency": null, "endInstallment": null}),
            "RECURRING",
        ),
    ];
    for (why, patch, says) in cases {
        let msgs = refused(&app, &with(base.clone(), patch), "en").await;
        assert!(msgs.iter().any(|m| m.contains(says)), "{why}: {msgs:?}");
    }
    // A wrong JSON type is a type error at its own path.
    for (value, path) in [
        (json!({"retries": "sim"}), "pixAutomatico.retries"),
        (json!(true), "pixAutomatico"),
        (json!([]), "pixAutomatico"),
    ] {
        let res = app
            .post_invoice(&with(base.clone(), json!({ "pixAutomatico": value })))
            .await;
        let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert!(errors[path].is_array(), "{value}: {errors}");
    }
}
