//! The merchant's lists over real HTTP: `GET /invoices/applications/invoices`
//! and `.../customers`, their filters, pages and bad parameters.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;
use paylink_server::store::payments;

impl TestApp {
    async fn list(&self, path: &str, query: &str) -> reqwest::Response {
        self.client
            .get(self.url(&format!("/invoices/applications/{path}{query}")))
            .header("Authorization", format!("Basic {}", self.token))
            .send()
            .await
            .unwrap()
    }

    /// Every page of a list, following nextCursor; the ids in order.
    async fn all_ids(&self, path: &str, filter: &str) -> Vec<String> {
        let mut ids = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..50 {
            let mut query = format!("?limit=2{filter}");
            if let Some(c) = &cursor {
                query.push_str(&format!("&cursor={}", urlencode(c)));
            }
            let res = self.list(path, &query).await;
            assert_eq!(res.status(), StatusCode::OK);
            let page = body(res).await;
            let data = page["data"].as_array().unwrap();
            assert!(data.len() <= 2, "{page}");
            ids.extend(data.iter().map(|r| r["id"].as_str().unwrap().to_string()));
            match page["nextCursor"].as_str() {
                Some(c) => cursor = Some(c.to_string()),
                None => return ids,
            }
        }
        panic!("more than 50 pages");
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Rows made in one millisecond share their creation time and are ordered
/// by id: the pause gives each its own, so "newest first" is the order made.
async fn pause() {
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
}

async fn customer(app: &TestApp, body: Value) -> String {
    pause().await;
    let res = app.post_customer(&body).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    crate::helpers::body(res).await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn invoice(app: &TestApp, customer_id: &str, external_id: &str, due_in_days: i64) -> String {
    pause().await;
    let res = app
        .post_invoice(&json!({
            "customerId": customer_id,
            "externalId": external_id,
            "dueDate": days_from_today(due_in_days),
            "paymentTypes": ["PIX"],
            "installmentCount": 1,
            "price": 10.00
        }))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    crate::helpers::body(res).await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Open, paid, overdue and cancelled invoices, each found by its filter and
/// by no other; text search by name, document, e-mail and externalId; every
/// page followed to the end, newest first, nothing twice.
#[tokio::test]
async fn invoices_are_listed_by_status_due_date_and_text_page_by_page() {
    let app = spawn_app().await;
    let maria = customer(
        &app,
        json!({ "fullName": "Maria da Silva", "document": "529.982.247-25", "email": "maria@example.com.br" }),
    )
    .await;
    let joao = customer(
        &app,
        json!({ "fullName": "João Pereira", "email": "JOAO@loja.example" }),
    )
    .await;

    let open = invoice(&app, &maria, "pedido-1", 10).await;
    let paid = invoice(&app, &maria, "pedido-2", 20).await;
    let overdue = invoice(&app, &joao, "pedido_3%", 30).await;
    let cancelled = invoice(&app, &joao, "pedido-4", 40).await;
    let later = invoice(&app, &joao, "pedido-5", 60).await;
    payments::simulate_pay(&app.db, &paid, None, None)
        .await
        .unwrap();
    payments::delete_invoice(&app.db, &cancelled).await.unwrap();
    // Overdue: its installment's due date moved to yesterday (creation refuses past dates).
    sqlx::query("UPDATE installments SET due_date = $1 WHERE invoice_id = $2")
        .bind(days_from_today(-1))
        .bind(&overdue)
        .execute(&app.raw_pool().await)
        .await
        .unwrap();

    // Everything not cancelled, newest first, two per page.
    let all = app.all_ids("invoices", "").await;
    assert_eq!(
        all,
        [
            later.as_str(),
            overdue.as_str(),
            paid.as_str(),
            open.as_str()
        ]
    );

    for (status, expected) in [
        ("open", vec![later.as_str(), open.as_str()]),
        ("paid", vec![paid.as_str()]),
        ("overdue", vec![overdue.as_str()]),
        ("cancelled", vec![cancelled.as_str()]),
        ("reversed", vec![]),
    ] {
        let got = app.all_ids("invoices", &format!("&status={status}")).await;
        assert_eq!(got, expected, "status={status}");
    }

    // The detail form, with its payment link; a cancelled one keeps its rows.
    let res = app.list("invoices", "?status=paid").await;
    let page = body(res).await;
    let row = &page["data"][0];
    assert_eq!(row["installments"][0]["_status"], "CONFIRMED", "{row}");
    assert_eq!(row["url"], app.url(&format!("/pay/{paid}")));
    assert_eq!(row["customer"]["fullName"], "Maria da Silva");
    assert_eq!(page["nextCursor"], Value::Null);

    // Due-date range (the invoice's due date), both ends included.
    let range = format!(
        "&dueFrom={}&dueTo={}",
        days_from_today(20),
        days_from_today(40)
    );
    assert_eq!(
        app.all_ids("invoices", &range).await,
        [overdue.as_str(), paid.as_str()]
    );

    // Text: name (any case), document with or without its mask, e-mail, externalId;
    // LIKE's wildcards are taken literally.
    for (q, expected) in [
        ("maria", vec![paid.as_str(), open.as_str()]),
        ("PEREIRA", vec![later.as_str(), overdue.as_str()]),
        ("529.982", vec![paid.as_str(), open.as_str()]),
        ("98224725", vec![paid.as_str(), open.as_str()]),
        ("joao@loja", vec![later.as_str(), overdue.as_str()]),
        ("pedido-2", vec![paid.as_str()]),
        ("_3%", vec![overdue.as_str()]),
        ("%", vec![overdue.as_str()]),
        ("_", vec![overdue.as_str()]),
        ("pedido_5", vec![]),
        ("ninguém", vec![]),
    ] {
        let got = app
            .all_ids("invoices", &format!("&q={}", urlencode(q)))
            .await;
        assert_eq!(got, expected, "q={q}");
    }

    // A page's rows are read together (two statements for the page): each
    // still says what its invoice's own detail says, installments, payment
    // types, notifications and webhooks included.
    pause().await;
    let res = app
        .post_invoice(&json!({
            "customerId": maria, "externalId": "pedido-6", "dueDate": days_from_today(70),
            "paymentTypes": ["PIX", "BOLETO"], "invoiceType": "INSTALLMENT", "installmentCount": 3,
            "price": 100.00,
            "notifications": [{ "type": "SEND_INVOICE_REMINDER", "channel": "Email", "period": 5 }],
            "webhooks": [{ "hookType": "PAYMENT_CONFIRMED", "url": "https://example.com/hook" }]
        }))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let page = body(app.list("invoices", "?limit=10").await).await;
    let rows = page["data"].as_array().unwrap();
    assert_eq!(rows.len(), 5, "{page}");
    assert_eq!(rows[0]["installments"].as_array().unwrap().len(), 3);
    for row in rows {
        let id = row["id"].as_str().unwrap();
        let res = app
            .client
            .get(app.url(&format!("/invoices/applications/invoices/{id}")))
            .header("Authorization", format!("Basic {}", app.token))
            .send()
            .await
            .unwrap();
        assert_eq!(&body(res).await, row, "{id}");
    }

    // Another application sees none of them.
    let other = app.other_token().await;
    let res = app
        .client
        .get(app.url("/invoices/applications/invoices"))
        .header("Authorization", format!("Basic {other}"))
        .send()
        .await
        .unwrap();
    assert_eq!(body(res).await, json!({ "data": [], "nextCursor": null }));
}

#[tokio::test]
async fn customers_are_listed_and_searched_page_by_page() {
    let app = spawn_app().await;
    let a = customer(
        &app,
        json!({ "fullName": "Ana Souza", "email": "ana@example.com" }),
    )
    .await;
    let b = customer(
        &app,
        json!({ "fullName": "Bruno Lima", "document": "11.222.333/0001-81" }),
    )
    .await;
    let c = customer(&app, json!({ "fullName": "Carla Souza" })).await;
    assert_eq!(
        app.all_ids("customers", "").await,
        [c.as_str(), b.as_str(), a.as_str()]
    );
    assert_eq!(
        app.all_ids("customers", "&q=souza").await,
        [c.as_str(), a.as_str()]
    );
    assert_eq!(app.all_ids("customers", "&q=11222333").await, [b.as_str()]);
    let page = body(app.list("customers", "?q=ana").await).await;
    assert_eq!(page["data"][0]["email"], "ana@example.com");
    assert_eq!(page["data"][0]["fullName"], "Ana Souza");
}

/// A page of customers is read in one statement: each row still says all
/// its creation said (the address by its id, or none), across pages.
#[tokio::test]
async fn a_customer_page_comes_back_whole_with_addresses() {
    let app = spawn_app().await;
    let mut created = Vec::new();
    for body in [
        json!({ "fullName": "Ana Souza", "document": "529.982.247-25", "email": "ana@example.com",
                "phone": "(11) 98765-4321", "business": "Loja da Ana", "observations": "cliente antiga",
                "address": { "address": "Avenida Paulista", "number": "1000", "complement": "sala 2",
                             "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP",
                             "zipcode": "01310-100" } }),
        json!({ "fullName": "Bruno Lima" }),
        json!({ "fullName": "Carla Dias", "address": { "zipcode": "20040-020", "state": "RJ",
                                                        "city": "Rio de Janeiro" } }),
    ] {
        pause().await;
        let res = app.post_customer(&body).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        created.push(crate::helpers::body(res).await);
    }
    // The detail form: the creation's fields, `addressId` for the address.
    let expected: Vec<Value> = created
        .iter()
        .rev()
        .map(|c| {
            let mut detail = c.as_object().unwrap().clone();
            let address = detail.remove("address").unwrap_or(Value::Null);
            detail.insert("addressId".into(), address["id"].clone());
            Value::Object(detail)
        })
        .collect();
    assert!(expected[0]["addressId"].is_string() && expected[1]["addressId"].is_null());

    let mut rows = Vec::new();
    let mut query = "?limit=2".to_string();
    loop {
        let page = body(app.list("customers", &query).await).await;
        rows.extend(page["data"].as_array().unwrap().iter().cloned());
        match page["nextCursor"].as_str() {
            Some(c) => query = format!("?limit=2&cursor={}", urlencode(c)),
            None => break,
        }
    }
    assert_eq!(rows, expected);
}

/// `q` as a Brazilian merchant types it: any case, with or without the
/// accents, finds the names, e-mails and externalIds stored with them,
/// alike on SQLite (whose LOWER is ASCII-only) and PostgreSQL.
#[tokio::test]
async fn text_search_ignores_case_and_portuguese_accents() {
    let app = spawn_app().await;
    let joao = customer(
        &app,
        json!({ "fullName": "João Pereira", "email": "JOAO@Loja.example" }),
    )
    .await;
    let conceicao = customer(
        &app,
        json!({ "fullName": "MARIA DA CONCEIÇÃO", "email": "maria@example.com.br" }),
    )
    .await;
    let ana = customer(&app, json!({ "fullName": "Ana Souza" })).await;
    let of_joao = invoice(&app, &joao, "Pedido-Ação", 10).await;
    let of_conceicao = invoice(&app, &conceicao, "pedido-2", 10).await;
    let of_ana = invoice(&app, &ana, "pedido-3", 10).await;

    for (q, customers, invoices) in [
        ("JOÃO", vec![joao.as_str()], vec![of_joao.as_str()]),
        ("joao", vec![joao.as_str()], vec![of_joao.as_str()]),
        ("João Pereira", vec![joao.as_str()], vec![of_joao.as_str()]),
        ("joão@loja", vec![joao.as_str()], vec![of_joao.as_str()]),
        (
            "Conceição",
            vec![conceicao.as_str()],
            vec![of_conceicao.as_str()],
        ),
        (
            "conceicao",
            vec![conceicao.as_str()],
            vec![of_conceicao.as_str()],
        ),
        (
            "maria da conceicao",
            vec![conceicao.as_str()],
            vec![of_conceicao.as_str()],
        ),
        // A name without accents, found as before, and with one typed.
        ("souza", vec![ana.as_str()], vec![of_ana.as_str()]),
        ("SÓUZA", vec![ana.as_str()], vec![of_ana.as_str()]),
        // The externalId, folded alike.
        ("PEDIDO-ACAO", vec![], vec![of_joao.as_str()]),
        ("joana", vec![], vec![]),
        ("conceiçao pereira", vec![], vec![]),
    ] {
        let filter = format!("&q={}", urlencode(q));
        assert_eq!(
            app.all_ids("customers", &filter).await,
            customers,
            "customers, q={q}"
        );
        assert_eq!(
            app.all_ids("invoices", &filter).await,
            invoices,
            "invoices, q={q}"
        );
    }
    // The export filters alike.
    let csv = app
        .list("invoices.csv", "?q=CONCEICAO")
        .await
        .text()
        .await
        .unwrap();
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 2, "{csv}");
    assert!(lines[1].starts_with(&format!("{of_conceicao};")), "{csv}");
}

/// Every bad parameter is a 422 keyed by its name, in the caller's language;
/// a repeated one a 400; no token a 401. Never a 500.
#[tokio::test]
async fn bad_list_parameters_get_the_envelope() {
    let app = spawn_app().await;
    for (query, field) in [
        ("?status=late", "status"),
        ("?dueFrom=2027-13-01", "dueFrom"),
        ("?dueTo=31/01/2027", "dueTo"),
        ("?dueFrom=2027-02-01&dueTo=2027-01-31", "dueTo"),
        ("?limit=0", "limit"),
        ("?limit=101", "limit"),
        ("?limit=dez", "limit"),
        ("?cursor=abc", "cursor"),
        ("?cursor=2026-11-25T12:00:00.000Z~not-a-uuid", "cursor"),
        (&format!("?q={}", "a".repeat(101)), "q"),
        // 102 characters as sent, 51 once the combining tildes are folded.
        (&format!("?q={}", "a%CC%83".repeat(51)), "q"),
        ("?q=a%00b", "q"),
    ] {
        let errors = envelope(
            app.list("invoices", query).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(errors[field].is_array(), "{query}: {errors}");
        assert_eq!(errors.as_object().unwrap().len(), 1, "{query}: {errors}");
    }
    let errors = envelope(
        app.list("customers", "?status=open").await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(errors["status"][0], "Esta lista não tem este filtro.");
    let res = app
        .client
        .get(app.url("/invoices/applications/invoices?limit=0"))
        .header("Authorization", format!("Basic {}", app.token))
        .header("Accept-Language", "en")
        .send()
        .await
        .unwrap();
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(errors["limit"][0], "Use a whole number between 1 and 100.");
    envelope(
        app.list("invoices", "?limit=1&limit=2").await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    envelope(
        app.get("/invoices/applications/invoices").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    envelope(
        app.get("/invoices/applications/customers").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

/// The widget's list screens go through the proxy (which holds the token),
/// query string and all; without an operator's session they are
/// refused like every merchant screen.
#[tokio::test]
async fn the_proxy_lists_for_the_merchant_screens_only() {
    let app = spawn_app_with(local_proxy).await;
    let maria = customer(&app, json!({ "fullName": "Maria da Silva" })).await;
    let id = invoice(&app, &maria, "pedido-9", 5).await;
    let page = body(app.get("/api/invoices?status=open&q=maria&limit=5").await).await;
    assert_eq!(page["data"][0]["id"], id.as_str(), "{page}");
    let page = body(app.get("/api/customers?q=maria").await).await;
    assert_eq!(page["data"][0]["id"], maria.as_str(), "{page}");
    let errors = envelope(
        app.get("/api/invoices?limit=0").await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(errors["limit"].is_array());

    let public = spawn_app_anonymous().await;
    envelope(public.get("/api/invoices").await, StatusCode::UNAUTHORIZED).await;
    envelope(public.get("/api/customers").await, StatusCode::UNAUTHORIZED).await;
}

/// The export: what a Brazilian spreadsheet opens (BOM, `;`, decimal comma,
/// dd/mm/aaaa, a header), one line per installment of every matching
/// invoice (more rows than the server buffers: it streams), a payer's name
/// that looks like a formula defused; through the proxy too.
#[tokio::test]
async fn invoices_export_as_csv_for_a_spreadsheet() {
    let app = spawn_app_with(local_proxy).await;
    let evil = customer(
        &app,
        json!({ "fullName": "=HYPERLINK(\"http://x\")", "document": "529.982.247-25" }),
    )
    .await;
    let paid = invoice(&app, &evil, "pedido;1", 10).await;
    payments::simulate_pay(&app.db, &paid, None, None)
        .await
        .unwrap();
    let ana = customer(&app, json!({ "fullName": "Ana Souza" })).await;
    for n in 0..25 {
        let res = app
            .post_invoice(&json!({
                "customerId": ana, "externalId": format!("lote-{n}"),
                "dueDate": days_from_today(5), "paymentTypes": ["BOLETO"],
                "invoiceType": "INSTALLMENT", "installmentCount": 12, "price": 1200.00
            }))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }

    let res = app.list("invoices.csv", "").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"faturas-"));
    let bytes = res.bytes().await.unwrap();
    assert_eq!(&bytes[..3], b"\xEF\xBB\xBF", "UTF-8 BOM");
    let text = std::str::from_utf8(&bytes[3..]).unwrap();
    let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines[0],
        "Fatura;Pedido;Cliente;CPF/CNPJ;E-mail;Tipo;Parcela;Vencimento;Valor (R$);Pago (R$);Situação;Pago em"
    );
    assert_eq!(
        lines.len(),
        1 + 25 * 12 + 1,
        "a header and one line per installment"
    );
    let due = today()
        .add_days(5)
        .unwrap()
        .format_for(paylink_model::Lang::PtBr);
    assert!(
        lines[1].contains(&format!(";1/12;{due};100,00;0,00;Em aberto;")),
        "{}",
        lines[1]
    );
    let paid_line = lines.last().unwrap();
    assert!(
        paid_line.starts_with(&format!(
            "{paid};\"pedido;1\";\"'=HYPERLINK(\"\"http://x\"\")\";529.982.247-25;"
        )),
        "{paid_line}"
    );
    assert!(paid_line.contains(";10,00;10,00;Paga;"), "{paid_line}");

    // The list's filters apply; the proxy streams it to the widget.
    let proxied = app.get("/api/invoices.csv?status=paid").await;
    assert_eq!(proxied.status(), StatusCode::OK);
    assert!(proxied.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("faturas-"));
    let text = proxied.text().await.unwrap();
    assert_eq!(
        text.split("\r\n").filter(|l| !l.is_empty()).count(),
        2,
        "{text}"
    );

    // Paging parameters are not the export's; bad filters as in the list.
    let errors = envelope(
        app.list("invoices.csv", "?limit=10&status=late").await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(
        errors["limit"].is_array() && errors["status"].is_array(),
        "{errors}"
    );
    envelope(
        app.get("/invoices/applications/invoices.csv").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

/// The home screen's numbers: this month's received (by the day paid),
/// open and overdue, and 12 months of received, exact to the cent; another
/// application's money never counts; through the proxy too.
#[tokio::test]
async fn the_dashboard_sums_the_month_and_the_last_twelve() {
    let app = spawn_app_with(local_proxy).await;
    let today = today();
    let month = format!("{:04}-{:02}", today.year(), today.month());
    let empty = body(app.list("dashboard", "").await).await;
    assert_eq!(empty["month"], month.as_str());
    assert_eq!(
        (
            empty["received"].as_f64(),
            empty["open"].as_f64(),
            empty["overdue"].as_f64()
        ),
        (Some(0.0), Some(0.0), Some(0.0))
    );
    assert_eq!(empty["months"].as_array().unwrap().len(), 12);
    assert_eq!(empty["months"][11]["month"], month.as_str());

    let maria = customer(&app, json!({ "fullName": "Maria da Silva" })).await;
    // Due the last day of this month: open.
    let last_day = paylink_model::Date::new(
        today.year(),
        today.month(),
        paylink_model::date::days_in_month(today.year(), today.month()),
    )
    .unwrap();
    let days_left = last_day.days_since_epoch() - today.days_since_epoch();
    invoice(&app, &maria, "aberta", days_left).await;
    // Paid today 9,99 and last month 5,50 (a payment recorded by hand).
    let paid_now = invoice(&app, &maria, "paga", 40).await;
    let paid_before = invoice(&app, &maria, "paga-antes", 40).await;
    for (id, amount, day) in [
        (&paid_now, 9.99, today.to_string()),
        (
            &paid_before,
            5.5,
            today
                .add_days(-(i64::from(today.day())))
                .unwrap()
                .to_string(),
        ),
    ] {
        made_on(&app, id, paylink_model::Date::parse_iso(&day).unwrap()).await;
        let res = app
            .client
            .post(app.url(&format!(
                "/invoices/applications/invoices/{id}/installments/1/payments"
            )))
            .header("Authorization", format!("Basic {}", app.token))
            .json(&json!({ "amount": amount, "paidOn": day }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
    }
    // Overdue: due yesterday, when yesterday is in this month.
    let overdue = invoice(&app, &maria, "vencida", 30).await;
    let yesterday = today.add_days(-1).unwrap();
    sqlx::query("UPDATE installments SET due_date = $1 WHERE invoice_id = $2")
        .bind(yesterday.to_string())
        .bind(&overdue)
        .execute(&app.raw_pool().await)
        .await
        .unwrap();
    // Another application's paid invoice does not count.
    let other = app.other_token().await;
    let other_customer = body(
        app.post_as(
            &other,
            "/invoices/applications/customers",
            &json!({ "fullName": "Outra Loja" }),
        )
        .await,
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let other_invoice = body(
        app.post_as(
            &other,
            "/invoices/applications/invoices",
            &json!({
                "customerId": other_customer, "externalId": "x", "dueDate": days_from_today(3),
                "paymentTypes": ["PIX"], "installmentCount": 1, "price": 999.99
            }),
        )
        .await,
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    paylink_server::store::payments::simulate_pay(&app.db, &other_invoice, None, None)
        .await
        .unwrap();

    let d = body(app.get("/api/dashboard").await).await;
    assert_eq!(d["received"], 9.99, "{d}");
    assert_eq!(d["open"], 10.0, "{d}");
    let expected_overdue = if yesterday.month() == today.month() {
        10.0
    } else {
        0.0
    };
    assert_eq!(d["overdue"], expected_overdue, "{d}");
    assert_eq!(d["months"][11]["received"], 9.99);
    assert_eq!(d["months"][10]["received"], 5.5, "{d}");
    let total: f64 = d["months"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["received"].as_f64().unwrap())
        .sum();
    assert!((total - 15.49).abs() < 1e-9, "{d}");
}

/// A payment returned in full (a Pix devolução, `simulate reverse`): the invoice is listed under
/// `reversed` and no longer under `paid`; any other status is refused naming the ones there are.
#[tokio::test]
async fn invoices_with_a_payment_returned_are_listed_as_reversed() {
    let app = spawn_app().await;
    let maria = customer(
        &app,
        json!({ "fullName": "Maria da Silva", "email": "maria@example.com.br" }),
    )
    .await;
    let paid = invoice(&app, &maria, "pedido-1", 10).await;
    let returned = invoice(&app, &maria, "pedido-2", 20).await;
    for id in [&paid, &returned] {
        payments::simulate_pay(&app.db, id, None, None)
            .await
            .unwrap();
    }
    payments::simulate_reverse(&app.db, &returned, 1)
        .await
        .unwrap();
    for (status, expected) in [
        ("reversed", vec![returned.as_str()]),
        ("paid", vec![paid.as_str()]),
        ("open", vec![]),
    ] {
        let got = app.all_ids("invoices", &format!("&status={status}")).await;
        assert_eq!(got, expected, "status={status}");
    }
    let res = app.list("invoices", "?status=REVERSED").await;
    assert_eq!(
        body(res).await["data"][0]["installments"][0]["_status"],
        "REVERSED"
    );
    let res = app.list("invoices", "?status=devolvida").await;
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(
        errors["status"][0].as_str().unwrap().contains("reversed"),
        "{errors}"
    );
}
