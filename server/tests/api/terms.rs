//! Fine, interest and discount (issue 23) over the API: stored and answered
//! in both forms, every bad value a field error that creates nothing, a due
//! date before today refused, and the amount due today, exact to the cent,
//! on the payer page, in the PIX BR Code and on the printed boleto.

use paylink_model::charges::is_business_day;
use paylink_model::Date;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::boleto_pdf::pdf_text;
use crate::helpers::*;
use crate::payer::parse_br_code;

fn cents(v: &Value) -> i64 {
    (v.as_f64().unwrap_or_else(|| panic!("not a number: {v}")) * 100.0).round() as i64
}

/// The three terms, the discount until 10 days before [`invoice_body`]'s first due date.
fn terms() -> Value {
    json!({
        "fine": { "type": "PERCENTAGE", "value": 2.0 },
        "interest": { "value": 1.0 },
        "discount": {
            "type": "FIXED", "value": 5.0,
            "untilDate": next_jan_31().add_days(-10).unwrap().to_string()
        }
    })
}

async fn count_invoices(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM invoices")
        .fetch_one(&app.raw_pool().await)
        .await
        .unwrap()
}

#[tokio::test]
async fn terms_are_stored_and_answered_in_both_forms() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let res = app
        .post_invoice(&with(invoice_body(&customer), terms()))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let created = body(res).await;
    let detail = body(app.get_invoice(created["id"].as_str().unwrap()).await).await;
    for form in [&created, &detail] {
        for key in ["fine", "interest", "discount"] {
            assert_eq!(form[key], terms()[key], "{key} in {form}");
        }
    }
    // Without terms they are null in both forms.
    let created = body(app.post_invoice(&invoice_body(&customer)).await).await;
    let detail = body(app.get_invoice(created["id"].as_str().unwrap()).await).await;
    for form in [&created, &detail] {
        for key in ["fine", "interest", "discount"] {
            assert!(form[key].is_null(), "{key} in {form}");
        }
    }
    // A fixed fine and a percentage discount, in reais and percent as given.
    let t = json!({
        "fine": { "type": "FIXED", "value": 1.5 },
        "discount": { "type": "PERCENTAGE", "value": 2.5, "untilDate": next_jan_31().to_string() }
    });
    let created = body(
        app.post_invoice(&with(invoice_body(&customer), t.clone()))
            .await,
    )
    .await;
    let detail = body(app.get_invoice(created["id"].as_str().unwrap()).await).await;
    assert_eq!(detail["fine"], t["fine"]);
    assert_eq!(detail["discount"], t["discount"]);
    assert!(detail["interest"].is_null());
}

