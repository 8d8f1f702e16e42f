//! Browser component tests of the webhooks screen (`/webhooks`, `wasm-pack
//! test --headless --chrome`): the webhooks' and deliveries' tables, the
//! filters read from the URL, the add form's contract and messages (the
//! browser's and the service's), the secret shown once and copied, removal
//! behind a confirm step, rotation, redelivery, and a language switch.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use paylink_model::Lang;
// The screen shows instants with the model's formatting (it used to copy it).
use paylink_model::date::format_instant_brasilia as date_time;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
export function mock_routes(routes) {
  // [[method, path prefix, status, body]]: the first that matches answers; the
  // navigation's session call is answered apart and not recorded.
  const table = JSON.parse(routes);
  window.__paylinkCalls = [];
  window.fetch = async (input, init) => {
    const req = new Request(input, init);
    const u = new URL(req.url);
    const json = (status, body) => new Response(status === 204 ? null : body,
      { status, headers: { 'Content-Type': 'application/json' } });
    if (u.pathname === '/api/session' && req.method === 'GET') {
      return json(200, JSON.stringify({ id: 'op-1', email: 'operadora@loja.example', name: 'Operadora' }));
    }
    const call = { url: u.pathname + u.search, method: req.method, body: undefined,
      lang: req.headers.get('Accept-Language') };
    window.__paylinkCalls.push(call);
    const sent = await req.text();
    call.body = sent === '' ? undefined : sent;
    for (const [m, p, status, body] of table) {
      if (m === req.method && call.url.startsWith(p)) return json(status, body);
    }
    return json(404, '{"code":404,"message":"Rota não encontrada."}');
  };
}
"#)]
extern "C" {
    fn mock_routes(routes: &str);
}

const HOOK_ID: &str = "01a21c13-0000-7000-8000-000000000001";
const FAILED_ID: &str = "01a21c13-0000-7000-8000-0000000000f1";
const INVOICE_ID: &str = "01a21c13-0000-7000-8000-0000000000a1";

fn hooks(secret_at: &str) -> String {
    format!(
        r#"{{"data":[{{"id":"{HOOK_ID}","hookType":"PAYMENT_CONFIRMED","url":"https://loja.example/hooks",
        "createdAt":"2026-11-20T15:30:00.000Z","disabledAt":null}}],"secretCreatedAt":{secret_at}}}"#
    )
}

fn deliveries() -> String {
    format!(
        r#"{{"data":[
        {{"id":"{FAILED_ID}","eventId":"e1","eventType":"PAYMENT_CONFIRMED","invoiceId":"{INVOICE_ID}",
          "externalId":"PEDIDO-7","url":"https://loja.example/hooks","source":"application","status":"pending",
          "attempts":2,"lastStatusCode":500,"lastError":"HTTP 500 Internal Server Error",
          "nextAttemptAt":"2026-11-27T13:05:00.000Z","createdAt":"2026-11-27T12:00:00.000Z","updatedAt":"2026-11-27T12:35:00.000Z"}},
        {{"id":"01a21c13-0000-7000-8000-0000000000f2","eventId":"e2","eventType":"INVOICE_CREATED","invoiceId":"{INVOICE_ID}",
          "externalId":"PEDIDO-7","url":"https://loja.example/hooks","source":"invoice","status":"succeeded",
          "attempts":1,"lastStatusCode":200,"lastError":null,
          "nextAttemptAt":null,"createdAt":"2026-11-27T11:00:00.000Z","updatedAt":"2026-11-27T11:00:01.000Z"}}
        ],"nextCursor":"2026-11-27T11:00:00.000Z~01a21c13-0000-7000-8000-0000000000f2"}}"#
    )
}

