//! The widget's proxy: three operations forwarded with the token added on the
//! server, nothing else, and no way for the token to reach the browser.

use std::time::Duration;

use paylink_server::proxy::{ProxyConfig, DEFAULT_UPSTREAM_TIMEOUT};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

/// Asserts that nothing of the response carries the token, then returns its body.
async fn no_token(app: &TestApp, res: reqwest::Response) -> (StatusCode, serde_json::Value) {
    let (_, secret) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    for (name, value) in res.headers() {
        let v = value.to_str().unwrap_or("");
        assert!(
            !v.contains(&app.token) && !v.contains(&secret),
            "token in header {name}"
        );
    }
    let status = res.status();
    let text = res.text().await.unwrap();
    assert!(
        !text.contains(&app.token) && !text.contains(&secret),
        "token in body"
    );
    (status, serde_json::from_str(&text).unwrap())
}

#[tokio::test]
async fn forwards_the_three_operations_without_the_browser_holding_a_token() {
    let app = spawn_app_with(local_proxy).await;
    let res = app
        .post("/api/customers", &json!({ "fullName": "Maria da Silva" }))
        .await;
    let (status, customer) = no_token(&app, res).await;
    assert_eq!(status, StatusCode::CREATED);
    let res = app
        .client
        .post(app.url("/api/invoices"))
        .json(&invoice_body(customer["id"].as_str().unwrap()))
        .send()
        .await
        .unwrap();
    let (status, created) = no_token(&app, res).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap();
    let res = app.get(&format!("/api/invoices/{id}")).await;
    assert_eq!(res.headers()["cache-control"], "no-store");
    let (status, detail) = no_token(&app, res).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(detail["installments"].as_array().unwrap().len(), 3);
    // The same invoice through the service directly: the proxy changed nothing.
    assert_eq!(body(app.get_invoice(id).await).await, detail);
}

#[tokio::test]
async fn passes_error_envelopes_through_unchanged() {
    let app = spawn_app_with(local_proxy).await;
    let res = app
        .client
        .post(app.url("/api/customers"))
        .header("Accept-Language", "en")
        .json(&json!({ "fullName": "Al", "address": { "zipcode": "123" } }))
        .send()
        .await
        .unwrap();
    let (status, v) = no_token(&app, res).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["errors"]["fullName"][0], "Use at least 3 characters.");
    assert!(v["errors"]["address.zipcode"].is_array());
}

#[tokio::test]
async fn ignores_an_authorization_header_sent_by_the_browser() {
    let app = spawn_app_with(local_proxy).await;
    let other = app.other_token().await;
    let res = app
        .client
        .post(app.url("/api/customers"))
        .header("Authorization", format!("Basic {other}"))
        .json(&json!({ "fullName": "Maria" }))
        .send()
        .await
        .unwrap();
    let (_, customer) = no_token(&app, res).await;
    let (own_app, _) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    assert_eq!(
        customer["applicationId"],
        own_app.as_str(),
        "the proxy's own token decides"
    );
}

#[tokio::test]
async fn forwards_nothing_else() {
    let app = spawn_app_with(local_proxy).await;
    let cases = [
        ("PUT", "/api/customers", StatusCode::METHOD_NOT_ALLOWED),
        (
            "DELETE",
            "/api/customers/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11",
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "PATCH",
            "/api/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11",
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "GET",
            "/api/invoices/..%2F..%2Fcustomers",
            StatusCode::BAD_REQUEST,
        ),
        ("GET", "/api/healthz", StatusCode::NOT_FOUND),
        (
            "GET",
            "/api/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11",
            StatusCode::NOT_FOUND,
        ),
    ];
    for (method, path, status) in cases {
        let res = app
            .client
            .request(method.parse().unwrap(), app.url(path))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), status, "{method} {path}");
        envelope(res, status).await;
    }
}

#[tokio::test]
async fn answers_503_when_no_token_is_configured() {
    let app = spawn_app().await;
    let res = app
        .post("/api/customers", &json!({ "fullName": "Maria" }))
        .await;
    envelope(res, StatusCode::SERVICE_UNAVAILABLE).await;
}

#[tokio::test]
async fn forwards_to_a_remote_upstream() {
    let upstream = spawn_app().await;
    let token = upstream.token.clone();
    let base = upstream.addr.clone();
    let proxy = spawn_app_with(move |_| {
        Some(ProxyConfig {
            token,
            upstream: Some(base),
            timeout: DEFAULT_UPSTREAM_TIMEOUT,
        })
    })
    .await;
    let res = proxy
        .post("/api/customers", &json!({ "fullName": "Remota" }))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let (upstream_app, _) = paylink_server::http::auth::parse_token(&upstream.token).unwrap();
    assert_eq!(body(res).await["applicationId"], upstream_app.as_str());
}