#[tokio::test]
async fn every_bad_term_is_a_field_error_and_creates_nothing() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let due = next_jan_31();
    let until = due.add_days(-10).unwrap().to_string();
    let after_due = due.add_days(1).unwrap().to_string();
    let yesterday = days_from_today(-1);
    // invoice_body: R$ 100,00 in 3, the smallest installment R$ 33,33.
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "fine without type",
            json!({ "fine": { "value": 2 } }),
            "fine.type",
        ),
        (
            "fine of an unknown type",
            json!({ "fine": { "type": "PERCENT", "value": 2 } }),
            "fine.type",
        ),
        (
            "fine type not a string",
            json!({ "fine": { "type": 1, "value": 2 } }),
            "fine.type",
        ),
        (
            "fine without value",
            json!({ "fine": { "type": "PERCENTAGE" } }),
            "fine.value",
        ),
        (
            "fine of zero",
            json!({ "fine": { "type": "PERCENTAGE", "value": 0 } }),
            "fine.value",
        ),
        (
            "negative fine",
            json!({ "fine": { "type": "FIXED", "value": -1 } }),
            "fine.value",
        ),
        (
            "fine with 3 decimals",
            json!({ "fine": { "type": "PERCENTAGE", "value": 1.005 } }),
            "fine.value",
        ),
        (
            "fine over 20 %",
            json!({ "fine": { "type": "PERCENTAGE", "value": 20.01 } }),
            "fine.value",
        ),
        (
            "fixed fine over 20 % of an installment",
            json!({ "fine": { "type": "FIXED", "value": 6.67 } }),
            "fine.value",
        ),
        (
            "fine value a string",
            json!({ "fine": { "type": "PERCENTAGE", "value": "2" } }),
            "fine.value",
        ),
        ("fine not an object", json!({ "fine": 2 }), "fine"),
        (
            "interest without value",
            json!({ "interest": {} }),
            "interest.value",
        ),
        (
            "interest of zero",
            json!({ "interest": { "value": 0 } }),
            "interest.value",
        ),
        (
            "interest over 10 % a month",
            json!({ "interest": { "value": 10.01 } }),
            "interest.value",
        ),
        (
            "interest with 3 decimals",
            json!({ "interest": { "value": 0.333 } }),
            "interest.value",
        ),
        (
            "interest value a boolean",
            json!({ "interest": { "value": true } }),
            "interest.value",
        ),
        (
            "interest not an object",
            json!({ "interest": "1%" }),
            "interest",
        ),
        (
            "discount without type",
            json!({ "discount": { "value": 5, "untilDate": until } }),
            "discount.type",
        ),
        (
            "discount of an unknown type",
            json!({ "discount": { "type": "fixed", "value": 5, "untilDate": until } }),
            "discount.type",
        ),
        (
            "discount without value",
            json!({ "discount": { "type": "FIXED", "untilDate": until } }),
            "discount.value",
        ),
        (
            "discount of the smallest installment",
            json!({ "discount": { "type": "FIXED", "value": 33.33, "untilDate": until } }),
            "discount.value",
        ),
        (
            "discount of 100 %",
            json!({ "discount": { "type": "PERCENTAGE", "value": 100, "untilDate": until } }),
            "discount.value",
        ),
        (
            "negative discount",
            json!({ "discount": { "type": "PERCENTAGE", "value": -5, "untilDate": until } }),
            "discount.value",
        ),
        (
            "discount without untilDate",
            json!({ "discount": { "type": "FIXED", "value": 5 } }),
            "discount.untilDate",
        ),
        (
            "untilDate not ISO",
            json!({ "discount": { "type": "FIXED", "value": 5, "untilDate": "25/01/2027" } }),
            "discount.untilDate",
        ),
        (
            "untilDate that does not exist",
            json!({ "discount": { "type": "FIXED", "value": 5, "untilDate": format!("{}-02-30", due.year()) } }),
            "discount.untilDate",
        ),
        (
            "untilDate after dueDate",
            json!({ "discount": { "type": "FIXED", "value": 5, "untilDate": after_due } }),
            "discount.untilDate",
        ),
        (
            "untilDate before today",
            json!({ "discount": { "type": "FIXED", "value": 5, "untilDate": yesterday } }),
            "discount.untilDate",
        ),
        (
            "untilDate a number",
            json!({ "discount": { "type": "FIXED", "value": 5, "untilDate": 20270125 } }),
            "discount.untilDate",
        ),
        ("discount a list", json!({ "discount": [] }), "discount"),
        (
            "dueDate before today",
            json!({ "dueDate": yesterday }),
            "dueDate",
        ),
    ];
    for (name, patch, path) in cases {
        for lang in ["pt-BR", "en"] {
            let res = app
                .client
                .post(app.url("/invoices/applications/invoices"))
                .header("Authorization", format!("Basic {}", app.token))
                .header("Accept-Language", lang)
                .json(&with(invoice_body(&customer), patch.clone()))
                .send()
                .await
                .unwrap();
            let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
            let messages = errors[path]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: no error at {path} in {errors}"));
            assert!(
                !messages.is_empty()
                    && messages
                        .iter()
                        .all(|m| m.as_str().is_some_and(|m| m.len() > 5)),
                "{name}: {errors}"
            );
            assert_eq!(
                errors.as_object().unwrap().len(),
                1,
                "{name}: only {path} is wrong: {errors}"
            );
        }
    }
    assert_eq!(count_invoices(&app).await, 0, "nothing created");
}

