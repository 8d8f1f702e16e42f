use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

fn cents(v: &Value) -> i64 {
    (v.as_f64().unwrap() * 100.0).round() as i64
}

#[tokio::test]
async fn creates_an_installment_invoice_in_the_creation_form() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let res = app.post_invoice(&invoice_body(&customer)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let inv = body(res).await;
    let id = inv["id"].as_str().unwrap();
    assert_eq!(inv["url"], format!("{}/pay/{id}", app.addr));
    assert_eq!(inv["externalId"], "order-42");
    assert_eq!(inv["invoiceType"], "INSTALLMENT");
    assert_eq!(inv["installmentCount"], 3);
    let expected = invoice_body_dues();
    assert_eq!(inv["dueDate"], format!("{}T00:00:00.000Z", expected[0]));
    assert_eq!(inv["customer"]["id"], customer.as_str());
    assert_eq!(inv["customer"]["fullName"], "Maria da Silva");
    let installments = inv["installments"].as_array().unwrap();
    let amounts: Vec<i64> = installments.iter().map(|i| cents(&i["price"])).collect();
    assert_eq!(amounts, [3334, 3333, 3333]);
    assert_eq!(amounts.iter().sum::<i64>(), cents(&inv["price"]));
    for i in installments {
        assert_eq!(i["status"], "WAITING_PAYMENT");
        assert_eq!(i["pricePaid"], 0.0);
        assert!(i.get("_status").is_none());
    }
    let dues: Vec<&str> = installments
        .iter()
        .map(|i| i["dueDate"].as_str().unwrap())
        .collect();
    // 31 Jan, the last day of February, 31 Mar.
    assert_eq!(
        dues,
        expected.clone().map(|d| format!("{d}T00:00:00.000Z")),
        "{dues:?}"
    );
    assert!(expected[1].ends_with("-02-28") || expected[1].ends_with("-02-29"));
    assert!(expected[2].ends_with("-03-31"));
    let types: Vec<&Value> = inv["paymentTypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["type"])
        .collect();
    assert_eq!(types, ["PIX", "BOLETO"]);
    assert!(inv["paymentTypes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["invoiceId"] == id));
}

#[tokio::test]
async fn reads_the_invoice_back_in_the_detail_form() {
    let app = spawn_app().await;
    let customer = body(
        app.post_customer(
            &json!({ "fullName": "João Souza", "address": { "city": "Recife", "state": "PE" } }),
        )
        .await,
    )
    .await;
    let created = body(
        app.post_invoice(&invoice_body(customer["id"].as_str().unwrap()))
            .await,
    )
    .await;
    let id = created["id"].as_str().unwrap();

    let res = app.get_invoice(id).await;
    assert_eq!(res.status(), StatusCode::OK);
    let d = body(res).await;
    assert_eq!(d["id"], id);
    assert_eq!(d["price"], 100.0);
    assert_eq!(d["description"], "Curso de violão — 3x");
    assert_eq!(d["redirectTo"], "https://loja.example.com/obrigado");
    assert_eq!(d["url"], created["url"]);
    assert_eq!(d["createdAt"], created["createdAt"]);
    for field in ["endDate", "endInstallment", "endSubscription", "frequency"] {
        assert_eq!(
            d[field],
            Value::Null,
            "{field} does not apply to INSTALLMENT"
        );
    }
    assert_eq!(d["items"], json!([]));
    // Nested customer form: addressId instead of the address.
    assert_eq!(d["customer"]["addressId"], customer["address"]["id"]);
    assert!(d["customer"].get("address").is_none());
    for field in [
        "id",
        "fullName",
        "document",
        "business",
        "email",
        "userId",
        "applicationId",
        "phone",
        "observations",
        "createdAt",
        "deletedAt",
    ] {
        assert!(d["customer"].get(field).is_some(), "customer.{field}");
    }
    // Detail installment form.
    let inst = d["installments"].as_array().unwrap();
    assert_eq!(inst.len(), 3);
    for (n, i) in inst.iter().enumerate() {
        assert_eq!(i["installment"], n + 1);
        assert_eq!(i["invoiceId"], id);
        assert_eq!(i["_status"], "WAITING_PAYMENT");
        assert!(i.get("status").is_none());
        assert_eq!(i["viewsCount"], 0);
        for null in [
            "updatedAt",
            "deletedAt",
            "lastViewAt",
            "paidAt",
            "paymentReceivedAt",
        ] {
            assert_eq!(i[null], Value::Null, "{null}");
        }
        assert_eq!(i["id"], created["installments"][n]["id"]);
    }
    assert_eq!(inst.iter().map(|i| cents(&i["price"])).sum::<i64>(), 10000);
    // Payment types in the detail form.
    assert_eq!(
        d["paymentTypes"],
        json!([{ "invoiceId": id, "paymentTypeAccepted": "PIX" }, { "invoiceId": id, "paymentTypeAccepted": "BOLETO" }])
    );
    // Notifications grouped in the four arrays, webhooks listed.
    let types = |k: &str| {
        d[k].as_array()
            .unwrap()
            .iter()
            .map(|n| n["type"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        types("notificationBeforeDueDate"),
        ["SEND_INVOICE_REMINDER"]
    );
    assert_eq!(types("notificationAfterDueDate"), ["INVOICE_RESEND"]);
    assert_eq!(
        types("notificationAfterPayment"),
        ["INVOICE_CONFIRM_PAYMENT"]
    );
    assert_eq!(types("notificationSendTypes"), ["INVOICE_GENERATED"]);
    assert_eq!(d["notificationAfterDueDate"][0]["period"], 7);
    assert_eq!(d["notificationAfterDueDate"][0]["channel"], "SMS");
    assert_eq!(d["webhooks"][0]["hookType"], "PAYMENT_CONFIRMED");
    assert_eq!(
        d["webhooks"][0]["url"],
        "https://loja.example.com/hooks/paylink"
    );
}

#[tokio::test]
async fn a_single_invoice_is_the_default_with_empty_arrays() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let req = json!({
        "customerId": customer, "externalId": "x-1", "dueDate": days_from_today(15),
        "paymentTypes": ["PIX"], "installmentCount": 1, "price": 5
    });
    let created = body(app.post_invoice(&req).await).await;
    assert_eq!(created["invoiceType"], "SINGLE");
    assert_eq!(created["installments"].as_array().unwrap().len(), 1);
    assert_eq!(created["installments"][0]["price"], 5.0);
    let d = body(app.get_invoice(created["id"].as_str().unwrap()).await).await;
    for arr in [
        "notificationBeforeDueDate",
        "notificationAfterDueDate",
        "notificationAfterPayment",
        "notificationSendTypes",
        "webhooks",
        "items",
    ] {
        assert_eq!(d[arr], json!([]), "{arr}");
    }
    assert_eq!(d["description"], Value::Null);
    assert_eq!(d["redirectTo"], Value::Null);
}

#[tokio::test]
async fn amounts_are_exact_to_the_cent() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let req = with(
        invoice_body(&customer),
        json!({ "price": 1234.57, "installmentCount": 7 }),
    );
    let inv = body(app.post_invoice(&req).await).await;
    assert_eq!(inv["price"], 1234.57);
    let parts: Vec<i64> = inv["installments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| cents(&i["price"]))
        .collect();
    assert_eq!(parts, [17637, 17637, 17637, 17637, 17637, 17636, 17636]);
    assert_eq!(parts.iter().sum::<i64>(), 123457);
}

#[tokio::test]
async fn price_by_customer_needs_no_price() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let req = json!({
        "customerId": customer, "externalId": "doacao", "dueDate": days_from_today(15),
        "paymentTypes": ["PIX"], "installmentCount": 1, "priceByCustomer": true
    });
    let res = app.post_invoice(&req).await;
    assert_eq!(res.status(), StatusCode::OK);
    let inv = body(res).await;
    assert_eq!(inv["priceByCustomer"], true);
    assert_eq!(inv["price"], 0.0);
}

#[tokio::test]
async fn a_recurring_invoice_keeps_its_schedule_fields() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let (due, end) = (days_from_today(10), days_from_today(375));
    let req = json!({
        "customerId": customer, "externalId": "mensalidade", "dueDate": due,
        "paymentTypes": ["BOLETO"], "installmentCount": 1, "price": 89.9,
        "invoiceType": "RECURRING", "frequency": "MONTHLY", "endDate": end
    });
    let created = body(app.post_invoice(&req).await).await;
    assert_eq!(
        created["installments"].as_array().unwrap().len(),
        1,
        "{created}"
    );
    let d = body(app.get_invoice(created["id"].as_str().unwrap()).await).await;
    assert_eq!(d["frequency"], "MONTHLY");
    assert_eq!(d["endDate"], format!("{end}T00:00:00.000Z"));
    assert_eq!(d["endInstallment"], Value::Null);
    assert_eq!(d["price"], 89.9);
}

/// Installments that would run past 9999-12-31 (the last day `YYYY-MM-DD` names) are a
/// `dueDate` field error; they once left the plan empty and the answer a 500. The last
/// installment due on that very day is fine, and so is a single charge due then.
#[tokio::test]
async fn installments_past_the_calendar_are_a_due_date_error_not_a_500() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    for (due, count) in [("9999-12-01", 3), ("9999-12-31", 2), ("9990-02-01", 120)] {
        let req = with(
            invoice_body(&customer),
            json!({ "dueDate": due, "installmentCount": count, "price": 5000.0 }),
        );
        let errors = envelope(
            app.post_invoice(&req).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(
            errors.as_object().unwrap().len(),
            1,
            "{due} x{count}: {errors}"
        );
        assert!(
            errors["dueDate"][0]
                .as_str()
                .unwrap()
                .contains("31/12/9999"),
            "{due} x{count}: {errors}"
        );
    }
    for (due, count, kind) in [
        ("9999-10-31", 3, "INSTALLMENT"),
        ("9999-12-31", 1, "SINGLE"),
    ] {
        let req = with(
            invoice_body(&customer),
            json!({ "dueDate": due, "installmentCount": count, "invoiceType": kind }),
        );
        let res = app.post_invoice(&req).await;
        assert_eq!(res.status(), StatusCode::OK, "{due} x{count}");
        let created = body(res).await;
        let last = created["installments"].as_array().unwrap().last().unwrap()["dueDate"].clone();
        assert!(
            last.as_str().unwrap().starts_with("9999-12-31"),
            "{created}"
        );
    }
}

#[tokio::test]
async fn rejects_each_bad_field_on_its_own_path() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let base = invoice_body(&customer);
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            json!({ "customerId": null }),
            "customerId",
            "missing customerId",
        ),
        (
            json!({ "customerId": "not-a-uuid" }),
            "customerId",
            "customerId that is not a UUID",
        ),
        (
            json!({ "customerId": "6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11" }),
            "customerId",
            "unknown customer",
        ),
        (
            json!({ "externalId": null }),
            "externalId",
            "missing externalId",
        ),
        (json!({ "dueDate": null }), "dueDate", "missing dueDate"),
        (
            json!({ "dueDate": "31/01/2027" }),
            "dueDate",
            "dueDate not ISO",
        ),
        (
            json!({ "dueDate": format!("{}-02-30", today().year() + 1) }),
            "dueDate",
            "dueDate that does not exist",
        ),
        (
            json!({ "paymentTypes": null }),
            "paymentTypes",
            "missing paymentTypes",
        ),
        (
            json!({ "paymentTypes": [] }),
            "paymentTypes",
            "no payment type",
        ),
        (
            json!({ "paymentTypes": ["PIX", "CARD"] }),
            "paymentTypes[1]",
            "unknown payment type",
        ),
        (
            json!({ "paymentTypes": ["PIX", "PIX"] }),
            "paymentTypes[1]",
            "repeated payment type",
        ),
        (
            json!({ "installmentCount": null }),
            "installmentCount",
            "missing installmentCount",
        ),
        (
            json!({ "installmentCount": 121 }),
            "installmentCount",
            "more than 120 installments",
        ),
        (
            json!({ "installmentCount": 30 }),
            "installmentCount",
            "installments under R$ 5,00",
        ),
        (
            json!({ "invoiceType": "SINGLE" }),
            "installmentCount",
            "SINGLE with 3 installments",
        ),
        (json!({ "price": null }), "price", "missing price"),
        (json!({ "price": 4.99 }), "price", "price under R$ 5,00"),
        (json!({ "price": 10.005 }), "price", "price with 3 decimals"),
        (json!({ "price": -10 }), "price", "negative price"),
        (
            json!({ "price": 100000000 }),
            "price",
            "price over the boleto maximum",
        ),
        (
            json!({ "description": "ã".repeat(351) }),
            "description",
            "description of 351 characters",
        ),
        (
            json!({ "invoiceType": "WEEKLY" }),
            "invoiceType",
            "unknown invoiceType",
        ),
        (
            json!({ "frequency": "MONTHLY" }),
            "frequency",
            "frequency on an INSTALLMENT invoice",
        ),
        (
            json!({ "redirectTo": "javascript:alert(1)" }),
            "redirectTo",
            "redirectTo that is not http(s)",
        ),
        (
            json!({ "notifications": [{ "type": "SEND_INVOICE_REMINDER", "channel": "Email", "period": 4 }] }),
            "notifications[0].period",
            "period under 5 days",
        ),
        (
            json!({ "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }, { "type": "INVOICE_GENERATED", "channel": "Pombo" }] }),
            "notifications[1].channel",
            "unknown channel",
        ),
        (
            json!({ "notifications": [{ "channel": "Email" }] }),
            "notifications[0].type",
            "notification without type",
        ),
        (
            json!({ "notifications": [{ "type": "PAID", "channel": "Email" }] }),
            "notifications[0].type",
            "unknown notification type",
        ),
        (
            json!({ "webhooks": [{ "hookType": "PAYMENT_CONFIRMED", "url": "http://loja.example.com/h" }] }),
            "webhooks[0].url",
            "webhook over plain HTTP",
        ),
        (
            json!({ "webhooks": [{ "hookType": "PAYMENT_CONFIRMED" }] }),
            "webhooks[0].url",
            "webhook without url",
        ),
        (
            json!({ "webhooks": [{ "hookType": "INVOICE_PAID", "url": "https://loja.example.com/h" }] }),
            "webhooks[0].hookType",
            "unknown hookType",
        ),
        (
            json!({ "webhooks": [{ "hookType": "PAYMENT_REVERSED", "url": "https://loja.example.com/h" }] }),
            "webhooks[0].hookType",
            "paylink's own event, which only the application's webhooks take",
        ),
    ];
    for (patch, field, why) in cases {
        let res = app.post_invoice(&with(base.clone(), patch)).await;
        let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert!(
            errors[field].as_array().is_some_and(|m| !m.is_empty()),
            "{why}: expected an error on {field}, got {errors}"
        );
    }
    // None of the refused requests left anything behind.
    let count: i64 = sqlx_count(&app).await;
    assert_eq!(count, 0);
}

async fn sqlx_count(app: &TestApp) -> i64 {
    // Read the file with a second, independent connection: what a restart would see.
    let pool = app.raw_pool().await;
    let n: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM invoices")
        .fetch_one(&pool)
        .await
        .unwrap();
    n.0
}

#[tokio::test]
async fn an_invoice_and_its_rows_are_durable_in_the_file() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    body(app.post_invoice(&invoice_body(&customer)).await).await;
    assert_eq!(sqlx_count(&app).await, 1);
}

#[tokio::test]
async fn get_answers_404_for_unknown_and_400_for_malformed_ids() {
    let app = spawn_app().await;
    envelope(
        app.get_invoice("6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11")
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
    for bad in ["123", "not-a-uuid", "6b1f3a0e3c1d4c7e9a512b8f5d0e7c11xxxx"] {
        envelope(app.get_invoice(bad).await, StatusCode::BAD_REQUEST).await;
    }
}
