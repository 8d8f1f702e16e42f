//! Payment links: created with the CLI, read and used through the proxy,
//! enforced whatever the browser sends, rate-limited and CORS-restricted.
//!
//! Its tests run `paylink` commands (a blocking child process) beside the server they spawn
//! in-process, so they run on two threads: on a test's single thread the server would stand
//! still, maybe inside a write transaction, while the command waits for that write lock (and
//! fails "database is locked" after the busy timeout).

use std::process::Command;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

const BIN: &str = env!("CARGO_BIN_EXE_paylink");

/// Runs `paylink link ARGS --db <the app's database>`.
pub(crate) fn link_cli(app: &TestApp, args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .arg("link")
        .args(args)
        .arg("--db")
        .arg(&app.db_target)
        .output()
        .unwrap()
}

/// `link create` with the example plus `extra`; returns the slug.
pub(crate) fn create_link(app: &TestApp, extra: &[&str]) -> String {
    let mut args = vec![
        "create",
        "--name",
        "Curso de Rust",
        "--description",
        "Acesso por 12 meses",
    ];
    args.extend_from_slice(extra);
    let out = link_cli(app, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("slug: "))
        .unwrap_or_else(|| panic!("{stdout}"))
        .to_string()
}

/// The example link: R$ 300,00 in up to 3 installments.
pub(crate) fn installment_link(app: &TestApp) -> String {
    create_link(
        app,
        &[
            "--price",
            "300.00",
            "--payment-types",
            "PIX,BOLETO",
            "--invoice-type",
            "INSTALLMENT",
            "--max-installments",
            "3",
            "--redirect-to",
            "https://loja.example/obrigado",
        ],
    )
}

pub(crate) async fn count_invoices(app: &TestApp) -> i64 {
    let pool = app.raw_pool().await;
    sqlx::query_scalar("SELECT COUNT(*) FROM invoices")
        .fetch_one(&pool)
        .await
        .unwrap()
}

async fn get_link(app: &TestApp, slug: &str) -> Value {
    let res = app.get(&format!("/api/links/{slug}")).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await
}

