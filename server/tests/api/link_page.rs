//! A payment link's page as the server renders it (`/l/{slug}`, the
//! `paylink-payer` crate): what a `curl` of it shows with no JavaScript at
//! all — the link's terms and its form, in the language asked for, on the
//! form contract — and its form sent without JavaScript: 303 to the payer
//! page, or the form again with the typed values and the model's messages on
//! their fields; the same creation once for a form sent twice.

use paylink_model::{CustomerRequest, Lang};
use reqwest::header;
use reqwest::StatusCode;

use crate::helpers::*;
use crate::links::{count_invoices, create_link, installment_link, link_cli};

/// A payer's browser: no operator session, no token, no JavaScript.
fn payer() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn get(app: &TestApp, path: &str) -> (StatusCode, header::HeaderMap, String) {
    let res = payer().get(app.url(path)).send().await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    (status, headers, res.text().await.unwrap())
}

/// The link's form posted as a browser without JavaScript posts it.
async fn post_form(app: &TestApp, slug: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    payer()
        .post(app.url(&format!("/l/{slug}")))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(fields).unwrap())
        .send()
        .await
        .unwrap()
}

/// The opening tag of the element whose `name` is `name`.
fn control<'a>(html: &'a str, name: &str) -> &'a str {
    let at = html
        .find(&format!("name=\"{name}\""))
        .unwrap_or_else(|| panic!("no control named {name}"));
    let start = html[..at].rfind('<').unwrap();
    let end = at + html[at..].find('>').unwrap();
    &html[start..=end]
}

/// The text of the element with `id`.
fn text_of<'a>(html: &'a str, id: &str) -> &'a str {
    let at = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no element with id {id}"));
    let start = at + html[at..].find('>').unwrap() + 1;
    let end = start + html[start..].find('<').unwrap();
    &html[start..end]
}

#[tokio::test]
async fn the_page_itself_carries_the_links_terms_and_its_form_on_the_contract() {
    let app = spawn_app_with(local_proxy).await;
    let slug = create_link(
        &app,
        &[
            "--price",
            "300.00",
            "--payment-types",
            "PIX,BOLETO",
            "--invoice-type",
            "INSTALLMENT",
            "--max-installments",
            "3",
            "--fine",
            "2%",
        ],
    );
    let (status, headers, html) = get(&app, &format!("/l/{slug}")).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    assert!(
        !csp.contains("'unsafe-inline'") || !csp.contains("script-src 'unsafe-inline'"),
        "{csp}"
    );
    assert!(html.contains("<html lang=\"pt-BR\""), "pt-BR first");
    for shown in [
        "Curso de Rust",
        "Acesso por 12 meses",
        "R$ 300,00",
        "Seus dados",
    ] {
        assert!(html.contains(shown), "{shown} in the page");
    }
    // The fine, in the model's own sentence.
    assert!(
        html.contains("multa de R$ 2,00"),
        "the link's fine in its terms"
    );
    // A real form to the page's own address.
    assert!(html.contains(&format!("method=\"post\" action=\"/l/{slug}\"")));
    // The form contract: names are API paths, each with a visible <label for>.
    for name in [
        "fullName",
        "document",
        "email",
        "phone",
        "address.zipcode",
        "installmentCount",
    ] {
        let c = control(&html, name);
        let id = c.split("id=\"").nth(1).unwrap().split('"').next().unwrap();
        assert!(
            html.contains(&format!("<label for=\"{id}\"")),
            "label for {name}"
        );
    }
    assert!(
        !html.contains("name=\"observations\""),
        "no merchant's notes"
    );
    assert!(
        control(&html, "paymentTypes").contains("checked"),
        "PIX and boleto ticked"
    );
    assert!(html.contains("<button type=\"submit\""));
    // The installments the largest count gives, in a table.
    assert_eq!(
        html.matches("R$ 100,00").count(),
        3,
        "3 installments of R$ 100,00"
    );
    assert!(html.contains("<table"));
    // The form is an island; the idempotency key travels with it.
    assert!(html.contains("<leptos-island data-component=\"LinkForm"));
    assert!(control(&html, "idempotencyKey").contains("type=\"hidden\""));

    let (_, _, en) = get(&app, &format!("/l/{slug}?lang=en")).await;
    assert!(en.contains("<html lang=\"en\""));
    assert!(en.contains("Full name") && en.contains("Your details"));

    // The merchant's words are text, never markup (in the page and in the island's props).
    let out = link_cli(
        &app,
        &[
            "create",
            "--name",
            "Hostil",
            "--slug",
            "hostil",
            "--description",
            "<script>alert(1)</script><img src=x onerror=alert(2)>",
            "--price",
            "10.00",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hostile = "hostil";
    let (_, _, html) = get(&app, &format!("/l/{hostile}")).await;
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "escaped as text"
    );
    assert!(!html.contains("<script>alert(1)") && !html.contains("<img src=x"));

    let (status, _, html) = get(&app, "/l/no-such-link").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("Link indisponível"), "{html}");
}

