//! Pix at night on the payer page: with the server's clock held at an hour in Brasília, a
//! person (CPF) to pay more than R$ 1.000,00 by Pix between 20h and 6h is told that their bank
//! may limit it, and pointed to the boleto; by day, or a company (CNPJ), nothing is said.

use paylink_server::domain::Clock;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

/// A server whose payer pages are rendered at `hour`:00 in Brasília today.
async fn at_hour(hour: i64) -> TestApp {
    let start = paylink_model::date::brasilia_day_start(today());
    spawn_app_options(|o| o.payer.clock = Clock::Fixed((start + hour * 3_600) * 1000)).await
}

/// The payer page of a one-installment charge of `price` reais for a payer with `document`.
async fn page_for(app: &TestApp, document: &str, price: f64, types: serde_json::Value) -> String {
    let res = app
        .post_customer(&json!({ "fullName": "Maria da Silva", "document": document }))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let customer = body(res).await["id"].as_str().unwrap().to_string();
    let req = json!({
        "customerId": customer, "externalId": "noite-1", "dueDate": days_from_today(10),
        "paymentTypes": types, "installmentCount": 1, "price": price
    });
    let res = app.post_invoice(&req).await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let res = reqwest::get(app.url(&format!("/pay/{id}"))).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    res.text().await.unwrap()
}

#[tokio::test]
async fn a_person_paying_r_1500_by_pix_at_21h_is_told_and_pointed_to_the_boleto() {
    let app = at_hour(21).await;
    let html = page_for(&app, "529.982.247-25", 1500.0, json!(["PIX", "BOLETO"])).await;
    assert!(html.contains(r#"data-pix-at-night="boleto""#), "{html}");
    assert!(html.contains("pode limitar um Pix de pessoa física a R$ 1.000,00"));
    assert!(html.contains("pagar pelo boleto abaixo"));
    // Pix only: the notice, and no boleto to point to.
    let html = page_for(&app, "529.982.247-25", 1500.0, json!(["PIX"])).await;
    assert!(html.contains(r#"data-pix-at-night="""#), "{html}");
    assert!(!html.contains("pagar pelo boleto abaixo"));
    // R$ 1.000,00 exactly is within the limit.
    let html = page_for(&app, "529.982.247-25", 1000.0, json!(["PIX", "BOLETO"])).await;
    assert!(!html.contains("data-pix-at-night"));
}

#[tokio::test]
async fn by_day_or_for_a_company_nothing_is_said() {
    let day = at_hour(14).await;
    let html = page_for(&day, "529.982.247-25", 1500.0, json!(["PIX", "BOLETO"])).await;
    assert!(!html.contains("data-pix-at-night"));
    assert!(!html.contains("limitar um Pix"));
    let night = at_hour(21).await;
    let html = page_for(
        &night,
        "11.222.333/0001-81",
        1500.0,
        json!(["PIX", "BOLETO"]),
    )
    .await;
    assert!(!html.contains("data-pix-at-night"));
    // A boleto-only charge has no Pix to limit.
    let html = page_for(&night, "529.982.247-25", 1500.0, json!(["BOLETO"])).await;
    assert!(!html.contains("data-pix-at-night"));
}
