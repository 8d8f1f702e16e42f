//! Every way a request can be malformed gets the envelope, never axum's plain
//! text, never a 500.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn malformed_requests_get_an_envelope_with_the_right_status() {
    let app = spawn_app().await;
    let auth = format!("Basic {}", app.token);
    let customers = app.url("/invoices/applications/customers");
    let invoices = app.url("/invoices/applications/invoices");
    let big = format!("{{\"fullName\":\"{}\"}}", "a".repeat(1024 * 1024 + 10));
    let cases: Vec<(&str, reqwest::RequestBuilder, StatusCode)> = vec![
        (
            "malformed JSON",
            app.client
                .post(&customers)
                .header("content-type", "application/json")
                .body("{\"fullName\":"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "empty body",
            app.client
                .post(&customers)
                .header("content-type", "application/json"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "a JSON array instead of an object",
            app.client
                .post(&customers)
                .header("content-type", "application/json")
                .body("[1,2]"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "no Content-Type",
            app.client.post(&customers).body("{\"fullName\":\"Maria\"}"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "text/plain Content-Type",
            app.client
                .post(&invoices)
                .header("content-type", "text/plain")
                .body("{}"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "form-encoded body",
            app.client
                .post(&invoices)
                .header("content-type", "application/x-www-form-urlencoded")
                .body("a=b"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "body over 1 MiB",
            app.client
                .post(&customers)
                .header("content-type", "application/json")
                .body(big),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            "unknown route",
            app.client.get(app.url("/invoices/applications/nothing")),
            StatusCode::NOT_FOUND,
        ),
        (
            "unknown route under the API",
            app.client
                .post(app.url("/invoices/applications/customers/x/y"))
                .json(&json!({})),
            StatusCode::NOT_FOUND,
        ),
        (
            "PUT on a POST-and-GET route",
            app.client.put(&customers),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "PATCH on an invoice",
            app.client.patch(
                app.url("/invoices/applications/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11"),
            ),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ];
    for (why, req, status) in cases {
        let res = req.header("Authorization", &auth).send().await.unwrap();
        assert_eq!(res.status(), status, "{why}");
        envelope(res, status).await;
    }
}

#[tokio::test]
async fn wrong_json_types_are_field_errors_keyed_by_path() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let cases = [
        (
            json!({ "fullName": 123 }),
            "/invoices/applications/customers",
            "fullName",
            "number as fullName",
        ),
        (
            json!({ "fullName": "Maria", "address": "Rua A" }),
            "/invoices/applications/customers",
            "address",
            "string as address",
        ),
        (
            json!({ "fullName": "Maria", "address": { "zipcode": 1310100 } }),
            "/invoices/applications/customers",
            "address.zipcode",
            "number as zipcode",
        ),
        (
            with(invoice_body(&customer), json!({ "price": "100,00" })),
            "/invoices/applications/invoices",
            "price",
            "string as price",
        ),
        (
            with(invoice_body(&customer), json!({ "installmentCount": 2.5 })),
            "/invoices/applications/invoices",
            "installmentCount",
            "fractional installmentCount",
        ),
        (
            with(invoice_body(&customer), json!({ "paymentTypes": "PIX" })),
            "/invoices/applications/invoices",
            "paymentTypes",
            "string as paymentTypes",
        ),
        (
            with(invoice_body(&customer), json!({ "priceByCustomer": "yes" })),
            "/invoices/applications/invoices",
            "priceByCustomer",
            "string as priceByCustomer",
        ),
        (
            with(
                invoice_body(&customer),
                json!({ "notifications": [{ "type": "SEND_INVOICE_REMINDER", "channel": "Email", "period": "5" }] }),
            ),
            "/invoices/applications/invoices",
            "notifications[0].period",
            "string as period",
        ),
        (
            with(
                invoice_body(&customer),
                json!({ "webhooks": [{ "hookType": "PAYMENT_CONFIRMED", "url": "https://a.example" }, { "hookType": 7 }] }),
            ),
            "/invoices/applications/invoices",
            "webhooks[1].hookType",
            "number as hookType",
        ),
    ];
    for (req, path, field, why) in cases {
        let errors = envelope(
            app.post_as(&app.token, path, &req).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(
            errors[field].is_array(),
            "{why}: expected {field} in {errors}"
        );
    }
}

#[tokio::test]
async fn healthz_answers_when_ready() {
    let app = spawn_app().await;
    let res = app.get("/healthz").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(body(res).await["status"], "ok");
}

/// A path segment that does not decode to UTF-8 (`%FF`), on every route that takes one
/// (the service's, the proxy's, the payer page's and the payment links'): the 400
/// envelope in the caller's language, never axum's `text/plain`.
#[tokio::test]
async fn undecodable_path_segments_get_the_envelope() {
    let app = spawn_app_with(local_proxy).await;
    let id = "6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11";
    let service = "/invoices/applications/invoices";
    let cases = [
        (Method::GET, format!("{service}/%FF")),
        (Method::DELETE, format!("{service}/%FF")),
        (Method::POST, format!("{service}/%FF/resend")),
        (
            Method::POST,
            format!("{service}/{id}/installments/%FF/payments"),
        ),
        (Method::GET, "/api/invoices/%FF".to_string()),
        (Method::DELETE, "/api/invoices/%FF".to_string()),
        (Method::POST, "/api/invoices/%FF/resend".to_string()),
        (
            Method::POST,
            format!("/api/invoices/{id}/installments/%FF/payments"),
        ),
        (Method::GET, "/api/pay/%FF".to_string()),
        (Method::POST, "/api/pay/%FF/view".to_string()),
        (Method::POST, "/api/pay/%FF/simulate".to_string()),
        (
            Method::GET,
            format!("/api/pay/{id}/installments/%FF/boleto.pdf"),
        ),
        (Method::GET, "/api/links/%FF".to_string()),
        (Method::POST, "/api/links/%FF/customers".to_string()),
        (Method::POST, "/api/links/%FF/invoices".to_string()),
    ];
    for (method, path) in cases {
        for (lang, message) in [
            ("pt-BR", "Caminho da URL malformado"),
            ("en", "Malformed URL path"),
        ] {
            let res = app
                .client
                .request(method.clone(), app.url(&path))
                .header("Authorization", format!("Basic {}", app.token))
                .header("Accept-Language", lang)
                .json(&json!({ "amount": 10.0 }))
                .send()
                .await
                .unwrap();
            let why = format!("{method} {path} ({lang})");
            let v = body_of(res, StatusCode::BAD_REQUEST, &why).await;
            assert!(
                v["message"].as_str().unwrap().starts_with(message),
                "{why}: {v}"
            );
        }
    }
}

/// A query string serde cannot read (a parameter given twice) on the lists and the export,
/// called directly and through the proxy: the 400 envelope.
#[tokio::test]
async fn malformed_query_strings_get_the_envelope() {
    let app = spawn_app_with(local_proxy).await;
    for path in [
        "/invoices/applications/invoices?status=open&status=paid",
        "/invoices/applications/customers?q=a&q=b",
        "/invoices/applications/invoices.csv?dueFrom=2027-01-01&dueFrom=2027-02-01",
        "/api/invoices?limit=1&limit=2",
        "/api/customers?cursor=a&cursor=b",
        "/api/invoices.csv?q=%FF&q=%FE",
    ] {
        let res = app
            .client
            .get(app.url(path))
            .header("Authorization", format!("Basic {}", app.token))
            .header("Accept-Language", "en")
            .send()
            .await
            .unwrap();
        let v = body_of(res, StatusCode::BAD_REQUEST, path).await;
        assert_eq!(
            v["message"], "Malformed query parameters (one given twice?).",
            "{path}"
        );
    }
}

/// A JSON body followed by anything but whitespace is not JSON: refused as malformed on
/// every route that reads one (before, `{"fullName":"A B"} xyz` created a customer).
#[tokio::test]
async fn trailing_text_after_a_json_body_is_malformed_json() {
    let app = spawn_app_with(local_proxy).await;
    let customer = app.customer_id().await;
    let invoice = body(app.post_invoice(&invoice_body(&customer)).await).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let invoice_json = invoice_body(&customer).to_string();
    let pay = format!("/invoices/applications/invoices/{invoice}/installments/1/payments");
    let cases: Vec<(&str, String)> = vec![
        (
            "/invoices/applications/customers",
            r#"{"fullName":"A B"} xyz"#.into(),
        ),
        (
            "/invoices/applications/customers",
            r#"{"fullName":"A B"}{"fullName":"C D"}"#.into(),
        ),
        (
            "/invoices/applications/invoices",
            format!("{invoice_json}]"),
        ),
        (&pay, r#"{"amount": 33.34} 1"#.into()),
        ("/api/customers", r#"{"fullName":"A B"} xyz"#.into()),
        (
            "/api/session",
            r#"{"email":"a@b.example","password":"x"} x"#.into(),
        ),
    ];
    for (path, text) in cases {
        let res = app
            .client
            .post(app.url(path))
            .header("Authorization", format!("Basic {}", app.token))
            .header("Content-Type", "application/json")
            .header("Accept-Language", "en")
            .body(text.clone())
            .send()
            .await
            .unwrap();
        let v = body_of(res, StatusCode::BAD_REQUEST, &format!("{path}: {text}")).await;
        assert_eq!(
            v["message"], "Malformed JSON in the request body.",
            "{path}"
        );
    }
    // Trailing whitespace is still JSON.
    let res = app
        .client
        .post(app.url("/invoices/applications/customers"))
        .header("Authorization", format!("Basic {}", app.token))
        .header("Content-Type", "application/json")
        .body("{\"fullName\":\"A B\"} \r\n\t")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    // Nothing was created by the refused bodies: the one customer above and this one.
    let list = body(
        app.client
            .get(app.url("/invoices/applications/customers"))
            .header("Authorization", format!("Basic {}", app.token))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(list["data"].as_array().unwrap().len(), 2, "{list}");
}

/// The envelope of `res`, which must have `status`, read whatever it is (`why` says which request).
async fn body_of(res: reqwest::Response, status: StatusCode, why: &str) -> serde_json::Value {
    assert_eq!(res.status(), status, "{why}");
    let text = res.text().await.unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{why}: not JSON ({e}): {text}"));
    assert_eq!(v["code"], status.as_u16(), "{why}");
    v
}

/// A handler that panics is a 500 envelope (in the caller's language) and the server goes on
/// answering, this request's connection included: the layers `app` wraps every route in. That
/// the process unwinds rather than aborts in every profile, release included, is not left to
/// this test build (which always unwinds): `server/src/lib.rs` refuses to compile the server
/// with `panic = "abort"`.
#[tokio::test]
async fn a_panicking_handler_is_a_500_envelope_and_the_server_keeps_answering() {
    use axum::routing::get;
    async fn boom() -> &'static str {
        panic!("a bug in a handler")
    }
    let router = paylink_server::envelope_layers(
        axum::Router::new()
            .route("/boom", get(boom))
            .route("/ok", get(|| async { "ok" })),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let client = reqwest::Client::new();
    for _ in 0..2 {
        let res = client
            .get(format!("http://{addr}/boom"))
            .header("Accept-Language", "en")
            .send()
            .await
            .unwrap();
        let v = body_of(res, StatusCode::INTERNAL_SERVER_ERROR, "/boom").await;
        assert_eq!(v["message"], "Internal error. Please try again.");
        let res = client
            .get(format!("http://{addr}/ok"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.text().await.unwrap(), "ok");
    }
}

/// Issue 38: the token API's answers carry personal data (a customer's document
/// and e-mail, an invoice's payer, the lists and the export) and said nothing
/// about caching, so a shared cache or the client's disk could keep them. Every
/// answer of the token API, refusals included, says `Cache-Control: no-store`.
#[tokio::test]
async fn every_token_api_answer_says_no_store() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    let created = app.post_invoice(&invoice_body(&customer)).await;
    let invoice = body(created).await["id"].as_str().unwrap().to_string();
    let post = |path: &str, body: serde_json::Value| {
        app.client
            .post(app.url(path))
            .header("Authorization", format!("Basic {}", app.token))
            .json(&body)
    };
    let get = |path: &str| {
        app.client
            .get(app.url(path))
            .header("Authorization", format!("Basic {}", app.token))
    };
    let cases: Vec<(&str, reqwest::RequestBuilder)> = vec![
        (
            "a new customer",
            post(
                "/invoices/applications/customers",
                json!({ "fullName": "Ana Souza", "document": "529.982.247-25", "email": "ana@example.com" }),
            ),
        ),
        (
            "a customer",
            get(&format!("/invoices/applications/customers/{customer}")),
        ),
        ("the customers", get("/invoices/applications/customers")),
        (
            "a new invoice",
            post("/invoices/applications/invoices", invoice_body(&customer)),
        ),
        (
            "an invoice's detail",
            get(&format!("/invoices/applications/invoices/{invoice}")),
        ),
        ("the invoices", get("/invoices/applications/invoices")),
        ("the export", get("/invoices/applications/invoices.csv")),
        ("the dashboard", get("/invoices/applications/dashboard")),
        ("the webhooks", get("/invoices/applications/webhooks")),
        ("the deliveries", get("/invoices/applications/deliveries")),
        (
            "the payment links",
            get("/invoices/applications/payment-links"),
        ),
        (
            "a field error",
            post("/invoices/applications/customers", json!({})),
        ),
        (
            "an unknown invoice",
            get("/invoices/applications/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11"),
        ),
        (
            "no token",
            app.client.get(app.url("/invoices/applications/customers")),
        ),
    ];
    for (what, req) in cases {
        let res = req.send().await.unwrap();
        assert_eq!(
            res.headers()
                .get("cache-control")
                .map(|v| v.to_str().unwrap().to_string()),
            Some("no-store".to_string()),
            "{what}: {}",
            res.status()
        );
    }
}