/// Registers a payer through the link; returns the customer id.
async fn link_customer(app: &TestApp, slug: &str) -> String {
    let res = app
        .post(
            &format!("/api/links/{slug}/customers"),
            &json!({ "fullName": "Joana Pagadora", "email": "joana@example.com" }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    body(res).await["id"].as_str().unwrap().to_string()
}

/// What the link's widget sends: the link's values and the payer's choices.
fn honest_invoice(link: &Value, customer: &str) -> Value {
    json!({
        "customerId": customer,
        "dueDate": link["dueDate"],
        "paymentTypes": ["PIX"],
        "installmentCount": 2,
        "invoiceType": link["invoiceType"],
        "price": link["price"],
        "description": link["description"],
        "redirectTo": link["redirectTo"],
    })
}

fn today_plus(days: i64) -> String {
    paylink_server::domain::today()
        .add_days(days)
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn link_create_prints_the_slug_its_application_and_url_and_list_shows_it() {
    let app = spawn_app_with(local_proxy).await;
    let out = link_cli(
        &app,
        &[
            "create",
            "--name",
            "Curso de Rust",
            "--description",
            "Acesso por 12 meses",
            "--price",
            "300,00",
            "--invoice-type",
            "INSTALLMENT",
            "--max-installments",
            "3",
            "--slug",
            "curso-rust",
            "--public-url",
            "https://pay.loja.example/",
        ],
    );
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout,
        "slug: curso-rust\napplication: test-app\nhttps://pay.loja.example/l/curso-rust\n"
    );
    // A generated slug comes from the name, and a taken one gets a suffix.
    assert_eq!(create_link(&app, &["--price-by-customer"]), "curso-de-rust");
    assert_eq!(
        create_link(&app, &["--price-by-customer"]),
        "curso-de-rust-2"
    );
    let out = link_cli(&app, &["list"]);
    assert!(out.status.success());
    let list = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 3, "{list}");
    assert!(lines[0].starts_with("curso-rust\tR$ 300,00\tPIX,BOLETO\tINSTALLMENT up to 3x"));
    assert!(lines[0].ends_with("\tCurso de Rust\ttest-app"), "{list}");
    assert!(lines[1].contains("payer's amount"), "{list}");
    // And the server serves what the CLI stored.
    let link = get_link(&app, "curso-rust").await;
    assert_eq!(link["price"], 300.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_link_create_input_exits_2_naming_the_problem() {
    let app = spawn_app_with(local_proxy).await;
    create_link(&app, &["--price", "10", "--slug", "taken"]);
    let base = ["--name", "Curso", "--description", "Acesso"];
    let cases: &[(&str, &[&str], &str)] = &[
        ("price not a number", &["--price", "trezentos"], "--price"),
        ("price below R$ 5,00", &["--price", "4,99"], "--price"),
        (
            "price and price-by-customer",
            &["--price", "10", "--price-by-customer"],
            "--price",
        ),
        ("no price at all", &[], "--price"),
        (
            "unknown payment type",
            &["--price", "10", "--payment-types", "PIX,CARD"],
            "--payment-types",
        ),
        (
            "periodic invoice type",
            &["--price", "10", "--invoice-type", "RECURRING"],
            "--invoice-type",
        ),
        (
            "installments without a maximum",
            &["--price", "100", "--invoice-type", "INSTALLMENT"],
            "--max-installments",
        ),
        (
            "installments below R$ 5,00 each",
            &[
                "--price",
                "10",
                "--invoice-type",
                "INSTALLMENT",
                "--max-installments",
                "3",
            ],
            "--max-installments",
        ),
        (
            "redirect not http(s)",
            &["--price", "10", "--redirect-to", "javascript:alert(1)"],
            "--redirect-to",
        ),
        (
            "slug not url-safe",
            &["--price", "10", "--slug", "Curso/../x"],
            "--slug",
        ),
        (
            "slug already taken",
            &["--price", "10", "--slug", "taken"],
            "already exists",
        ),
    ];
    for (name, extra, expected) in cases {
        let mut args = vec!["create"];
        args.extend_from_slice(&base);
        args.extend_from_slice(extra);
        let out = link_cli(&app, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(expected), "{name}: {stderr}");
    }
    let out = link_cli(&app, &["list"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().count(),
        1,
        "nothing but the first link was stored"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_link_shows_its_terms_and_an_unknown_slug_is_a_404_envelope() {
    let app = spawn_app_with(local_proxy).await;
    let slug = installment_link(&app);
    let res = app.get(&format!("/api/links/{slug}")).await;
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(
        body(res).await,
        json!({
            "slug": "curso-de-rust",
            "name": "Curso de Rust",
            "description": "Acesso por 12 meses",
            "price": 300.0,
            "priceByCustomer": false,
            "paymentTypes": ["PIX", "BOLETO"],
            "invoiceType": "INSTALLMENT",
            "maxInstallments": 3,
            "dueDate": today_plus(3),
            "redirectTo": "https://loja.example/obrigado",
            "fine": null,
            "interest": null,
            "discount": null,
        })
    );
    // A disabled link is gone for payers (below), and back once enabled.
    assert!(link_cli(&app, &["disable", &slug]).status.success());
    let res = app
        .post(
            &format!("/api/links/{slug}/customers"),
            &json!({ "fullName": "Joana" }),
        )
        .await;
    envelope(res, StatusCode::NOT_FOUND).await;
    let unknown = link_cli(&app, &["disable", "nao-existe"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no link"));
    let out = String::from_utf8(link_cli(&app, &["list"]).stdout).unwrap();
    assert!(out.contains("\tinactive\t"), "{out}");
    assert!(link_cli(&app, &["enable", &slug]).status.success());
    get_link(&app, &slug).await;
    assert!(link_cli(&app, &["disable", &slug]).status.success());
    for slug in ["nao-existe", "..%2F..%2Fhealthz", "CURSO-DE-RUST", &slug] {
        let res = app
            .client
            .get(app.url(&format!("/api/links/{slug}")))
            .header("Accept-Language", "en")
            .send()
            .await
            .unwrap();
        let status = res.status();
        let v = body(res).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{slug}");
        assert_eq!(v["message"], "Payment link not found.", "{slug}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payer_creates_the_links_invoice_with_the_installments_chosen() {
    let app = spawn_app_with(local_proxy).await;
    let slug = installment_link(&app);
    let link = get_link(&app, &slug).await;
    let customer = link_customer(&app, &slug).await;
    let res = app
        .post(
            &format!("/api/links/{slug}/invoices"),
            &honest_invoice(&link, &customer),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let created = body(res).await;
    let id = created["id"].as_str().unwrap();
    assert_eq!(created["url"], app.url(&format!("/pay/{id}")));
    let detail = body(app.get_invoice(id).await).await;
    assert_eq!(detail["price"], 300.0);
    assert_eq!(detail["description"], "Acesso por 12 meses");
    assert_eq!(detail["invoiceType"], "INSTALLMENT");
    assert_eq!(detail["installmentCount"], 2);
    assert_eq!(detail["installments"][0]["price"], 150.0);
    assert_eq!(
        detail["externalId"],
        slug.as_str(),
        "the merchant sees the link"
    );
    assert_eq!(detail["customer"]["id"], customer.as_str());
    assert_eq!(detail["redirectTo"], "https://loja.example/obrigado");
    assert!(detail["dueDate"]
        .as_str()
        .unwrap()
        .starts_with(&today_plus(3)));
    assert_eq!(
        detail["paymentTypes"],
        json!([{ "invoiceId": id, "paymentTypeAccepted": "PIX" }])
    );

    // Paying at once (1 of up to 3) is a single invoice of the whole price.
    let one = with(
        honest_invoice(&link, &customer),
        json!({ "installmentCount": 1 }),
    );
    let res = app.post(&format!("/api/links/{slug}/invoices"), &one).await;
    assert_eq!(res.status(), StatusCode::OK);
    let created = body(res).await;
    assert_eq!(created["invoiceType"], "SINGLE");
    assert_eq!(created["installments"][0]["price"], 300.0);

    // A retried registration (same Idempotency-Key) is the same customer, still the link's.
    let register = |key: &'static str| {
        app.client
            .post(app.url(&format!("/api/links/{slug}/customers")))
            .header("Idempotency-Key", key)
            .json(&json!({ "fullName": "Joana Pagadora" }))
            .send()
    };
    let first = body(register("payer-1").await.unwrap()).await;
    let again = register("payer-1").await.unwrap();
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(body(again).await["id"], first["id"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tampered_link_invoices_are_refused_on_their_field_and_create_nothing() {
    let app = spawn_app_with(local_proxy).await;
    let slug = installment_link(&app);
    let link = get_link(&app, &slug).await;
    let customer = link_customer(&app, &slug).await;
    // A customer of the merchant, not registered through this link.
    let outsider = app.customer_id().await;
    let honest = honest_invoice(&link, &customer);
    let cases = [
        ("price changed", json!({ "price": 5.0 }), "price"),
        (
            "description changed",
            json!({ "description": "Grátis" }),
            "description",
        ),
        (
            "priceByCustomer true",
            json!({ "priceByCustomer": true }),
            "priceByCustomer",
        ),
        (
            "payment type not allowed",
            json!({ "paymentTypes": ["PIX", "CARD"] }),
            "paymentTypes[1]",
        ),
        (
            "installmentCount over max",
            json!({ "installmentCount": 4 }),
            "installmentCount",
        ),
        (
            "dueDate changed",
            json!({ "dueDate": today_plus(60) }),
            "dueDate",
        ),
        (
            "webhooks added",
            json!({ "webhooks": [{ "hookType": "PAYMENT_CONFIRMED", "url": "https://evil.example/h" }] }),
            "webhooks",
        ),
        (
            "notifications added",
            json!({ "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }] }),
            "notifications",
        ),
        (
            "redirectTo changed",
            json!({ "redirectTo": "https://evil.example/" }),
            "redirectTo",
        ),
        (
            "customer not from this link",
            json!({ "customerId": outsider }),
            "customerId",
        ),
        (
            "invoiceType changed",
            json!({ "invoiceType": "SINGLE" }),
            "invoiceType",
        ),
        (
            "externalId chosen by the payer",
            json!({ "externalId": "order-123" }),
            "externalId",
        ),
        (
            "a discount granted by the payer",
            json!({ "discount": { "type": "PERCENTAGE", "value": 99, "untilDate": link["dueDate"] } }),
            "discount",
        ),
        (
            "a fine chosen by the payer",
            json!({ "fine": { "type": "FIXED", "value": 0.01 } }),
            "fine",
        ),
        (
            "interest chosen by the payer",
            json!({ "interest": { "value": 0.01 } }),
            "interest",
        ),
    ];
    for (name, patch, path) in cases {
        let res = app
            .client
            .post(app.url(&format!("/api/links/{slug}/invoices")))
            .header("Accept-Language", "en")
            .json(&with(honest.clone(), patch))
            .send()
            .await
            .unwrap();
        let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        let fields: Vec<&String> = errors.as_object().unwrap().keys().collect();
        assert_eq!(fields, [path], "{name}: {errors}");
    }
    // pt-BR by default, with the model's message.
    let res = app
        .post(
            &format!("/api/links/{slug}/invoices"),
            &with(honest.clone(), json!({ "price": 1.0 })),
        )
        .await;
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(
        errors["price"][0],
        "Este valor é definido pelo link de pagamento e não pode ser alterado."
    );
    // Not JSON, or too big: envelopes as well.
    let res = app
        .client
        .post(app.url(&format!("/api/links/{slug}/invoices")))
        .body("price=1")
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
    let res = app
        .client
        .post(app.url(&format!("/api/links/{slug}/invoices")))
        .header("Content-Type", "application/json")
        .body(format!("{{\"description\": \"{}\"}}", "x".repeat(2 << 20)))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::PAYLOAD_TOO_LARGE).await;
    assert_eq!(count_invoices(&app).await, 0, "nothing was created");
    // The unchanged request still goes through: the refusals were the changes.
    let res = app
        .post(&format!("/api/links/{slug}/invoices"), &honest)
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(count_invoices(&app).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_price_by_customer_link_takes_the_payers_amount() {
    let app = spawn_app_with(local_proxy).await;
    let slug = create_link(&app, &["--price-by-customer", "--payment-types", "PIX"]);
    let link = get_link(&app, &slug).await;
    assert_eq!(link["price"], Value::Null);
    assert_eq!(link["priceByCustomer"], true);
    assert_eq!(link["maxInstallments"], 1);
    let customer = link_customer(&app, &slug).await;
    let req = json!({
        "customerId": customer,
        "price": 42.5,
        "paymentTypes": ["PIX"],
        "installmentCount": 1,
        "invoiceType": "SINGLE",
        "dueDate": link["dueDate"],
        "description": link["description"],
    });
    let res = app.post(&format!("/api/links/{slug}/invoices"), &req).await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let detail = body(app.get_invoice(&id).await).await;
    assert_eq!(detail["price"], 42.5);
    assert_eq!(detail["priceByCustomer"], false);
    // The service's rules still apply to the payer's amount.
    let res = app
        .post(
            &format!("/api/links/{slug}/invoices"),
            &with(req, json!({ "price": 1.0 })),
        )
        .await;
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(errors["price"].is_array(), "{errors}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn link_creations_need_no_session_but_the_merchants_do() {
    let app = spawn_app_anonymous().await;
    let slug = installment_link(&app);
    let link = get_link(&app, &slug).await;
    let customer = link_customer(&app, &slug).await;
    let res = app
        .post(
            &format!("/api/links/{slug}/invoices"),
            &honest_invoice(&link, &customer),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .post("/api/customers", &json!({ "fullName": "Maria" }))
        .await;
    envelope(res, StatusCode::UNAUTHORIZED).await;
    let res = app
        .post("/api/invoices", &honest_invoice(&link, &customer))
        .await;
    envelope(res, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn link_creations_over_the_budget_are_429_with_retry_after() {
    let app =
        spawn_app_options(|o| o.public_rate_limit = paylink_server::http::ratelimit::Budget(3))
            .await;
    let slug = installment_link(&app);
    // Customers and invoices share the address's budget.
    link_customer(&app, &slug).await;
    for _ in 0..2 {
        let res = app
            .post(
                &format!("/api/links/{slug}/invoices"),
                &json!({ "customerId": "not-a-uuid" }),
            )
            .await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    }
    let res = app
        .post(
            &format!("/api/links/{slug}/customers"),
            &json!({ "fullName": "Quarta Tentativa" }),
        )
        .await;
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=20).contains(&retry), "3 a minute: one every 20 s");
    envelope(res, StatusCode::TOO_MANY_REQUESTS).await;
    // Reads are not creations: the link page still loads.
    get_link(&app, &slug).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cors_answers_configured_origins_only() {
    let app = spawn_app_options(|o| o.allowed_origins = vec!["https://loja.example".into()]).await;
    let slug = installment_link(&app);
    let url = app.url(&format!("/api/links/{slug}/customers"));
    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, &url)
        .header("Origin", "https://loja.example")
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "content-type, idempotency-key",
        )
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let h = preflight.headers();
    assert_eq!(h["access-control-allow-origin"], "https://loja.example");
    assert_eq!(h["vary"], "Origin");
    assert!(h["access-control-allow-methods"]
        .to_str()
        .unwrap()
        .contains("POST"));
    let allowed = h["access-control-allow-headers"].to_str().unwrap();
    for name in ["Content-Type", "Accept-Language", "Idempotency-Key"] {
        assert!(allowed.contains(name), "{allowed}");
    }
    let res = app
        .client
        .post(&url)
        .header("Origin", "https://loja.example")
        .json(&json!({ "fullName": "Joana" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(
        res.headers()["access-control-allow-origin"],
        "https://loja.example"
    );

    // Another origin: no CORS header at all, so a browser refuses the answer.
    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, &url)
        .header("Origin", "https://evil.example")
        .header("Access-Control-Request-Method", "POST")
        .send()
        .await
        .unwrap();
    assert!(!preflight.status().is_success());
    let res = app
        .client
        .get(app.url(&format!("/api/links/{slug}")))
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    for res_headers in [preflight.headers(), res.headers()] {
        assert!(
            !res_headers
                .keys()
                .any(|k| k.as_str().starts_with("access-control-")),
            "{res_headers:?}"
        );
    }
}

/// `serve` as a person runs it: the flags reach the proxy, and the rate
/// limiter sees the client's address (connection info) over real sockets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_flags_set_the_budget_and_the_allowed_origins() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("serve.db");
    let migrated = Command::new(BIN)
        .args(["migrate", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(migrated.status.success());
    let out = Command::new(BIN)
        .args(["token", "create", "--name", "loja", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, &out.stdout).unwrap();
    let out = Command::new(BIN)
        .args([
            "link",
            "create",
            "--name",
            "Doação",
            "--description",
            "Obrigado",
        ])
        .args(["--price-by-customer", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success());

    let bad = Command::new(BIN)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--allowed-origin",
            "https://loja.example/pagar",
            "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--allowed-origin"));

    let (mut child, addr) = serve_binary(&[
        std::ffi::OsStr::new("--public-rate-limit"),
        "1".as_ref(),
        "--allowed-origin".as_ref(),
        "https://loja.example".as_ref(),
        "--token-file".as_ref(),
        token_file.as_os_str(),
        "--db".as_ref(),
        db.as_os_str(),
    ]);
    let client = reqwest::Client::new();
    let url = format!("{addr}/api/links/doacao/customers");
    let mut statuses = Vec::new();
    for _ in 0..2 {
        let res = client
            .post(&url)
            .header("Origin", "https://loja.example")
            .json(&json!({ "fullName": "Joana" }))
            .send()
            .await
            .unwrap();
        assert_eq!(
            res.headers()["access-control-allow-origin"],
            "https://loja.example"
        );
        statuses.push(res.status());
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        statuses,
        [StatusCode::CREATED, StatusCode::TOO_MANY_REQUESTS]
    );
}

/// With a remote `--upstream`, links and their customers stay in the proxy's
/// database while customers and invoices are created upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_work_with_a_remote_upstream() {
    let upstream = spawn_app().await;
    let token = upstream.token.clone();
    let base = upstream.addr.clone();
    let proxy = spawn_app_with(move |_| {
        Some(paylink_server::proxy::ProxyConfig {
            token,
            upstream: Some(base),
            timeout: paylink_server::proxy::DEFAULT_UPSTREAM_TIMEOUT,
        })
    })
    .await;
    let slug = installment_link(&proxy);
    let link = get_link(&proxy, &slug).await;
    let customer = link_customer(&proxy, &slug).await;
    let res = proxy
        .post(
            &format!("/api/links/{slug}/invoices"),
            &honest_invoice(&link, &customer),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let detail = body(upstream.get_invoice(&id).await).await;
    assert_eq!(detail["externalId"], slug.as_str());
    assert_eq!(count_invoices(&proxy).await, 0, "created upstream only");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_links_fine_interest_and_discount_go_into_its_invoices() {
    let app = spawn_app_with(local_proxy).await;
    let slug = create_link(
        &app,
        &[
            "--price",
            "300.00",
            "--invoice-type",
            "INSTALLMENT",
            "--max-installments",
            "3",
            "--due-in-days",
            "5",
            "--fine",
            "2%",
            "--interest",
            "1",
            "--discount",
            "10,00",
            "--discount-days-before-due",
            "2",
        ],
    );
    let link = get_link(&app, &slug).await;
    assert_eq!(link["dueDate"], today_plus(5));
    assert_eq!(link["fine"], json!({ "type": "PERCENTAGE", "value": 2.0 }));
    assert_eq!(link["interest"], json!({ "value": 1.0 }));
    assert_eq!(
        link["discount"],
        json!({ "type": "FIXED", "value": 10.0, "untilDate": today_plus(3) })
    );
    let customer = link_customer(&app, &slug).await;
    let res = app
        .post(
            &format!("/api/links/{slug}/invoices"),
            &honest_invoice(&link, &customer),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let detail = body(app.get_invoice(&id).await).await;
    for key in ["fine", "interest", "discount"] {
        assert_eq!(detail[key], link[key], "{key}");
    }
    // The payer page: R$ 150,00 today, R$ 10,00 off.
    let view = body(app.get(&format!("/api/pay/{id}")).await).await;
    let due = &view["installments"][0]["amountDue"];
    assert_eq!(due["discount"], 10.0);
    assert_eq!(due["total"], 140.0);

    // The CLI refuses terms a consumer could not be charged, naming the flag.
    let out = link_cli(
        &app,
        &[
            "create",
            "--name",
            "Multa alta",
            "--description",
            "x",
            "--price",
            "50",
            "--fine",
            "5%",
        ],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--fine"));
    // `link list` shows the terms.
    let out = link_cli(&app, &["list"]);
    let list = String::from_utf8(out.stdout).unwrap();
    assert!(list.contains("fine 2,00%"), "{list}");
}
