//! The payer page as the server renders it (`/pay/{id}`, the `paylink-payer`
//! crate): what a `curl` of the page shows, with no JavaScript at all — every
//! amount, term and code, in the language asked for, escaped, never cached
//! by a shared cache — and the sandbox payment as a plain form.

use reqwest::header;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;
use crate::payer::parse_br_code;

/// A payer's browser: no operator session, no token.
fn payer() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn created(app: &TestApp, full_name: &str, patch: Value) -> String {
    let res = app.post("/api/customers", &json!({ "fullName": full_name, "document": "529.982.247-25", "email": "maria@example.com", "phone": "+55 11 98765-4321" })).await;
    let customer = body(res).await;
    let req = with(invoice_body(customer["id"].as_str().unwrap()), patch);
    let res = app.post("/api/invoices", &req).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

/// The text of the first element carrying `attr` (`data-pix-payload=""`).
fn marked<'a>(html: &'a str, attr: &str) -> &'a str {
    let at = html
        .find(attr)
        .unwrap_or_else(|| panic!("no {attr} in the page"));
    let start = at + html[at..].find('>').unwrap() + 1;
    let end = start + html[start..].find('<').unwrap();
    &html[start..end]
}

async fn page(
    client: &reqwest::Client,
    app: &TestApp,
    path: &str,
) -> (StatusCode, header::HeaderMap, String) {
    let res = client.get(app.url(path)).send().await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    (status, headers, res.text().await.unwrap())
}