/// The screen's two reads, and `extra` routes before them.
fn routes(extra: &[(&str, &str, u16, String)]) {
    let mut all: Vec<serde_json::Value> = extra
        .iter()
        .map(|(m, p, s, b)| serde_json::json!([m, p, s, b]))
        .collect();
    all.push(serde_json::json!([
        "GET",
        "/api/webhooks",
        200,
        hooks(r#""2026-11-20T15:30:00.000Z""#)
    ]));
    all.push(serde_json::json!([
        "GET",
        "/api/deliveries",
        200,
        deliveries()
    ]));
    mock_routes(&serde_json::Value::Array(all).to_string());
}

fn calls() -> Vec<serde_json::Value> {
    serde_json::from_str(&all_calls()).unwrap()
}

/// The call of `method` to `url` (gloo-net may end a query with `&`).
fn called(method: &str, url: &str) -> Option<serde_json::Value> {
    calls().into_iter().find(|c| {
        c["method"] == method
            && c["url"]
                .as_str()
                .is_some_and(|u| u.trim_end_matches('&') == url)
    })
}

async fn screen(path: &str) -> Mounted {
    let app = mount_at(path).await;
    sleep(60).await;
    app
}

#[wasm_bindgen_test]
fn instants_are_shown_in_brasilia_as_the_language_writes_dates() {
    assert_eq!(
        date_time("2026-11-27T13:05:00.000Z", Lang::PtBr),
        "27/11/2026 10:05"
    );
    assert_eq!(
        date_time("2026-11-27T02:59:59.000Z", Lang::PtBr),
        "26/11/2026 23:59"
    );
    assert_eq!(
        date_time("2026-11-27T13:05:00.000Z", Lang::En),
        "2026-11-27 10:05"
    );
    assert_eq!(date_time("soon", Lang::PtBr), "soon");
}

#[wasm_bindgen_test]
async fn the_tables_show_webhooks_and_deliveries_filtered_from_the_url() {
    routes(&[]);
    let app = screen(&format!("/webhooks?invoiceId={INVOICE_ID}&status=pending")).await;
    let r = &app.root;
    assert!(
        called(
            "GET",
            &format!("/api/deliveries?invoiceId={INVOICE_ID}&status=pending")
        )
        .is_some(),
        "{}",
        all_calls()
    );
    // The navigation marks the screen.
    let current: Vec<String> = q_all(r, "nav.merchant-nav a[aria-current=page]")
        .iter()
        .map(text)
        .collect();
    assert_eq!(current, ["Webhooks"]);
    // The filters show the URL's.
    assert_eq!(input(r, "invoiceId").value(), INVOICE_ID);
    let status: web_sys::HtmlSelectElement =
        wasm_bindgen::JsCast::unchecked_into(named(r, "status"));
    assert_eq!(status.value(), "pending");

    let tables = q_all(r, "table");
    assert_eq!(tables.len(), 2);
    let hooks = &tables[0];
    assert_eq!(text(&q(hooks, "caption")), "Endereços");
    let row = text(&q(hooks, "tbody tr"));
    assert!(row.contains("Pagamento confirmado") && row.contains("https://loja.example/hooks"));
    assert!(
        row.contains("20/11/2026 12:30") && row.contains("Ativo"),
        "{row}"
    );
    assert!(text(r).contains("Em uso desde 20/11/2026 12:30"));
    assert!(!text(r).contains("whsec_"), "the secret is never listed");

    let rows = q_all(&tables[1], "tbody tr");
    assert_eq!(rows.len(), 2);
    let failing = text(&rows[0]);
    for part in [
        "Pagamento confirmado",
        "PEDIDO-7",
        "Aguardando",
        "HTTP 500 Internal Server Error",
        "27/11/2026 10:05",
    ] {
        assert!(failing.contains(part), "{part} in {failing}");
    }
    assert_eq!(text(&q(&rows[0], "td.num")), "2");
    assert_eq!(
        q(&rows[0], "a").get_attribute("href").as_deref(),
        Some(format!("/invoices/{INVOICE_ID}").as_str())
    );
    // Redeliver only where the last attempt failed.
    assert!(q_opt(&rows[0], "button").is_some());
    assert!(q_opt(&rows[1], "button").is_none());
    assert!(text(&rows[1]).contains("Entregue"));
    // The next page keeps the filters.
    let next = q(r, "nav.pager a[rel=next]").get_attribute("href").unwrap();
    assert!(
        next.starts_with(&format!(
            "/webhooks?invoiceId={INVOICE_ID}&status=pending&cursor="
        )),
        "{next}"
    );
}

#[wasm_bindgen_test]
async fn a_refused_filter_shows_the_service_message_on_its_field() {
    routes(&[(
        "GET",
        "/api/deliveries",
        422,
        r#"{"code":422,"message":"Dados inválidos","errors":{"invoiceId":["Identificador inválido (UUID esperado)."]}}"#
            .into(),
    )]);
    let app = screen("/webhooks?invoiceId=42").await;
    let r = &app.root;
    let field = named(r, "invoiceId");
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
    let described = field.get_attribute("aria-describedby").unwrap();
    let message = described
        .split(' ')
        .map(|id| text(&q(r, &format!("#{id}"))))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        message.contains("Identificador inválido (UUID esperado)."),
        "{message}"
    );
    assert!(q_opt(r, "[role=alert]").is_some());
}