#[tokio::test]
async fn messages_say_what_is_wrong_in_the_callers_language() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let res = app
        .post_invoice(&with(
            invoice_body(&customer),
            json!({ "dueDate": days_from_today(-1) }),
        ))
        .await;
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(
        errors["dueDate"],
        json!(["A data não pode ser anterior a hoje."])
    );
}

#[tokio::test]
async fn a_due_date_of_today_is_accepted() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let req = with(
        invoice_body(&customer),
        json!({ "dueDate": days_from_today(0), "installmentCount": 1, "invoiceType": "SINGLE",
                "discount": { "type": "FIXED", "value": 1, "untilDate": days_from_today(0) } }),
    );
    let res = app.post_invoice(&req).await;
    assert_eq!(res.status(), StatusCode::OK, "{}", body(res).await);
}

#[tokio::test]
async fn a_consumers_fine_is_capped_at_two_percent() {
    let app = spawn_app().await;
    let customer = |document: &str| {
        let app = &app;
        let document = document.to_string();
        async move {
            let res = app
                .post_customer(&json!({ "fullName": "Maria da Silva", "document": document }))
                .await;
            body(res).await["id"].as_str().unwrap().to_string()
        }
    };
    let cpf = customer("529.982.247-25").await;
    let cnpj = customer("11.222.333/0001-81").await;
    let fine = |value: f64| json!({ "fine": { "type": "PERCENTAGE", "value": value } });
    let res = app
        .post_invoice(&with(invoice_body(&cpf), fine(2.01)))
        .await;
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(errors.as_object().unwrap().len(), 1, "{errors}");
    assert!(
        errors["fine.value"][0].as_str().unwrap().contains("2"),
        "{errors}"
    );
    // A fixed fine above 2 % of the smallest installment (R$ 33,33) too.
    let res = app
        .post_invoice(&with(
            invoice_body(&cpf),
            json!({ "fine": { "type": "FIXED", "value": 0.67 } }),
        ))
        .await;
    envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(count_invoices(&app).await, 0);
    let res = app.post_invoice(&with(invoice_body(&cpf), fine(2.0))).await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .post_invoice(&with(invoice_body(&cnpj), fine(10.0)))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(body(res).await["fine"]["value"], 10.0);
}

/// The latest business day at least `days` before today: a due date that
/// does not move, so the days late are exactly today − due.
fn past_business_day(days: i64) -> Date {
    let mut d = today().add_days(-days).unwrap();
    while !is_business_day(d) {
        d = d.add_days(-1).unwrap();
    }
    d
}

/// An invoice created through the proxy, then made due on `due` in the
/// database (as time passing would: the API refuses a past due date).
async fn invoice_due(app: &TestApp, patch: Value, due: Option<Date>) -> String {
    let res = app
        .post("/api/customers", &json!({ "fullName": "Maria da Silva" }))
        .await;
    let customer = body(res).await["id"].as_str().unwrap().to_string();
    let req = with(
        invoice_body(&customer),
        with(
            json!({ "installmentCount": 1, "invoiceType": "SINGLE", "price": 123.45,
                    "dueDate": days_from_today(20) }),
            patch,
        ),
    );
    let res = app.post("/api/invoices", &req).await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    if let Some(due) = due {
        let pool = app.raw_pool().await;
        for table in ["invoices", "installments"] {
            let column = if table == "invoices" {
                "id"
            } else {
                "invoice_id"
            };
            sqlx::query(&format!(
                "UPDATE {table} SET due_date = $1 WHERE {column} = $2"
            ))
            .bind(due.to_string())
            .bind(&id)
            .execute(&pool)
            .await
            .unwrap();
        }
    }
    id
}