#[tokio::test]
async fn a_form_sent_without_javascript_makes_the_invoice_once_and_opens_the_payer_page() {
    let app = spawn_app_with(local_proxy).await;
    let slug = installment_link(&app);
    let (_, _, html) = get(&app, &format!("/l/{slug}")).await;
    // The page's own key, as the browser would send it back.
    let key = control(&html, "idempotencyKey")
        .split("value=\"")
        .nth(1)
        .and_then(|k| k.split('"').next())
        .expect("the form's key")
        .to_string();
    let fields = [
        ("fullName", "Joana Pagadora"),
        ("document", "529.982.247-25"),
        ("email", "joana@example.com"),
        ("phone", "(11) 98765-4321"),
        ("paymentTypes", "PIX"),
        ("installmentCount", "2"),
        ("idempotencyKey", key.as_str()),
    ];
    let res = post_form(&app, &slug, &fields).await;
    assert_eq!(
        res.status(),
        StatusCode::SEE_OTHER,
        "{}",
        res.text().await.unwrap()
    );
    let to = res.headers()[header::LOCATION]
        .to_str()
        .unwrap()
        .to_string();
    let id = to
        .strip_prefix("/pay/")
        .expect("to the payer page")
        .to_string();
    let detail = body(app.get_invoice(&id).await).await;
    assert_eq!(detail["installmentCount"], 2);
    assert_eq!(detail["installments"][0]["price"], 150.0);
    let types = detail["paymentTypes"].as_array().unwrap();
    assert_eq!(types.len(), 1);
    assert_eq!(types[0]["paymentTypeAccepted"], "PIX");
    assert_eq!(detail["customer"]["fullName"], "Joana Pagadora");
    assert_eq!(
        detail["customer"]["language"], "pt-BR",
        "the page's language"
    );
    assert_eq!(detail["externalId"], slug.as_str());

    // The same form sent again (a double click, a reload): the same invoice.
    let again = post_form(&app, &slug, &fields).await;
    assert_eq!(again.status(), StatusCode::SEE_OTHER);
    assert_eq!(again.headers()[header::LOCATION].to_str().unwrap(), to);
    assert_eq!(count_invoices(&app).await, 1);

    // The payer page it leads to is the server's too.
    let (status, _, page) = get(&app, &to).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("data-pix-payload"));

    // A payer who read the page in English gets their messages in English.
    let english: Vec<(&str, &str)> = fields
        .iter()
        .map(|&(k, v)| match k {
            "idempotencyKey" => (k, "6f1d2c3b-4a59-4e8f-9d0c-1b2a3c4d5e6f"),
            "email" => (k, "mary@example.com"),
            _ => (k, v),
        })
        .collect();
    let res = payer()
        .post(app.url(&format!("/l/{slug}?lang=en")))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(&english).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let id = res.headers()[header::LOCATION].to_str().unwrap();
    let id = id.strip_prefix("/pay/").unwrap().split('?').next().unwrap();
    let detail = body(app.get_invoice(id).await).await;
    assert_eq!(
        detail["customer"]["language"], "en",
        "{}",
        detail["customer"]
    );
}

