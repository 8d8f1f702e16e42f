//! Browser component tests of the back office screens (`wasm-pack test
//! --headless --chrome`): the actions on an invoice's detail (offer, confirm
//! step, focus, Escape, field messages, the calls), a PIX charge the bank
//! refused shown on the detail, a Pix the bank returned (its reason in words), and the dashboard (chart scale, the table of
//! the same numbers, its figures kept on screen through a language switch).
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use paylink_model::date::brasilia_today_from_millis;
use paylink_model::{InvoiceDetail, Lang};
use paylink_text::month_label;
use paylink_widget::pages::dashboard::{bar_shares, nice_top};
use paylink_widget::pages::invoice_actions::{installment_payment_request, payment_request, Offer};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const ID: &str = "7d1e0c9a-1111-4b2b-9c3d-000000000001";

/// An invoice of 3 installments, the first paid, with a WhatsApp reminder.
const DETAIL: &str = r#"{
  "id":"7d1e0c9a-1111-4b2b-9c3d-000000000001","externalId":"PL-TEST01","description":"Mensalidade",
  "invoiceType":"INSTALLMENT","price":1000,"priceByCustomer":false,"dueDate":"2026-01-31T00:00:00.000Z",
  "endDate":null,"endInstallment":null,"endSubscription":null,"frequency":null,"installmentCount":3,
  "customer":{"id":"3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b","fullName":"Maria da Silva","document":"39053344705",
    "business":null,"email":"maria@example.com","userId":"u1","applicationId":"p1","phone":"5511987654321",
    "addressId":null,"observations":null,"createdAt":"2026-01-01T00:00:00.000Z","deletedAt":null},
  "redirectTo":null,
  "installments":[
    {"id":"i1","invoiceId":"x","installment":1,"price":333.34,"pricePaid":333.34,"dueDate":"2026-01-31T00:00:00.000Z",
     "_status":"CONFIRMED","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":null,"deletedAt":null,"lastViewAt":null,
     "paidAt":"2026-01-30T10:00:00.000Z","paymentReceivedAt":null,"viewsCount":2},
    {"id":"i2","invoiceId":"x","installment":2,"price":1333.33,"pricePaid":0,"dueDate":"2026-02-28T00:00:00.000Z",
     "_status":"WAITING_PAYMENT","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":null,"deletedAt":null,"lastViewAt":null,
     "paidAt":null,"paymentReceivedAt":null,"viewsCount":0},
    {"id":"i3","invoiceId":"x","installment":3,"price":333.33,"pricePaid":0,"dueDate":"2026-03-31T00:00:00.000Z",
     "_status":"WAITING_PAYMENT","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":null,"deletedAt":null,"lastViewAt":null,
     "paidAt":null,"paymentReceivedAt":null,"viewsCount":0}],
  "items":[],
  "notificationBeforeDueDate":[{"id":"n1","type":"SEND_INVOICE_REMINDER","channel":"WhatsApp","period":5,"createdAt":"2026-01-01T00:00:00.000Z"}],
  "notificationAfterDueDate":[],"notificationAfterPayment":[],"notificationSendTypes":[],
  "webhooks":[],
  "paymentTypes":[{"invoiceId":"x","paymentTypeAccepted":"PIX"}],
  "createdAt":"2026-01-01T00:00:00.000Z","url":"https://paylink.example/pay/7d1e0c9a-1111-4b2b-9c3d-000000000001"}"#;

fn detail() -> InvoiceDetail {
    let json = js_sys::JSON::parse(DETAIL).unwrap();
    paylink_widget::api::read(json).unwrap()
}

fn today() -> paylink_model::Date {
    brasilia_today_from_millis(js_sys::Date::now() as i64).unwrap()
}

