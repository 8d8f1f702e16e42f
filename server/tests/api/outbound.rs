//! Webhook URLs that lead into paylink's own network (SSRF): refused when they
//! are registered, in every spelling an HTTP client reads as an internal
//! address, and again when connecting, where a name may resolve elsewhere
//! than it did at registration (DNS rebinding) and an address written in the
//! URL never meets the resolver.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};

use paylink_server::domain::outbound::Outbound;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;
use crate::receiver::Listener;

/// The forms of issue 30, each accepted by the API (and six of them
/// delivered to loopback) before the outbound policy.
const INTERNAL_FORMS: [&str; 17] = [
    "https://2130706433/hook",
    "https://0x7f000001/hook",
    "https://0177.0.0.1/hook",
    "https://127.1/hook",
    "https://0/hook",
    "https://127.000.000.001/hook",
    "https://2852039166/latest/meta-data",
    "https://[::127.0.0.1]/hook",
    "https://[::ffff:0:7f00:1]/hook",
    "https://[64:ff9b::a9fe:a9fe]/hook",
    "https://[2002:a9fe:a9fe::1]/hook",
    "https://[fec0::1]/hook",
    "https://198.18.0.1/hook",
    "https://240.0.0.1/hook",
    "https://192.0.0.1/hook",
    "https://localhost/hook",
    "https://intranet/hook",
];

