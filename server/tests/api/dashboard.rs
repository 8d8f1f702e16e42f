//! The home screen's months as a merchant in Brazil counts them: a payment
//! in the month of its day in Brasília (a Pix at 01:30 UTC on the 1st is
//! the evening before), a payment known only by its day (recorded by hand,
//! a boleto's retorno) in that day's month.

use paylink_model::Date;
use paylink_server::store::payments;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

async fn dashboard(app: &TestApp) -> Value {
    let res = app
        .client
        .get(app.url("/invoices/applications/dashboard"))
        .header("Authorization", format!("Basic {}", app.token))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await
}

/// An invoice of one installment of `price` reais (R$ 5,00 at least) for `customer`.
async fn invoice(app: &TestApp, customer: &str, price: f64) -> String {
    let res = app
        .post_invoice(&json!({
            "customerId": customer, "externalId": format!("painel-{price}"),
            "dueDate": days_from_today(10), "paymentTypes": ["PIX"], "installmentCount": 1,
            "price": price
        }))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

/// Paid in full at the instant `paid_at` (as a Pix's `horario` is stored).
async fn paid_at(app: &TestApp, customer: &str, price: f64, paid_at: &str) {
    let id = invoice(app, customer, price).await;
    payments::simulate_pay(&app.db, &id, None, None)
        .await
        .unwrap();
    sqlx::query("UPDATE installments SET paid_at = $1 WHERE invoice_id = $2")
        .bind(paid_at)
        .bind(&id)
        .execute(&app.raw_pool().await)
        .await
        .unwrap();
}

/// Paid on the day `paid_on`, recorded by hand through the API.
async fn paid_on(app: &TestApp, customer: &str, price: f64, paid_on: Date) {
    let id = invoice(app, customer, price).await;
    made_on(app, &id, paid_on).await;
    let res = app
        .client
        .post(app.url(&format!(
            "/invoices/applications/invoices/{id}/installments/1/payments"
        )))
        .header("Authorization", format!("Basic {}", app.token))
        .json(&json!({ "amount": price, "paidOn": paid_on.to_string() }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

/// Both ends of this month and of the 12-month window: instants on the
/// 1st before 03:00 UTC count in the month before, from 03:00 in the
/// month; day-only payments on the 1st count in the month.
#[tokio::test]
async fn a_payment_counts_in_its_month_in_brasilia() {
    let app = spawn_app().await;
    let months: Vec<String> = dashboard(&app).await["months"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["month"].as_str().unwrap().to_string())
        .collect();
    let first_of = |m: &str| Date::parse_iso(&format!("{m}-01")).unwrap();
    let this_month = first_of(&months[11]);
    let window = first_of(&months[0]);
    assert!(this_month <= today());
    let res = app
        .post_customer(&json!({ "fullName": "Maria da Silva" }))
        .await;
    let maria = body(res).await["id"].as_str().unwrap().to_string();
    let at = |d: Date, time: &str| format!("{d}T{time}Z");

    // This month's first day, 22:30 the evening before in Brasília: last month.
    paid_at(&app, &maria, 10.01, &at(this_month, "01:30:00.000")).await;
    // Midnight of the 1st in Brasília: this month.
    paid_at(&app, &maria, 20.02, &at(this_month, "03:00:00.000")).await;
    // Recorded by hand as paid on the 1st: this month, not shifted back.
    paid_on(&app, &maria, 40.04, this_month).await;
    // Recorded as paid on last month's last day: last month.
    paid_on(&app, &maria, 80.08, this_month.add_days(-1).unwrap()).await;
    // The window's first day: an instant before 03:00 UTC is the month
    // before the window (not counted), a day-only payment is in it.
    paid_at(&app, &maria, 160.16, &at(window, "02:59:59.999")).await;
    paid_on(&app, &maria, 320.32, window).await;

    let d = dashboard(&app).await;
    assert_eq!(d["month"], months[11].as_str(), "{d}");
    // In cents: the sums are exact.
    let cents = |v: &Value| (v.as_f64().unwrap() * 100.0).round() as i64;
    assert_eq!(cents(&d["received"]), 2002 + 4004, "{d}");
    let received: Vec<i64> = d["months"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| cents(&m["received"]))
        .collect();
    assert_eq!(received[11], 2002 + 4004, "{d}");
    assert_eq!(received[10], 1001 + 8008, "{d}");
    assert_eq!(received[0], 32032, "{d}");
    assert!(received[1..10].iter().all(|r| *r == 0), "{d}");
}