#[tokio::test]
async fn an_unreachable_upstream_is_a_502_envelope() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = spawn_app_with(move |t| {
        Some(ProxyConfig {
            token: t.into(),
            upstream: Some(format!("http://127.0.0.1:{port}")),
            timeout: DEFAULT_UPSTREAM_TIMEOUT,
        })
    })
    .await;
    let res = app
        .post("/api/customers", &json!({ "fullName": "Maria" }))
        .await;
    envelope(res, StatusCode::BAD_GATEWAY).await;
}

#[tokio::test]
async fn a_slow_upstream_is_a_504_envelope_not_a_hang() {
    // Accepts connections and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = silent.accept().await {
            held.push(sock);
        }
    });
    let app = spawn_app_with(move |t| {
        Some(ProxyConfig {
            token: t.into(),
            upstream: Some(format!("http://127.0.0.1:{port}")),
            timeout: Duration::from_millis(300),
        })
    })
    .await;
    let res = app
        .post("/api/customers", &json!({ "fullName": "Maria" }))
        .await;
    envelope(res, StatusCode::GATEWAY_TIMEOUT).await;
}

#[tokio::test]
async fn gets_one_customer_for_the_new_charge_s_preselection() {
    let app = spawn_app_with(local_proxy).await;
    let res = app
        .post(
            "/api/customers",
            &json!({ "fullName": "Maria da Silva", "document": "529.982.247-25" }),
        )
        .await;
    let (status, created) = no_token(&app, res).await;
    assert_eq!(status, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let res = app.get(&format!("/api/customers/{id}")).await;
    let (status, got) = no_token(&app, res).await;
    assert_eq!(status, StatusCode::OK, "{got}");
    assert_eq!(got["id"], id);
    assert_eq!(got["fullName"], "Maria da Silva");
    assert_eq!(got["document"], "52998224725");
    // Not an id: refused here, never forwarded as a path.
    let res = app.get("/api/customers/..%2Finvoices").await;
    let (status, env) = no_token(&app, res).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{env}");
    assert_eq!(env["message"], "O id do cliente deve ser um UUID.");
}

/// With a remote upstream the merchant's screens are sent there: a link's
/// deactivate and reactivate become its `PATCH {active}` upstream, lists keep
/// their query, and a route's ids are checked before anything is sent (no
/// `../` reaches the upstream's path).
#[tokio::test]
async fn a_remote_upstream_gets_the_merchant_screens_with_checked_ids() {
    let upstream = spawn_app().await;
    let token = upstream.token.clone();
    let base = upstream.addr.clone();
    let proxy = spawn_app_with(move |_| {
        Some(ProxyConfig {
            token,
            upstream: Some(base),
            timeout: DEFAULT_UPSTREAM_TIMEOUT,
        })
    })
    .await;
    let link = json!({
        "name": "Aula avulsa", "description": "Uma aula", "price": 50.0,
        "invoiceType": "INSTALLMENT", "maxInstallments": 2, "paymentTypes": ["PIX"],
        "dueInDays": 3,
    });
    let res = proxy.post("/api/payment-links", &link).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let slug = body(res).await["slug"].as_str().unwrap().to_string();
    let upstream_link = |slug: String| {
        let upstream = &upstream;
        async move {
            let path = format!("/invoices/applications/payment-links/{slug}");
            let res = upstream
                .client
                .get(upstream.url(&path))
                .header("Authorization", format!("Basic {}", upstream.token))
                .send()
                .await
                .unwrap();
            body(res).await["active"].clone()
        }
    };
    let res = proxy
        .post_empty(&format!("/api/payment-links/{slug}/deactivate"))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(body(res).await["active"], false);
    assert_eq!(
        upstream_link(slug.clone()).await,
        false,
        "turned off upstream"
    );
    let res = proxy
        .post_empty(&format!("/api/payment-links/{slug}/reactivate"))
        .await;
    assert_eq!(body(res).await["active"], true);
    assert_eq!(upstream_link(slug.clone()).await, true, "on again upstream");

    let customer = body(
        proxy
            .post("/api/customers", &json!({ "fullName": "Remota" }))
            .await,
    )
    .await;
    let res = proxy.get("/api/customers?q=Remota").await;
    let list = body(res).await;
    assert_eq!(list["data"][0]["id"], customer["id"], "{list}");
}

/// A remote upstream's path is built only from checked ids: a bad one is
/// refused here, and the upstream (which accepts and never answers) is not
/// even connected to.
#[tokio::test]
async fn a_remote_upstream_is_sent_no_bad_id() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let connections = Arc::new(AtomicUsize::new(0));
    let counted = connections.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = silent.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            held.push(sock);
        }
    });
    let proxy = spawn_app_with(move |t| {
        Some(ProxyConfig {
            token: t.into(),
            upstream: Some(format!("http://127.0.0.1:{port}")),
            timeout: DEFAULT_UPSTREAM_TIMEOUT,
        })
    })
    .await;
    for (method, path, status) in [
        ("GET", "/api/invoices/nao-e-uuid", StatusCode::BAD_REQUEST),
        (
            "GET",
            "/api/customers/..%2F..%2Fwebhooks",
            StatusCode::BAD_REQUEST,
        ),
        ("DELETE", "/api/webhooks/..%2Fsecret", StatusCode::NOT_FOUND),
        ("POST", "/api/deliveries/x/redeliver", StatusCode::NOT_FOUND),
        (
            "POST",
            "/api/payment-links/..%2F..%2Fx/deactivate",
            StatusCode::NOT_FOUND,
        ),
        (
            "POST",
            "/api/invoices/00000000-0001-4000-8000-000000000001/installments/12345/payments",
            StatusCode::NOT_FOUND,
        ),
    ] {
        let res = proxy
            .client
            .request(method.parse().unwrap(), proxy.url(path))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), status, "{method} {path}");
        envelope(res, status).await;
    }
    assert_eq!(
        connections.load(Ordering::SeqCst),
        0,
        "nothing sent upstream"
    );
}

