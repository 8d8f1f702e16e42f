//! Browser component tests of the payment links screen (`/links`, issue 32):
//! the table, the creation form on the form contract with the model's live
//! rules and the server's field errors, deactivate/reactivate, and the share
//! panel (the URL and both embed snippets copied, the QR code to print).
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
export function route_fetch(routes) {
  window.__paylinkCalls = [];
  const table = JSON.parse(routes);
  window.fetch = async (input, init) => {
    const req = new Request(input, init);
    const path = new URL(req.url).pathname;
    if (path === '/api/session' && req.method === 'GET') {
      const who = { id: 'op-1', email: 'operadora@loja.example', name: 'Operadora' };
      return new Response(JSON.stringify(who), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    const sent = await req.text();
    window.__paylinkCalls.push({ url: path, method: req.method, body: sent === '' ? undefined : sent });
    const [status, body] = table[req.method + ' ' + path] || [404, '{"code":404,"message":"Rota não encontrada."}'];
    return new Response(body, { status, headers: { 'Content-Type': 'application/json' } });
  };
}
"#)]
extern "C" {
    /// Answers each `"METHOD /path"` of `routes` (a JSON object of `[status, body]`).
    fn route_fetch(routes: &str);
}

const COURSE: &str = r#"{"slug":"curso-rust","name":"Curso de Rust","description":"Acesso por 12 meses",
  "price":300,"priceByCustomer":false,"paymentTypes":["PIX","BOLETO"],"invoiceType":"INSTALLMENT",
  "maxInstallments":3,"dueInDays":3,"redirectTo":null,"fine":null,"interest":null,"discount":null,
  "active":true,"createdAt":"2026-11-27T10:00:00.000Z","url":"https://pay.loja.example/l/curso-rust",
  "invoicesMade":2,"amountPaid":1234.5}"#;

const GIFT: &str = r#"{"slug":"doacao","name":"Doação","description":"Qualquer valor",
  "price":null,"priceByCustomer":true,"paymentTypes":["PIX"],"invoiceType":"SINGLE",
  "maxInstallments":1,"dueInDays":3,"redirectTo":null,"fine":null,"interest":null,"discount":null,
  "active":false,"createdAt":"2026-11-26T10:00:00.000Z","url":"https://pay.loja.example/l/doacao",
  "invoicesMade":0,"amountPaid":0}"#;

fn one(link: &str) -> String {
    link.replacen(
        '{',
        r#"{"qrSvg":"<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"qr-test\"></svg>","#,
        1,
    )
}

