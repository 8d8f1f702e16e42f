//! Recurring and subscription charges: created when their period starts,
//! caught up after downtime, never twice, stopped by their end.

use paylink_model::Date;
use paylink_server::workers::scheduler::run_once;
use serde_json::json;

use crate::helpers::*;

async fn periodic(app: &TestApp, patch: serde_json::Value) -> String {
    let customer = app.customer_id().await;
    let base = json!({
        "customerId": customer, "externalId": "assinatura", "dueDate": y("01-15"),
        "paymentTypes": ["PIX"], "installmentCount": 1, "price": 49.9,
        "invoiceType": "RECURRING", "frequency": "MONTHLY", "endInstallment": 12
    });
    let res = app.post_invoice(&with(base, patch)).await;
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

/// `MM-DD` of next year (`YYYY-MM-DD`): invoices are created due ahead of
/// today, and the scheduler is run on dates after them.
fn y(month_day: &str) -> String {
    format!("{}-{month_day}", today().year() + 1)
}

fn d(month_day: &str) -> Date {
    Date::parse_iso(&y(month_day)).unwrap()
}

async fn dues(app: &TestApp, id: &str) -> Vec<String> {
    let detail = body(app.get_invoice(id).await).await;
    detail["installments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["dueDate"].as_str().unwrap()[..10].to_string())
        .collect()
}

#[tokio::test]
async fn catches_up_missed_charges_once() {
    let app = spawn_app().await;
    let id = periodic(&app, json!({})).await;
    // Down since January: on April 20th every period started so far gets its charge,
    // including the one due May 15th, whose period started April 15th.
    assert_eq!(run_once(&app.db, d("04-20")).await.unwrap(), 4);
    assert_eq!(
        dues(&app, &id).await,
        [y("01-15"), y("02-15"), y("03-15"), y("04-15"), y("05-15")]
    );
    assert_eq!(
        run_once(&app.db, d("04-20")).await.unwrap(),
        0,
        "never twice"
    );
    let detail = body(app.get_invoice(&id).await).await;
    assert_eq!(detail["installmentCount"], 5);
    assert!(detail["installments"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["price"] == 49.9 && i["_status"] == "WAITING_PAYMENT"));
    // Each new charge is a PAYMENT_GENERATED event (1 at creation + 4).
    let pool = app.raw_pool().await;
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM events WHERE type = 'PAYMENT_GENERATED' AND invoice_id = $1",
    )
    .bind(&id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(n, 5);
}

#[tokio::test]
async fn stops_at_the_end_installment_or_end_date() {
    let app = spawn_app().await;
    let by_count = periodic(&app, json!({ "endInstallment": 3 })).await;
    let by_date = periodic(
        &app,
        json!({ "endInstallment": null, "frequency": "WEEKLY", "endDate": y("02-05") }),
    )
    .await;
    let sub = periodic(&app, json!({ "endInstallment": null, "invoiceType": "SUBSCRIPTION", "frequency": "QUARTERLY", "endSubscription": y("09-30") })).await;
    run_once(&app.db, Date::new(today().year() + 2, 1, 1).unwrap())
        .await
        .unwrap();
    assert_eq!(
        dues(&app, &by_count).await,
        [y("01-15"), y("02-15"), y("03-15")]
    );
    assert_eq!(
        dues(&app, &by_date).await,
        [y("01-15"), y("01-22"), y("01-29"), y("02-05")]
    );
    assert_eq!(dues(&app, &sub).await, [y("01-15"), y("04-15"), y("07-15")]);
}

#[tokio::test]
async fn nothing_before_the_period_starts_and_nothing_for_deleted_invoices() {
    let app = spawn_app().await;
    let id = periodic(&app, json!({})).await;
    assert_eq!(run_once(&app.db, d("01-14")).await.unwrap(), 0);
    paylink_server::store::payments::delete_invoice(&app.db, &id)
        .await
        .unwrap();
    assert_eq!(run_once(&app.db, d("12-31")).await.unwrap(), 0);
}
