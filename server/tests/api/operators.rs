//! Operator accounts over real HTTP: login, the one answer for every wrong
//! login, throttling, expiry, logout, disabled accounts, the same-origin
//! rule for writes, the session in front of every merchant call (and not in
//! front of the payer's), and the audit trail. Over 400 lines: the whole
//! session model is tested here, so its rules read together (the CLI's
//! `operator` commands are in cli.rs).

use std::time::Duration;

use paylink_server::domain::operators::SessionConfig;
use paylink_server::store::operators as rows;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::helpers::*;

/// A login from `app`'s own origin with a fresh client (no session).
async fn login(app: &TestApp, email: &str, password: &str) -> reqwest::Response {
    Client::new()
        .post(app.url("/api/session"))
        .header("origin", &app.addr)
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .unwrap()
}

/// The `name=value` of a login's Set-Cookie.
fn cookie_of(res: &reqwest::Response) -> String {
    let set = res.headers()["set-cookie"].to_str().unwrap();
    set.split(';').next().unwrap().to_string()
}

async fn session_status(app: &TestApp, cookie: &str) -> StatusCode {
    Client::new()
        .get(app.url("/api/session"))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap()
        .status()
}

fn with_sessions(config: SessionConfig) -> impl FnOnce(&mut paylink_server::Options) {
    move |o| o.sessions = config
}

#[tokio::test]
async fn a_login_sets_a_strict_http_only_cookie_and_names_the_operator() {
    let app = spawn_app().await;
    let res = login(&app, " Operador@Loja.example ", OPERATOR_PASSWORD).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "not that e-mail");
    let res = login(&app, " Operadora@Loja.Example ", OPERATOR_PASSWORD).await;
    assert_eq!(res.status(), StatusCode::NO_CONTENT, "e-mails ignore case");
    let set = res.headers()["set-cookie"].to_str().unwrap().to_string();
    for part in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set.contains(part), "{set}");
    }
    // Plain-HTTP loopback: no Secure, so no __Host- prefix (see http/session.rs).
    assert!(set.starts_with(&format!("{SESSION_COOKIE}=")), "{set}");
    assert!(!set.contains("Secure"), "{set}");
    let cookie = cookie_of(&res);
    let value = cookie.split_once('=').unwrap().1;
    assert!(value.len() >= 43, "256 bits: {value}");
    // Only the id's hash is stored.
    let pool = app.raw_pool().await;
    let stored: Vec<(String,)> = sqlx::query_as("SELECT id_hash FROM operator_sessions")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(stored.iter().all(|(h,)| h != value && h.len() == 64));

    let me = Client::new()
        .get(app.url("/api/session"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::OK);
    let me = body(me).await;
    assert_eq!(me["email"], OPERATOR_EMAIL);
    assert_eq!(me["name"], "Operadora Teste");
    let res = Client::new()
        .get(app.url("/api/session"))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_email_get_the_same_answer() {
    let app = spawn_app().await;
    let wrong = login(&app, OPERATOR_EMAIL, "not the password at all").await;
    assert!(wrong.headers().get("www-authenticate").is_none());
    assert!(wrong.headers().get("set-cookie").is_none());
    let wrong_status = wrong.status();
    let wrong = body(wrong).await;
    let unknown = login(&app, "ninguem@loja.example", "not the password at all").await;
    assert_eq!(unknown.status(), wrong_status);
    assert_eq!(wrong_status, StatusCode::UNAUTHORIZED);
    assert_eq!(body(unknown).await, wrong);
    assert_eq!(wrong["code"], 401);
    // Missing fields are field errors, wrong JSON the usual envelopes.
    let res = Client::new()
        .post(app.url("/api/session"))
        .header("origin", &app.addr)
        .header("accept-language", "en")
        .json(&json!({ "email": "" }))
        .send()
        .await
        .unwrap();
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(
        errors["email"].is_array() && errors["password"].is_array(),
        "{errors}"
    );
    for (body, status) in [
        ("{", StatusCode::BAD_REQUEST),
        ("[]", StatusCode::BAD_REQUEST),
        (
            r#"{"email": 1, "password": "x"}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let res = Client::new()
            .post(app.url("/api/session"))
            .header("origin", &app.addr)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        envelope(res, status).await;
    }
    let res = Client::new()
        .post(app.url("/api/session"))
        .header("origin", &app.addr)
        .body("email=a")
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
}

#[tokio::test]
async fn failed_logins_are_throttled_per_account_until_the_window_passes() {
    let window = Duration::from_secs(2);
    let app = spawn_app_options(with_sessions(SessionConfig {
        account_failures: 3,
        address_failures: 100,
        window,
        ..Default::default()
    }))
    .await;
    operator_session(&app.db, "outra@loja.example").await;
    for _ in 0..3 {
        let res = login(&app, OPERATOR_EMAIL, "wrong password 123").await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    }
    // Throttled even with the right password: guessing stops here.
    let res = login(&app, OPERATOR_EMAIL, OPERATOR_PASSWORD).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry), "{retry}");
    envelope(res, StatusCode::TOO_MANY_REQUESTS).await;
    // Per account: another one logs in from the same address.
    let res = login(&app, "outra@loja.example", OPERATOR_PASSWORD).await;
    assert_eq!(res.status(), StatusCode::NO_CONTENT);

    tokio::time::sleep(window + Duration::from_millis(200)).await;
    let res = login(&app, OPERATOR_EMAIL, OPERATOR_PASSWORD).await;
    assert_eq!(
        res.status(),
        StatusCode::NO_CONTENT,
        "allowed after the window"
    );
}

