//! Browser component tests of the widget (`wasm-pack test --headless --chrome`).
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use paylink_model::ErrorEnvelope;
use paylink_ui::form::{apply_envelope, shift_rows, ErrorMap, Shown};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

// ---------------------------------------------------------------- customer form

#[wasm_bindgen_test]
async fn masks_document_cep_and_phone_while_typing() {
    let app = mount_at("/").await;
    let r = &app.root;

    type_text(r, "document", "39053344705").await;
    assert_eq!(input(r, "document").value(), "390.533.447-05");
    type_text(r, "document", "11222333000181").await;
    assert_eq!(input(r, "document").value(), "11.222.333/0001-81");
    type_text(r, "document", "3905").await;
    assert_eq!(input(r, "document").value(), "390.5");

    type_text(r, "address.zipcode", "01310100").await;
    assert_eq!(input(r, "address.zipcode").value(), "01310-100");
    type_text(r, "address.zipcode", "01310-1009999x").await;
    assert_eq!(input(r, "address.zipcode").value(), "01310-100");

    type_text(r, "phone", "5511987654321").await;
    assert_eq!(input(r, "phone").value(), "+55 (11) 98765-4321");
    type_text(r, "phone", "551134567890").await;
    assert_eq!(input(r, "phone").value(), "+55 (11) 3456-7890");

    // A digit deleted in the middle keeps the caret where it was, not at the end.
    type_text(r, "document", "390.533.447-05").await;
    let doc = input(r, "document");
    doc.set_value("390.53.447-05");
    doc.set_selection_range(5, 5).unwrap();
    fire(&doc, "input");
    tick().await;
    assert_eq!(doc.value(), "390.534.470-5");
    assert_eq!(doc.selection_start().unwrap(), Some(5));
}

#[wasm_bindgen_test]
fn the_caret_stays_after_the_same_digits_when_the_mask_rewrites() {
    use paylink_ui::field::caret_after_mask;
    // Caret after five digits ("390.53|93"): after the same five once re-masked.
    assert_eq!(caret_after_mask("390.5393", 6, "390.539.3"), Some(6));
    // A digit deleted before "-": the caret stays after the eighth digit.
    assert_eq!(
        caret_after_mask("390.533.44-05", 10, "390.533.440-5"),
        Some(10)
    );
    // At the end: the browser's end.
    assert_eq!(caret_after_mask("3905", 4, "390.5"), None);
}

/// Brazilians type phones without +55: the mask shows `(11) 98765-4321` as
/// it is typed, keeps the caret on an edit in the middle, and the number is
/// sent as typed digits (the model reads it as Brazilian; a `+` is kept).
#[wasm_bindgen_test]
async fn a_bare_brazilian_phone_is_masked_while_typing_and_sent_without_country_code() {
    let app = mount_at("/").await;
    let r = &app.root;

    for (typed, shown) in [
        ("1", "(1"),
        ("119", "(11) 9"),
        ("1198765", "(11) 9876-5"),
        ("11987654321", "(11) 98765-4321"),
        ("1134567890", "(11) 3456-7890"),
        ("011 98765-4321", "(11) 98765-4321"),
        ("+1 415 555 0100", "+14155550100"),
    ] {
        type_text(r, "phone", typed).await;
        assert_eq!(input(r, "phone").value(), shown, "{typed}");
    }

    // A digit deleted in the middle: the caret stays after the same digits.
    type_text(r, "phone", "(11) 98765-4321").await;
    let phone = input(r, "phone");
    // The DDD's second digit deleted: "(1|) 98765-4321" becomes "(19) 8765-4321",
    // the caret after the first digit still.
    phone.set_value("(1) 98765-4321");
    phone.set_selection_range(2, 2).unwrap();
    fire(&phone, "input");
    tick().await;
    assert_eq!(phone.value(), "(19) 8765-4321");
    assert_eq!(phone.selection_start().unwrap(), Some(2));
    phone.set_value("(11) 98765-43210");
    fire(&phone, "input");
    tick().await;
    assert_eq!(phone.value(), "(11) 98765-4321", "at most 11 digits");

    // Valid as typed (no error on blur); a bad DDD is the model's message.
    blur(r, "phone").await;
    assert_eq!(error_of(r, "phone"), None);
    type_text(r, "phone", "(20) 98765-4321").await;
    blur(r, "phone").await;
    assert!(error_of(r, "phone").is_some(), "DDD 20 does not exist");
}

#[wasm_bindgen_test]
async fn every_control_has_its_api_name_and_a_label() {
    let app = mount_at("/").await;
    let r = &app.root;
    for name in [
        "fullName",
        "document",
        "business",
        "email",
        "phone",
        "observations",
        "address.address",
        "address.number",
        "address.complement",
        "address.neighborhood",
        "address.city",
        "address.state",
        "address.zipcode",
        "language",
    ] {
        let el = named(r, name);
        let id = el.id();
        assert!(!id.is_empty(), "{name} has no id");
        q(r, &format!("label[for=\"{id}\"]"));
    }
    // The UF select lists the 27 states (plus the blank option).
    assert_eq!(q_all(r, "select[name=\"address.state\"] option").len(), 28);
    // The payer's language: Portuguese unless English is chosen.
    let languages: Vec<String> = q_all(r, "select[name=\"language\"] option")
        .iter()
        .map(|o| o.get_attribute("value").unwrap_or_default())
        .collect();
    assert_eq!(languages, ["", "en"]);
    for el in q_all(r, "input, select, textarea") {
        assert!(el.get_attribute("name").is_some(), "a control without name");
    }
}

/// The widget translates itself; a browser's machine translation of a
/// merchant's page must leave its text nodes (which it keeps updating) alone.
#[wasm_bindgen_test]
async fn the_widget_asks_browsers_not_to_machine_translate_it() {
    let app = mount_at("/").await;
    let root = q(&app.root, ".paylink-widget");
    // The IDL property, as the browser reads it (`translate="no"` on the root).
    let translate = js_sys::Reflect::get(&root, &"translate".into()).unwrap();
    assert_eq!(translate.as_bool(), Some(false));
}

#[wasm_bindgen_test]
async fn errors_appear_on_blur_and_clear_as_soon_as_fixed() {
    let app = mount_at("/").await;
    let r = &app.root;

    // Typing alone shows nothing.
    type_text(r, "fullName", "Jo").await;
    assert_eq!(error_of(r, "fullName"), None);

    // Leaving the field shows the model's message, wired for assistive tech.
    blur(r, "fullName").await;
    let msg = error_of(r, "fullName").expect("fullName invalid after blur");
    assert!(msg.contains('3'), "{msg}");
    assert_eq!(
        named(r, "fullName")
            .get_attribute("aria-describedby")
            .unwrap(),
        "f-fullName-err"
    );

    // Now every input re-checks it; fixed means gone.
    type_text(r, "fullName", "Joana").await;
    assert_eq!(error_of(r, "fullName"), None);
    assert_eq!(named(r, "fullName").get_attribute("aria-describedby"), None);
    assert_eq!(text(&q(r, "#f-fullName-err")), "");

    // Masked field: CPF check digits.
    type_text(r, "document", "39053344700").await;
    blur(r, "document").await;
    assert!(error_of(r, "document").unwrap().contains("CPF"));
    type_text(r, "document", "39053344705").await;
    assert_eq!(error_of(r, "document"), None);

    // A valid field that becomes invalid while typing waits for the blur.
    type_text(r, "email", "ana@example.com").await;
    blur(r, "email").await;
    type_text(r, "email", "ana@").await;
    assert_eq!(error_of(r, "email"), None);
    blur(r, "email").await;
    assert!(error_of(r, "email").is_some());
}

#[wasm_bindgen_test]
async fn a_form_with_errors_sends_nothing_and_focuses_the_first_invalid_field() {
    mock_fetch(200, "{}");
    let app = mount_at("/").await;
    let r = &app.root;

    type_text(r, "address.zipcode", "0131").await;
    submit(r, "customer-form").await;
    sleep(20).await;

    assert_eq!(fetch_count(), 0, "no request for an invalid form");
    assert!(error_of(r, "fullName").is_some());
    assert!(error_of(r, "address.zipcode").is_some());
    assert!(q_opt(r, "[role=alert]").is_some());
    assert_eq!(focused_name().as_deref(), Some("fullName"));
}