#[wasm_bindgen_test]
async fn the_add_form_checks_its_fields_then_shows_the_secret_once() {
    stub_clipboard();
    routes(&[(
        "POST",
        "/api/webhooks",
        201,
        format!(
            r#"{{"id":"{HOOK_ID}","hookType":"INVOICE_CREATED","url":"https://loja.example/novo",
            "createdAt":"2026-11-27T12:00:00.000Z","disabledAt":null,"secret":"whsec_c2VncmVkbw=="}}"#
        ),
    )]);
    let app = screen("/webhooks").await;
    let r = &app.root;
    // The form's contract: names are API paths, labels point at their controls.
    for name in ["hookType", "url"] {
        let id = named(r, name).id();
        assert!(
            q_opt(r, &format!("label[for=\"{id}\"]")).is_some(),
            "{name}"
        );
    }
    submit(r, "webhook-add").await;
    assert!(error_of(r, "hookType").is_some());
    assert_eq!(error_of(r, "url").as_deref(), Some("Campo obrigatório."));
    assert!(called("POST", "/api/webhooks").is_none(), "nothing sent");

    choose(r, "hookType", "INVOICE_CREATED").await;
    type_text(r, "url", "http://loja.example/novo").await;
    submit(r, "webhook-add").await;
    assert_eq!(
        error_of(r, "url").as_deref(),
        Some("Informe uma URL HTTPS válida.")
    );
    type_text(r, "url", "https://loja.example/novo").await;
    assert_eq!(error_of(r, "url"), None, "fixed: the message goes");
    submit(r, "webhook-add").await;
    sleep(60).await;
    let call = called("POST", "/api/webhooks").expect("sent");
    let body: serde_json::Value = serde_json::from_str(call["body"].as_str().unwrap()).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"hookType": "INVOICE_CREATED", "url": "https://loja.example/novo"})
    );

    // The secret, once, copyable, with what it means.
    let bx = q(r, ".secret-box");
    assert!(text(&bx).contains("você não poderá vê-lo de novo"));
    // The form is ready for another.
    let kind: web_sys::HtmlSelectElement =
        wasm_bindgen::JsCast::unchecked_into(named(r, "hookType"));
    assert_eq!(kind.value(), "");
    let secret: web_sys::HtmlInputElement =
        wasm_bindgen::JsCast::unchecked_into(q(r, "#secret-value"));
    assert_eq!(secret.value(), "whsec_c2VncmVkbw==");
    assert!(q_opt(r, "label[for=secret-value]").is_some());
    click_button(r, "Copiar segredo").await;
    sleep(20).await;
    assert_eq!(copied(), r#"["whsec_c2VncmVkbw=="]"#);
    assert!(text(&bx).contains("Copiado"));
    click_button(r, "Já guardei o segredo").await;
    assert!(q_opt(r, ".secret-box").is_none());
    assert!(!text(r).contains("whsec_"));
}

#[wasm_bindgen_test]
async fn the_service_field_error_lands_on_the_url_field() {
    routes(&[(
        "POST",
        "/api/webhooks",
        422,
        r#"{"code":422,"message":"Dados inválidos: confira os campos indicados.","errors":{"url":["Esta URL já recebe este evento."]}}"#.into(),
    )]);
    let app = screen("/webhooks").await;
    let r = &app.root;
    choose(r, "hookType", "PAYMENT_CONFIRMED").await;
    type_text(r, "url", "https://loja.example/hooks").await;
    submit(r, "webhook-add").await;
    sleep(60).await;
    assert_eq!(
        error_of(r, "url").as_deref(),
        Some("Esta URL já recebe este evento.")
    );
    assert!(q_opt(r, ".secret-box").is_none());
}

