//! Two applications on one server, A (whose token the proxy holds) and B: a
//! payment link acts as the application that owns it (its page, its form with
//! and without JavaScript, its API), a payer page serves any application's
//! invoice, and each application sees its own links', customers', invoices',
//! webhooks' and counts only; links made with the CLI belong to the
//! application it names.

use reqwest::{header, Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::*;
use crate::links::link_cli;

const LINKS: &str = "/invoices/applications/payment-links";

/// One of the two applications: its token and what tells its data apart.
struct Tenant {
    token: String,
    /// Its link's name (the slug is made from it) and price.
    link_name: &'static str,
    link_price: f64,
    /// Its own invoices' customer and price.
    customer: &'static str,
    price: f64,
}

async fn api(
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

/// A payer's browser: no operator session, no token, redirects not followed.
fn payer() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// A server (sandbox, local proxy holding A's token) with A and B, each with
/// application webhooks for invoices made and payments confirmed.
async fn two_tenants() -> (TestApp, [Tenant; 2]) {
    let app = spawn_app_with(local_proxy).await;
    let b = app.other_token().await;
    let tenants = [
        Tenant {
            token: app.token.clone(),
            link_name: "Link de A",
            link_price: 120.0,
            customer: "Cliente de A",
            price: 90.0,
        },
        Tenant {
            token: b,
            link_name: "Link de B",
            link_price: 240.0,
            customer: "Cliente de B",
            price: 250.0,
        },
    ];
    for (t, host) in tenants.iter().zip(["a.example", "b.example"]) {
        for kind in ["INVOICE_CREATED", "PAYMENT_CONFIRMED"] {
            let hook = json!({ "hookType": kind, "url": format!("https://{host}/hooks") });
            let res = api(
                &app,
                &t.token,
                Method::POST,
                "/invoices/applications/webhooks",
                Some(&hook),
            )
            .await;
            assert_eq!(res.status(), StatusCode::CREATED, "{kind} for {host}");
        }
    }
    (app, tenants)
}

/// The event types of the deliveries `token`'s application has for invoice `id`.
async fn delivered(app: &TestApp, token: &str, id: &str) -> Vec<String> {
    let path = format!("/invoices/applications/deliveries?invoiceId={id}");
    let res = api(app, token, Method::GET, &path, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let mut kinds: Vec<String> = body(res).await["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["eventType"].as_str().unwrap().to_string())
        .collect();
    kinds.sort();
    kinds
}

/// The ids in `token`'s application's invoice list.
async fn invoice_ids(app: &TestApp, token: &str) -> Vec<String> {
    let res = api(
        app,
        token,
        Method::GET,
        "/invoices/applications/invoices?limit=100",
        None,
    )
    .await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect()
}

/// Everything `owner`'s application must see of invoice `id` and `other`'s must not:
/// the detail, the customer, the list, the webhooks' deliveries.
async fn owned_by(app: &TestApp, owner: &Tenant, other: &Tenant, id: &str, customer: &str) {
    let detail = body(app.get_invoice_as(&owner.token, id).await).await;
    assert_eq!(detail["id"], id, "{detail}");
    envelope(
        app.get_invoice_as(&other.token, id).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    let path = format!("/invoices/applications/customers/{customer}");
    assert_eq!(
        api(app, &owner.token, Method::GET, &path, None)
            .await
            .status(),
        StatusCode::OK
    );
    envelope(
        api(app, &other.token, Method::GET, &path, None).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert!(invoice_ids(app, &owner.token)
        .await
        .contains(&id.to_string()));
    assert!(!invoice_ids(app, &other.token)
        .await
        .contains(&id.to_string()));
    assert_eq!(delivered(app, &owner.token, id).await, ["INVOICE_CREATED"]);
    assert!(delivered(app, &other.token, id).await.is_empty());
}

/// The link's invoices made for `token`'s application, as its link list says.
async fn invoices_made(app: &TestApp, token: &str, slug: &str) -> i64 {
    let res = api(app, token, Method::GET, LINKS, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["slug"] == slug)
        .unwrap_or_else(|| panic!("{slug} is not in the list"))["invoicesMade"]
        .as_i64()
        .unwrap()
}

#[tokio::test]
async fn a_link_files_its_payers_under_the_application_that_owns_it_with_and_without_javascript() {
    let (app, tenants) = two_tenants().await;
    let mut slugs = Vec::new();
    for t in &tenants {
        let link = json!({
            "name": t.link_name,
            "description": "Acesso por 12 meses",
            "price": t.link_price,
            "invoiceType": "INSTALLMENT",
            "maxInstallments": 2,
            "paymentTypes": ["PIX", "BOLETO"],
            "dueInDays": 5,
        });
        let res = api(&app, &t.token, Method::POST, LINKS, Some(&link)).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        slugs.push(body(res).await["slug"].as_str().unwrap().to_string());
    }
    for (i, (owner, slug)) in tenants.iter().zip(&slugs).enumerate() {
        let other = &tenants[1 - i];
        // The page.
        let res = payer()
            .get(app.url(&format!("/l/{slug}")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.text().await.unwrap().contains(owner.link_name));

        // With JavaScript: the island's calls.
        let link = body(app.get(&format!("/api/links/{slug}")).await).await;
        assert_eq!(link["price"], owner.link_price);
        let res = app
            .post(
                &format!("/api/links/{slug}/customers"),
                &json!({ "fullName": "Joana Pagadora", "email": "joana@example.com" }),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let customer = body(res).await["id"].as_str().unwrap().to_string();
        let res = app
            .post(
                &format!("/api/links/{slug}/invoices"),
                &json!({
                    "customerId": customer,
                    "dueDate": link["dueDate"],
                    "paymentTypes": ["PIX"],
                    "installmentCount": 2,
                    "invoiceType": link["invoiceType"],
                    "price": link["price"],
                    "description": link["description"],
                }),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let id = body(res).await["id"].as_str().unwrap().to_string();
        owned_by(&app, owner, other, &id, &customer).await;

        // Without JavaScript: the form posted to the page.
        let fields = [
            ("fullName", "Caio Pagador"),
            ("document", "529.982.247-25"),
            ("email", "caio@example.com"),
            ("phone", "(11) 98765-4321"),
            ("paymentTypes", "BOLETO"),
            ("installmentCount", "2"),
        ];
        let res = payer()
            .post(app.url(&format!("/l/{slug}")))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(serde_urlencoded::to_string(fields).unwrap())
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        let to = res.headers()[header::LOCATION]
            .to_str()
            .unwrap()
            .to_string();
        let id = to.strip_prefix("/pay/").unwrap().to_string();
        let detail = body(app.get_invoice_as(&owner.token, &id).await).await;
        let customer = detail["customer"]["id"].as_str().unwrap().to_string();
        owned_by(&app, owner, other, &id, &customer).await;
        // The payer page it sends the payer to is there.
        let res = payer().get(app.url(&to)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);

        // The owner's counts went up; the other does not see the link at all.
        assert_eq!(invoices_made(&app, &owner.token, slug).await, 2);
        envelope(
            api(
                &app,
                &other.token,
                Method::GET,
                &format!("{LINKS}/{slug}"),
                None,
            )
            .await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
}

#[tokio::test]
async fn every_invoices_url_answers_its_payer_page_whichever_application_made_it() {
    let (app, tenants) = two_tenants().await;
    for (i, t) in tenants.iter().enumerate() {
        let other = &tenants[1 - i];
        let res = api(
            &app,
            &t.token,
            Method::POST,
            "/invoices/applications/customers",
            Some(&json!({ "fullName": t.customer })),
        )
        .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let customer = body(res).await["id"].as_str().unwrap().to_string();
        let invoice = json!({
            "customerId": customer,
            "externalId": "pedido-1",
            "dueDate": next_jan_31().to_string(),
            "paymentTypes": ["PIX", "BOLETO"],
            "installmentCount": 1,
            "invoiceType": "SINGLE",
            "price": t.price,
            "description": format!("Pedido de {}", t.customer),
        });
        let res = api(
            &app,
            &t.token,
            Method::POST,
            "/invoices/applications/invoices",
            Some(&invoice),
        )
        .await;
        assert_eq!(res.status(), StatusCode::OK);
        let created = body(res).await;
        let id = created["id"].as_str().unwrap().to_string();

        // Its url, as a payer opens it: the page, with this invoice's own data.
        let url = created["url"].as_str().unwrap();
        let res = payer().get(url).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{url}");
        let html = res.text().await.unwrap();
        assert!(html.contains(t.customer), "{html}");
        assert!(!html.contains(other.customer));
        let view = body(app.get(&format!("/api/pay/{id}")).await).await;
        assert_eq!(view["id"], id.as_str());
        assert_eq!(view["customerName"], t.customer);
        assert_eq!(view["installments"][0]["price"], t.price);
        assert_eq!(
            app.post_empty(&format!("/api/pay/{id}/view"))
                .await
                .status(),
            StatusCode::NO_CONTENT
        );
        let res = app
            .get(&format!("/api/pay/{id}/installments/1/boleto.pdf"))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()[header::CONTENT_TYPE], "application/pdf");
        // The Pix Automático form: nothing to ask for again, the page once more.
        let res = payer()
            .post(app.url(&format!("/pay/{id}/pix-automatico")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER);

        // The sandbox's payment: the owner's invoice is paid, its webhooks told.
        let res = payer()
            .post(app.url(&format!("/pay/{id}/simulate")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        let view = body(app.get(&format!("/api/pay/{id}")).await).await;
        assert_eq!(view["installments"][0]["status"], "CONFIRMED", "{view}");
        let detail = body(app.get_invoice_as(&t.token, &id).await).await;
        assert_eq!(detail["installments"][0]["_status"], "CONFIRMED");
        assert_eq!(
            delivered(&app, &t.token, &id).await,
            ["INVOICE_CREATED", "PAYMENT_CONFIRMED"]
        );
        assert!(delivered(&app, &other.token, &id).await.is_empty());
    }
    // The API's sandbox payment, on a second invoice of B's.
    let b = &tenants[1];
    let res = api(
        &app,
        &b.token,
        Method::POST,
        "/invoices/applications/customers",
        Some(&json!({ "fullName": b.customer })),
    )
    .await;
    let customer = body(res).await["id"].as_str().unwrap().to_string();
    let res = api(
        &app,
        &b.token,
        Method::POST,
        "/invoices/applications/invoices",
        Some(&with(invoice_body(&customer), json!({ "webhooks": [] }))),
    )
    .await;
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let res = app.post_empty(&format!("/api/pay/{id}/simulate")).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(body(res).await["installments"][0]["status"], "CONFIRMED");
}

#[tokio::test]
async fn a_link_made_with_the_cli_belongs_to_the_application_it_names() {
    let app = spawn_app_with(local_proxy).await;
    let a = app.token.clone();
    // One application: the link is its own without naming it.
    let only = link_cli(
        &app,
        &[
            "create",
            "--name",
            "Sozinho",
            "--description",
            "x",
            "--price",
            "10",
        ],
    );
    assert!(
        only.status.success(),
        "{}",
        String::from_utf8_lossy(&only.stderr)
    );
    assert_eq!(invoices_made(&app, &a, "sozinho").await, 0);

    let b = app.other_token().await;
    // Two: which one must be said.
    let unnamed = link_cli(
        &app,
        &[
            "create",
            "--name",
            "Sem dono",
            "--description",
            "x",
            "--price",
            "10",
        ],
    );
    assert!(!unnamed.status.success());
    let err = String::from_utf8_lossy(&unnamed.stderr);
    assert!(err.contains("--application"), "{err}");
    let unknown = link_cli(
        &app,
        &[
            "create",
            "--name",
            "Ninguem",
            "--description",
            "x",
            "--price",
            "10",
            "--application",
            "no-such-app",
        ],
    );
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no-such-app"));

    let named = link_cli(
        &app,
        &[
            "create",
            "--name",
            "Curso de B",
            "--description",
            "x",
            "--price",
            "10",
            "--application",
            "other-app",
        ],
    );
    assert!(
        named.status.success(),
        "{}",
        String::from_utf8_lossy(&named.stderr)
    );
    let id = pay_through(&app, "curso-de-b").await;
    assert_eq!(app.get_invoice_as(&b, &id).await.status(), StatusCode::OK);
    envelope(app.get_invoice_as(&a, &id).await, StatusCode::NOT_FOUND).await;
    assert_eq!(invoices_made(&app, &b, "curso-de-b").await, 1);
    // A's own is not B's, and B's is not A's.
    let listed = |token: String| {
        let app = &app;
        async move {
            let res = api(app, &token, Method::GET, LINKS, None).await;
            body(res).await["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l["slug"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(listed(a.clone()).await, ["sozinho"]);
    assert_eq!(listed(b.clone()).await, ["curso-de-b"]);

    // By id as well as by name.
    let (b_id, _) = paylink_server::http::auth::parse_token(&b).unwrap();
    let by_id = link_cli(
        &app,
        &[
            "create",
            "--name",
            "Outro de B",
            "--description",
            "x",
            "--price",
            "10",
            "--application",
            &b_id,
        ],
    );
    assert!(
        by_id.status.success(),
        "{}",
        String::from_utf8_lossy(&by_id.stderr)
    );
    assert_eq!(listed(b).await, ["outro-de-b", "curso-de-b"]);
}

/// A payer's invoice through a SINGLE link of R$ 10,00 (as the CLI tests make them), with the
/// island's calls; its id.
async fn pay_through(app: &TestApp, slug: &str) -> String {
    let link = body(app.get(&format!("/api/links/{slug}")).await).await;
    let res = app
        .post(
            &format!("/api/links/{slug}/customers"),
            &json!({ "fullName": "Joana Pagadora" }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let customer = body(res).await["id"].as_str().unwrap().to_string();
    let res = app
        .post(
            &format!("/api/links/{slug}/invoices"),
            &json!({
                "customerId": customer,
                "dueDate": link["dueDate"],
                "paymentTypes": ["PIX"],
                "invoiceType": "SINGLE",
                "price": 10.0,
                "description": "x",
            }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

/// A link from before links had owners, on a database that had several applications then
/// (migration 0031 leaves it without one): served as the proxy's token's application, as it
/// was, until `paylink link adopt` gives it its owner.
#[tokio::test]
async fn a_link_without_an_owner_is_the_proxy_tokens_until_adopted() {
    let app = spawn_app_with(local_proxy).await;
    let a = app.token.clone();
    let b = app.other_token().await;
    let made = link_cli(
        &app,
        &[
            "create",
            "--name",
            "Antigo",
            "--description",
            "x",
            "--price",
            "10",
            "--application",
            "test-app",
        ],
    );
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let pool = app.raw_pool().await;
    sqlx::query("UPDATE payment_links SET application_id = NULL WHERE slug = 'antigo'")
        .execute(&pool)
        .await
        .unwrap();
    let list = link_cli(&app, &["list"]);
    assert!(String::from_utf8_lossy(&list.stdout).contains("\t(no owner)"));

    let before = pay_through(&app, "antigo").await;
    assert_eq!(
        app.get_invoice_as(&a, &before).await.status(),
        StatusCode::OK
    );

    let adopt = |application: &'static str| {
        link_cli(&app, &["adopt", "antigo", "--application", application])
    };
    let unknown = adopt("no-such-app");
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no-such-app"));
    let adopted = adopt("other-app");
    assert!(
        adopted.status.success(),
        "{}",
        String::from_utf8_lossy(&adopted.stderr)
    );
    let after = pay_through(&app, "antigo").await;
    assert_eq!(
        app.get_invoice_as(&b, &after).await.status(),
        StatusCode::OK
    );
    envelope(app.get_invoice_as(&a, &after).await, StatusCode::NOT_FOUND).await;
    assert_eq!(invoices_made(&app, &b, "antigo").await, 1);
    envelope(
        api(&app, &a, Method::GET, &format!("{LINKS}/antigo"), None).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    // An owned link is never moved: its payers so far are its owner's.
    let again = adopt("test-app");
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("without an owner"));
}
