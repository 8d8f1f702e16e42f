//! The merchant's payment links (issue 32): the API under the service's token
//! (list with what each brought in, create with the model's rules, read one
//! with its QR code, turn off and on), each application seeing its own, and
//! the proxy's routes under the operator's session with their audit lines.

use paylink_server::store::operators as rows;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::*;
use crate::links::create_link;

const LINKS: &str = "/invoices/applications/payment-links";

async fn api(app: &TestApp, method: Method, path: &str, body: Option<&Value>) -> reqwest::Response {
    api_as(app, &app.token, method, path, body).await
}

async fn api_as(
    app: &TestApp,
    token: &str,
    method: Method,
    path: &str,
    body: Option<&Value>,
) -> reqwest::Response {
    let req = app
        .client
        .request(method, app.url(path))
        .header("Authorization", format!("Basic {token}"));
    let req = match body {
        Some(b) => req.json(b),
        None => req,
    };
    req.send().await.unwrap()
}

fn course() -> Value {
    json!({
        "name": "Curso de Rust",
        "description": "Acesso por 12 meses",
        "price": 300.0,
        "invoiceType": "INSTALLMENT",
        "maxInstallments": 3,
        "paymentTypes": ["PIX", "BOLETO"],
        "dueInDays": 5,
        "redirectTo": "https://loja.example/obrigado",
        "fine": { "type": "PERCENTAGE", "value": 2.0 },
        "interest": { "value": 1.0 },
        "discount": { "type": "FIXED", "value": 10.0, "daysBeforeDue": 1 },
    })
}