#[wasm_bindgen_test]
async fn removing_asks_first_and_escape_gives_the_focus_back() {
    routes(&[("DELETE", "/api/webhooks/", 204, String::new())]);
    let app = screen("/webhooks").await;
    let r = &app.root;
    let opener = q(r, &format!("#remove-{HOOK_ID}"));
    assert!(opener
        .get_attribute("aria-label")
        .unwrap()
        .contains("https://loja.example/hooks"));
    click(&opener).await;
    sleep(30).await;
    let step = q(r, "#webhook-step");
    assert!(text(&step).contains("deixará de ser enviado para https://loja.example/hooks"));
    assert_eq!(
        opener.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    press(&step, "Escape");
    tick().await;
    assert!(q_opt(r, "#webhook-step").is_none());
    assert_eq!(
        leptos::prelude::document().active_element().map(|e| e.id()),
        Some(format!("remove-{HOOK_ID}"))
    );
    assert!(called("DELETE", &format!("/api/webhooks/{HOOK_ID}")).is_none());

    click(&opener).await;
    submit(r, "webhook-step").await;
    sleep(60).await;
    assert!(called("DELETE", &format!("/api/webhooks/{HOOK_ID}")).is_some());
    assert_eq!(text(&q(r, "#webhooks-notice")), "Webhook removido.");
    assert!(q_opt(r, "#webhook-step").is_none());
}

#[wasm_bindgen_test]
async fn rotating_confirms_then_shows_the_new_secret_and_how_long_the_old_one_signs() {
    routes(&[]);
    let app = screen("/webhooks").await;
    let r = &app.root;
    assert!(!text(r).contains("O segredo anterior"));
    click_button(r, "Gerar novo segredo").await;
    sleep(30).await;
    assert!(text(&q(r, "#webhook-step")).contains("por 24 horas, também com o atual"));
    // The list read again after the rotation says until when the old secret signs.
    let rotated = hooks(r#""2026-11-27T12:00:00.000Z""#).replace(
        r#""secretCreatedAt""#,
        r#""previousSecretValidUntil":"2026-11-28T12:00:00.000Z","secretCreatedAt""#,
    );
    let table = serde_json::json!([
        [
            "POST",
            "/api/webhooks/secret",
            200,
            r#"{"secret":"whsec_bm92bw==","createdAt":"2026-11-27T12:00:00.000Z","previousValidUntil":"2026-11-28T12:00:00.000Z"}"#
        ],
        ["GET", "/api/webhooks", 200, rotated],
        ["GET", "/api/deliveries", 200, deliveries()],
    ]);
    mock_routes(&table.to_string());
    submit(r, "webhook-step").await;
    sleep(60).await;
    assert!(called("POST", "/api/webhooks/secret").is_some());
    let secret: web_sys::HtmlInputElement =
        wasm_bindgen::JsCast::unchecked_into(q(r, "#secret-value"));
    assert_eq!(secret.value(), "whsec_bm92bw==");
    assert!(
        text(r).contains("O segredo anterior também assina as entregas até 28/11/2026 09:00"),
        "{}",
        text(r)
    );
}

#[wasm_bindgen_test]
async fn a_failed_delivery_is_sent_again_from_its_row() {
    routes(&[("POST", "/api/deliveries/", 202, r#"{"code":0}"#.into())]);
    let app = screen("/webhooks").await;
    let r = &app.root;
    let button = q(&q_all(r, "table")[1], "tbody tr button");
    assert!(button
        .get_attribute("aria-label")
        .unwrap()
        .contains("PEDIDO-7"));
    click(&button).await;
    sleep(60).await;
    assert!(called("POST", &format!("/api/deliveries/{FAILED_ID}/redeliver")).is_some());
    // An answer that is not a delivery is reported, not taken as done.
    assert!(!text(&q(r, "#deliveries-notice")).is_empty());

    routes(&[(
        "POST",
        "/api/deliveries/",
        202,
        format!(
            r#"{{"id":"{FAILED_ID}","eventId":"e1","eventType":"PAYMENT_CONFIRMED","invoiceId":"{INVOICE_ID}",
            "externalId":"PEDIDO-7","url":"https://loja.example/hooks","source":"application","status":"pending",
            "attempts":2,"lastStatusCode":500,"lastError":"HTTP 500","nextAttemptAt":"2026-11-27T12:40:00.000Z",
            "createdAt":"2026-11-27T12:00:00.000Z","updatedAt":"2026-11-27T12:40:00.000Z"}}"#
        ),
    )]);
    click(&q(&q_all(r, "table")[1], "tbody tr button")).await;
    sleep(60).await;
    assert_eq!(
        text(&q(r, "#deliveries-notice")),
        "Entrega reenviada: ela sai em instantes."
    );
    // The list is asked again.
    let reads = calls()
        .into_iter()
        .filter(|c| {
            c["url"].as_str().unwrap().starts_with("/api/deliveries") && c["method"] == "GET"
        })
        .count();
    assert!(reads >= 1, "{}", all_calls());
}

#[wasm_bindgen_test]
async fn everything_on_the_screen_follows_a_language_switch() {
    routes(&[]);
    let app = screen("/webhooks").await;
    let r = &app.root;
    submit(r, "webhook-add").await;
    assert_eq!(error_of(r, "url").as_deref(), Some("Campo obrigatório."));
    click_button(r, "EN").await;
    sleep(60).await;
    assert_eq!(
        error_of(r, "url").as_deref(),
        Some("This field is required.")
    );
    let all = text(r);
    for part in [
        "Endpoints",
        "Deliveries",
        "Make a new secret",
        "Add webhook",
        "Payment confirmed",
        "Send again",
    ] {
        assert!(all.contains(part), "{part}");
    }
    assert!(
        all.contains("2026-11-27 10:05"),
        "dates as English writes them"
    );
    click_button(r, "PT").await;
}