fn focused_id() -> String {
    leptos::prelude::document()
        .active_element()
        .map(|e| e.id())
        .unwrap_or_default()
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = r#"
export function press(el, key) {
  el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
}
"#)]
extern "C" {
    /// A `keydown` of `key` on `el`, bubbling as a real one does.
    fn press(el: &web_sys::Element, key: &str);
}

async fn key(el: &web_sys::Element, k: &str) {
    press(el, k);
    sleep(30).await;
}

// ---------------------------------------------------------------- what is offered

#[wasm_bindgen_test]
fn only_the_actions_the_state_allows_are_offered() {
    let inv = detail();
    let o = Offer::of(&inv);
    assert_eq!(o.pay, [(2, 133333), (3, 33333)], "the waiting installments");
    assert!(o.cancel && o.resend);

    // Without a notification channel there is nothing to resend on.
    let mut quiet = inv.clone();
    quiet.notification_before_due_date.clear();
    assert!(!Offer::of(&quiet).resend);

    // Everything paid: no payment to record, nothing to cancel or resend.
    let mut paid = inv;
    for i in &mut paid.installments {
        i.status = paylink_model::InstallmentStatus::Confirmed;
    }
    assert!(Offer::of(&paid).is_empty());
}

#[wasm_bindgen_test]
fn a_payment_is_checked_by_the_model_rules_on_its_api_paths() {
    let t = today();
    let ok = payment_request("1.000,50", &t.format_br(), Lang::PtBr, t).unwrap();
    assert_eq!(ok.amount, Some(1000.5));
    assert_eq!(ok.paid_on, Some(t.to_string()));
    assert_eq!(
        payment_request("1000.50", &t.to_string(), Lang::En, t)
            .unwrap()
            .amount,
        Some(1000.5)
    );
    let tomorrow = t.add_days(1).unwrap().format_br();
    for (amount, date, path) in [
        ("", "01/01/2026", "amount"),
        ("abc", "01/01/2026", "amount"),
        ("0,00", "01/01/2026", "amount"),
        ("10,00", "", "paidOn"),
        ("10,00", "31/02/2026", "paidOn"),
        ("10,00", tomorrow.as_str(), "paidOn"),
    ] {
        let errors = payment_request(amount, date, Lang::PtBr, t).unwrap_err();
        assert!(errors.contains_key(path), "{amount} {date}: {errors:?}");
        assert_eq!(errors.len(), 1, "{amount} {date}: {errors:?}");
    }
}

#[wasm_bindgen_test]
fn a_payment_step_is_bounded_by_its_installment_as_the_api_bounds_it() {
    let inv = detail();
    let t = today();
    // Installment 2 costs R$ 1.333,33 (no fine or interest): that much is taken, a cent more is
    // refused on the amount with what was due, before the API is asked.
    let pay =
        |amount: &str, day: &str| installment_payment_request(&inv, 2, amount, day, Lang::PtBr, t);
    assert_eq!(pay("1.333,33", "15/02/2026").unwrap().amount, Some(1333.33));
    let errors = pay("1.333,34", "15/02/2026").unwrap_err();
    assert_eq!(
        errors.get("amount").map(Vec::as_slice),
        Some(
            ["O valor não pode passar do devido nesta parcela (R$ 1.333,33).".to_string()]
                .as_slice()
        ),
        "{errors:?}"
    );
    // Nothing is received for an invoice before it was made (01/01/2026).
    let errors = pay("10,00", "31/12/2025").unwrap_err();
    assert!(
        errors
            .get("paidOn")
            .is_some_and(|m| m[0].contains("01/01/2026")),
        "{errors:?}"
    );
    // The form's own rules still come first.
    assert!(pay("abc", "15/02/2026").unwrap_err().contains_key("amount"));
}

// ---------------------------------------------------------------- the confirm steps

#[wasm_bindgen_test]
async fn recording_a_payment_asks_first_checks_the_fields_and_sends_the_request() {
    mock_fetch(200, DETAIL);
    let app = mount_at(&format!("/invoices/{ID}")).await;
    let r = &app.root;
    sleep(50).await;

    // One button per waiting installment; none for the paid one.
    assert!(q_opt(r, "#act-pay-1").is_none());
    assert!(q_opt(r, "#act-pay-3").is_some());
    let opener = q(r, "#act-pay-2");
    assert_eq!(
        opener.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    click(&opener).await;
    sleep(30).await;
    assert_eq!(
        opener.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    // Prefilled: the installment's value as Brazilians write it, today dd/mm/aaaa.
    assert_eq!(input(r, "amount").value(), "1.333,33");
    assert_eq!(input(r, "paidOn").value(), today().format_br());
    assert_eq!(focused_name().as_deref(), Some("amount"));
    assert!(q_opt(r, "#action-step button[type=submit]").is_some());

    // A bad amount: a message on the field, nothing sent.
    let calls = fetch_count();
    type_text(r, "amount", "12,345").await;
    submit(r, "action-step").await;
    assert!(error_of(r, "amount").is_some());
    assert_eq!(fetch_count(), calls, "nothing sent with an error");

    // Escape closes the step and gives the focus back to its button.
    key(&named(r, "amount"), "Escape").await;
    assert!(q_opt(r, "#action-step").is_none());
    assert_eq!(focused_id(), "act-pay-2");

    // Again, valid: the request on the API's paths, then the outcome.
    click(&opener).await;
    sleep(30).await;
    type_text(r, "amount", "1.000,00").await;
    submit(r, "action-step").await;
    sleep(50).await;
    let calls = all_calls();
    assert!(
        calls.contains(&format!(
            r#""url":"/api/invoices/{ID}/installments/2/payments","method":"POST","body":"{{\"amount\":1000,\"paidOn\":\"{}\"}}""#,
            today()
        )),
        "{calls}"
    );
    assert!(q_opt(r, "#action-step").is_none());
    assert_eq!(
        text(&q(r, "#action-notice")),
        "Pagamento registrado: parcela 2."
    );
    assert_eq!(focused_id(), "action-notice");
}

#[wasm_bindgen_test]
async fn a_step_the_invoice_no_longer_allows_is_closed_when_the_detail_is_asked_again() {
    mock_fetch(200, DETAIL);
    let app = mount_at(&format!("/invoices/{ID}")).await;
    let r = &app.root;
    sleep(50).await;
    click(&q(r, "#act-pay-3")).await;
    sleep(30).await;
    assert!(q_opt(r, "#action-step").is_some());
    // Installment 3 paid elsewhere meanwhile: the detail's next look (3 s) closes its step.
    let paid = DETAIL.replacen(
        r#""installment":3,"price":333.33,"pricePaid":0,"dueDate":"2026-03-31T00:00:00.000Z",
     "_status":"WAITING_PAYMENT""#,
        r#""installment":3,"price":333.33,"pricePaid":333.33,"dueDate":"2026-03-31T00:00:00.000Z",
     "_status":"CONFIRMED""#,
        1,
    );
    assert_ne!(paid, DETAIL);
    mock_fetch(200, &paid);
    sleep(3300).await;
    assert!(q_opt(r, "#act-pay-3").is_none());
    assert!(q_opt(r, "#action-step").is_none(), "the step closed");
    // Another step still opens.
    click(&q(r, "#act-pay-2")).await;
    sleep(30).await;
    assert!(q_opt(r, "#action-step").is_some());
}

#[wasm_bindgen_test]
async fn cancelling_confirms_first_and_a_refusal_is_shown_in_the_step() {
    mock_fetch(200, DETAIL);
    let app = mount_at(&format!("/invoices/{ID}")).await;
    let r = &app.root;
    sleep(50).await;

    click(&q(r, "#act-cancel")).await;
    sleep(30).await;
    // The step asks; its submit button has the focus; nothing was sent yet.
    assert!(text(&q(r, "#action-step-q")).contains("Cancelar esta cobrança?"));
    assert_eq!(
        leptos::prelude::document()
            .active_element()
            .and_then(|e| e.get_attribute("type"))
            .as_deref(),
        Some("submit")
    );
    assert!(!all_calls().contains("DELETE"));

    // "Voltar" closes it without a call.
    click_button(r, "Voltar").await;
    sleep(30).await;
    assert!(q_opt(r, "#action-step").is_none());
    assert_eq!(focused_id(), "act-cancel");
    assert!(!all_calls().contains("DELETE"));

    // Confirmed, and refused by the service: its message in the step's alert.
    click(&q(r, "#act-cancel")).await;
    mock_fetch(404, r#"{"code":404,"message":"Fatura não encontrada."}"#);
    submit(r, "action-step").await;
    sleep(50).await;
    assert!(
        all_calls().contains(r#""method":"DELETE""#),
        "{}",
        all_calls()
    );
    let alert = q(r, "#action-step [role=alert]");
    assert_eq!(text(&alert), "Fatura não encontrada.");
}

#[wasm_bindgen_test]
async fn resending_shows_how_many_sends_were_queued() {
    mock_fetch(200, DETAIL);
    let app = mount_at(&format!("/invoices/{ID}")).await;
    let r = &app.root;
    sleep(50).await;
    click(&q(r, "#act-resend")).await;
    mock_fetch(202, r#"{"queued":1}"#);
    submit(r, "action-step").await;
    sleep(50).await;
    assert!(last_call().contains(&format!("/api/invoices/{ID}/resend")));
    assert_eq!(
        text(&q(r, "#action-notice")),
        "Notificação reenviada (1 envio)."
    );
}

// ---------------------------------------------------------------- PIX charges at the bank

/// [`DETAIL`] with installment 2's PIX charge refused by the bank and installment 3's created.
fn refused_detail() -> String {
    let refused = DETAIL.replacen(
        r#""viewsCount":0},"#,
        r#""viewsCount":0,"pixCharge":{"state":"refused","reasons":["Requisição inválida.","O CPF ou CNPJ do devedor está cancelado na Receita Federal. (cobv.devedor)"]}},"#,
        1,
    );
    let both = refused.replacen(
        r#""viewsCount":0}],"#,
        r#""viewsCount":0,"pixCharge":{"state":"created"}}],"#,
        1,
    );
    assert_ne!(both, refused);
    assert_ne!(refused, DETAIL);
    both
}

#[wasm_bindgen_test]
async fn a_pix_charge_the_bank_refused_is_shown_with_its_reasons_and_what_to_do() {
    mock_fetch(200, &refused_detail());
    let app = mount_at(&format!("/invoices/{ID}")).await;
    let r = &app.root;
    sleep(50).await;

    let alert = q(r, "#pix-problem-2");
    assert!(alert.class_list().contains("alert"));
    let heading = q(r, "#pix-problem-2 h2");
    assert_eq!(
        text(&heading),
        "O banco recusou a cobrança PIX da parcela 2"
    );
    assert_eq!(
        alert.get_attribute("aria-labelledby"),
        heading.get_attribute("id")
    );
    let reasons: Vec<String> = q_all(&alert, "li").iter().map(text).collect();
    assert_eq!(
        reasons,
        [
            "Requisição inválida.",
            "O CPF ou CNPJ do devedor está cancelado na Receita Federal. (cobv.devedor)"
        ]
    );
    assert!(text(&alert).contains("cancele esta cobrança e crie outra"));
    // The paid installment and the one the bank holds need nothing.
    assert!(q_opt(r, "#pix-problem-1").is_none());
    assert!(q_opt(r, "#pix-problem-3").is_none());
    assert_eq!(q_all(r, ".pix-problem").len(), 1);

    click_button(r, "EN").await;
    sleep(50).await;
    assert_eq!(
        text(&q(r, "#pix-problem-2 h2")),
        "The bank refused the PIX charge of installment 2"
    );
    assert!(text(&q(r, "#pix-problem-2")).contains("cancel this invoice and create it again"));
    click_button(r, "PT").await;
}

// ---------------------------------------------------------------- devoluções from the bank

/// [`DETAIL`] with installment 1's Pix returned: R$ 100,00 through MED (settled), and the
/// rest refunded by the merchant, still in progress at the bank.
fn returned_detail() -> String {
    let returned = DETAIL.replacen(
        r#""viewsCount":2},"#,
        r#""viewsCount":2,"priceReturned":100,"devolucoes":[
          {"id":"D1","endToEndId":"E99999999202601301000abcdefghijk","rtrId":"D99999999202602031000abcdefghijk",
           "amount":100,"natureza":"MED_FRAUDE","status":"DEVOLVIDO","requestedAt":"2026-02-03T13:00:00.000Z",
           "settledAt":"2026-02-03T13:00:00.000Z"},
          {"id":"D2","endToEndId":"E99999999202601301000abcdefghijk","rtrId":null,
           "amount":233.34,"natureza":"ORIGINAL","status":"EM_PROCESSAMENTO","requestedAt":null,"settledAt":null}]},"#,
        1,
    );
    assert_ne!(returned, DETAIL);
    returned
}

#[wasm_bindgen_test]
async fn a_pix_returned_is_shown_with_its_reason_in_words() {
    mock_fetch(200, &returned_detail());
    let app = mount_at(&format!("/invoices/{ID}")).await;
    let r = &app.root;
    sleep(50).await;

    assert_eq!(text(&q(r, "#devolucoes-h")), "Devoluções do PIX");
    let lines: Vec<String> = q_all(r, ".devolucoes li").iter().map(text).collect();
    assert_eq!(
        lines,
        [
            "Parcela 1: Devolvido por contestação (MED) — R$ 100,00, devolvido (03/02/2026)",
            "Parcela 1: Devolvido pelo recebedor — R$ 233,34, em processamento",
        ]
    );

    click_button(r, "EN").await;
    sleep(50).await;
    let lines: Vec<String> = q_all(r, ".devolucoes li").iter().map(text).collect();
    assert!(
        lines[0].starts_with("Installment 1: Returned after a dispute (MED)"),
        "{lines:?}"
    );
    assert!(lines[1].contains("Returned by the receiver"), "{lines:?}");
    assert!(lines[1].ends_with("in progress"), "{lines:?}");
    click_button(r, "PT").await;
}

#[wasm_bindgen_test]
async fn an_invoice_without_returns_shows_none() {
    mock_fetch(200, DETAIL);
    let app = mount_at(&format!("/invoices/{ID}")).await;
    sleep(50).await;
    assert!(q_opt(&app.root, ".devolucoes").is_none());
}

// ---------------------------------------------------------------- dashboard

#[wasm_bindgen_test]
fn the_chart_scale_tops_at_a_round_number() {
    assert_eq!(nice_top(0), 100);
    assert_eq!(nice_top(100), 100);
    assert_eq!(nice_top(101), 200);
    assert_eq!(nice_top(123_450), 200_000);
    assert_eq!(nice_top(500_001), 1_000_000);
    let (top, shares) = bar_shares(&[0, 50_000, 100_000, 25_000]);
    assert_eq!(top, 100_000);
    assert_eq!(shares, [0.0, 0.5, 1.0, 0.25]);
    // Nothing received: flat bars, no division by zero.
    let (_, shares) = bar_shares(&[0; 12]);
    assert!(shares.iter().all(|s| *s == 0.0));
}

#[wasm_bindgen_test]
fn months_are_written_as_each_language_does() {
    assert_eq!(month_label("2026-11", Lang::PtBr), "nov/2026");
    assert_eq!(month_label("2027-02", Lang::En), "Feb 2027");
    assert_eq!(month_label("2026-13", Lang::PtBr), "2026-13");
}

#[wasm_bindgen_test]
async fn the_dashboard_shows_totals_a_chart_and_its_table() {
    let months: Vec<String> = paylink_model::dashboard::last_12_months(2026, 11)
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                r#"{{"month":"{m}","received":{}}}"#,
                if i == 11 { 1234.5 } else { i as f64 * 100.0 }
            )
        })
        .collect();
    let body = format!(
        r#"{{"month":"2026-11","received":1234.5,"open":300,"overdue":45.01,"months":[{}]}}"#,
        months.join(",")
    );
    mock_fetch(200, &body);
    let app = mount_at("/painel").await;
    let r = &app.root;
    sleep(50).await;
    assert!(last_call().contains("/api/dashboard"));
    assert_eq!(text(&q(r, "[data-total=received]")), "R$ 1.234,50");
    assert_eq!(text(&q(r, "[data-total=open]")), "R$ 300,00");
    assert_eq!(text(&q(r, "[data-total=overdue]")), "R$ 45,01");
    assert!(text(r).contains("Recebido em nov/2026"));

    let rows = q_all(r, "table.months tbody tr");
    assert_eq!(rows.len(), 12);
    let first: Vec<String> = q_all(&rows[0], "th, td").iter().map(text).collect();
    assert_eq!(first, ["dez/2025", "R$ 0,00"]);
    let last: Vec<String> = q_all(&rows[11], "th, td").iter().map(text).collect();
    assert_eq!(last, ["nov/2026", "R$ 1.234,50"]);

    // The chart: a picture with a name, one bar per month, sized on a R$ 2.000,00 scale.
    let svg = q(r, "svg.chart");
    assert_eq!(svg.get_attribute("role").as_deref(), Some("img"));
    assert!(!svg
        .get_attribute("aria-label")
        .unwrap_or_default()
        .is_empty());
    let bars = q_all(r, "svg.chart rect.bar");
    assert_eq!(bars.len(), 12);
    let h = |i: usize| -> f64 { bars[i].get_attribute("height").unwrap().parse().unwrap() };
    assert_eq!(h(0), 0.0);
    assert!(
        (h(11) / h(10) - 1234.5 / 1000.0).abs() < 1e-9,
        "{} {}",
        h(11),
        h(10)
    );
    assert!(text(&svg).contains("R$ 2.000,00"));
    // Twelve short month names side by side, the year under January (December 2025, first, is
    // beside it: its year would touch January's).
    let axis: Vec<String> = q_all(r, "svg.chart text.axis.x").iter().map(text).collect();
    assert_eq!(
        axis,
        [
            "dez", "jan", "2026", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out",
            "nov"
        ]
    );

    // The nav marks the dashboard.
    let current = q(r, "nav a[aria-current=page]");
    assert_eq!(current.get_attribute("href").as_deref(), Some("/painel"));
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = r#"
export function mock_held_in_english(body) {
  // Every call answers `body` at once, but one asked in English waits for release_english().
  window.__paylinkCalls = [];
  let release;
  window.__english = new Promise((r) => { release = r; });
  window.__releaseEnglish = release;
  window.fetch = async (input, init) => {
    const req = new Request(input, init);
    const u = new URL(req.url);
    const json = (b) => new Response(b, { status: 200, headers: { 'Content-Type': 'application/json' } });
    if (u.pathname === '/api/session' && req.method === 'GET') {
      return json(JSON.stringify({ id: 'op-1', email: 'operadora@loja.example', name: 'Operadora' }));
    }
    const lang = req.headers.get('Accept-Language');
    window.__paylinkCalls.push({ url: u.pathname + u.search, method: req.method, lang });
    if (lang === 'en') await window.__english;
    return json(body);
  };
}
export function release_english() {
  window.__releaseEnglish();
}
"#)]
extern "C" {
    fn mock_held_in_english(body: &str);
    fn release_english();
}

/// A fetched screen keeps its data on screen while a language switch asks for it again: no
/// "Carregando…"/"Loading…" in its place, then the new language once the answer is in.
#[wasm_bindgen_test]
async fn a_language_switch_keeps_the_fetched_figures_on_screen_until_the_new_answer() {
    let months: Vec<String> = paylink_model::dashboard::last_12_months(2026, 11)
        .into_iter()
        .map(|m| format!(r#"{{"month":"{m}","received":0}}"#))
        .collect();
    let body = format!(
        r#"{{"month":"2026-11","received":1234.5,"open":300,"overdue":45.01,"months":[{}]}}"#,
        months.join(",")
    );
    mock_held_in_english(&body);
    let app = mount_at("/painel").await;
    let r = &app.root;
    sleep(50).await;
    assert!(text(r).contains("Recebido em nov/2026"), "{}", text(r));

    click_button(r, "EN").await;
    sleep(50).await;
    assert!(all_calls().contains(r#""lang":"en""#), "{}", all_calls());
    // The English answer is held: the figures asked in Portuguese are still shown.
    assert!(q_opt(r, "[aria-busy=true]").is_none(), "{}", text(r));
    assert_eq!(q_all(r, "[data-total]").len(), 3, "{}", text(r));
    assert!(text(r).contains("Recebido em nov/2026"), "{}", text(r));
    // The heading follows at once.
    assert_eq!(text(&q(r, "section.dashboard h1")), "Dashboard");

    release_english();
    sleep(50).await;
    assert!(text(r).contains("Received in Nov 2026"), "{}", text(r));
    assert!(q_opt(r, "[aria-busy=true]").is_none());
    click_button(r, "PT").await;
    sleep(50).await;
}

/// The detail says where the invoice's Pix Automático recurrence stands, with its id at the bank
/// and who ended it and why.
#[wasm_bindgen_test]
async fn the_recurrence_of_pix_automatico_is_on_the_detail() {
    let detail = DETAIL.replacen(
        r#""createdAt":"2026-01-01T00:00:00.000Z","url""#,
        r#""pixAutomatico":{"status":"cancelled","idRec":"RR9999999920261127abcdefghijk","periodicity":"MENSAL","retryPolicy":"PERMITE_3R_7D","reasons":["USUARIO_PAGADOR: Cancelada pelo usuário pagador. (ACCL)"]},"createdAt":"2026-01-01T00:00:00.000Z","url""#,
        1,
    );
    assert_ne!(detail, DETAIL);
    mock_fetch(200, &detail);
    let app = mount_at(&format!("/invoices/{ID}")).await;
    let r = &app.root;
    sleep(50).await;
    let fact = text(&q(r, ".facts .pix-automatico"));
    assert!(fact.starts_with("Pix Automático"), "{fact}");
    assert!(
        fact.contains("Cancelada · RR9999999920261127abcdefghijk"),
        "{fact}"
    );
    assert!(fact.contains("USUARIO_PAGADOR"), "{fact}");
    // An invoice that did not ask for it says nothing of it.
    mock_fetch(200, DETAIL);
    let app = mount_at(&format!("/invoices/{ID}")).await;
    sleep(50).await;
    assert!(q_opt(&app.root, ".facts .pix-automatico").is_none());
}

/// Each later cycle sent to the payer's bank is a row per attempt: its date, its kind, what
/// became of it and, rejected, why (the bank's words and code), in the merchant's language.
#[wasm_bindgen_test]
async fn the_cycles_of_pix_automatico_and_their_attempts_are_a_table_on_the_detail() {
    let detail = DETAIL.replacen(
        r#""createdAt":"2026-01-01T00:00:00.000Z","url""#,
        r#""pixAutomatico":{"status":"approved","idRec":"RR9999999920261127abcdefghijk","periodicity":"MENSAL","retryPolicy":"PERMITE_3R_7D","cycles":[{"installment":2,"dueDate":"2026-02-28","status":"CONCLUIDA","attempts":[{"date":"2026-02-28","type":"AGND","status":"REJEITADA","reasonCode":"AM02","reason":"Saldo insuficiente."},{"date":"2026-03-01","type":"RIFL","status":"PAGA"}]},{"installment":3,"dueDate":"2026-03-31","status":"RECUSADA","attempts":[],"reasons":["Recorrência cancelada."]}]},"createdAt":"2026-01-01T00:00:00.000Z","url""#,
        1,
    );
    assert_ne!(detail, DETAIL);
    mock_fetch(200, &detail);
    let app = mount_at(&format!("/invoices/{ID}")).await;
    let r = &app.root;
    sleep(50).await;
    let table = q(r, ".pix-cycles table");
    assert!(q_opt(&table, "caption").is_some());
    assert_eq!(q_all(&table, "thead th[scope=col]").len(), 7);
    let rows: Vec<Vec<String>> = q_all(&table, "tbody tr")
        .iter()
        .map(|row| q_all(row, "th, td").iter().map(text).collect())
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(
        rows[0],
        [
            "2",
            "28/02/2026",
            "Paga pelo banco do pagador",
            "28/02/2026",
            "No vencimento",
            "Rejeitada",
            "O banco do pagador recusou: “Saldo insuficiente.” (código AM02)"
        ]
    );
    assert_eq!(rows[1][3..6], ["01/03/2026", "Nova tentativa", "Paga"]);
    assert_eq!(rows[1][6], "");
    assert!(
        rows[2][2].starts_with("Recusada pelo banco ao ser enviada (Recorrência cancelada.)"),
        "{rows:?}"
    );
    // None without cycles.
    mock_fetch(200, DETAIL);
    let app = mount_at(&format!("/invoices/{ID}")).await;
    sleep(50).await;
    assert!(q_opt(&app.root, ".pix-cycles").is_none());
}