fn routes(extra: &[(&str, u16, String)]) -> String {
    let mut table = serde_json::Map::new();
    let list = format!(r#"{{"data":[{COURSE},{GIFT}]}}"#);
    table.insert(
        "GET /api/payment-links".into(),
        serde_json::json!([200, list]),
    );
    table.insert(
        "GET /api/payment-links/curso-rust".into(),
        serde_json::json!([200, one(COURSE)]),
    );
    for (k, status, body) in extra {
        table.insert(k.to_string(), serde_json::json!([status, body]));
    }
    serde_json::Value::Object(table).to_string()
}

fn calls() -> Vec<serde_json::Value> {
    serde_json::from_str(&all_calls()).unwrap()
}

#[wasm_bindgen_test]
async fn the_table_lists_each_link_with_what_it_brought_in() {
    route_fetch(&routes(&[]));
    let app = mount_at("/links").await;
    let r = &app.root;
    sleep(50).await;
    assert_eq!(text(&q(r, "h1")), "Links de pagamento");
    let nav = q(r, "nav.merchant-nav a[href=\"/links\"]");
    assert_eq!(nav.get_attribute("aria-current").as_deref(), Some("page"));
    let heads: Vec<String> = q_all(r, "table thead th").iter().map(text).collect();
    assert_eq!(
        heads,
        [
            "Nome",
            "Valor",
            "Tipo",
            "Ativo",
            "Faturas geradas",
            "Valor pago",
            "Ações"
        ]
    );
    let rows = q_all(r, "table tbody tr");
    assert_eq!(rows.len(), 2);
    let cells =
        |row: &web_sys::Element| -> Vec<String> { q_all(row, "th, td").iter().map(text).collect() };
    let course = cells(&rows[0]);
    assert_eq!(course[0], "Curso de Rust/l/curso-rust");
    assert_eq!(
        &course[1..6],
        [
            "R$ 300,00",
            "Parcelado em até 3x",
            "Sim",
            "2",
            "R$ 1.234,50"
        ]
    );
    let gift = cells(&rows[1]);
    assert_eq!(
        &gift[1..6],
        ["o pagador define", "À vista", "Não", "0", "R$ 0,00"]
    );
    // Each row's actions say which link they act on.
    assert!(q_opt(
        &rows[0],
        "button[aria-label=\"Desativar o link Curso de Rust\"]"
    )
    .is_some());
    assert!(q_opt(&rows[1], "button[aria-label=\"Reativar o link Doação\"]").is_some());
}

#[wasm_bindgen_test]
async fn deactivating_and_reactivating_call_the_proxy_and_say_so() {
    route_fetch(&routes(&[
        (
            "POST /api/payment-links/curso-rust/deactivate",
            200,
            COURSE.replace("\"active\":true", "\"active\":false"),
        ),
        (
            "POST /api/payment-links/doacao/reactivate",
            200,
            GIFT.replace("\"active\":false", "\"active\":true"),
        ),
    ]));
    let app = mount_at("/links").await;
    let r = &app.root;
    sleep(50).await;
    click(&q(
        r,
        "button[aria-label=\"Desativar o link Curso de Rust\"]",
    ))
    .await;
    sleep(50).await;
    assert!(calls()
        .iter()
        .any(|c| c["url"] == "/api/payment-links/curso-rust/deactivate" && c["method"] == "POST"));
    assert_eq!(
        text(&q(r, ".links [role=status]")),
        "Link Curso de Rust desativado."
    );
    click(&q(r, "button[aria-label=\"Reativar o link Doação\"]")).await;
    sleep(50).await;
    assert!(calls()
        .iter()
        .any(|c| c["url"] == "/api/payment-links/doacao/reactivate"));
    assert_eq!(
        text(&q(r, ".links [role=status]")),
        "Link Doação reativado."
    );
    // The list was asked again after each change.
    let lists = calls()
        .iter()
        .filter(|c| c["url"] == "/api/payment-links")
        .count();
    assert_eq!(lists, 3, "{}", all_calls());
}

#[wasm_bindgen_test]
async fn the_share_panel_copies_the_url_and_both_snippets_and_shows_the_qr_code() {
    route_fetch(&routes(&[]));
    stub_clipboard();
    let app = mount_at("/links").await;
    let r = &app.root;
    sleep(50).await;
    click(&q(
        r,
        "button[aria-label=\"Compartilhar o link Curso de Rust\"]",
    ))
    .await;
    sleep(50).await;
    assert_eq!(
        text(&q(r, "#share-title")),
        "Compartilhar o link Curso de Rust"
    );
    click_button(r, "Copiar endereço").await;
    click_button(r, "Copiar código do quadro").await;
    click_button(r, "Copiar código do mount()").await;
    sleep(20).await;
    let copied: Vec<String> = serde_json::from_str(&copied()).unwrap();
    assert_eq!(copied[0], "https://pay.loja.example/l/curso-rust");
    assert_eq!(
        copied[1],
        r#"<script src="https://pay.loja.example/embed.js" data-paylink-link="curso-rust" async></script>"#
    );
    assert!(
        copied[2].contains(r#"import { mount } from "https://pay.loja.example/mount.js";"#),
        "{}",
        copied[2]
    );
    assert!(
        copied[2].contains(r#"{ link: "curso-rust", locale: "pt-BR" }"#),
        "{}",
        copied[2]
    );
    assert_eq!(text(&q(r, ".share [role=status]")), "Copiado.");
    // The snippets are also on screen, each with its label.
    let iframe = q(r, "textarea#snippet-iframe");
    assert_eq!(
        js_sys::Reflect::get(&iframe, &"value".into())
            .unwrap()
            .as_string()
            .unwrap(),
        copied[1]
    );
    assert!(
        q_opt(r, "label[for=snippet-iframe]").is_some()
            && q_opt(r, "label[for=snippet-mount]").is_some()
    );
    // The QR code the server drew, labelled, with the URL under it, and a print button.
    let qr = q(r, ".link-qr .qr[role=img]");
    assert!(qr
        .get_attribute("aria-label")
        .unwrap()
        .contains("https://pay.loja.example/l/curso-rust"));
    assert!(q_opt(&qr, "svg#qr-test").is_some());
    assert!(text(&q(r, ".link-qr figcaption")).contains("https://pay.loja.example/l/curso-rust"));
    assert!(q_all(r, "button")
        .iter()
        .any(|b| text(b) == "Imprimir QR code"));
}

#[wasm_bindgen_test]
async fn the_form_checks_live_by_the_models_rules_and_sends_the_api_request() {
    let created = COURSE.replace("curso-rust", "curso-novo");
    route_fetch(&routes(&[
        ("POST /api/payment-links", 201, created.clone()),
        ("GET /api/payment-links/curso-novo", 200, one(&created)),
    ]));
    let app = mount_at("/links").await;
    let r = &app.root;
    sleep(50).await;
    // The contract: name = API path, a label for each control, a submit button.
    for name in [
        "name",
        "slug",
        "description",
        "price",
        "invoiceType",
        "dueInDays",
        "fine.type",
        "fine.value",
        "interest.value",
        "discount.type",
        "discount.value",
        "discount.daysBeforeDue",
        "redirectTo",
    ] {
        let id = named(r, name).id();
        assert!(
            q_opt(r, &format!("label[for=\"{id}\"]")).is_some(),
            "{name} has no label"
        );
    }
    assert!(q_opt(r, "#link-form button[type=submit]").is_some());

    // Leaving a field shows its own message only.
    blur(r, "name").await;
    assert_eq!(error_of(r, "name").as_deref(), Some("Campo obrigatório."));
    assert_eq!(error_of(r, "description"), None);
    type_text(r, "price", "4,99").await;
    blur(r, "price").await;
    assert_eq!(
        error_of(r, "price").as_deref(),
        Some("O valor mínimo é R$ 5,00.")
    );
    // Installments: their maximum appears, and each must be at least R$ 5,00.
    assert!(q_opt(r, "[name=maxInstallments]").is_none());
    choose(r, "invoiceType", "INSTALLMENT").await;
    type_text(r, "price", "10,00").await;
    type_text(r, "maxInstallments", "3").await;
    blur(r, "maxInstallments").await;
    assert_eq!(
        error_of(r, "maxInstallments").as_deref(),
        Some("Cada parcela deve ser de pelo menos R$ 5,00.")
    );
    // A fine above the consumer's 2 %: anyone may pay through a link.
    type_text(r, "fine.value", "2,5").await;
    blur(r, "fine.value").await;
    assert!(error_of(r, "fine.value").unwrap().contains("2 %"));

    // Submitting with errors sends nothing and focuses the first invalid field.
    let before = calls().len();
    submit(r, "link-form").await;
    assert_eq!(calls().len(), before, "nothing sent");
    assert_eq!(focused_name().as_deref(), Some("name"));

    // Fixed, the messages go as the fields change.
    type_text(r, "name", "Curso novo").await;
    assert_eq!(error_of(r, "name"), None);
    type_text(r, "description", "Acesso por 12 meses").await;
    type_text(r, "price", "300,00").await;
    assert_eq!(error_of(r, "maxInstallments"), None);
    type_text(r, "fine.value", "2").await;
    type_text(r, "discount.value", "10,00").await;
    choose(r, "discount.type", "FIXED").await;
    type_text(r, "discount.daysBeforeDue", "1").await;
    submit(r, "link-form").await;
    sleep(50).await;
    let post = calls()
        .into_iter()
        .find(|c| c["method"] == "POST")
        .expect("a creation");
    assert_eq!(post["url"], "/api/payment-links");
    let body: serde_json::Value = serde_json::from_str(post["body"].as_str().unwrap()).unwrap();
    assert_eq!(
        body,
        serde_json::json!({
            "name": "Curso novo", "description": "Acesso por 12 meses", "price": 300,
            "paymentTypes": ["PIX", "BOLETO"], "invoiceType": "INSTALLMENT", "maxInstallments": 3,
            "dueInDays": 3, "fine": {"type": "PERCENTAGE", "value": 2},
            "discount": {"type": "FIXED", "value": 10, "daysBeforeDue": 1}
        })
    );
    // Created: said, the form blank again, and its share panel open.
    assert_eq!(
        text(&q(r, ".links [role=status]")),
        "Link Curso de Rust criado."
    );
    assert_eq!(input(r, "name").value(), "");
    assert!(text(&q(r, "#share-title")).contains("Curso de Rust"));
}

#[wasm_bindgen_test]
async fn the_servers_field_errors_land_on_their_fields() {
    let refused = r#"{"code":422,"message":"Falha de validação","errors":{"slug":["Já existe um link com este endereço: escolha outro."]}}"#;
    route_fetch(&routes(&[(
        "POST /api/payment-links",
        422,
        refused.to_string(),
    )]));
    let app = mount_at("/links").await;
    let r = &app.root;
    sleep(50).await;
    type_text(r, "name", "Curso").await;
    type_text(r, "description", "Acesso").await;
    type_text(r, "price", "10,00").await;
    type_text(r, "slug", "curso-rust").await;
    submit(r, "link-form").await;
    sleep(50).await;
    assert_eq!(
        error_of(r, "slug").as_deref(),
        Some("Já existe um link com este endereço: escolha outro.")
    );
    assert_eq!(focused_name().as_deref(), Some("slug"));
    // A payer-set amount hides the price and sends priceByCustomer instead.
    click(&q(r, "#f-priceByCustomer")).await;
    assert!(q_opt(r, "[name=price]").is_none());
    submit(r, "link-form").await;
    sleep(50).await;
    let last: serde_json::Value = serde_json::from_str(&last_call()).unwrap();
    let body: serde_json::Value = serde_json::from_str(last["body"].as_str().unwrap()).unwrap();
    assert_eq!(body["priceByCustomer"], true);
    assert!(body.get("price").is_none(), "{body}");
}

#[wasm_bindgen_test]
async fn every_text_of_the_screen_follows_a_language_switch() {
    route_fetch(&routes(&[(
        "POST /api/payment-links/curso-rust/deactivate",
        200,
        COURSE.replace("\"active\":true", "\"active\":false"),
    )]));
    let app = mount_at("/links").await;
    let r = &app.root;
    sleep(50).await;
    click(&q(
        r,
        "button[aria-label=\"Desativar o link Curso de Rust\"]",
    ))
    .await;
    sleep(50).await;
    submit(r, "link-form").await;
    assert_eq!(error_of(r, "name").as_deref(), Some("Campo obrigatório."));
    click_button(r, "EN").await;
    sleep(50).await;
    assert_eq!(text(&q(r, "h1")), "Payment links");
    assert_eq!(
        text(&q(r, ".links [role=status]")),
        "Link Curso de Rust deactivated."
    );
    assert_eq!(
        error_of(r, "name").as_deref(),
        Some("This field is required.")
    );
    assert_eq!(
        text(&q(r, "#link-form [role=alert]")),
        "Fix the fields shown."
    );
    let course: Vec<String> = q_all(&q_all(r, "table tbody tr")[0], "td")
        .iter()
        .map(text)
        .collect();
    assert_eq!(course[1], "Up to 3 installments");
    click_button(r, "PT").await;
    sleep(50).await;
}