async fn create_with_hook(
    app: &TestApp,
    customer: &str,
    url: &str,
    lang: &str,
) -> reqwest::Response {
    let req = with(
        invoice_body(customer),
        json!({ "webhooks": [
            { "hookType": "INVOICE_CREATED", "url": "https://loja.example.com/hooks" },
            { "hookType": "PAYMENT_CONFIRMED", "url": url }
        ] }),
    );
    app.client
        .post(app.url("/invoices/applications/invoices"))
        .header("Authorization", format!("Basic {}", app.token))
        .header("Accept-Language", lang)
        .json(&req)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn every_spelling_of_an_internal_address_is_refused_at_registration() {
    let app = spawn_app().await;
    let customer = app.customer_id().await;
    for url in INTERNAL_FORMS {
        for (lang, message) in [
            (
                "pt-BR",
                "O endereço aponta para uma rede interna; use um host público.",
            ),
            (
                "en",
                "The address points to an internal network; use a public host.",
            ),
        ] {
            let res = create_with_hook(&app, &customer, url, lang).await;
            let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
            assert_eq!(
                errors,
                json!({ "webhooks[1].url": [message] }),
                "{url} ({lang})"
            );
        }
    }
    // Nothing was created, so nothing will be delivered.
    let rows = paylink_server::store::webhooks::list_deliveries(&app.db, None)
        .await
        .unwrap();
    assert!(rows.is_empty(), "{rows:?}");
    // The same URLs with a public address pass (the test can tell them apart).
    for url in ["https://0x08080808/hook", "https://[2606:4700::1111]/hook"] {
        let res = create_with_hook(&app, &customer, url, "en").await;
        assert_eq!(res.status(), StatusCode::OK, "{url}");
    }
}

/// A resolver of its own for the test: `name` resolves to each of
/// `answers` in turn (the last one from then on), as a rebinding attacker's
/// DNS answers; every other name does not resolve.
#[derive(Clone)]
struct Rebinding {
    answers: Arc<Mutex<HashMap<String, Vec<IpAddr>>>>,
    asked: Arc<Mutex<usize>>,
}

impl Rebinding {
    fn new(name: &str, answers: &[&str]) -> Rebinding {
        let ips = answers.iter().map(|a| a.parse().unwrap()).collect();
        Rebinding {
            answers: Arc::new(Mutex::new(HashMap::from([(name.to_string(), ips)]))),
            asked: Arc::default(),
        }
    }

    fn asked(&self) -> usize {
        *self.asked.lock().unwrap()
    }
}

impl Resolve for Rebinding {
    fn resolve(&self, name: Name) -> Resolving {
        *self.asked.lock().unwrap() += 1;
        let mut answers = self.answers.lock().unwrap();
        let answer =
            answers.get_mut(name.as_str()).map(
                |ips| {
                    if ips.len() > 1 {
                        ips.remove(0)
                    } else {
                        ips[0]
                    }
                },
            );
        Box::pin(async move {
            let ip = answer.ok_or("no such name")?;
            Ok(Box::new(std::iter::once(SocketAddr::new(ip, 0))) as Addrs)
        })
    }
}

#[tokio::test]
async fn a_name_resolving_to_loopback_is_refused_at_registration() {
    let dns = Rebinding::new("hooks.loja.example", &["127.0.0.1"]);
    let app =
        spawn_app_outbound(Outbound::public_only().with_resolver(Arc::new(dns.clone()))).await;
    let customer = app.customer_id().await;
    let res = create_with_hook(&app, &customer, "https://hooks.loja.example/h", "en").await;
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(
        errors,
        json!({ "webhooks[1].url": ["The address points to an internal network; use a public host."] })
    );
    assert!(dns.asked() >= 1);
}

/// Waits for the first attempt of the only delivery and returns its error.
async fn first_attempt_error(app: &TestApp) -> String {
    for _ in 0..200 {
        let rows = paylink_server::store::webhooks::list_deliveries(&app.db, None)
            .await
            .unwrap();
        if let Some(row) = rows.first().filter(|r| r.attempts > 0) {
            return row.last_error.clone().unwrap_or_default();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no delivery attempt");
}

/// An invoice whose only webhook is `url`, registered through the API.
async fn invoice_hooked_to(app: &TestApp, url: &str) {
    let customer = app.customer_id().await;
    let req = with(
        invoice_body(&customer),
        json!({ "webhooks": [{ "hookType": "INVOICE_CREATED", "url": url }] }),
    );
    let res = app.post_invoice(&req).await;
    assert_eq!(res.status(), StatusCode::OK, "{}", body(res).await);
}

#[tokio::test]
async fn a_name_that_rebinds_to_loopback_after_registration_is_never_connected_to() {
    let port = Listener::start().await;
    // Public when registered, loopback when the delivery resolves it.
    let dns = Rebinding::new("hooks.loja.example", &["93.184.215.14", "127.0.0.1"]);
    let app =
        spawn_app_outbound(Outbound::public_only().with_resolver(Arc::new(dns.clone()))).await;
    invoice_hooked_to(&app, &format!("https://hooks.loja.example:{}/h", port.port)).await;
    let error = first_attempt_error(&app).await;
    assert!(
        error.contains("resolves only to internal addresses"),
        "{error}"
    );
    assert_eq!(
        dns.asked(),
        2,
        "registration and delivery each resolved the name"
    );
    assert_eq!(port.connections(), 0);

    // Where private addresses are allowed (no check at registration, so the
    // first answer is the delivery's) the same name is connected to: the
    // listener does see a connection when there is one.
    let allowed = Listener::start().await;
    let dns = Rebinding::new("hooks.loja.example", &["127.0.0.1"]);
    let app = spawn_app_outbound(Outbound::allow_private().with_resolver(Arc::new(dns))).await;
    invoice_hooked_to(
        &app,
        &format!("https://hooks.loja.example:{}/h", allowed.port),
    )
    .await;
    first_attempt_error(&app).await;
    assert!(allowed.connections() > 0);
}

#[tokio::test]
async fn an_address_written_in_a_stored_url_is_judged_when_connecting() {
    // Stored without the API's checks (a row from before them): the worker
    // judges the address the client would connect to, which no resolver sees.
    for (outbound, expect_connection) in [
        (Outbound::public_only(), false),
        (Outbound::allow_private(), true),
    ] {
        let port = Listener::start().await;
        let app = spawn_app_outbound(outbound).await;
        let (app_id, _) = paylink_server::http::auth::parse_token(&app.token).unwrap();
        let url = format!("http://2130706433:{}/h", port.port);
        paylink_server::store::webhooks::add_app_webhook(
            &app.db,
            &app_id,
            paylink_model::HookType::InvoiceCreated,
            &url,
        )
        .await
        .unwrap();
        let customer = app.customer_id().await;
        let res = app
            .post_invoice(&with(invoice_body(&customer), json!({ "webhooks": [] })))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let error = first_attempt_error(&app).await;
        if expect_connection {
            assert!(port.connections() > 0, "{error}");
        } else {
            assert!(error.starts_with("refused URL"), "{error}");
            assert_eq!(port.connections(), 0);
        }
    }
}

#[tokio::test]
async fn through_the_operators_proxy_names_are_the_proxys_to_resolve() {
    // `serve --webhook-proxy`: the delivery connects to the proxy (here a
    // listener that counts), and paylink resolves no merchant name, neither
    // at registration nor when sending.
    let proxy = Listener::start().await;
    let dns = Rebinding::new("hooks.loja.example", &["127.0.0.1"]);
    let outbound = Outbound::public_only()
        .with_resolver(Arc::new(dns.clone()))
        .through_proxy(&format!("http://127.0.0.1:{}", proxy.port))
        .unwrap();
    let app = spawn_app_outbound(outbound).await;
    invoice_hooked_to(&app, "https://hooks.loja.example/h").await;
    first_attempt_error(&app).await;
    assert!(proxy.connections() > 0);
    assert_eq!(dns.asked(), 0);
    // Addresses written in a URL are still paylink's to refuse.
    let customer = app.customer_id().await;
    let res = create_with_hook(&app, &customer, "https://2130706433/h", "en").await;
    envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(Outbound::public_only().through_proxy("not a url").is_err());
}