#[tokio::test]
async fn after_the_due_date_the_payer_pays_fine_and_interest_exact_to_the_cent() {
    let app = spawn_app_with(local_proxy).await;
    let due = past_business_day(13);
    let late = today().days_since_epoch() - due.days_since_epoch();
    let id = invoice_due(
        &app,
        json!({ "fine": { "type": "PERCENTAGE", "value": 2.0 }, "interest": { "value": 1.0 } }),
        Some(due),
    )
    .await;
    let view = body(app.get(&format!("/api/pay/{id}")).await).await;
    assert_eq!(view["fine"], json!({ "type": "PERCENTAGE", "value": 2.0 }));
    assert_eq!(view["interest"], json!({ "value": 1.0 }));
    assert!(view["discount"].is_null());
    let a = &view["installments"][0]["amountDue"];
    // R$ 123,45: 2 % is 2,469 → 2,46; 1 % a month for `late` days is
    // 123,45 × 0,01 × late ÷ 30, truncated to the cent.
    let interest = 12_345 * 100 * late / (30 * 10_000);
    assert_eq!(cents(&a["original"]), 12_345);
    assert_eq!(cents(&a["discount"]), 0);
    assert_eq!(cents(&a["fine"]), 246);
    assert_eq!(cents(&a["interest"]), interest);
    assert_eq!(cents(&a["total"]), 12_345 + 246 + interest);
    assert_eq!(a["lateDays"], late);
    assert_eq!(a["date"], today().to_string());
    assert_eq!(a["effectiveDueDate"], due.to_string());
    if late == 13 {
        // 123,45 × 0,01 × 13 ÷ 30 = 0,53495 → 0,53.
        assert_eq!(interest, 53);
    }
    // The installment's price stays what was charged; the BR Code carries today's amount.
    assert_eq!(cents(&view["installments"][0]["price"]), 12_345);
    let total = 12_345 + 246 + interest;
    let pix = parse_br_code(view["installments"][0]["pix"]["payload"].as_str().unwrap());
    assert_eq!(pix["54"], format!("{}.{:02}", total / 100, total % 100));

    // The boleto states the terms and fills the multa/juros and charged boxes.
    let text = pdf_text(
        app.get(&format!("/api/pay/{id}/installments/1/boleto.pdf"))
            .await,
    )
    .await;
    let after = due.format_br();
    assert!(
        text.contains(&format!("Após {after}, multa de R$ 2,46.")),
        "{text}"
    );
    assert!(
        text.contains(&format!("Após {after}, juros de mora de 1 % ao mês")),
        "{text}"
    );
    let brl = |c: i64| format!("{},{:02}", c / 100, c % 100);
    assert!(
        text.contains(&brl(246 + interest)),
        "multa/juros {}: {text}",
        brl(246 + interest)
    );
    assert!(
        text.contains(&brl(total)),
        "valor cobrado {}: {text}",
        brl(total)
    );
}

#[tokio::test]
async fn a_due_date_on_a_weekend_or_holiday_charges_nothing_until_the_next_business_day() {
    let app = spawn_app_with(local_proxy).await;
    // The last non-business day before today, then the business day after it.
    let mut due = today().add_days(-1).unwrap();
    while is_business_day(due) {
        due = due.add_days(-1).unwrap();
    }
    let mut moved = due;
    while !is_business_day(moved) {
        moved = moved.add_days(1).unwrap();
    }
    let id = invoice_due(
        &app,
        json!({ "fine": { "type": "FIXED", "value": 3.0 }, "interest": { "value": 3.0 } }),
        Some(due),
    )
    .await;
    let view = body(app.get(&format!("/api/pay/{id}")).await).await;
    let a = &view["installments"][0]["amountDue"];
    assert_eq!(a["effectiveDueDate"], moved.to_string());
    let late = (today().days_since_epoch() - moved.days_since_epoch()).max(0);
    assert_eq!(a["lateDays"], late);
    let (fine, interest) = if late > 0 {
        (300, 12_345 * 300 * late / (30 * 10_000))
    } else {
        (0, 0)
    };
    assert_eq!(cents(&a["fine"]), fine);
    assert_eq!(cents(&a["interest"]), interest);
    assert_eq!(cents(&a["total"]), 12_345 + fine + interest);
}