#[wasm_bindgen_test]
async fn a_valid_customer_is_sent_normalised_and_opens_the_invoice_form() {
    let customer = format!(
        r#"{{"id":"{CUSTOMER_ID}","fullName":"Maria da Silva","document":"39053344705","business":null,
        "email":null,"phone":"+5511987654321","observations":null,
        "address":{{"id":"a1","address":null,"number":null,"complement":null,"neighborhood":null,
        "city":null,"state":"SP","zipcode":"01310100"}},
        "userId":"u1","applicationId":"p1","createdAt":"2026-11-23T03:30:18.123Z","deletedAt":null}}"#
    );
    mock_fetch(200, &customer);
    let app = mount_at("/").await;
    let r = &app.root;

    type_text(r, "fullName", "Maria da Silva").await;
    type_text(r, "document", "39053344705").await;
    type_text(r, "phone", "11987654321").await;
    type_text(r, "address.zipcode", "01310100").await;
    choose(r, "address.state", "SP").await;
    choose(r, "language", "en").await;
    submit(r, "customer-form").await;
    sleep(50).await;

    assert_eq!(fetch_count(), 1);
    let call: serde_json_lite::Value = serde_json_lite::parse(&last_call());
    assert_eq!(call.get("url"), "/api/customers");
    assert_eq!(call.get("method"), "POST");
    assert_eq!(call.get("lang"), "pt-BR");
    let body = call.get("body");
    assert!(body.contains(r#""fullName":"Maria da Silva""#), "{body}");
    assert!(body.contains(r#""document":"39053344705""#), "{body}");
    assert!(body.contains(r#""phone":"11987654321""#), "{body}");
    assert!(body.contains(r#""zipcode":"01310100""#), "{body}");
    assert!(body.contains(r#""state":"SP""#), "{body}");
    assert!(body.contains(r#""language":"en""#), "{body}");
    assert!(
        !body.contains("business"),
        "blank fields are left out: {body}"
    );

    // Next step: the invoice form for that customer.
    assert!(q_opt(r, "#invoice-form").is_some());
    // The picker shows her name; the request will carry her id.
    assert_eq!(input(r, "customerId").value(), "Maria da Silva");
    assert_eq!(named_value(r, "customerId"), CUSTOMER_ID);
    assert!(text(r).contains("Maria da Silva"));

    // Her document is a CPF: a fine above 2 % is refused here already (CDC art. 52 §1).
    type_text(r, "fine.value", "3").await;
    blur(r, "fine.value").await;
    assert!(error_of(r, "fine.value").unwrap().contains("CPF"));
    type_text(r, "fine.value", "2").await;
    assert_eq!(error_of(r, "fine.value"), None);
}

/// A minimal JSON reader for the test assertions (the widget has no JSON
/// parser of its own: it uses the browser's).
mod serde_json_lite {
    use wasm_bindgen::JsValue;

    pub struct Value(JsValue);

    pub fn parse(s: &str) -> Value {
        Value(js_sys::JSON::parse(s).unwrap())
    }

    impl Value {
        pub fn get(&self, key: &str) -> String {
            js_sys::Reflect::get(&self.0, &key.into())
                .unwrap()
                .as_string()
                .unwrap_or_default()
        }
    }
}

// ---------------------------------------------------------------- invoice form

async fn invoice_form(r: &web_sys::Element) {
    click_button(r, "criar cobrança").await;
    assert!(q_opt(r, "#invoice-form").is_some(), "invoice form shown");
}

/// A customer as the list API answers it (a CPF, an e-mail).
const LISTED: &str = r#"{"id":"3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b","fullName":"Maria da Silva","document":"39053344705",
  "business":null,"email":"maria@example.com","userId":"u1","applicationId":"p1","phone":"5511987654321",
  "addressId":null,"observations":null,"createdAt":"2026-01-01T00:00:00.000Z","deletedAt":null}"#;

fn combo_state(r: &web_sys::Element) -> (String, Option<String>) {
    let c = control(r, "customerId");
    (
        c.get_attribute("aria-expanded").unwrap_or_default(),
        c.get_attribute("aria-activedescendant"),
    )
}

#[wasm_bindgen_test]
async fn the_customer_picker_searches_as_typed_and_picks_with_the_keyboard() {
    mock_fetch(200, &format!(r#"{{"data":[{LISTED}],"nextCursor":null}}"#));
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;
    let combo = control(r, "customerId");
    assert_eq!(combo.get_attribute("role").as_deref(), Some("combobox"));
    assert_eq!(
        combo.get_attribute("aria-controls").as_deref(),
        Some("customer-options")
    );
    assert_eq!(text(&q(r, "label[for=f-customerId]")), "Cliente *");
    assert_eq!(combo_state(r), ("false".into(), None));

    // Part of the name: the list API's q, the match with her masked document, then "Novo cliente".
    type_text(r, "customerId", "mar").await;
    sleep(50).await;
    assert!(
        last_call().contains(r#""url":"/api/customers?q=mar&limit=8"#),
        "{}",
        last_call()
    );
    let options = q_all(r, "#customer-options [role=option]");
    let shown: Vec<String> = options.iter().map(text).collect();
    assert_eq!(
        shown,
        [
            "Maria da Silva390.533.447-05maria@example.com",
            "+ Novo cliente"
        ]
    );
    assert_eq!(text(&q(r, ".combo [role=status]")), "1 cliente encontrado.");
    assert_eq!(combo_state(r).0, "true");

    // Arrow keys move through the options (wrapping); the active one is selected.
    press(&combo, "ArrowDown");
    tick().await;
    assert_eq!(combo_state(r).1.as_deref(), Some("customer-option-0"));
    assert_eq!(
        options[0].get_attribute("aria-selected").as_deref(),
        Some("true")
    );
    press(&combo, "ArrowDown");
    tick().await;
    assert_eq!(combo_state(r).1.as_deref(), Some("customer-option-1"));
    press(&combo, "ArrowDown");
    tick().await;
    assert_eq!(combo_state(r).1.as_deref(), Some("customer-option-0"));

    // Enter picks her: the list closes, her name shows, and the request carries her id.
    press(&combo, "Enter");
    tick().await;
    assert_eq!(combo_state(r), ("false".into(), None));
    assert_eq!(input(r, "customerId").value(), "Maria da Silva");
    // The field named customerId (the form contract) holds her id, not her name.
    assert_eq!(named_value(r, "customerId"), CUSTOMER_ID);
    assert_eq!(
        text(&q(r, "#invoice-form .note")),
        "Cobrança para Maria da Silva"
    );
    type_text(r, "price", "100,00").await;
    submit(r, "invoice-form").await;
    sleep(30).await;
    let sent = last_call();
    assert!(sent.contains(r#""method":"POST""#), "{sent}");
    assert!(
        sent.contains(r#"\"customerId\":\"3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b\""#),
        "{sent}"
    );
}

#[wasm_bindgen_test]
async fn customer_in_the_url_starts_the_charge_for_that_customer() {
    mock_fetch(200, LISTED);
    let app = mount_at("/?customer=3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b").await;
    let r = &app.root;
    sleep(50).await;
    let call: serde_json_lite::Value = serde_json_lite::parse(&last_call());
    assert_eq!(
        call.get("url"),
        "/api/customers/3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b"
    );
    assert!(q_opt(r, "#invoice-form").is_some(), "invoice form shown");
    assert_eq!(input(r, "customerId").value(), "Maria da Silva");
    assert_eq!(named_value(r, "customerId"), CUSTOMER_ID);
    // Her document is a CPF: the fine is capped as for a customer picked by hand.
    type_text(r, "fine.value", "3").await;
    blur(r, "fine.value").await;
    assert!(error_of(r, "fine.value").unwrap().contains("CPF"));
}

#[wasm_bindgen_test]
async fn an_unknown_customer_in_the_url_says_so_above_the_customer_form() {
    mock_fetch(404, r#"{"code":404,"message":"Cliente não encontrado."}"#);
    let app = mount_at("/?customer=00000000-0000-4000-8000-000000000000").await;
    let r = &app.root;
    sleep(50).await;
    assert!(q_opt(r, "#customer-form").is_some(), "customer form stays");
    assert_eq!(text(&q(r, "[role=alert]")), "Cliente não encontrado.");
}

#[wasm_bindgen_test]
async fn the_customer_picker_closes_on_escape_and_offers_a_new_customer() {
    mock_fetch(200, &format!(r#"{{"data":[{LISTED}],"nextCursor":null}}"#));
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;
    let combo = control(r, "customerId");
    type_text(r, "customerId", "390.533").await;
    sleep(50).await;
    assert_eq!(combo_state(r).0, "true");
    // Escape closes the list and keeps the text; again, it clears the text.
    press(&combo, "Escape");
    tick().await;
    assert_eq!(combo_state(r).0, "false");
    assert_eq!(input(r, "customerId").value(), "390.533");
    // Text that is no id picks no one: the field named customerId stays empty.
    assert_eq!(named_value(r, "customerId"), "");
    press(&combo, "Escape");
    tick().await;
    assert_eq!(input(r, "customerId").value(), "");
    // Nothing picked: the form refuses to send and says so on the picker.
    let calls = fetch_count();
    submit(r, "invoice-form").await;
    assert!(error_of(r, "customerId").is_some());
    assert_eq!(fetch_count(), calls);
    // Arrow up from a closed list opens it on its last option, "Novo cliente"; Enter opens
    // the customer form.
    type_text(r, "customerId", "maria").await;
    sleep(50).await;
    press(&combo, "Escape");
    tick().await;
    press(&combo, "ArrowUp");
    tick().await;
    assert_eq!(combo_state(r).1.as_deref(), Some("customer-option-1"));
    press(&combo, "Enter");
    sleep(30).await;
    assert!(q_opt(r, "#customer-form").is_some(), "the customer form");
}

#[wasm_bindgen_test]
async fn the_invoice_form_without_a_customer_says_where_to_pick_one() {
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;
    let note = q(r, "#invoice-form .note");
    assert_eq!(
        text(&note),
        "Cliente já cadastrado? Encontre-o em Clientes e escolha \u{201c}Nova cobrança\u{201d}."
    );
    assert_eq!(
        q(&note, "a").get_attribute("href").as_deref(),
        Some("/customers")
    );
}

#[wasm_bindgen_test]
async fn the_language_chosen_is_kept_for_the_next_visit() {
    use leptos::prelude::IntoAny;
    let app = mount_at("/").await;
    assert!(text(&app.root).contains("Novo cliente"), "pt-BR first");
    click_button(&app.root, "EN").await;
    assert!(text(&app.root).contains("New customer"));
    drop(app);
    // A reload, or the next visit: still English.
    let again = mount_again_at("/", || leptos::view! { <paylink_widget::App /> }.into_any()).await;
    assert!(text(&again.root).contains("New customer"));
    assert_eq!(html_lang().as_deref(), Some("en"));
    click_button(&again.root, "PT").await;
    drop(again);
    let third = mount_again_at("/", || leptos::view! { <paylink_widget::App /> }.into_any()).await;
    assert!(text(&third.root).contains("Novo cliente"));
}

#[wasm_bindgen_test]
async fn installment_preview_splits_cents_like_the_server() {
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;

    choose(r, "invoiceType", "INSTALLMENT").await;
    type_text(r, "installmentCount", "3").await;
    type_text(r, "price", "100,00").await;
    type_text(r, "dueDate", "31012099").await;
    assert_eq!(input(r, "dueDate").value(), "31/01/2099");

    let rows = q_all(r, ".preview table tbody tr");
    assert_eq!(rows.len(), 3);
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|tr| q_all(tr, "th, td").iter().map(text).collect())
        .collect();
    assert_eq!(cells[0], ["1", "31/01/2099", "R$ 33,34"]);
    assert_eq!(cells[1], ["2", "28/02/2099", "R$ 33,33"]);
    assert_eq!(cells[2], ["3", "31/03/2099", "R$ 33,33"]);
    assert!(text(&q(r, ".preview table tfoot")).contains("R$ 100,00"));
    // In English the preview writes dates as the date field does: ISO.
    click_button(r, "EN").await;
    let first: Vec<String> = q_all(&q_all(r, ".preview table tbody tr")[0], "th, td")
        .iter()
        .map(text)
        .collect();
    assert_eq!(first[1], "2099-01-31");
    assert_eq!(input(r, "dueDate").value(), "2099-01-31");
    click_button(r, "PT").await;

    // Only the fields of the selected type are shown.
    assert!(q_opt(r, "[name=frequency]").is_none());
    choose(r, "invoiceType", "RECURRING").await;
    assert!(q_opt(r, "[name=installmentCount]").is_none());
    assert!(q_opt(r, "[name=frequency]").is_some());
    assert!(q_opt(r, "[name=endDate]").is_some());
    assert!(q_opt(r, "[name=endInstallment]").is_some());
    assert!(q_opt(r, "[name=endSubscription]").is_none());
    choose(r, "invoiceType", "SUBSCRIPTION").await;
    assert!(q_opt(r, "[name=endSubscription]").is_some());
    assert!(q_opt(r, "[name=endDate]").is_none());
    // A recurring or subscription charge is one installment at a time.
    assert_eq!(q_all(r, ".preview table tbody tr").len(), 1);
}

/// Pix Automático is offered on RECURRING and SUBSCRIPTION invoices only, its retry option once
/// chosen, and the model's reason shows under it when the invoice cannot have it.
#[wasm_bindgen_test]
async fn pix_automatico_is_offered_on_periodic_invoices_with_the_reason_it_cannot_be() {
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;
    assert!(q_opt(r, "[name=pixAutomatico]").is_none());
    choose(r, "invoiceType", "RECURRING").await;
    choose(r, "frequency", "BIMONTHLY").await;
    assert!(q_opt(r, "[name='pixAutomatico.retries']").is_none());
    let offer = input(r, "pixAutomatico");
    offer.set_checked(true);
    fire(&offer, "change");
    fire(&offer, "blur");
    tick().await;
    assert!(q_opt(r, "[name='pixAutomatico.retries']").is_some());
    let why = error_of(r, "pixAutomatico").expect("a bimonthly invoice cannot have it");
    assert!(why.contains("BIMONTHLY"), "{why}");
    choose(r, "frequency", "MONTHLY").await;
    assert_eq!(error_of(r, "pixAutomatico"), None);
    choose(r, "invoiceType", "SUBSCRIPTION").await;
    assert!(q_opt(r, "[name=pixAutomatico]").is_some());
    choose(r, "invoiceType", "SINGLE").await;
    assert!(q_opt(r, "[name=pixAutomatico]").is_none());
}

/// `dd/mm/aaaa` whatever the browser's locale: a text field (never
/// `type="date"`), masked while typing, sent as ISO; a date before today
/// (in Brasília) shows the model's message on blur; English writes ISO and
/// a language switch rewrites the date typed.
#[wasm_bindgen_test]
async fn the_due_date_is_typed_dd_mm_aaaa_and_sent_as_iso() {
    use paylink_model::date::brasilia_today_from_millis;
    let today = brasilia_today_from_millis(js_sys::Date::now() as i64).unwrap();
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;

    let due = input(r, "dueDate");
    assert_eq!(due.type_(), "text");
    assert_eq!(due.placeholder(), "dd/mm/aaaa");
    q(r, &format!("label[for=\"{}\"]", due.id()));
    // The default: a week from today, as Brazilians write it.
    assert_eq!(due.value(), today.add_days(7).unwrap().format_br());

    for (typed, shown) in [
        ("3", "3"),
        ("311", "31/1"),
        ("31122", "31/12/2"),
        ("311220991", "31/12/2099"),
    ] {
        type_text(r, "dueDate", typed).await;
        assert_eq!(input(r, "dueDate").value(), shown, "{typed}");
    }

    // Not a date: the model's message, wired to the field.
    type_text(r, "dueDate", "31/02/2099").await;
    blur(r, "dueDate").await;
    assert_eq!(
        error_of(r, "dueDate").as_deref(),
        Some("Data inválida: use dd/mm/aaaa.")
    );
    assert_eq!(
        named(r, "dueDate")
            .get_attribute("aria-describedby")
            .as_deref(),
        Some("f-dueDate-err")
    );
    // Yesterday: before today in Brasília.
    let yesterday = today.add_days(-1).unwrap();
    type_text(r, "dueDate", &yesterday.format_br()).await;
    blur(r, "dueDate").await;
    assert_eq!(
        error_of(r, "dueDate").as_deref(),
        Some("A data não pode ser anterior a hoje.")
    );
    // Today is fine, and the error goes as soon as it is fixed.
    type_text(r, "dueDate", &today.format_br()).await;
    assert_eq!(error_of(r, "dueDate"), None);

    // English: ISO, and the switch rewrites what was typed (both ways).
    type_text(r, "dueDate", "02/12/2099").await;
    click_button(r, "EN").await;
    sleep(10).await;
    assert_eq!(input(r, "dueDate").value(), "2099-12-02");
    assert_eq!(input(r, "dueDate").placeholder(), "yyyy-mm-dd");
    type_text(r, "dueDate", "02/12/2099").await;
    blur(r, "dueDate").await;
    assert_eq!(
        error_of(r, "dueDate").as_deref(),
        Some("Invalid date: use yyyy-mm-dd.")
    );
    type_text(r, "dueDate", "2099-12-03").await;
    assert_eq!(error_of(r, "dueDate"), None);
    click_button(r, "PT").await;
    sleep(10).await;
    assert_eq!(input(r, "dueDate").value(), "03/12/2099");

    // Sent as ISO.
    mock_fetch(422, r#"{"code":422,"message":"x","errors":{}}"#);
    type_text(r, "customerId", CUSTOMER_ID).await;
    type_text(r, "price", "10,00").await;
    submit(r, "invoice-form").await;
    sleep(50).await;
    assert!(
        last_call().contains(r#"\"dueDate\":\"2099-12-03\""#),
        "{}",
        last_call()
    );
}

/// Fine, interest and discount: named by their API paths, labelled, checked
/// live by the model's rules, and sent when filled in.
#[wasm_bindgen_test]
async fn fine_interest_and_discount_are_checked_live_and_sent() {
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;
    for name in [
        "fine.type",
        "fine.value",
        "interest.value",
        "discount.type",
        "discount.value",
        "discount.untilDate",
    ] {
        q(r, &format!("label[for=\"{}\"]", named(r, name).id()));
    }
    assert_eq!(
        values(r, "select[name=\"fine.type\"] option"),
        ["PERCENTAGE", "FIXED"]
    );

    // Above the 20 % ceiling: the model's message on the field, for assistive tech too.
    type_text(r, "fine.value", "25").await;
    blur(r, "fine.value").await;
    assert!(error_of(r, "fine.value").unwrap().contains("20"));
    assert_eq!(
        named(r, "fine.value")
            .get_attribute("aria-describedby")
            .as_deref(),
        Some("f-fine-value-err")
    );
    type_text(r, "fine.value", "2").await;
    assert_eq!(error_of(r, "fine.value"), None);
    // Not a number.
    type_text(r, "interest.value", "um").await;
    blur(r, "interest.value").await;
    assert!(error_of(r, "interest.value").unwrap().contains("2,5"));
    type_text(r, "interest.value", "1,5").await;
    assert_eq!(error_of(r, "interest.value"), None);
    // A discount needs its last day, not after the due date.
    type_text(r, "dueDate", "10/03/2099").await;
    choose(r, "discount.type", "FIXED").await;
    type_text(r, "discount.value", "5,00").await;
    blur(r, "discount.value").await;
    blur(r, "discount.untilDate").await;
    assert!(error_of(r, "discount.untilDate").is_some());
    type_text(r, "discount.untilDate", "11032099").await;
    assert_eq!(input(r, "discount.untilDate").value(), "11/03/2099");
    assert!(
        error_of(r, "discount.untilDate").is_some(),
        "after the due date"
    );
    type_text(r, "discount.untilDate", "04/03/2099").await;
    assert_eq!(error_of(r, "discount.untilDate"), None);

    mock_fetch(
        422,
        r#"{"code":422,"message":"x","errors":{"fine.value":["multa acima de 2 %"]}}"#,
    );
    type_text(r, "customerId", CUSTOMER_ID).await;
    type_text(r, "price", "100,00").await;
    submit(r, "invoice-form").await;
    sleep(50).await;
    let call = last_call();
    for part in [
        r#"\"fine\":{\"type\":\"PERCENTAGE\",\"value\":2}"#,
        r#"\"interest\":{\"value\":1.5}"#,
        r#"\"discount\":{\"type\":\"FIXED\",\"value\":5,\"untilDate\":\"2099-03-04\"}"#,
    ] {
        assert!(call.contains(part), "{part} in {call}");
    }
    // The server's word on a term lands on its field.
    assert_eq!(
        error_of(r, "fine.value").as_deref(),
        Some("multa acima de 2 %")
    );
}

#[wasm_bindgen_test]
async fn price_by_customer_hides_the_price_and_description_counts_characters() {
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;

    assert!(q_opt(r, "[name=price]").is_some());
    let by_customer = input(r, "priceByCustomer");
    by_customer.set_checked(true);
    fire(&by_customer, "change");
    tick().await;
    assert!(q_opt(r, "[name=price]").is_none());

    type_text(r, "description", "Mensalidade de março").await;
    assert!(text(&q(r, ".counter")).contains("20/350"));

    // The price input reformats to pt-BR on blur.
    by_customer.set_checked(false);
    fire(&by_customer, "change");
    tick().await;
    type_text(r, "price", "1234,5").await;
    blur(r, "price").await;
    assert_eq!(input(r, "price").value(), "1.234,50");
}

#[wasm_bindgen_test]
async fn editor_rows_keep_their_element_and_values_and_those_after_a_removed_one_are_renamed() {
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;
    click(&q(r, "#add-webhooks")).await;
    type_text(r, "webhooks[0].url", "https://a.example/h").await;
    let first = named(r, "webhooks[0].url");
    // Another row: the first one's control is the very same element (not drawn again).
    click(&q(r, "#add-webhooks")).await;
    click(&q(r, "#add-webhooks")).await;
    assert!(named(r, "webhooks[0].url").is_same_node(Some(&first)));
    type_text(r, "webhooks[2].url", "https://c.example/h").await;
    // Removing the second: the first stays as it is, the third is now webhooks[1].
    let removes = q_all(r, "fieldset.editor button.remove");
    click(&removes[removes.len() - 2]).await;
    assert!(named(r, "webhooks[0].url").is_same_node(Some(&first)));
    assert_eq!(input(r, "webhooks[1].url").value(), "https://c.example/h");
    assert!(q_opt(r, "[name=\"webhooks[2].url\"]").is_none());
    assert_eq!(
        text(&q(r, "fieldset.editor fieldset.row:nth-of-type(2) legend")),
        "Webhook 2"
    );
}

#[wasm_bindgen_test]
async fn notification_period_only_for_reminder_and_resend() {
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;

    click(&q(r, "#add-notifications")).await;
    click(&q(r, "#add-notifications")).await;
    assert!(q_opt(r, "[name=\"notifications[0].period\"]").is_some());
    choose(r, "notifications[1].type", "INVOICE_GENERATED").await;
    assert!(q_opt(r, "[name=\"notifications[1].period\"]").is_none());
    choose(r, "notifications[1].type", "INVOICE_RESEND").await;
    assert!(q_opt(r, "[name=\"notifications[1].period\"]").is_some());

    // A period under 5 days is shown on its row.
    type_text(r, "notifications[1].period", "3").await;
    blur(r, "notifications[1].period").await;
    assert!(error_of(r, "notifications[1].period").is_some());

    // Removing row 0 moves row 1 (and its error) up.
    click(&q_all(r, "button.remove")[0]).await;
    assert!(q_opt(r, "[name=\"notifications[1].type\"]").is_none());
    assert_eq!(input(r, "notifications[0].period").value(), "3");
    assert!(error_of(r, "notifications[0].period").is_some());

    click(&q(r, "#add-webhooks")).await;
    assert!(q_opt(r, "[name=\"webhooks[0].hookType\"]").is_some());
    type_text(r, "webhooks[0].url", "http://example.com").await;
    blur(r, "webhooks[0].url").await;
    assert!(error_of(r, "webhooks[0].url").unwrap().contains("HTTPS"));
}

#[wasm_bindgen_test]
async fn invalid_invoice_sends_nothing() {
    mock_fetch(200, "{}");
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;

    let pix = input(r, "paymentTypes");
    pix.set_checked(false);
    fire(&pix, "change");
    let boleto = q(r, "#f-paymentTypes-BOLETO");
    boleto
        .unchecked_ref::<web_sys::HtmlInputElement>()
        .set_checked(false);
    fire(&boleto, "change");
    tick().await;
    submit(r, "invoice-form").await;
    sleep(20).await;

    assert_eq!(fetch_count(), 0);
    assert!(error_of(r, "customerId").is_some());
    assert!(error_of(r, "price").is_some());
    assert!(error_of(r, "paymentTypes").is_some());
    assert_eq!(focused_name().as_deref(), Some("customerId"));

    // Fixing the customer id clears that error at once.
    type_text(r, "customerId", CUSTOMER_ID).await;
    assert_eq!(error_of(r, "customerId"), None);
}

// ---------------------------------------------------------------- server errors

#[wasm_bindgen_test]
fn envelope_errors_map_to_fields_and_the_rest_to_the_alert() {
    let mut shown = ErrorMap::new();
    let env = ErrorEnvelope {
        code: 422,
        message: "Dados inválidos".into(),
        errors: Some(
            [
                (
                    "notifications[0].period".to_string(),
                    vec!["mínimo 5".to_string()],
                ),
                ("paymentTypes[1]".to_string(), vec!["repetido".to_string()]),
                ("installments".to_string(), vec!["?".to_string()]),
            ]
            .into_iter()
            .collect(),
        ),
    };
    let alert = apply_envelope(&mut shown, &env, |p| match p {
        "notifications[0].period" => Some(p.to_string()),
        p if p.starts_with("paymentTypes[") => Some("paymentTypes".to_string()),
        _ => None,
    })
    .expect("an unplaced error goes to the alert");
    assert_eq!(
        shown.get("notifications[0].period"),
        Some(&Shown {
            msgs: vec!["mínimo 5".to_string()],
            server: true
        })
    );
    assert!(shown.contains_key("paymentTypes"));
    assert_eq!(alert.message, "Dados inválidos");
    assert_eq!(alert.details, ["installments: ?"]);

    // Without field errors the message is the alert.
    let not_found = ErrorEnvelope {
        code: 404,
        message: "Cobrança não encontrada".into(),
        errors: None,
    };
    let alert = apply_envelope(&mut ErrorMap::new(), &not_found, |_| None).unwrap();
    assert_eq!(alert.message, "Cobrança não encontrada");

    // Removing row 0 renumbers the errors of the rows after it.
    let mut m = ErrorMap::new();
    for k in [
        "notifications[0].type",
        "notifications[2].period",
        "webhooks[1].url",
    ] {
        m.insert(
            k.to_string(),
            Shown {
                msgs: vec!["x".into()],
                server: false,
            },
        );
    }
    shift_rows(&mut m, "notifications", 0);
    let keys: Vec<&str> = m.keys().map(String::as_str).collect();
    assert_eq!(keys, ["notifications[1].period", "webhooks[1].url"]);
}

#[wasm_bindgen_test]
async fn server_errors_land_on_their_fields_and_rows() {
    mock_fetch(
        422,
        r#"{"code":422,"message":"Falha de validação",
            "errors":{"notifications[0].period":["O período mínimo é de 5 dias."],
                      "customerId":["Cliente não encontrado."],
                      "webhooks[0].url":["Informe uma URL HTTPS válida."],
                      "somethingElse":["?"]}}"#,
    );
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;

    type_text(r, "customerId", CUSTOMER_ID).await;
    type_text(r, "price", "10,00").await;
    click(&q(r, "#add-notifications")).await;
    type_text(r, "notifications[0].period", "7").await;
    click(&q(r, "#add-webhooks")).await;
    type_text(r, "webhooks[0].url", "https://example.com/hook").await;
    submit(r, "invoice-form").await;
    sleep(50).await;

    assert_eq!(fetch_count(), 1, "a valid form is sent");
    let call = last_call();
    assert!(call.contains("/api/invoices"), "{call}");
    assert!(call.contains(r#"\"price\":10"#), "price in reais: {call}");

    assert_eq!(
        error_of(r, "notifications[0].period").as_deref(),
        Some("O período mínimo é de 5 dias.")
    );
    assert_eq!(
        error_of(r, "customerId").as_deref(),
        Some("Cliente não encontrado.")
    );
    assert!(error_of(r, "webhooks[0].url").is_some());
    let alert = text(&q(r, "#invoice-form [role=alert]"));
    assert!(alert.contains("Falha de validação"), "{alert}");
    assert!(alert.contains("somethingElse"), "{alert}");

    // A server error stays on blur, and goes when the field is edited.
    blur(r, "customerId").await;
    assert!(error_of(r, "customerId").is_some());
    type_text(r, "customerId", "9f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b").await;
    assert_eq!(error_of(r, "customerId"), None);
    assert!(error_of(r, "notifications[0].period").is_some());
}

#[wasm_bindgen_test]
async fn a_failed_call_without_field_errors_shows_the_envelope_message() {
    mock_fetch(403, r#"{"code":403,"message":"Requisição recusada"}"#);
    let app = mount_at("/").await;
    let r = &app.root;
    type_text(r, "fullName", "Maria da Silva").await;
    submit(r, "customer-form").await;
    sleep(50).await;
    assert_eq!(fetch_count(), 1);
    assert!(text(&q(r, "[role=alert]")).contains("Requisição recusada"));
}

/// A merchant call answering 401 (no session, or it ended) shows the login
/// screen, which keeps the form contract and says clearly when the login is wrong.
#[wasm_bindgen_test]
async fn a_401_shows_the_login_screen() {
    mock_fetch(401, r#"{"code":401,"message":"Faça login"}"#);
    let app = mount_at("/").await;
    let r = &app.root;
    type_text(r, "fullName", "Maria da Silva").await;
    submit(r, "customer-form").await;
    sleep(50).await;
    tick().await;
    assert_eq!(
        web_sys::window().unwrap().location().pathname().unwrap(),
        "/login"
    );
    assert_eq!(
        web_sys::window().unwrap().location().search().unwrap(),
        "?next=%2F",
        "back to the form after the login"
    );
    assert!(q_opt(r, "#login-form").is_some());
    assert_eq!(input(r, "password").type_(), "password");
    assert!(q_opt(r, "label[for=f-email]").is_some());
    submit(r, "login-form").await;
    assert_eq!(
        input(r, "email").get_attribute("aria-invalid").as_deref(),
        Some("true")
    );
    type_text(r, "email", "ana@loja.example").await;
    type_text(r, "password", "errada errada errada").await;
    submit(r, "login-form").await;
    sleep(50).await;
    assert!(text(&q(r, "[role=alert]")).contains("E-mail ou senha incorretos"));
    assert_eq!(
        web_sys::window().unwrap().location().pathname().unwrap(),
        "/login"
    );
}

/// After a login the widget goes back only to a path of paylink's own origin:
/// a `next` a browser would read as another site (the open redirects of issues
/// 30 and 38) goes to the default page instead, and a path of its own is kept.
#[wasm_bindgen_test]
async fn a_login_goes_back_only_to_a_path_of_paylink() {
    let host = web_sys::window().unwrap().location().host().unwrap();
    for (next, to) in [
        ("%2F%5Cevil.example%2F", "/"),
        ("/%09/evil.example/", "/"),
        ("/%0A/evil.example/", "/"),
        ("/%2509/evil.example/", "/"),
        ("//evil.example", "/"),
        ("https://evil.example", "/"),
        // Issue 38: dot segments, raw and encoded, which the router resolves to
        // `//evil.example` (the widget used to panic on them).
        ("/.//evil.example", "/"),
        ("/a/..//evil.example", "/"),
        ("/%2e%2e//evil.example", "/"),
        ("/%252e%252e//evil.example", "/"),
        ("/a/%252E%252e//evil.example", "/"),
        ("/%5Cevil.example", "/"),
        ("/a/../login", "/"),
        ("%2Finvoices%3Fstatus%3Dopen", "/invoices"),
        ("/a/../invoices", "/invoices"),
    ] {
        mock_fetch(200, "{}");
        let app = mount_at(&format!("/login?next={next}")).await;
        let r = &app.root;
        type_text(r, "email", "ana@loja.example").await;
        type_text(r, "password", "uma senha bem longa").await;
        submit(r, "login-form").await;
        sleep(50).await;
        tick().await;
        let location = web_sys::window().unwrap().location();
        assert_eq!(location.host().unwrap(), host, "{next}");
        assert_eq!(location.pathname().unwrap(), to, "{next}");
    }
}

// ---------------------------------------------------------------- language

/// A language switch renders the screen again in the other language; what
/// was typed stays (the fields' state lives above the screen).
#[wasm_bindgen_test]
async fn a_language_switch_keeps_what_was_typed() {
    let app = mount_at("/").await;
    let r = &app.root;
    type_text(r, "fullName", "Maria").await;
    for _ in 0..3 {
        click_button(r, "EN").await;
        assert!(text(&q(r, "label[for=f-fullName]")).contains("Full name"));
        assert_eq!(input(r, "fullName").value(), "Maria");
        click_button(r, "PT").await;
    }
    assert!(text(&q(r, "label[for=f-fullName]")).contains("Nome completo"));
    assert_eq!(input(r, "fullName").value(), "Maria");
}

#[wasm_bindgen_test]
async fn the_form_s_own_alert_follows_a_language_switch() {
    mock_fetch(200, "{}");
    let app = mount_at("/").await;
    let r = &app.root;
    submit(r, "customer-form").await;
    assert_eq!(
        text(&q(r, "#customer-form [role=alert]")),
        "Corrija os campos indicados."
    );
    let pt = error_of(r, "fullName").expect("fullName refused");
    click_button(r, "EN").await;
    sleep(30).await;
    assert_eq!(
        text(&q(r, "#customer-form [role=alert]")),
        "Fix the fields shown."
    );
    // The field's message too: the model's words in the language shown.
    let en = error_of(r, "fullName").expect("still refused in English");
    assert_ne!(en, pt);
    click_button(r, "PT").await;
    sleep(30).await;
    assert_eq!(error_of(r, "fullName").as_deref(), Some(pt.as_str()));
}

#[wasm_bindgen_test]
async fn english_switch_translates_labels_and_messages() {
    let app = mount_at("/").await;
    let r = &app.root;
    let label = |r: &web_sys::Element| text(&q(r, "label[for=f-fullName]"));
    assert!(label(r).contains("Nome completo"));
    type_text(r, "fullName", "Jo").await;
    blur(r, "fullName").await;
    assert!(error_of(r, "fullName").unwrap().contains("caracteres"));

    click_button(r, "EN").await;
    sleep(10).await;
    assert!(label(r).contains("Full name"));
    assert!(error_of(r, "fullName").unwrap().contains("characters"));
    // What was typed survives the switch.
    assert_eq!(input(r, "fullName").value(), "Jo");
    assert_eq!(html_lang().as_deref(), Some("en"));

    mock_fetch(422, r#"{"code":422,"message":"x","errors":{}}"#);
    type_text(r, "fullName", "Joana").await;
    submit(r, "customer-form").await;
    sleep(50).await;
    assert!(last_call().contains(r#""lang":"en""#));
    click_button(r, "PT").await;
}

use leptos::prelude::window;

// ---------------------------------------------------------------- invoice views

const DETAIL: &str = r#"{
  "id":"7d1e0c9a-1111-4b2b-9c3d-000000000001","externalId":"PL-TEST01","description":"Mensalidade",
  "invoiceType":"INSTALLMENT","price":100,"priceByCustomer":false,"dueDate":"2026-01-31T00:00:00.000Z",
  "endDate":null,"endInstallment":null,"endSubscription":null,"frequency":null,"installmentCount":3,
  "customer":{"id":"3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b","fullName":"Maria da Silva","document":"39053344705",
    "business":null,"email":"maria@example.com","userId":"u1","applicationId":"p1","phone":"5511987654321",
    "addressId":null,"observations":null,"createdAt":"2026-01-01T00:00:00.000Z","deletedAt":null},
  "redirectTo":null,
  "installments":[
    {"id":"i1","invoiceId":"x","installment":1,"price":33.34,"pricePaid":33.34,"dueDate":"2026-01-31T00:00:00.000Z",
     "_status":"CONFIRMED","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":null,"deletedAt":null,"lastViewAt":null,
     "paidAt":"2026-01-30T10:00:00.000Z","paymentReceivedAt":null,"viewsCount":2},
    {"id":"i2","invoiceId":"x","installment":2,"price":33.33,"pricePaid":0,"dueDate":"2026-02-28T00:00:00.000Z",
     "_status":"WAITING_PAYMENT","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":null,"deletedAt":null,"lastViewAt":null,
     "paidAt":null,"paymentReceivedAt":null,"viewsCount":0},
    {"id":"i3","invoiceId":"x","installment":3,"price":33.33,"pricePaid":0,"dueDate":"2026-03-31T00:00:00.000Z",
     "_status":"WAITING_PAYMENT","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":null,"deletedAt":null,"lastViewAt":null,
     "paidAt":null,"paymentReceivedAt":null,"viewsCount":0}],
  "items":[],
  "notificationBeforeDueDate":[{"id":"n1","type":"SEND_INVOICE_REMINDER","channel":"WhatsApp","period":5,"createdAt":"2026-01-01T00:00:00.000Z"}],
  "notificationAfterDueDate":[],"notificationAfterPayment":[],"notificationSendTypes":[],
  "webhooks":[{"id":"w1","hookType":"PAYMENT_CONFIRMED","url":"https://example.com/hook","createdAt":"2026-01-01T00:00:00.000Z"}],
  "paymentTypes":[{"invoiceId":"x","paymentTypeAccepted":"PIX"},{"invoiceId":"x","paymentTypeAccepted":"BOLETO"}],
  "createdAt":"2026-01-01T00:00:00.000Z","url":"https://paylink.example/pay/7d1e0c9a-1111-4b2b-9c3d-000000000001"}"#;

#[wasm_bindgen_test]
async fn invoice_detail_shows_installments_link_and_settings() {
    mock_fetch(200, DETAIL);
    let app = mount_at("/invoices/7d1e0c9a-1111-4b2b-9c3d-000000000001").await;
    let r = &app.root;
    sleep(50).await;

    assert!(last_call().contains("/api/invoices/7d1e0c9a-1111-4b2b-9c3d-000000000001"));
    let page = text(r);
    assert!(page.contains("R$ 100,00"), "{page}");
    assert!(page.contains("Mensalidade"));
    assert!(page.contains("Maria da Silva"));
    assert!(page.contains("390.533.447-05"));
    let rows = q_all(r, "table.installments tbody tr");
    assert_eq!(rows.len(), 3);
    let first: Vec<String> = q_all(&rows[0], "th, td").iter().map(text).collect();
    assert_eq!(first, ["1", "31/01/2026", "R$ 33,34", "R$ 33,34", "Pago"]);
    assert!(text(&rows[1]).contains("Aguardando pagamento"));
    let link = q(r, "a.url");
    assert_eq!(
        link.get_attribute("href").unwrap(),
        "https://paylink.example/pay/7d1e0c9a-1111-4b2b-9c3d-000000000001"
    );
    assert!(page.contains("PIX") && page.contains("Boleto"));
    assert!(page.contains("Notificações configuradas"));
    assert!(page.contains("Lembrete antes do vencimento"));
    assert!(page.contains("https://example.com/hook"));
    assert!(q_opt(r, "button.secondary").is_some(), "copy button");
}

/// The detail lists what was sent to the payer, in a table: channel, to whom (masked, a phone
/// without +55), when (in Brasília), where it stands (the provider's word when it has one),
/// the provider's id and the last error; a send only scheduled is not listed. In pt-BR, then
/// in English.
#[wasm_bindgen_test]
async fn invoice_detail_lists_the_notification_sends() {
    let sends = r#""sends":[
      {"installment":1,"dueAt":"2026-01-26T12:00:00.000Z","status":"sent","sentAt":"2026-01-26T12:00:05.000Z",
       "channel":"WhatsApp","to":"(11) 9****-4321","providerId":"wamid.HBgN1","providerStatus":"read",
       "providerStatusAt":"2026-01-26T12:03:00.000Z","lastError":null},
      {"installment":2,"dueAt":"2026-02-23T12:00:00.000Z","status":"failed","sentAt":null,
       "channel":"WhatsApp","to":"(11) 9****-4321","providerId":null,"providerStatus":null,
       "providerStatusAt":null,"lastError":"WhatsApp answered HTTP 400: 131030: not in allowed list"},
      {"installment":3,"dueAt":"2026-03-26T12:00:00.000Z","status":"pending","sentAt":null,
       "channel":"WhatsApp","to":"(11) 9****-4321","providerId":null,"providerStatus":null,
       "providerStatusAt":null,"lastError":null}],"createdAt""#;
    let detail = DETAIL.replacen(
        r#""period":5,"createdAt""#,
        &format!(r#""period":5,{sends}"#),
        1,
    );
    assert_ne!(detail, DETAIL);
    mock_fetch(200, &detail);
    let app = mount_at("/invoices/7d1e0c9a-1111-4b2b-9c3d-000000000001").await;
    let r = &app.root;
    sleep(50).await;
    let rows = |r: &web_sys::Element, title: &str| -> Vec<Vec<String>> {
        q_all(
            r,
            &format!(r#"section[aria-label="{title}"] table tbody tr"#),
        )
        .iter()
        .map(|row| q_all(row, "th, td").iter().map(text).collect())
        .collect()
    };
    assert_eq!(
        rows(r, "Envios de notificações"),
        [
            [
                "Lembrete antes do vencimento",
                "WhatsApp",
                "(11) 9****-4321",
                "26/01/2026 09:03",
                "Lida",
                "wamid.HBgN1",
                "",
            ],
            [
                "Lembrete antes do vencimento",
                "WhatsApp",
                "(11) 9****-4321",
                "23/02/2026",
                "Falhou",
                "",
                "WhatsApp answered HTTP 400: 131030: not in allowed list",
            ],
        ]
    );
    assert!(!text(r).contains("+55"), "phones without +55");
    click_button(r, "EN").await;
    sleep(50).await;
    let en = rows(r, "Notification sends");
    assert_eq!(en.len(), 2, "{en:?}");
    assert_eq!(en[0][3], "2026-01-26 09:03");
    assert_eq!(en[0][4], "Read");
    assert_eq!(en[1][4], "Failed");
    click_button(r, "PT").await;
    sleep(30).await;
}

/// The detail states the invoice's fine, interest and discount.
#[wasm_bindgen_test]
async fn invoice_detail_states_fine_interest_and_discount() {
    let detail = DETAIL.replacen(
        r#""installmentCount":3,"#,
        r#""installmentCount":3,"fine":{"type":"PERCENTAGE","value":2},"interest":{"value":1.5},
        "discount":{"type":"FIXED","value":5,"untilDate":"2026-01-25"},"#,
        1,
    );
    assert_ne!(detail, DETAIL);
    mock_fetch(200, &detail);
    let app = mount_at("/invoices/7d1e0c9a-1111-4b2b-9c3d-000000000001").await;
    let r = &app.root;
    sleep(50).await;
    let facts = text(&q(r, "dl.facts"));
    for part in [
        "Multa2 %",
        "Juros de mora1,5 % ao mês",
        "DescontoR$ 5,00 até 25/01/2026",
    ] {
        assert!(facts.contains(part), "{part} in {facts}");
    }
}

#[wasm_bindgen_test]
async fn a_created_invoice_opens_its_detail_with_push_state() {
    // The creation answer as the service writes it (the model's InvoiceCreated).
    mock_fetch(
        200,
        r#"{"id":"7d1e0c9a-1111-4b2b-9c3d-000000000001","description":null,"invoiceType":"SINGLE",
  "price":10.0,"dueDate":"2026-12-01T00:00:00.000Z","installmentCount":1,
  "customer":{"id":"c1","fullName":"Maria"},
  "installments":[{"id":"i1","installment":1,"price":10.0,"pricePaid":0.0,"status":"WAITING_PAYMENT","dueDate":"2026-12-01T00:00:00.000Z"}],
  "paymentTypes":[{"invoiceId":"7d1e0c9a-1111-4b2b-9c3d-000000000001","type":"PIX"}],
  "url":"https://paylink.example/pay/7d1e0c9a-1111-4b2b-9c3d-000000000001","externalId":"PL-1",
  "createdAt":"2026-11-25T10:00:00.000Z","priceByCustomer":false}"#,
    );
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;
    type_text(r, "customerId", CUSTOMER_ID).await;
    type_text(r, "price", "10,00").await;
    let external_id = input(r, "externalId").value();
    assert!(external_id.starts_with("PL-"), "{external_id}");
    submit(r, "invoice-form").await;
    sleep(50).await;

    let calls = all_calls();
    assert!(
        calls.contains(r#""url":"/api/invoices","method":"POST""#),
        "{calls}"
    );
    assert!(
        calls.contains(&format!(r#"\"externalId\":\"{external_id}\""#)),
        "{calls}"
    );
    assert!(
        calls.contains(r#"\"paymentTypes\":[\"PIX\",\"BOLETO\"]"#),
        "{calls}"
    );
    assert!(calls.contains(r#"\"installmentCount\":1"#), "{calls}");
    assert_eq!(
        window().location().pathname().unwrap(),
        "/invoices/7d1e0c9a-1111-4b2b-9c3d-000000000001"
    );
    assert!(
        calls.contains(
            r#""url":"/api/invoices/7d1e0c9a-1111-4b2b-9c3d-000000000001","method":"GET""#
        ),
        "the detail is fetched: {calls}"
    );
}

#[wasm_bindgen_test]
async fn a_missing_invoice_shows_the_envelope_message() {
    mock_fetch(404, r#"{"code":404,"message":"Cobrança não encontrada"}"#);
    let app = mount_at("/invoices/nope").await;
    let r = &app.root;
    sleep(50).await;
    assert!(text(&q(r, "[role=alert]")).contains("Cobrança não encontrada"));
}

#[wasm_bindgen_test]
async fn an_answer_that_breaks_the_contract_is_reported_not_shown() {
    // `price` with three decimals and no installments: not an InvoiceDetail.
    mock_fetch(200, r#"{"id":"x","price":10.005}"#);
    let app = mount_at("/invoices/7d1e0c9a-1111-4b2b-9c3d-000000000001").await;
    let r = &app.root;
    sleep(50).await;
    assert!(text(&q(r, "[role=alert]")).contains("Resposta inesperada"));
    assert!(q_opt(r, "table").is_none());
}

#[wasm_bindgen_test]
async fn editors_move_the_focus_for_keyboard_users() {
    let app = mount_at("/").await;
    let r = &app.root;
    invoice_form(r).await;
    click(&q(r, "#add-notifications")).await;
    sleep(50).await;
    assert_eq!(focused_name().as_deref(), Some("notifications[0].type"));
    click(&q(r, "button.remove")).await;
    sleep(50).await;
    assert_eq!(
        leptos::prelude::document()
            .active_element()
            .map(|e| e.id())
            .as_deref(),
        Some("add-notifications")
    );
}

/// The `value` attribute of each element `selector` finds.
fn values(r: &web_sys::Element, selector: &str) -> Vec<String> {
    q_all(r, selector)
        .iter()
        .map(|e| e.get_attribute("value").unwrap_or_default())
        .collect()
}

#[wasm_bindgen_test]
async fn a_table_shows_its_cells_as_text_with_their_column_labels() {
    use leptos::prelude::*;
    use paylink_widget::components::table::{Cell, Table};
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone(), || {
        view! {
            <Table
                class="installments"
                caption="Parcelas"
                head=vec![("Nº", ""), ("Valor", "num")]
                rows=vec![vec![Cell::new("1"), Cell::num("<b>&\"x\"</b>")]]
                foot=vec![Cell::new("Total"), Cell::default()]
            />
        }
    });
    tick().await;
    let cell = q(&host, "tbody td");
    assert_eq!(text(&cell), "<b>&\"x\"</b>");
    assert!(q_opt(&host, "b").is_none(), "no markup from a cell's text");
    assert_eq!(cell.get_attribute("data-label").as_deref(), Some("Valor"));
    assert_eq!(cell.get_attribute("class").as_deref(), Some("num"));
    assert_eq!(text(&q(&host, "tbody th[scope=row]")), "1");
    assert_eq!(text(&q(&host, "caption")), "Parcelas");
    // An empty cell has no label (nothing to show on a phone).
    assert!(q(&host, "tfoot td").get_attribute("data-label").is_none());
    drop(handle);
    host.remove();
}

// ---------------------------------------------------------------- lists (issue 20)

const CURSOR: &str = "2026-01-01T00:00:00.000Z~7d1e0c9a-1111-4b2b-9c3d-000000000001";

fn invoice_page(next: bool) -> String {
    let next = if next {
        format!("\"{CURSOR}\"")
    } else {
        "null".to_string()
    };
    format!(r#"{{"data":[{DETAIL}],"nextCursor":{next}}}"#)
}

#[wasm_bindgen_test]
async fn invoice_list_reads_its_filters_from_the_url_and_links_rows_and_pages() {
    mock_fetch(200, &invoice_page(true));
    let app = mount_at("/invoices?status=open&q=maria&limit=1").await;
    let r = &app.root;
    sleep(50).await;

    assert!(
        last_call().contains("/api/invoices?status=open&q=maria&limit=1"),
        "{}",
        last_call()
    );
    assert_eq!(input(r, "q").value(), "maria");
    assert_eq!(
        named(r, "status")
            .unchecked_into::<web_sys::HtmlSelectElement>()
            .value(),
        "open"
    );
    let rows = q_all(r, "table tbody tr");
    assert_eq!(rows.len(), 1);
    let cells: Vec<String> = q_all(&rows[0], "th, td").iter().map(text).collect();
    // Installment 1 paid, 2 and 3 waiting past their 2026 due dates: overdue.
    assert_eq!(
        cells,
        [
            "PL-TEST01",
            "Maria da Silva",
            "31/01/2026",
            "R$ 100,00",
            "Vencida"
        ]
    );
    assert_eq!(
        q(&rows[0], "th a").get_attribute("href").unwrap(),
        "/invoices/7d1e0c9a-1111-4b2b-9c3d-000000000001"
    );
    assert!(q_opt(r, "table caption").is_some());
    assert_eq!(q_all(r, "thead th[scope=col]").len(), 5);
    // The spreadsheet of these filters: every page, so no cursor or limit.
    let csv = q(r, "p.export a[download]");
    assert_eq!(text(&csv), "Baixar planilha (CSV)");
    assert!(
        csv.get_attribute("href")
            .unwrap()
            .ends_with("/api/invoices.csv?status=open&q=maria"),
        "{:?}",
        csv.get_attribute("href")
    );
    let next = q(r, "a[rel=next]");
    assert_eq!(text(&next), "Próxima página");
    let href = next.get_attribute("href").unwrap();
    assert!(
        href.starts_with("/invoices?status=open&q=maria&cursor=2026-01-01T00%3A00%3A00.000Z~")
            && href.ends_with("&limit=1"),
        "{href}"
    );
}

/// The list filters the invoices with a payment returned in full (a Pix devolução): read from
/// the URL, sent to the service, offered among the statuses, and each row says so.
#[wasm_bindgen_test]
async fn invoice_list_filters_by_a_payment_returned() {
    mock_fetch(200, &invoice_page(false));
    let app = mount_at("/invoices?status=reversed").await;
    let r = &app.root;
    sleep(50).await;
    assert!(
        last_call().contains("/api/invoices?status=reversed"),
        "{}",
        last_call()
    );
    let select = named(r, "status").unchecked_into::<web_sys::HtmlSelectElement>();
    assert_eq!(select.value(), "reversed");
    let options: Vec<String> = q_all(&select, "option").iter().map(text).collect();
    assert!(
        options.contains(&"Com devolução".to_string()),
        "{options:?}"
    );
    let badge = q(r, "table tbody tr [data-state]");
    assert_eq!(
        badge.get_attribute("data-state").as_deref(),
        Some("reversed")
    );
    assert_eq!(text(&badge), "Com devolução");
}

/// The list filters by where an invoice's Pix Automático recurrence stands (the payer cancelled
/// it, ...): read from the URL, sent to the service, offered in a labelled select.
#[wasm_bindgen_test]
async fn invoice_list_filters_by_the_pix_automatico_recurrence() {
    mock_fetch(200, &invoice_page(false));
    let app = mount_at("/invoices?pixAutomatico=cancelled").await;
    let r = &app.root;
    sleep(50).await;
    assert!(
        last_call().contains("/api/invoices?pixAutomatico=cancelled"),
        "{}",
        last_call()
    );
    let select = named(r, "pixAutomatico").unchecked_into::<web_sys::HtmlSelectElement>();
    assert_eq!(select.value(), "cancelled");
    let label = q(r, &format!("label[for={}]", select.id()));
    assert_eq!(text(&label), "Pix Automático");
    let options: Vec<String> = q_all(&select, "option").iter().map(text).collect();
    assert_eq!(options[0], "Com ou sem");
    assert!(options.contains(&"Cancelada".to_string()), "{options:?}");
    assert!(
        options.contains(&"Recusada pelo pagador".to_string()),
        "{options:?}"
    );
    // Chosen and submitted: in the URL and the call, the other filters as they were.
    select.set_value("rejected");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    click(&q(r, "form.filters button[type=submit]")).await;
    sleep(50).await;
    assert!(
        last_call().contains("pixAutomatico=rejected"),
        "{}",
        last_call()
    );
}

#[wasm_bindgen_test]
async fn due_date_filters_are_typed_as_the_language_writes_dates_and_sent_as_iso() {
    mock_fetch(200, r#"{"data":[],"nextCursor":null}"#);
    let app = mount_at("/invoices").await;
    let r = &app.root;
    sleep(50).await;
    // Not the browser's date input, whose format follows the browser's locale.
    assert_eq!(input(r, "dueFrom").type_(), "text");
    assert_eq!(
        named(r, "dueFrom").get_attribute("placeholder").as_deref(),
        Some("dd/mm/aaaa")
    );
    // Masked while typed; a date that does not exist is refused on its field, nothing asked.
    type_text(r, "dueFrom", "01052026").await;
    assert_eq!(input(r, "dueFrom").value(), "01/05/2026");
    type_text(r, "dueTo", "31/02/2026").await;
    let calls = all_calls();
    click(&q(r, "form.filters button[type=submit]")).await;
    sleep(30).await;
    let pt = error_of(r, "dueTo").expect("31/02 refused");
    assert!(pt.contains("dd/mm/aaaa"), "{pt}");
    assert_eq!(error_of(r, "dueFrom"), None);
    assert_eq!(all_calls(), calls, "nothing asked with a bad date");
    assert_eq!(window().location().search().unwrap(), "");
    // The refusal is worded in the language shown, and follows a switch.
    click_button(r, "EN").await;
    sleep(30).await;
    let en = error_of(r, "dueTo").expect("still refused in English");
    assert!(en.contains("yyyy-mm-dd"), "{en}");
    click_button(r, "PT").await;
    sleep(30).await;
    assert_eq!(error_of(r, "dueTo").as_deref(), Some(pt.as_str()));
    // Corrected: the URL and the call carry ISO dates.
    type_text(r, "dueTo", "31/12/2026").await;
    click(&q(r, "form.filters button[type=submit]")).await;
    sleep(50).await;
    assert_eq!(
        window().location().search().unwrap(),
        "?dueFrom=2026-05-01&dueTo=2026-12-31"
    );
    assert!(
        last_call().contains("/api/invoices?dueFrom=2026-05-01&dueTo=2026-12-31"),
        "{}",
        last_call()
    );
    assert_eq!(error_of(r, "dueTo"), None);
    // In English the same dates read yyyy-mm-dd.
    click_button(r, "EN").await;
    sleep(50).await;
    assert_eq!(input(r, "dueFrom").value(), "2026-05-01");
    assert_eq!(input(r, "dueTo").value(), "2026-12-31");
    click_button(r, "PT").await;
    sleep(50).await;
    assert_eq!(input(r, "dueTo").value(), "31/12/2026");
}

#[wasm_bindgen_test]
async fn the_filter_form_is_the_url_s_until_edited_and_again_after_the_url_changes() {
    mock_fetch(200, r#"{"data":[],"nextCursor":null}"#);
    let app = mount_at("/invoices?status=open&q=maria").await;
    let r = &app.root;
    sleep(50).await;
    // Typed, not sent: a language switch keeps it (the form is not made again).
    type_text(r, "q", "joao").await;
    type_text(r, "dueFrom", "01052026").await;
    click_button(r, "EN").await;
    sleep(30).await;
    assert_eq!(input(r, "q").value(), "joao");
    assert_eq!(input(r, "dueFrom").value(), "2026-05-01");
    click_button(r, "PT").await;
    sleep(30).await;
    // Another URL (a link followed, here pushed as the router's history does): the form is
    // that URL's, what was typed goes.
    window()
        .history()
        .unwrap()
        .push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/invoices"))
        .unwrap();
    window()
        .dispatch_event(&web_sys::Event::new("popstate").unwrap())
        .unwrap();
    sleep(50).await;
    assert_eq!(window().location().search().unwrap(), "");
    assert_eq!(input(r, "q").value(), "");
    assert_eq!(input(r, "dueFrom").value(), "");
    assert_eq!(
        named(r, "status")
            .unchecked_into::<web_sys::HtmlSelectElement>()
            .value(),
        ""
    );
    assert!(
        last_call().contains(r#""url":"/api/invoices""#),
        "{}",
        last_call()
    );
    // Back: the previous URL's filters again.
    window().history().unwrap().back().unwrap();
    sleep(100).await;
    assert_eq!(input(r, "q").value(), "maria");
    assert_eq!(
        named(r, "status")
            .unchecked_into::<web_sys::HtmlSelectElement>()
            .value(),
        "open"
    );
}

#[wasm_bindgen_test]
async fn two_apps_on_one_page_each_call_their_own_proxy() {
    use leptos::prelude::IntoAny;
    use paylink_widget::api::Proxy;
    mock_fetch(200, r#"{"data":[],"nextCursor":null}"#);
    let a = mount_app_at("/invoices?q=maria", || {
        leptos::view! { <paylink_widget::App proxy=Proxy::At("https://a.example/".into()) /> }
            .into_any()
    })
    .await;
    let b = mount_again_at("/invoices?q=maria", || {
        leptos::view! { <paylink_widget::App proxy=Proxy::At("https://b.example".into()) /> }
            .into_any()
    })
    .await;
    sleep(50).await;
    let calls = all_calls();
    for origin in ["https://a.example", "https://b.example"] {
        assert_eq!(
            calls
                .matches(&format!(r#""url":"{origin}/api/invoices?q=maria"#))
                .count(),
            1,
            "{calls}"
        );
    }
    // Links that are not calls follow their own app's proxy too.
    mock_fetch(200, &invoice_page(false));
    click(&q(&a.root, "form.filters button[type=submit]")).await;
    click(&q(&b.root, "form.filters button[type=submit]")).await;
    sleep(50).await;
    let csv = |m: &Mounted| q(&m.root, "p.export a[download]").get_attribute("href");
    assert_eq!(
        csv(&a).as_deref(),
        Some("https://a.example/api/invoices.csv?q=maria")
    );
    assert_eq!(
        csv(&b).as_deref(),
        Some("https://b.example/api/invoices.csv?q=maria")
    );
}

#[wasm_bindgen_test]
async fn a_refused_filter_shows_its_message_next_to_its_control() {
    mock_fetch(
        422,
        r#"{"code":422,"message":"Dados inválidos","errors":{"dueTo":["Não pode ser antes de dueFrom."],"limit":["Use um número inteiro entre 1 e 100."]}}"#,
    );
    let app = mount_at("/invoices?dueFrom=2026-05-01&dueTo=2026-01-01&limit=0").await;
    let r = &app.root;
    sleep(50).await;
    assert_eq!(
        error_of(r, "dueTo").as_deref(),
        Some("Não pode ser antes de dueFrom.")
    );
    assert_eq!(error_of(r, "dueFrom"), None);
    // The URL's ISO date as a Brazilian writes it.
    assert_eq!(input(r, "dueFrom").value(), "01/05/2026");
    // A parameter without a control (typed into the URL) is named in the alert.
    let alert = text(&q(r, "[role=alert]"));
    assert!(alert.contains("limit: Use um número inteiro"), "{alert}");
    assert!(q_opt(r, "table").is_none());
}

#[wasm_bindgen_test]
async fn an_empty_list_says_so() {
    mock_fetch(200, r#"{"data":[],"nextCursor":null}"#);
    let app = mount_at("/invoices?q=ninguem").await;
    let r = &app.root;
    sleep(50).await;
    assert!(text(r).contains("Nenhuma fatura encontrada."));
    assert!(q_opt(r, "table").is_none() && q_opt(r, "a[rel=next]").is_none());
}

/// The customer the customer list's tests show.
const MARIA: &str = r#"{"id":"3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b","fullName":"Maria da Silva","document":"39053344705",
  "business":null,"email":"maria@example.com","userId":"u1","applicationId":"p1","phone":"5511987654321",
  "addressId":null,"observations":null,"createdAt":"2026-01-01T00:00:00.000Z","deletedAt":null}"#;

/// The customer row's link to their page of charges: "copy" asks for a new one, copies it and
/// shows it (the server keeps only its hash: it is shown this once); "revoke" ends them all.
#[wasm_bindgen_test]
async fn a_customers_charges_link_is_made_copied_and_shown_then_revoked() {
    mock_fetch(200, &format!(r#"{{"data":[{MARIA}],"nextCursor":null}}"#));
    let app = mount_at("/customers?q=maria").await;
    let r = &app.root;
    sleep(50).await;
    stub_clipboard();
    let url = "https://paylink.example/c/tok3n";
    mock_fetch(
        201,
        &format!(r#"{{"url":"{url}","expiresAt":"2027-01-01T00:00:00.000Z"}}"#),
    );
    click_button(r, "Copiar link das cobranças").await;
    sleep(50).await;
    assert!(
        last_call().contains(
            r#""url":"/api/customers/3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b/charges-link","method":"POST""#
        ),
        "{}",
        last_call()
    );
    let said = text(&q(r, "[data-charges-link]"));
    assert!(said.starts_with(url), "{said}");
    assert_eq!(copied(), format!(r#"["{url}"]"#));

    mock_fetch(204, "");
    click_button(r, "Revogar links").await;
    sleep(50).await;
    assert!(
        last_call().contains(r#""method":"DELETE""#),
        "{}",
        last_call()
    );
    assert_eq!(text(&q(r, "[data-charges-link]")), "Links revogados.");
}

#[wasm_bindgen_test]
async fn customer_list_masks_document_and_phone_links_their_invoices_and_charges_them() {
    mock_fetch(200, &format!(r#"{{"data":[{MARIA}],"nextCursor":null}}"#));
    let app = mount_at("/customers?q=maria").await;
    let r = &app.root;
    sleep(50).await;
    assert!(
        last_call().contains("/api/customers?q=maria"),
        "{}",
        last_call()
    );
    let rows = q_all(r, "table tbody tr");
    assert_eq!(rows.len(), 1);
    let cells: Vec<String> = q_all(&rows[0], "th, td").iter().map(text).collect();
    assert_eq!(
        cells,
        [
            "Maria da Silva",
            "390.533.447-05",
            "maria@example.com",
            "(11) 98765-4321",
            "Nova cobrança Copiar link das cobranças · Revogar links"
        ]
    );
    assert_eq!(
        q(&rows[0], "th a").get_attribute("href").unwrap(),
        "/invoices?q=39053344705"
    );
    assert!(q_opt(r, "a[rel=next]").is_none());

    // "Nova cobrança" opens the invoice form for her: her id, her name, a CPF's 2 % cap.
    let charge = q(&rows[0], "button[type=button]");
    assert_eq!(
        charge.get_attribute("aria-label").as_deref(),
        Some("Nova cobrança para Maria da Silva")
    );
    click(&charge).await;
    sleep(30).await;
    assert_eq!(window().location().pathname().unwrap(), "/");
    assert_eq!(input(r, "customerId").value(), "Maria da Silva");
    let note = text(&q(r, "#invoice-form .note"));
    assert_eq!(note, "Cobrança para Maria da Silva");
    type_text(r, "fine.value", "3").await;
    blur(r, "fine.value").await;
    assert!(error_of(r, "fine.value").unwrap().contains("CPF"));
}

#[wasm_bindgen_test]
async fn the_merchant_nav_marks_the_current_screen() {
    mock_fetch(200, r#"{"data":[],"nextCursor":null}"#);
    let app = mount_at("/customers").await;
    sleep(30).await;
    let nav = q(&app.root, "nav.merchant-nav");
    let current: Vec<String> = q_all(&nav, "a[aria-current=page]")
        .iter()
        .map(text)
        .collect();
    assert_eq!(current, ["Clientes"]);
}