#[tokio::test]
async fn the_page_itself_carries_every_amount_term_and_code_and_no_private_data() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(
        &app,
        "Maria <script>alert(1)</script> Silva",
        json!({
            "paymentTypes": ["PIX", "BOLETO"],
            "discount": {"type": "FIXED", "value": 5.0, "untilDate": invoice_body_dues()[0]},
            "fine": {"type": "PERCENTAGE", "value": 2.0},
            "interest": {"value": 1.0}
        }),
    )
    .await;
    let (status, headers, html) = page(&payer(), &app, &format!("/pay/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    let script_src = csp
        .split(';')
        .find(|d| d.trim().starts_with("script-src"))
        .unwrap();
    assert!(!script_src.contains("unsafe-inline"), "{csp}");

    // What /api/pay answers is what the page shows.
    let view = body(app.get(&format!("/api/pay/{id}")).await).await;
    let first = &view["installments"][0];
    let payload = marked(&html, "data-pix-payload");
    assert_eq!(payload, first["pix"]["payload"].as_str().unwrap());
    let fields = parse_br_code(payload);
    assert_eq!(
        fields["54"], "28.34",
        "the PIX amount is today's, with the discount"
    );
    assert_eq!(
        marked(&html, "data-boleto-line"),
        first["boleto"]["line"].as_str().unwrap()
    );
    assert!(
        html.contains("<svg"),
        "the QR code and barcode are in the page"
    );
    assert!(html.contains(&format!("/api/pay/{id}/installments/1/boleto.pdf")));
    for shown in [
        "<html lang=\"pt-BR\"",
        "Loja Exemplo",
        "R$ 100,00",
        "R$ 33,34",
        "R$ 28,34",
        "desconto de R$ 5,00",
        "multa de R$ 0,66",
        "juros de mora de 1 % ao mês",
        "Parcelas",
        "Aguardando pagamento",
        "Simular pagamento",
    ] {
        assert!(html.contains(shown), "the page does not show {shown}");
    }
    assert_eq!(
        html.matches("<tr role=\"row\">").count(),
        1 + 3 + 1,
        "head, 3 installments, total"
    );
    // A hostile name is text, not markup.
    assert!(html.contains("Maria &lt;script&gt;alert(1)&lt;/script&gt; Silva"));
    assert!(!html.contains("<script>alert(1)"));
    for private in [
        "52998224725",
        "529.982.247-25",
        "maria@example.com",
        "98765-4321",
        "hooks/paylink",
        &app.token,
    ] {
        assert!(!html.contains(private), "the payer page shows {private}");
    }
    // The copy buttons need JavaScript: hidden until their island runs.
    assert!(html.contains("<button type=\"button\" hidden"));
}

#[tokio::test]
async fn the_language_comes_from_the_query_then_the_cookie_then_accept_language() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(&app, "Maria da Silva", json!({})).await;
    let client = payer();
    let path = format!("/pay/{id}");

    let (_, _, html) = page(&client, &app, &path).await;
    assert!(html.contains("<html lang=\"pt-BR\"") && html.contains("Como pagar"));

    let res = client
        .get(app.url(&path))
        .header(header::ACCEPT_LANGUAGE, "en-US,en;q=0.9")
        .send()
        .await
        .unwrap();
    let html = res.text().await.unwrap();
    assert!(
        html.contains("<html lang=\"en\"") && html.contains("How to pay"),
        "Accept-Language"
    );

    let res = client
        .get(app.url(&format!("{path}?lang=en")))
        .send()
        .await
        .unwrap();
    let cookie = res.headers()[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .to_string();
    assert!(cookie.starts_with("paylink_lang=en;"), "{cookie}");
    let html = res.text().await.unwrap();
    assert!(html.contains("Installments") && html.contains("Awaiting payment"));
    // The link back to Portuguese is a plain link: it works without JavaScript.
    assert!(html.contains(&format!("href=\"{path}?lang=pt-BR\"")));

    let res = client
        .get(app.url(&path))
        .header(header::COOKIE, "paylink_lang=en")
        .header(header::ACCEPT_LANGUAGE, "pt-BR")
        .send()
        .await
        .unwrap();
    assert!(
        res.text().await.unwrap().contains("How to pay"),
        "the remembered choice wins"
    );
}

#[tokio::test]
async fn an_unknown_malformed_or_cancelled_invoice_is_a_page_that_says_so() {
    let app = spawn_app_with(local_proxy).await;
    let client = payer();
    let (status, headers, html) =
        page(&client, &app, "/pay/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert!(html.contains("Cobrança indisponível") && html.contains("role=\"alert\""));

    let (status, _, html) = page(&client, &app, "/pay/nao-e-um-id").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(html.contains("role=\"alert\""));

    let id = created(&app, "Maria da Silva", json!({})).await;
    let res = app.cancel_invoice(&id).await;
    assert!(res.status().is_success(), "{}", res.status());
    let (status, _, html) = page(&client, &app, &format!("/pay/{id}")).await;
    assert_eq!(status, StatusCode::GONE);
    assert!(html.contains("role=\"alert\""));
}

#[tokio::test]
async fn the_sandbox_payment_is_a_form_that_pays_and_comes_back_to_the_page() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(&app, "Maria da Silva", json!({"paymentTypes": ["PIX"]})).await;
    let client = payer();
    let res = client
        .post(app.url(&format!("/pay/{id}/simulate")))
        .header(header::ORIGIN, &app.addr)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(res.headers()[header::LOCATION], format!("/pay/{id}"));
    let (_, _, html) = page(&client, &app, &format!("/pay/{id}")).await;
    assert!(html.contains("badge confirmed"), "installment 1 shows paid");
    assert!(
        html.contains("Parcela 2 ·"),
        "the page moves on to installment 2"
    );
}

#[tokio::test]
async fn outside_the_sandbox_there_is_no_payment_button_and_the_form_is_refused() {
    let app = spawn_app_production().await;
    let id = created(&app, "Maria da Silva", json!({})).await;
    let client = payer();
    let (_, _, html) = page(&client, &app, &format!("/pay/{id}")).await;
    assert!(!html.contains("Simular pagamento"));
    let res = client
        .post(app.url(&format!("/pay/{id}/simulate")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        body(app.get_invoice(&id).await).await["installments"][0]["_status"],
        "WAITING_PAYMENT"
    );
}