#[tokio::test]
async fn before_until_date_the_payer_pays_the_discounted_amount() {
    let app = spawn_app_with(local_proxy).await;
    let until = today().add_days(10).unwrap();
    let id = invoice_due(
        &app,
        json!({
            "discount": { "type": "PERCENTAGE", "value": 5.0, "untilDate": until.to_string() },
            "fine": { "type": "PERCENTAGE", "value": 2.0 }
        }),
        None,
    )
    .await;
    let view = body(app.get(&format!("/api/pay/{id}")).await).await;
    let a = &view["installments"][0]["amountDue"];
    // 5 % of R$ 123,45 is 6,1725 → 6,17.
    assert_eq!(cents(&a["discount"]), 617);
    assert_eq!(cents(&a["fine"]) + cents(&a["interest"]), 0);
    assert_eq!(cents(&a["total"]), 11_728);
    let pix = parse_br_code(view["installments"][0]["pix"]["payload"].as_str().unwrap());
    assert_eq!(pix["54"], "117.28");
    let text = pdf_text(
        app.get(&format!("/api/pay/{id}/installments/1/boleto.pdf"))
            .await,
    )
    .await;
    assert!(
        text.contains(&format!(
            "Até {}, desconto de R$ 6,17: pague R$ 117,28.",
            until.format_br()
        )),
        "{text}"
    );
    assert!(text.contains("6,17"), "desconto box: {text}");
}

#[tokio::test]
async fn a_paid_installment_owes_nothing_more() {
    let app = spawn_app_with(local_proxy).await;
    let id = invoice_due(
        &app,
        json!({ "fine": { "type": "PERCENTAGE", "value": 2.0 } }),
        Some(past_business_day(5)),
    )
    .await;
    let res = app.post_empty(&format!("/api/pay/{id}/simulate")).await;
    assert_eq!(res.status(), StatusCode::OK);
    let view = body(res).await;
    assert!(view["installments"][0]["amountDue"].is_null(), "{view}");
}

#[tokio::test]
async fn each_installment_gets_the_discount_until_as_many_days_before_its_due_date() {
    let app = spawn_app_with(local_proxy).await;
    let res = app
        .post("/api/customers", &json!({ "fullName": "Maria da Silva" }))
        .await;
    let customer = body(res).await["id"].as_str().unwrap().to_string();
    let first = next_jan_31();
    let req = with(
        invoice_body(&customer),
        json!({ "discount": { "type": "FIXED", "value": 5.0,
                              "untilDate": first.add_days(-6).unwrap().to_string() } }),
    );
    let res = app.post("/api/invoices", &req).await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let view = body(app.get(&format!("/api/pay/{id}")).await).await;
    // Today is before every last day: R$ 33,34 − 5 and R$ 33,33 − 5.
    let totals: Vec<i64> = view["installments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| cents(&i["amountDue"]["total"]))
        .collect();
    assert_eq!(totals, [2_834, 2_833, 2_833]);
    let second = Date::parse_iso(&invoice_body_dues()[1]).unwrap();
    let text = pdf_text(
        app.get(&format!("/api/pay/{id}/installments/2/boleto.pdf"))
            .await,
    )
    .await;
    let until = second.add_days(-6).unwrap().format_br();
    assert!(
        text.contains(&format!(
            "Até {until}, desconto de R$ 5,00: pague R$ 28,33."
        )),
        "{text}"
    );
}
