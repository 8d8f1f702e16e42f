use base64::Engine;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn every_operation_refuses_a_missing_or_bad_token() {
    let app = spawn_app().await;
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let (app_id, _) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    let cases = [
        (None, "no Authorization header"),
        (Some(format!("Bearer {}", app.token)), "wrong scheme"),
        (Some("Basic".to_string()), "scheme without token"),
        (
            Some("Basic !!!not-base64!!!".to_string()),
            "token that is not Base64",
        ),
        (
            Some(format!("Basic {}", b64("no-colon"))),
            "token without a secret",
        ),
        (
            Some(format!("Basic {}", b64(&format!("{app_id}:wrong-secret")))),
            "right application, wrong secret",
        ),
        (
            Some(format!(
                "Basic {}",
                b64("6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11:secret")
            )),
            "unknown application",
        ),
    ];
    for (header, why) in cases {
        for (method, path) in [
            ("POST", "/invoices/applications/customers"),
            ("POST", "/invoices/applications/invoices"),
            (
                "GET",
                "/invoices/applications/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11",
            ),
        ] {
            let mut req = app.client.request(method.parse().unwrap(), app.url(path));
            if method == "POST" {
                req = req.json(&json!({ "fullName": "Maria" }));
            }
            if let Some(h) = &header {
                req = req.header("Authorization", h);
            }
            let res = req.send().await.unwrap();
            assert_eq!(
                res.headers()["www-authenticate"],
                "Basic realm=\"paylink\"",
                "{why}"
            );
            envelope(res, StatusCode::UNAUTHORIZED).await;
        }
    }
}

/// Verified tokens are cached (no query on repeat); a wrong secret for the
/// same application must still fail every time, before and after the right
/// token was accepted.
#[tokio::test]
async fn a_wrong_secret_fails_even_after_the_right_token_was_accepted() {
    let app = spawn_app().await;
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let (app_id, secret) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    let wrong = [
        b64(&format!("{app_id}:{secret}x")),
        b64(&format!("{app_id}:{}", &secret[..secret.len() - 1])),
        b64(&format!("{app_id}:wrong")),
    ];
    let path = "/invoices/applications/invoices/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11";
    for round in 0..3 {
        let res = app
            .client
            .get(app.url(path))
            .header("Authorization", format!("Basic {}", app.token))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "round {round}");
        for token in &wrong {
            let res = app
                .client
                .get(app.url(path))
                .header("Authorization", format!("Basic {token}"))
                .send()
                .await
                .unwrap();
            envelope(res, StatusCode::UNAUTHORIZED).await;
        }
    }
}

#[tokio::test]
async fn a_token_sees_only_its_own_application() {
    let app = spawn_app().await;
    let other = app.other_token().await;
    let customer = app.customer_id().await;
    let invoice = body(app.post_invoice(&invoice_body(&customer)).await).await;
    let id = invoice["id"].as_str().unwrap();

    // Another application cannot read the invoice: indistinguishable from unknown.
    envelope(app.get_invoice_as(&other, id).await, StatusCode::NOT_FOUND).await;
    // Nor bill the customer.
    let res = app
        .post_as(
            &other,
            "/invoices/applications/invoices",
            &invoice_body(&customer),
        )
        .await;
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(errors["customerId"].is_array(), "{errors}");
    // The owner still can.
    assert_eq!(app.get_invoice(id).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_token_is_stored_only_as_a_hash() {
    let app = spawn_app().await;
    let (_, secret) = paylink_server::http::auth::parse_token(&app.token).unwrap();
    let hay = if crate::helpers::on_postgres() {
        // Every stored value of the applications and tokens tables, as text.
        let pool = app.raw_pool().await;
        let apps: Vec<(String, String, String, String)> =
            sqlx::query_as("SELECT id, user_id, name, created_at FROM applications")
                .fetch_all(&pool)
                .await
                .unwrap();
        let tokens: Vec<(String, String, String, String)> =
            sqlx::query_as("SELECT id, application_id, secret_hash, created_at FROM tokens")
                .fetch_all(&pool)
                .await
                .unwrap();
        assert_eq!(tokens.len(), 1);
        format!("{apps:?} {tokens:?}")
    } else {
        let db_file = std::path::Path::new(&app.db_target);
        let mut bytes = std::fs::read(db_file).unwrap();
        for suffix in ["-wal", "-shm"] {
            bytes.extend(
                std::fs::read(format!("{}{suffix}", db_file.display())).unwrap_or_default(),
            );
        }
        String::from_utf8_lossy(&bytes).into_owned()
    };
    assert!(!hay.contains(&secret), "the secret is stored in clear");
    // And the token still works, so what is stored is enough to check it.
    assert_eq!(
        app.post_customer(&serde_json::json!({ "fullName": "Maria" }))
            .await
            .status(),
        StatusCode::CREATED
    );
}

/// Two servers on one database (two processes' worth: their own pools), each
/// having just accepted the token: revoked, it is refused by both at their
/// next request, on SQLite and on PostgreSQL. No server keeps a token it has
/// verified.
#[tokio::test]
async fn a_revoked_token_is_refused_at_once_by_every_server() {
    let a = spawn_app().await;
    let b = spawn_second(&a).await;
    let status = |app: &TestApp| {
        app.client
            .get(app.url("/invoices/applications/customers"))
            .header("authorization", format!("Basic {}", a.token))
            .send()
    };
    for app in [&a, &b] {
        assert_eq!(status(app).await.unwrap().status(), StatusCode::OK);
    }
    let (id, _) = paylink_server::http::auth::parse_token(&a.token).unwrap();
    let now = paylink_server::store::now_iso();
    let revoked = paylink_server::store::tokens::revoke(&a.db, &id, &now)
        .await
        .unwrap();
    assert_eq!(revoked, paylink_server::store::tokens::Revoked::Now);
    for app in [&a, &b] {
        envelope(status(app).await.unwrap(), StatusCode::UNAUTHORIZED).await;
    }
}
