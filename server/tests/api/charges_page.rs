//! The payer's page of charges (`/c/{token}`, issue 41) through real HTTP: a link the merchant
//! makes (the token API, and the merchant's screens through the proxy) opens every invoice of that
//! one customer with that one application, open first (the soonest due first, what each costs
//! today), then the paid ones, each a link to its payer page; as server HTML with no script at
//! all, the payer pages' CSP and `no-store`. The token is kept only as its hash; a revoked,
//! expired or unknown link gets one and the same 404 page; bad input gets an envelope.

use paylink_server::domain::Clock;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::helpers::*;

/// A payer's browser: no operator session, no token.
fn payer() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn customer_as(app: &TestApp, token: &str, name: &str) -> String {
    let res = app
        .post_as(
            token,
            "/invoices/applications/customers",
            &json!({ "fullName": name }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    body(res).await["id"].as_str().unwrap().to_string()
}

/// A one-installment PIX invoice of `price` reais due in `days` days; its id.
async fn invoice_as(
    app: &TestApp,
    token: &str,
    customer: &str,
    what: &str,
    price: f64,
    days: i64,
) -> String {
    let res = app
        .post_as(
            token,
            "/invoices/applications/invoices",
            &json!({
                "customerId": customer, "externalId": what, "description": what,
                "dueDate": days_from_today(days), "paymentTypes": ["PIX"],
                "installmentCount": 1, "price": price
            }),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

async fn link_as(app: &TestApp, token: &str, customer: &str) -> reqwest::Response {
    app.client
        .post(app.url(&format!(
            "/invoices/applications/customers/{customer}/charges-link"
        )))
        .header("Authorization", format!("Basic {token}"))
        .send()
        .await
        .unwrap()
}

async fn open_page(url: &str) -> (StatusCode, reqwest::header::HeaderMap, String) {
    let res = payer().get(url).send().await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    (status, headers, res.text().await.unwrap())
}

/// The token of a link's address.
fn token_of(url: &str) -> &str {
    url.rsplit("/c/").next().unwrap()
}

#[tokio::test]
async fn the_page_lists_one_customers_invoices_of_one_application_open_first() {
    let app = spawn_app_with(local_proxy).await;
    let other = app.other_token().await;
    let maria = customer_as(&app, &app.token, "Maria da Silva").await;
    let joao = customer_as(&app, &app.token, "João Souza").await;
    let later = invoice_as(&app, &app.token, &maria, "Mensalidade março", 50.0, 20).await;
    let sooner = invoice_as(&app, &app.token, &maria, "Mensalidade fevereiro", 80.0, 5).await;
    let paid = invoice_as(&app, &app.token, &maria, "Matrícula", 120.0, 3).await;
    let res = app.post_empty(&format!("/api/pay/{paid}/simulate")).await;
    assert_eq!(res.status(), StatusCode::OK);
    let joaos = invoice_as(&app, &app.token, &joao, "Do João", 70.0, 5).await;
    // The other application's own customer and charge.
    let theirs = customer_as(&app, &other, "Maria da Silva").await;
    let their_invoice = invoice_as(&app, &other, &theirs, "De outra loja", 90.0, 5).await;

    let res = link_as(&app, &app.token, &maria).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let link = body(res).await;
    let url = link["url"].as_str().unwrap();
    assert!(url.starts_with(&format!("{}/c/", app.addr)), "{link}");
    // 256 random bits, URL-safe base64.
    assert_eq!(token_of(url).len(), 43);
    let expires = paylink_model::date::millis_from_rfc3339(link["expiresAt"].as_str().unwrap());
    let in_30_days = paylink_server::domain::now_ms() + 30 * 86_400_000;
    assert!((expires.unwrap() - in_30_days).abs() < 60_000, "{link}");

    let (status, headers, html) = open_page(url).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["cache-control"], "no-store");
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    let csp = headers["content-security-policy"].to_str().unwrap();
    let script_src = csp
        .split(';')
        .find(|d| d.trim().starts_with("script-src"))
        .unwrap();
    assert!(!script_src.contains("unsafe-inline"), "{csp}");
    assert!(csp.contains("frame-ancestors"), "{csp}");
    // Server HTML: everything is in the response, and nothing runs.
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains("Suas cobranças") && html.contains("Maria da Silva"));
    let at = |id: &str| {
        html.find(&format!("href=\"/pay/{id}\""))
            .unwrap_or_else(|| panic!("no link to {id}: {html}"))
    };
    let (sooner_at, later_at, paid_at) = (at(&sooner), at(&later), at(&paid));
    assert!(sooner_at < later_at, "the soonest due first");
    assert!(later_at < paid_at, "open before paid");
    assert!(html[..paid_at].contains("Em aberto") && html[later_at..].contains("Pagas"));
    assert!(html.contains("R$ 80,00") && html.contains("R$ 50,00") && html.contains("R$ 120,00"));
    let due = paylink_model::Date::parse_iso(&days_from_today(5))
        .unwrap()
        .format_br();
    assert!(html[sooner_at..later_at].contains(&due), "{html}");
    assert!(!html.contains(&joaos) && !html.contains("Do João"));
    assert!(!html.contains(&their_invoice) && !html.contains("De outra loja"));

    // English, as the payer page chooses it.
    let (_, _, en) = open_page(&format!("{url}?lang=en")).await;
    assert!(
        en.contains("Your charges") && en.contains("Amount due today"),
        "{en}"
    );

    // The other application cannot make a link to a customer it does not own.
    let res = link_as(&app, &other, &maria).await;
    envelope(res, StatusCode::NOT_FOUND).await;
    let res = app
        .client
        .delete(app.url(&format!(
            "/invoices/applications/customers/{maria}/charges-link"
        )))
        .header("Authorization", format!("Basic {other}"))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::NOT_FOUND).await;
    // Its own customer's page shows its own charge only.
    let theirs_url = body(link_as(&app, &other, &theirs).await).await["url"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, _, html) = open_page(&theirs_url).await;
    assert!(html.contains(&their_invoice) && !html.contains(&sooner));
}

#[tokio::test]
async fn bad_input_gets_an_envelope() {
    let app = spawn_app_with(local_proxy).await;
    let maria = customer_as(&app, &app.token, "Maria da Silva").await;
    let res = link_as(&app, &app.token, "nao-e-um-id").await;
    envelope(res, StatusCode::BAD_REQUEST).await;
    let res = link_as(&app, &app.token, "0b6f3f1e-8a57-4f0e-9d2c-1c2b3a4d5e6f").await;
    envelope(res, StatusCode::NOT_FOUND).await;
    let path = format!("/invoices/applications/customers/{maria}/charges-link");
    let res = app
        .client
        .get(app.url(&path))
        .header("Authorization", format!("Basic {}", app.token))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::METHOD_NOT_ALLOWED).await;
    let res = app.client.post(app.url(&path)).send().await.unwrap();
    envelope(res, StatusCode::UNAUTHORIZED).await;
    // The merchant's screens, through the proxy.
    let res = app
        .post_empty("/api/customers/nao-e-um-id/charges-link")
        .await;
    envelope(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .get(&format!("/api/customers/{maria}/charges-link"))
        .await;
    envelope(res, StatusCode::METHOD_NOT_ALLOWED).await;
    // The page itself: a path that is no token is the same 404 page, never a 500.
    for token in ["x", &"a".repeat(500), "..%2F..%2Fetc", &"-".repeat(43)] {
        let (status, headers, html) = open_page(&app.url(&format!("/c/{token}"))).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{token}");
        assert_eq!(headers["cache-control"], "no-store");
        assert!(html.contains("Página indisponível"), "{token}: {html}");
    }
    // A path that is not UTF-8 is refused as every payer route refuses it.
    let res = payer().get(app.url("/c/%FF%FE")).send().await.unwrap();
    envelope(res, StatusCode::BAD_REQUEST).await;
    let res = payer().post(app.url("/c/x")).send().await.unwrap();
    envelope(res, StatusCode::METHOD_NOT_ALLOWED).await;
}

/// The page of a link that opens nothing, with its own token blanked (the language links
/// carry the page's path).
fn blanked(html: &str, url: &str) -> String {
    html.replace(token_of(url), "TOKEN")
}

#[tokio::test]
async fn the_token_is_kept_hashed_and_a_revoked_or_unknown_link_gets_the_same_404() {
    let app = spawn_app_with(local_proxy).await;
    let maria = customer_as(&app, &app.token, "Maria da Silva").await;
    let id = invoice_as(&app, &app.token, &maria, "Mensalidade", 50.0, 5).await;
    // Made on the merchant's screen (the proxy, an operator's session).
    let res = app
        .post_empty(&format!("/api/customers/{maria}/charges-link"))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let url = body(res).await["url"].as_str().unwrap().to_string();
    let (status, _, html) = open_page(&url).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(&format!("/pay/{id}")));

    // Only the SHA-256 of the token is stored.
    let token = token_of(&url);
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT token_hash, customer_id FROM charges_links")
            .fetch_all(&app.raw_pool().await)
            .await
            .unwrap();
    let hash: String = Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(rows, vec![(hash, maria.clone())]);

    let unknown_url = app.url(&format!("/c/{}", "A".repeat(43)));
    let (status, _, unknown) = open_page(&unknown_url).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!unknown.contains("Maria") && !unknown.contains("Mensalidade"));

    let res = app
        .client
        .delete(app.url(&format!("/api/customers/{maria}/charges-link")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let (status, headers, revoked) = open_page(&url).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(headers["cache-control"], "no-store");
    assert!(headers.contains_key("content-security-policy"));
    assert_eq!(blanked(&revoked, &url), blanked(&unknown, &unknown_url));
    // Revoking again is not an error.
    let res = app
        .client
        .delete(app.url(&format!(
            "/invoices/applications/customers/{maria}/charges-link"
        )))
        .header("Authorization", format!("Basic {}", app.token))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn an_expired_link_gets_the_same_404() {
    // The payer pages' clock 30 days and a minute ahead: a link made now has expired there.
    let ahead = paylink_server::domain::now_ms() + 30 * 86_400_000 + 60_000;
    let app = spawn_app_options(|o| o.payer.clock = Clock::Fixed(ahead)).await;
    let maria = customer_as(&app, &app.token, "Maria da Silva").await;
    invoice_as(&app, &app.token, &maria, "Mensalidade", 50.0, 40).await;
    let link: Value = body(link_as(&app, &app.token, &maria).await).await;
    let url = link["url"].as_str().unwrap();
    let (status, _, expired) = open_page(url).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let unknown_url = app.url(&format!("/c/{}", "B".repeat(43)));
    let (_, _, unknown) = open_page(&unknown_url).await;
    assert_eq!(blanked(&expired, url), blanked(&unknown, &unknown_url));

    // A day before it ends, the same link opens the page.
    let before = ahead - 2 * 86_400_000;
    let app = spawn_app_options(|o| o.payer.clock = Clock::Fixed(before)).await;
    let maria = customer_as(&app, &app.token, "Maria da Silva").await;
    invoice_as(&app, &app.token, &maria, "Mensalidade", 50.0, 40).await;
    let link: Value = body(link_as(&app, &app.token, &maria).await).await;
    let (status, _, html) = open_page(link["url"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Mensalidade"));
}

/// A notification's e-mail carries a link of its own to the payer's page of charges, in the
/// payer's language; the link opens the page, and the merchant's revoke ends it too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_email_notification_links_to_the_page_of_charges() {
    use crate::smtp::{Mode, SmtpServer};
    let sink = SmtpServer::start(Mode::StartTls).await;
    let app = spawn_app_mailing_with_pages(sink.config()).await;
    let res = app
        .post_customer(
            &json!({ "fullName": "Mary Smith", "email": "mary@example.com", "language": "en" }),
        )
        .await;
    let mary = body(res).await["id"].as_str().unwrap().to_string();
    let req = with(
        invoice_body(&mary),
        json!({ "notifications": [{ "type": "INVOICE_GENERATED", "channel": "Email" }] }),
    );
    let res = app.post_invoice(&req).await;
    assert_eq!(res.status(), StatusCode::OK);
    let id = body(res).await["id"].as_str().unwrap().to_string();
    let mail = &sink.wait_for(10, 1).await[0];
    let text = mail.text();
    let prefix = format!("{}/c/", app.addr);
    let at = text
        .find(&format!("All your charges, open and paid:\n{prefix}"))
        .unwrap_or_else(|| panic!("no link to the page of charges: {text}"));
    let url = text[at..].lines().nth(1).unwrap().to_string();
    assert!(url.ends_with("?lang=en"), "{url}");
    assert!(mail.html().contains(&format!("<a href=\"{url}\">")));
    let (status, _, html) = open_page(&url).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("Your charges") && html.contains(&format!("/pay/{id}")),
        "{html}"
    );
    let res = app
        .client
        .delete(app.url(&format!("/api/customers/{mary}/charges-link")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let (status, _, _) = open_page(&url).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