#[tokio::test]
async fn a_bad_form_comes_back_with_what_was_typed_and_the_models_messages_on_their_fields() {
    let app = spawn_app_with(local_proxy).await;
    let slug = installment_link(&app);
    let res = post_form(
        &app,
        &slug,
        &[
            ("fullName", "Joana Pagadora"),
            ("document", "123.456.789-00"),
            ("email", "joana@"),
            ("installmentCount", "9"),
        ],
    )
    .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(res.headers()[header::CACHE_CONTROL], "no-store");
    let html = res.text().await.unwrap();
    let expected = CustomerRequest {
        full_name: Some("Joana Pagadora".into()),
        document: Some("12345678900".into()),
        email: Some("joana@".into()),
        ..CustomerRequest::default()
    }
    .validate(Lang::PtBr);
    for field in ["document", "email"] {
        let c = control(&html, field);
        assert!(c.contains("aria-invalid=\"true\""), "{field}: {c}");
        let err = format!("f-{field}-err");
        assert!(
            c.contains(&format!("aria-describedby=\"{err}\"")),
            "{field}: {c}"
        );
        assert_eq!(
            text_of(&html, &err),
            expected[field].join(" "),
            "{field}'s message"
        );
    }
    // What was typed stays; a field without an error is not marked.
    assert!(control(&html, "document").contains("value=\"123.456.789-00\""));
    assert!(control(&html, "fullName").contains("value=\"Joana Pagadora\""));
    assert!(!control(&html, "fullName").contains("aria-invalid"));
    // More installments than the link allows, and no payment type: on their fields too.
    assert!(control(&html, "installmentCount").contains("aria-invalid=\"true\""));
    assert!(
        !text_of(&html, "f-paymentTypes-err").is_empty(),
        "no payment type chosen"
    );
    assert!(html.contains("role=\"alert\""), "the form's alert");
    assert_eq!(count_invoices(&app).await, 0, "nothing created");

    // Not a form at all: the same page, never a 500.
    let res = payer()
        .post(app.url(&format!("/l/{slug}")))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(vec![0xff, 0xfe, b'=', b'%'])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // An unknown link: its page says so.
    let res = post_form(&app, "no-such-link", &[("fullName", "A B")]).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn what_the_browser_leaves_to_the_server_is_refused_on_its_field_with_and_without_javascript()
{
    use paylink_model::{LinkChoice, Msg, PaymentLink};

    let app = spawn_app_with(local_proxy).await;
    // The payer states the amount and picks up to 3 installments: R$ 6,00 in 3 passes the
    // payer's own choices (what the page's island checks) but not the invoice's rule of at
    // least R$ 5,00 an installment, which only the server runs.
    let slug = create_link(
        &app,
        &[
            "--price-by-customer",
            "--payment-types",
            "PIX",
            "--invoice-type",
            "INSTALLMENT",
            "--max-installments",
            "3",
        ],
    );
    let res = payer()
        .get(app.url(&format!("/api/links/{slug}")))
        .send()
        .await
        .unwrap();
    let link: PaymentLink = res.json().await.unwrap();
    let choice = LinkChoice {
        payment_types: Some(vec!["PIX".into()]),
        installment_count: Some(3),
        price: Some(6.0),
        customer_id: None,
    };
    assert!(
        link.check_choice(&choice).is_empty(),
        "the browser lets it through"
    );
    let below_min = Msg::InstallmentBelowMin.render(Lang::PtBr);
    let min_price = Msg::MinPrice.render(Lang::PtBr);

    // Without JavaScript: the form comes back with the server's message on its field, and a
    // forged amount below the minimum on the amount's.
    let customer = [
        ("fullName", "Joana Pagadora"),
        ("document", "529.982.247-25"),
        ("email", "joana@example.com"),
        ("paymentTypes", "PIX"),
    ];
    for (price, count, field, message) in [
        ("6,00", "3", "installmentCount", &below_min),
        ("1,00", "1", "price", &min_price),
    ] {
        let mut fields = customer.to_vec();
        fields.extend([("price", price), ("installmentCount", count)]);
        let res = post_form(&app, &slug, &fields).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        let html = res.text().await.unwrap();
        let c = control(&html, field);
        assert!(c.contains("aria-invalid=\"true\""), "{field}: {c}");
        let err = format!("f-{field}-err");
        assert!(
            c.contains(&format!("aria-describedby=\"{err}\"")),
            "{field}: {c}"
        );
        assert_eq!(text_of(&html, &err), message.as_str(), "{field}'s message");
    }
    assert_eq!(count_invoices(&app).await, 0, "nothing created");

    // With JavaScript the island sends only the payer's fields, as the choice serialises them,
    // through the link's API: the same refusals, keyed by the same paths.
    let res = payer()
        .post(app.url(&format!("/api/links/{slug}/customers")))
        .json(&serde_json::json!({ "fullName": "Joana Pagadora", "email": "joana@example.com" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let id = res.json::<serde_json::Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    for (choice, field, message) in [
        (choice.clone(), "installmentCount", &below_min),
        (
            LinkChoice {
                price: Some(1.0),
                installment_count: Some(1),
                ..choice.clone()
            },
            "price",
            &min_price,
        ),
    ] {
        let sent = LinkChoice {
            customer_id: Some(id.clone()),
            ..choice
        };
        let res = payer()
            .post(app.url(&format!("/api/links/{slug}/invoices")))
            .header(header::CONTENT_TYPE, "application/json")
            .body(serde_json::to_string(&sent).unwrap())
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        let env: serde_json::Value = res.json().await.unwrap();
        assert_eq!(env["errors"][field], serde_json::json!([message]), "{env}");
    }
    assert_eq!(count_invoices(&app).await, 0, "nothing created");
}