/// The proxy's own token is checked on every merchant call (beside the
/// operator's session, in the same statement): revoked, the next call is
/// refused, while the session itself still stands.
#[tokio::test]
async fn the_merchant_screens_stop_at_once_when_the_proxys_token_is_revoked() {
    let app = spawn_app_with(local_proxy).await;
    assert_eq!(app.get("/api/customers").await.status(), StatusCode::OK);
    let (id, _) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    let now = paylink_server::store::now_iso();
    let revoked = paylink_server::store::tokens::revoke(&app.db, &id, &now)
        .await
        .unwrap();
    assert_eq!(revoked, paylink_server::store::tokens::Revoked::Now);
    envelope(app.get("/api/customers").await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(app.get("/api/session").await.status(), StatusCode::OK);
}

/// A proxy token of no application at all (well formed, its application's id
/// unknown) is refused on every merchant call as the service refuses it, the
/// operator's session standing (so the 401 is the token's); twice, as the
/// first call reads the application and the next would find it kept.
#[tokio::test]
async fn a_proxy_token_of_no_application_is_refused_on_every_call() {
    use base64::Engine;
    let token = base64::engine::general_purpose::STANDARD
        .encode("3f0c9a4e-8d1b-4c2a-9e7f-5b6a1c2d3e4f:not-a-real-secret");
    let app = spawn_app_with(|_| local_proxy(&token)).await;
    for _ in 0..2 {
        envelope(app.get("/api/customers").await, StatusCode::UNAUTHORIZED).await;
    }
    assert_eq!(app.get("/api/session").await.status(), StatusCode::OK);
}

/// A creation through the proxy is audited once, in its own transaction; a
/// retry with the same Idempotency-Key (the first answer replayed, nothing
/// created) is audited again, with the same id, as every answered action is.
#[tokio::test]
async fn a_creation_and_its_idempotent_replay_each_get_one_audit_line() {
    let app = spawn_app_with(local_proxy).await;
    let send = || {
        app.client
            .post(app.url("/api/customers"))
            .header("idempotency-key", "cliente-1")
            .json(&json!({ "fullName": "Maria da Silva" }))
            .send()
    };
    let first = send().await.unwrap();
    assert_eq!(first.status(), StatusCode::CREATED);
    let id = body(first).await["id"].as_str().unwrap().to_string();
    // The first answer again (the proxy passes no Idempotent-Replayed on): the same id.
    let again = send().await.unwrap();
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(body(again).await["id"], id.as_str());
    let audit = paylink_server::store::operators::list_audit(&app.db)
        .await
        .unwrap();
    let seen: Vec<(&str, Option<&str>)> = audit
        .iter()
        .map(|a| (a.action.as_str(), a.target_id.as_deref()))
        .filter(|(action, _)| *action != "login")
        .collect();
    assert_eq!(
        seen,
        [
            ("create_customer", Some(id.as_str())),
            ("create_customer", Some(id.as_str()))
        ]
    );
}