/// A login from client address `ip` (through a reverse proxy the server trusts).
async fn login_from(app: &TestApp, ip: &str, email: &str, password: &str) -> reqwest::Response {
    Client::new()
        .post(app.url("/api/session"))
        .header("origin", &app.addr)
        .header("x-forwarded-for", ip)
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .unwrap()
}

/// Issue 38: five wrong passwords for an e-mail, from any address, made the
/// right one answer 429 from every address for 15 minutes: anyone could lock
/// the operator out. Now the guesser's address is refused, with Retry-After,
/// and the operator logs in from another one (slowed, at most); each failure
/// and refusal is in the account's audit trail.
#[tokio::test]
async fn wrong_passwords_from_one_address_do_not_lock_the_operator_out_of_another() {
    let app = spawn_app_options(|o| o.trust_forwarded_for = true).await;
    let attacker = "203.0.113.7";
    for _ in 0..5 {
        let res = login_from(&app, attacker, OPERATOR_EMAIL, "wrong password 123").await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    }
    // The guesser is stopped, even with the right password.
    let res = login_from(&app, attacker, OPERATOR_EMAIL, OPERATOR_PASSWORD).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=15 * 60).contains(&retry), "{retry}");
    envelope(res, StatusCode::TOO_MANY_REQUESTS).await;
    // The operator, from the shop, logs in.
    let res = login_from(&app, "198.51.100.20", OPERATOR_EMAIL, OPERATOR_PASSWORD).await;
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let cookie = cookie_of(&res);
    assert_eq!(session_status(&app, &cookie).await, StatusCode::OK);
    // And the guesser is still refused afterwards.
    let res = login_from(&app, attacker, OPERATOR_EMAIL, "another guess 456").await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);

    let audit = rows::list_audit(&app.db).await.unwrap();
    let mut lines: Vec<(&str, &str)> = audit
        .iter()
        .map(|a| (a.action.as_str(), a.client_addr.as_str()))
        .collect();
    lines.sort();
    let mut expected = vec![("login_failed", attacker); 5];
    expected.extend([
        ("login_throttled", attacker),
        ("login_throttled", attacker),
        ("login", "198.51.100.20"),
    ]);
    expected.sort();
    assert_eq!(lines, expected);
}