#[tokio::test]
async fn a_link_made_through_the_api_is_listed_read_and_paid_through() {
    let app = spawn_app_with(local_proxy).await;
    let res = api(&app, Method::POST, LINKS, Some(&course())).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let made = body(res).await;
    assert_eq!(made["slug"], "curso-de-rust");
    assert_eq!(made["url"], app.url("/l/curso-de-rust"));
    assert_eq!(made["price"], 300.0);
    assert_eq!(made["priceByCustomer"], false);
    assert_eq!(made["maxInstallments"], 3);
    assert_eq!(made["dueInDays"], 5);
    assert_eq!(made["active"], true);
    assert_eq!(made["fine"], json!({ "type": "PERCENTAGE", "value": 2.0 }));
    assert_eq!(made["interest"], json!({ "value": 1.0 }));
    assert_eq!(
        made["discount"],
        json!({ "type": "FIXED", "value": 10.0, "daysBeforeDue": 1 })
    );
    assert_eq!(
        (made["invoicesMade"].clone(), made["amountPaid"].clone()),
        (json!(0), json!(0.0))
    );

    // The same name again: the next free slug.
    let again = body(api(&app, Method::POST, LINKS, Some(&course())).await).await;
    assert_eq!(again["slug"], "curso-de-rust-2");

    // Its page is the public link page, with the link's terms.
    let page = body(app.get("/api/links/curso-de-rust").await).await;
    assert_eq!(page["price"], 300.0);
    assert_eq!(page["discount"]["type"], "FIXED");

    // A payer registers and creates an invoice through it, then pays.
    let res = app
        .post(
            "/api/links/curso-de-rust/customers",
            &json!({ "fullName": "Joana Pagadora" }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let customer = body(res).await["id"].as_str().unwrap().to_string();
    let res = app
        .post(
            "/api/links/curso-de-rust/invoices",
            &json!({ "customerId": customer, "installmentCount": 2, "paymentTypes": ["PIX"] }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let invoice = body(res).await["id"].as_str().unwrap().to_string();
    paylink_server::store::payments::simulate_pay(&app.db, &invoice, None, None)
        .await
        .unwrap();
    // An invoice the merchant made with the slug as externalId is not the link's.
    let other = app.customer_id().await;
    let res = app
        .post_invoice(&with(
            invoice_body(&other),
            json!({ "externalId": "curso-de-rust" }),
        ))
        .await;
    assert!(res.status().is_success(), "{}", res.status());

    let list = body(api(&app, Method::GET, LINKS, None).await).await;
    let slugs: Vec<&str> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["slug"].as_str().unwrap())
        .collect();
    assert!(
        slugs.contains(&"curso-de-rust") && slugs.contains(&"curso-de-rust-2"),
        "{list}"
    );
    let row = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["slug"] == "curso-de-rust")
        .unwrap();
    assert_eq!(row["invoicesMade"], 1);
    assert_eq!(
        row["amountPaid"], 150.0,
        "the first of two installments of R$ 300,00"
    );
    assert!(row.get("qrSvg").is_none(), "the list carries no QR codes");

    let one = body(api(&app, Method::GET, &format!("{LINKS}/curso-de-rust"), None).await).await;
    assert_eq!(one["invoicesMade"], 1);
    assert!(one["qrSvg"].as_str().unwrap().contains("<svg"), "{one}");
}

#[tokio::test]
async fn bad_link_input_is_a_keyed_422_in_either_language_and_never_a_500() {
    let app = spawn_app_with(local_proxy).await;
    let cases: Vec<(&str, Value)> = vec![
        ("name", json!({ "name": " " })),
        ("name", json!({ "name": "x".repeat(101) })),
        ("description", json!({ "description": null })),
        ("price", json!({ "price": 4.99 })),
        ("price", json!({ "price": 10.001 })),
        ("price", json!({ "price": "trezentos" })),
        ("price", json!({ "priceByCustomer": true })),
        ("paymentTypes", json!({ "paymentTypes": [] })),
        (
            "paymentTypes[1]",
            json!({ "paymentTypes": ["PIX", "CARD"] }),
        ),
        ("paymentTypes[1]", json!({ "paymentTypes": ["PIX", "PIX"] })),
        ("invoiceType", json!({ "invoiceType": "RECURRING" })),
        ("maxInstallments", json!({ "maxInstallments": null })),
        ("maxInstallments", json!({ "maxInstallments": 121 })),
        ("maxInstallments", json!({ "maxInstallments": 2.5 })),
        (
            "maxInstallments",
            json!({ "price": 10.0, "discount": null }),
        ),
        ("dueInDays", json!({ "dueInDays": 366 })),
        ("dueInDays", json!({ "dueInDays": -1 })),
        ("redirectTo", json!({ "redirectTo": "javascript:alert(1)" })),
        ("slug", json!({ "slug": "Curso/../x" })),
        (
            "fine.value",
            json!({ "fine": { "type": "PERCENTAGE", "value": 2.5 } }),
        ),
        (
            "fine.value",
            json!({ "fine": { "type": "FIXED", "value": 2.01 } }),
        ),
        ("fine.type", json!({ "fine": { "value": 1.0 } })),
        ("interest.value", json!({ "interest": { "value": 10.5 } })),
        (
            "discount.value",
            json!({ "discount": { "type": "FIXED", "value": 100.0 } }),
        ),
        (
            "discount.daysBeforeDue",
            json!({ "discount": { "type": "PERCENTAGE", "value": 5.0, "daysBeforeDue": 6 } }),
        ),
    ];
    for (path, patch) in cases {
        let req = with(course(), patch.clone());
        let res = api(&app, Method::POST, LINKS, Some(&req)).await;
        let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert!(errors.get(path).is_some(), "{path} for {patch}: {errors}");
        assert_eq!(
            errors.as_object().unwrap().len(),
            1,
            "{path} for {patch}: {errors}"
        );
    }
    // The messages follow Accept-Language: pt-BR by default, English on request.
    let bad = with(course(), json!({ "price": 4.99 }));
    let pt = envelope(
        api(&app, Method::POST, LINKS, Some(&bad)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(pt["price"][0], "O valor mínimo é R$ 5,00.");
    let res = app
        .client
        .post(app.url(LINKS))
        .header("Authorization", format!("Basic {}", app.token))
        .header("Accept-Language", "en")
        .json(&bad)
        .send()
        .await
        .unwrap();
    let en = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(en["price"][0], "The minimum amount is R$ 5.00.");

    // A chosen slug another link has.
    create_link(&app, &["--price", "10", "--slug", "taken"]);
    let res = api(
        &app,
        Method::POST,
        LINKS,
        Some(&with(course(), json!({ "slug": "taken" }))),
    )
    .await;
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(
        errors["slug"][0].as_str().unwrap().contains("Já existe"),
        "{errors}"
    );

    // Bodies that are not a link request at all: envelopes, never a 500.
    for raw in [
        "[]",
        "\"x\"",
        "{",
        "null",
        "{\"name\": 1}",
        "{\"fine\": []}",
        "{\"discount\": {\"daysBeforeDue\": \"1\"}}",
    ] {
        let res = app
            .client
            .post(app.url(LINKS))
            .header("Authorization", format!("Basic {}", app.token))
            .header("Content-Type", "application/json")
            .body(raw)
            .send()
            .await
            .unwrap();
        assert!(res.status().is_client_error(), "{raw}: {}", res.status());
        envelope(res, StatusCode::from_u16(res_status(raw)).unwrap()).await;
    }
    // Nothing was stored but the CLI's link.
    let list = body(api(&app, Method::GET, LINKS, None).await).await;
    assert_eq!(list["data"].as_array().unwrap().len(), 1, "{list}");

    // The on/off switch: a missing flag, an unknown or malformed slug.
    let path = format!("{LINKS}/taken");
    let errors = envelope(
        api(&app, Method::PATCH, &path, Some(&json!({}))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(errors.get("active").is_some(), "{errors}");
    let errors = envelope(
        api(&app, Method::PATCH, &path, Some(&json!({ "active": "no" }))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(errors.get("active").is_some(), "{errors}");
    for slug in ["nope", "..%2Fx", "A"] {
        let on = json!({ "active": true });
        envelope(
            api(&app, Method::PATCH, &format!("{LINKS}/{slug}"), Some(&on)).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        envelope(
            api(&app, Method::GET, &format!("{LINKS}/{slug}"), None).await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
    // Without a token: 401.
    let res = app.client.get(app.url(LINKS)).send().await.unwrap();
    envelope(res, StatusCode::UNAUTHORIZED).await;
}

/// The status each malformed body gets: unreadable JSON is a 400, a value of
/// the wrong type a keyed 422, as for every request of the service.
fn res_status(raw: &str) -> u16 {
    match raw {
        "{" | "[]" | "\"x\"" | "null" => 400,
        _ => 422,
    }
}

#[tokio::test]
async fn a_link_turned_off_is_gone_for_payers_until_turned_on() {
    let app = spawn_app_with(local_proxy).await;
    let made = body(api(&app, Method::POST, LINKS, Some(&course())).await).await;
    let slug = made["slug"].as_str().unwrap();
    let path = format!("{LINKS}/{slug}");
    let off = body(
        api(
            &app,
            Method::PATCH,
            &path,
            Some(&json!({ "active": false })),
        )
        .await,
    )
    .await;
    assert_eq!(off["active"], false);
    assert_eq!(
        app.get(&format!("/api/links/{slug}")).await.status(),
        StatusCode::NOT_FOUND
    );
    let list = body(api(&app, Method::GET, LINKS, None).await).await;
    assert_eq!(
        list["data"][0]["active"], false,
        "still listed for its merchant"
    );
    let on = body(api(&app, Method::PATCH, &path, Some(&json!({ "active": true }))).await).await;
    assert_eq!(on["active"], true);
    assert_eq!(
        app.get(&format!("/api/links/{slug}")).await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn an_application_sees_its_own_links_only() {
    let app = spawn_app_with(local_proxy).await;
    body(api(&app, Method::POST, LINKS, Some(&course())).await).await;
    // The CLI's link is the only application's, as the API's is its maker's.
    let cli = create_link(&app, &["--price", "10", "--slug", "da-loja"]);
    let other = app.other_token().await;
    let list = body(api_as(&app, &other, Method::GET, LINKS, None).await).await;
    assert_eq!(list["data"], json!([]));
    let mine = body(api(&app, Method::GET, LINKS, None).await).await;
    let slugs: Vec<&str> = mine["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["slug"].as_str().unwrap())
        .collect();
    assert_eq!(slugs, vec![cli.as_str(), "curso-de-rust"], "newest first");
    for slug in ["curso-de-rust", cli.as_str()] {
        let path = format!("{LINKS}/{slug}");
        envelope(
            api_as(&app, &other, Method::GET, &path, None).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        let off = json!({ "active": false });
        envelope(
            api_as(&app, &other, Method::PATCH, &path, Some(&off)).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        assert_eq!(
            app.get(&format!("/api/links/{slug}")).await.status(),
            StatusCode::OK,
            "untouched"
        );
    }
}

#[tokio::test]
async fn the_proxys_link_routes_need_a_session_and_each_change_is_audited() {
    let app = spawn_app_production().await;
    let operator = rows::find_by_email(&app.db, OPERATOR_EMAIL)
        .await
        .unwrap()
        .unwrap();
    let res = app.post("/api/payment-links", &course()).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let slug = body(res).await["slug"].as_str().unwrap().to_string();
    // A refused creation is no action.
    let res = app.post("/api/payment-links", &json!({})).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let list = body(app.get("/api/payment-links").await).await;
    assert_eq!(list["data"][0]["slug"], slug.as_str());
    let one = body(app.get(&format!("/api/payment-links/{slug}")).await).await;
    assert!(one["qrSvg"].as_str().unwrap().contains("<svg"));
    let off = body(
        app.post_empty(&format!("/api/payment-links/{slug}/deactivate"))
            .await,
    )
    .await;
    assert_eq!(off["active"], false);
    let on = body(
        app.post_empty(&format!("/api/payment-links/{slug}/reactivate"))
            .await,
    )
    .await;
    assert_eq!(on["active"], true);
    envelope(
        app.post_empty("/api/payment-links/..%2F..%2Fx/deactivate")
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
    envelope(
        app.get("/api/payment-links/nope").await,
        StatusCode::NOT_FOUND,
    )
    .await;

    let mut seen: Vec<(String, Option<String>)> = rows::list_audit(&app.db)
        .await
        .unwrap()
        .into_iter()
        .inspect(|a| assert_eq!(a.operator_id, operator.id))
        .map(|a| (a.action, a.target_id))
        .collect();
    seen.sort();
    let mut expected = vec![
        ("create_link".to_string(), Some(slug.clone())),
        ("deactivate_link".to_string(), Some(slug.clone())),
        ("reactivate_link".to_string(), Some(slug.clone())),
    ];
    expected.sort();
    assert_eq!(seen, expected);

    // Without a session: 401, and nothing changes.
    let anonymous = reqwest::Client::new();
    let res = anonymous
        .get(app.url("/api/payment-links"))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::UNAUTHORIZED).await;
    let res = anonymous
        .post(app.url(&format!("/api/payment-links/{slug}/deactivate")))
        .header("Origin", app.addr.clone())
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::UNAUTHORIZED).await;
    assert_eq!(
        app.get(&format!("/api/links/{slug}")).await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_same_creation_sent_twice_with_its_key_makes_one_link() {
    let app = spawn_app().await;
    let send = |body: Value, key: &'static str| {
        let app = &app;
        async move {
            app.client
                .post(app.url(LINKS))
                .header("Authorization", format!("Basic {}", app.token))
                .header("Idempotency-Key", key)
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    // No slug chosen: without the key, a retry would make `curso-de-rust-2`.
    let first = send(course(), "k-1").await;
    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(first.headers().get("idempotent-replayed").is_none());
    let first = body(first).await;
    let again = send(course(), "k-1").await;
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    assert_eq!(body(again).await, first);
    let list = body(api(&app, Method::GET, LINKS, None).await).await;
    let slugs: Vec<&str> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["slug"].as_str())
        .filter(|s| s.starts_with("curso-de-rust"))
        .collect();
    assert_eq!(slugs, ["curso-de-rust"], "one link");
    // The same key with another request: refused, nothing made.
    let other = with(course(), json!({"name": "Outro curso"}));
    let res = send(other, "k-1").await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // A new key: a new link, under the next free slug.
    let res = send(course(), "k-2").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(body(res).await["slug"], "curso-de-rust-2");
}