#[tokio::test]
async fn failed_logins_are_throttled_per_address() {
    let app = spawn_app_options(with_sessions(SessionConfig {
        account_failures: 100,
        address_failures: 4,
        ..Default::default()
    }))
    .await;
    for n in 0..4 {
        let res = login(&app, &format!("x{n}@loja.example"), "wrong password 123").await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    }
    let res = login(&app, OPERATOR_EMAIL, OPERATOR_PASSWORD).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    // Stored, not in one process's memory: the rows are there.
    let pool = app.raw_pool().await;
    let (n,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM login_failures WHERE throttle_key = 'address:127.0.0.1'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(n, 4);
}

#[tokio::test]
async fn a_session_ends_when_idle_and_at_its_absolute_limit() {
    for config in [
        SessionConfig {
            idle: Duration::from_secs(1),
            ..Default::default()
        },
        SessionConfig {
            absolute: Duration::from_secs(1),
            ..Default::default()
        },
    ] {
        let app = spawn_app_options(with_sessions(config)).await;
        let cookie = cookie_of(&login(&app, OPERATOR_EMAIL, OPERATOR_PASSWORD).await);
        assert_eq!(session_status(&app, &cookie).await, StatusCode::OK);
        tokio::time::sleep(Duration::from_millis(1300)).await;
        assert_eq!(
            session_status(&app, &cookie).await,
            StatusCode::UNAUTHORIZED,
            "{config:?}"
        );
        let res = Client::new()
            .get(app.url("/api/invoices"))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap();
        envelope(res, StatusCode::UNAUTHORIZED).await;
    }
}

#[tokio::test]
async fn logout_ends_the_session_and_clears_the_cookie() {
    let app = spawn_app().await;
    let cookie = cookie_of(&login(&app, OPERATOR_EMAIL, OPERATOR_PASSWORD).await);
    let res = Client::new()
        .delete(app.url("/api/session"))
        .header("cookie", &cookie)
        .header("origin", &app.addr)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let set = res.headers()["set-cookie"].to_str().unwrap();
    assert!(set.contains("Max-Age=0"), "{set}");
    assert_eq!(
        session_status(&app, &cookie).await,
        StatusCode::UNAUTHORIZED
    );
    let audit = rows::list_audit(&app.db).await.unwrap();
    let actions: Vec<&str> = audit.iter().map(|a| a.action.as_str()).collect();
    assert_eq!(actions, ["login", "logout"]);
    // Twice is harmless.
    let res = Client::new()
        .delete(app.url("/api/session"))
        .header("cookie", &cookie)
        .header("origin", &app.addr)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn a_disabled_operator_loses_their_sessions_and_cannot_log_in() {
    let app = spawn_app().await;
    let cookie = cookie_of(&login(&app, OPERATOR_EMAIL, OPERATOR_PASSWORD).await);
    let before = body(login(&app, "ninguem@loja.example", OPERATOR_PASSWORD).await).await;
    assert!(rows::disable(&app.db, OPERATOR_EMAIL).await.unwrap());
    assert_eq!(
        session_status(&app, &cookie).await,
        StatusCode::UNAUTHORIZED
    );
    let res = app.get("/api/invoices").await;
    envelope(res, StatusCode::UNAUTHORIZED).await;
    let res = login(&app, OPERATOR_EMAIL, OPERATOR_PASSWORD).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(body(res).await, before, "the same answer as a wrong login");
}

#[tokio::test]
async fn writes_need_this_servers_origin() {
    let app = spawn_app_production().await;
    let cookie = operator_session(&app.db, "csrf@loja.example").await;
    let customer = json!({ "fullName": "Maria da Silva" });
    let post = |origin: Option<&str>, referer: Option<&str>| {
        let mut req = Client::new()
            .post(app.url("/api/customers"))
            .header("cookie", &cookie)
            .json(&customer);
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        if let Some(r) = referer {
            req = req.header("referer", r);
        }
        req.send()
    };
    let other_port = format!(
        "http://127.0.0.1:{}",
        1 + app.addr.rsplit(':').next().unwrap().parse::<u16>().unwrap()
    );
    for (origin, referer) in [
        (Some("https://evil.example"), None),
        (Some(other_port.as_str()), None),
        (Some("null"), None),
        (None, None),
        (None, Some("https://evil.example/page")),
        // An Origin decides, whatever the Referer says.
        (
            Some("https://evil.example"),
            Some(&*format!("{}/customers/new", app.addr)),
        ),
    ] {
        let res = post(origin, referer).await.unwrap();
        let v = envelope(res, StatusCode::FORBIDDEN).await;
        assert!(v.is_null(), "{origin:?} {referer:?}");
    }
    let n: Vec<(String,)> = sqlx::query_as("SELECT id FROM customers")
        .fetch_all(&app.raw_pool().await)
        .await
        .unwrap();
    assert!(n.is_empty(), "nothing was created");
    let res = post(Some(&app.addr), None).await.unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let res = post(None, Some(&format!("{}/customers/new", app.addr)))
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        StatusCode::CREATED,
        "a same-origin Referer will do"
    );
    // Reads need no Origin.
    let res = Client::new()
        .get(app.url("/api/customers"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    // Login and logout too.
    let res = Client::new()
        .post(app.url("/api/session"))
        .header("origin", "https://evil.example")
        .json(&json!({ "email": OPERATOR_EMAIL, "password": OPERATOR_PASSWORD }))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::FORBIDDEN).await;
    let res = Client::new()
        .post(app.url("/api/session"))
        .json(&json!({ "email": OPERATOR_EMAIL, "password": OPERATOR_PASSWORD }))
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::FORBIDDEN).await;
    let res = Client::new()
        .delete(app.url("/api/session"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    envelope(res, StatusCode::FORBIDDEN).await;
    assert_eq!(session_status(&app, &cookie).await, StatusCode::OK);
}

#[tokio::test]
async fn the_origin_is_the_public_urls_not_the_host_headers() {
    // The test server's public URL is its own address, http://127.0.0.1:PORT.
    let app = spawn_app_production().await;
    let cookie = operator_session(&app.db, "origin@loja.example").await;
    let port = app.addr.rsplit(':').next().unwrap();
    let post = |origin: String, host: Option<&'static str>| {
        let mut req = Client::new()
            .post(app.url("/api/customers"))
            .header("cookie", &cookie)
            .header("origin", origin)
            .json(&json!({ "fullName": "Maria da Silva" }));
        if let Some(h) = host {
            req = req.header("host", h);
        }
        req.send()
    };
    for (origin, host, why) in [
        (
            format!("https://127.0.0.1:{port}"),
            None,
            "the right host and port, the wrong scheme",
        ),
        (
            "https://evil.example".to_string(),
            Some("evil.example"),
            "a forged Host that matches a forged Origin",
        ),
        (
            format!("http://evil.example:{port}"),
            Some("evil.example"),
            "a forged Host with this server's port",
        ),
    ] {
        let res = post(origin, host).await.unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{why}");
        envelope(res, StatusCode::FORBIDDEN).await;
    }
    let n: Vec<(String,)> = sqlx::query_as("SELECT id FROM customers")
        .fetch_all(&app.raw_pool().await)
        .await
        .unwrap();
    assert!(n.is_empty(), "nothing was created");
    // The public origin passes, whatever the Host says.
    let res = post(app.addr.clone(), Some("evil.example")).await.unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    // On plain-HTTP loopback, the same port under another loopback name is
    // the same server (a developer's browser on http://localhost:8080).
    for alias in [
        format!("http://localhost:{port}"),
        format!("http://[::1]:{port}"),
    ] {
        let res = post(alias.clone(), None).await.unwrap();
        assert_eq!(res.status(), StatusCode::CREATED, "{alias}");
    }
}

/// Every merchant route of the proxy, with a body where it takes one.
fn merchant_calls(id: &str) -> Vec<(reqwest::Method, String, Option<Value>)> {
    use reqwest::Method;
    vec![
        (
            Method::POST,
            "/api/customers".into(),
            Some(json!({ "fullName": "Maria" })),
        ),
        (Method::GET, "/api/customers".into(), None),
        (Method::GET, "/api/customers?q=maria".into(), None),
        (Method::POST, "/api/invoices".into(), Some(json!({}))),
        (Method::GET, "/api/invoices".into(), None),
        (Method::GET, "/api/invoices?status=open".into(), None),
        (Method::GET, "/api/invoices.csv".into(), None),
        (Method::GET, "/api/dashboard".into(), None),
        (Method::GET, format!("/api/invoices/{id}"), None),
        (Method::DELETE, format!("/api/invoices/{id}"), None),
        (
            Method::POST,
            format!("/api/invoices/{id}/installments/1/payments"),
            Some(json!({ "amount": 1, "paidOn": days_from_today(0) })),
        ),
        (Method::POST, format!("/api/invoices/{id}/resend"), None),
    ]
}

#[tokio::test]
async fn every_merchant_call_needs_a_session_and_the_payer_page_does_not() {
    let app = spawn_app_production().await;
    let customer = app.customer_id().await;
    let mut req = invoice_body(&customer);
    req["webhooks"] = json!([{ "hookType": "PAYMENT_CONFIRMED", "url": "https://loja.example/hooks?secret=s3cr3t" }]);
    let inv = body(app.post_invoice(&req).await).await;
    let id = inv["id"].as_str().unwrap().to_string();
    let bogus = format!("{SESSION_COOKIE}=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    for cookie in [None, Some(bogus.as_str())] {
        for (method, path, payload) in merchant_calls(&id) {
            let mut r = Client::new()
                .request(method.clone(), app.url(&path))
                .header("origin", &app.addr);
            if let Some(c) = cookie {
                r = r.header("cookie", c);
            }
            if let Some(p) = &payload {
                r = r.json(p);
            }
            let res = r.send().await.unwrap();
            assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{method} {path}");
            assert!(res.headers().get("www-authenticate").is_none());
            let text = res.text().await.unwrap();
            assert!(
                !text.contains("s3cr3t") && !text.contains("Maria"),
                "{text}"
            );
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["code"], 401, "{method} {path}: {v}");
        }
    }
    // The payer page, the service's own API and the health check answer as before.
    let anon = Client::new();
    let res = anon
        .get(app.url(&format!("/api/pay/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(!res.text().await.unwrap().contains("s3cr3t"));
    let res = anon
        .post(app.url(&format!("/api/pay/{id}/view")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        anon.get(app.url("/healthz")).send().await.unwrap().status(),
        StatusCode::OK
    );
    assert_eq!(app.get_invoice(&id).await.status(), StatusCode::OK);
    // With the operator's session, the merchant's detail.
    let res = app.get(&format!("/api/invoices/{id}")).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        rows::list_audit(&app.db).await.unwrap().is_empty(),
        "refusals are not actions"
    );
}

#[tokio::test]
async fn each_operator_action_is_audited() {
    let app = spawn_app_production().await;
    let operator = rows::find_by_email(&app.db, OPERATOR_EMAIL)
        .await
        .unwrap()
        .unwrap();
    let res = app
        .post("/api/customers", &json!({ "fullName": "Maria da Silva" }))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let customer = body(res).await["id"].as_str().unwrap().to_string();
    let res = app.post("/api/invoices", &invoice_body(&customer)).await;
    assert!(res.status().is_success());
    let invoice = body(res).await["id"].as_str().unwrap().to_string();
    // A refused creation is no action.
    let res = app.post("/api/invoices", &json!({})).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let res = app
        .post(
            &format!("/api/invoices/{invoice}/installments/1/payments"),
            &json!({ "amount": 33.33, "paidOn": days_from_today(0) }),
        )
        .await;
    assert!(res.status().is_success(), "{}", res.status());
    let res = app
        .post_empty(&format!("/api/invoices/{invoice}/resend"))
        .await;
    assert!(res.status().is_success(), "{}", res.status());
    let res = app.get("/api/invoices.csv").await;
    assert_eq!(res.status(), StatusCode::OK);
    res.bytes().await.unwrap();
    let res = app
        .client
        .delete(app.url(&format!("/api/invoices/{invoice}")))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    let audit = rows::list_audit(&app.db).await.unwrap();
    // Sorted: two actions in the same millisecond have no order.
    let mut seen: Vec<(&str, Option<&str>)> = audit
        .iter()
        .map(|a| (a.action.as_str(), a.target_id.as_deref()))
        .collect();
    seen.sort();
    let mut expected = vec![
        ("create_customer", Some(customer.as_str())),
        ("create_invoice", Some(invoice.as_str())),
        ("mark_paid", Some(invoice.as_str())),
        ("resend", Some(invoice.as_str())),
        ("export", None),
        ("cancel", Some(invoice.as_str())),
    ];
    expected.sort();
    assert_eq!(seen, expected);
    for a in &audit {
        assert_eq!(a.operator_id, operator.id);
        assert_eq!(a.client_addr, "127.0.0.1");
        assert!(a.at.ends_with('Z'), "{}", a.at);
    }
}
