use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

fn is_uuid(v: &Value) -> bool {
    v.as_str().is_some_and(|s| uuid::Uuid::parse_str(s).is_ok())
}

fn is_iso_utc(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.len() == 24 && s.ends_with('Z') && &s[10..11] == "T")
}

#[tokio::test]
async fn creates_a_customer_with_normalised_fields_and_an_address_id() {
    let app = spawn_app().await;
    let res = app
        .post_customer(&json!({
            "fullName": "  Maria da Silva ",
            "document": "529.982.247-25",
            "business": "Silva Aulas ME",
            "email": "maria@example.com.br",
            "phone": "+55 (11) 98765-4321",
            "observations": "prefere PIX",
            "address": {
                "address": "Av. Paulista", "number": "1000", "complement": "cj 12",
                "neighborhood": "Bela Vista", "city": "São Paulo", "state": "sp", "zipcode": "01310-100"
            }
        }))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let c = body(res).await;
    assert!(
        is_uuid(&c["id"]) && is_uuid(&c["userId"]) && is_uuid(&c["applicationId"]),
        "{c}"
    );
    assert!(is_iso_utc(&c["createdAt"]), "{c}");
    assert_eq!(c["deletedAt"], Value::Null);
    assert_eq!(c["fullName"], "Maria da Silva");
    assert_eq!(c["document"], "52998224725");
    assert_eq!(c["phone"], "+5511987654321");
    assert_eq!(c["address"]["state"], "SP");
    assert_eq!(c["address"]["zipcode"], "01310100");
    assert_eq!(c["address"]["city"], "São Paulo");
    assert!(is_uuid(&c["address"]["id"]));
}

#[tokio::test]
async fn only_full_name_is_required() {
    let app = spawn_app().await;
    let res = app.post_customer(&json!({ "fullName": "Ana" })).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let c = body(res).await;
    for field in [
        "document",
        "business",
        "email",
        "phone",
        "observations",
        "address",
    ] {
        assert_eq!(c[field], Value::Null, "{field}");
    }
}

#[tokio::test]
async fn accepts_the_alphanumeric_cnpj() {
    let app = spawn_app().await;
    let res = app
        .post_customer(&json!({ "fullName": "Empresa Nova", "document": "12.abc.345/01de-35" }))
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(body(res).await["document"], "12ABC34501DE35");
}

#[tokio::test]
async fn rejects_each_bad_field_on_its_own_path() {
    let app = spawn_app().await;
    let cases = [
        (json!({}), "fullName", "missing fullName"),
        (
            json!({ "fullName": "Al" }),
            "fullName",
            "fullName under 3 characters",
        ),
        (json!({ "fullName": "   " }), "fullName", "blank fullName"),
        (
            json!({ "fullName": "Maria", "document": "529.982.247-26" }),
            "document",
            "CPF with a wrong check digit",
        ),
        (
            json!({ "fullName": "Maria", "document": "111.111.111-11" }),
            "document",
            "CPF of repeated digits",
        ),
        (
            json!({ "fullName": "Maria", "document": "11.222.333/0001-82" }),
            "document",
            "CNPJ with a wrong check digit",
        ),
        (
            json!({ "fullName": "Maria", "document": "1234" }),
            "document",
            "document of 4 digits",
        ),
        (
            json!({ "fullName": "Maria", "email": "maria@" }),
            "email",
            "e-mail without domain",
        ),
        (
            json!({ "fullName": "Maria", "email": "maria example.com" }),
            "email",
            "e-mail with a space",
        ),
        (
            json!({ "fullName": "Maria", "phone": "98765-4321" }),
            "phone",
            "phone without area code",
        ),
        (
            json!({ "fullName": "Maria", "address": { "state": "XX" } }),
            "address.state",
            "unknown UF",
        ),
        (
            json!({ "fullName": "Maria", "address": { "zipcode": "0131010" } }),
            "address.zipcode",
            "CEP of 7 digits",
        ),
        (
            json!({ "fullName": "x".repeat(151) }),
            "fullName",
            "fullName too long",
        ),
    ];
    for (req, field, why) in cases {
        let res = app.post_customer(&req).await;
        let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        let messages = errors[field]
            .as_array()
            .unwrap_or_else(|| panic!("{why}: no error on {field}: {errors}"));
        assert!(!messages.is_empty(), "{why}");
        assert_eq!(
            errors.as_object().unwrap().len(),
            1,
            "{why}: only {field} is wrong: {errors}"
        );
    }
}

#[tokio::test]
async fn reports_every_broken_field_at_once_in_english_when_asked() {
    let app = spawn_app().await;
    let res = app
        .client
        .post(app.url("/invoices/applications/customers"))
        .header("Authorization", format!("Basic {}", app.token))
        .header("Accept-Language", "en-US,en;q=0.9")
        .json(&json!({ "fullName": "Al", "email": "nope", "address": { "zipcode": "1" } }))
        .send()
        .await
        .unwrap();
    let errors = envelope(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    let keys: Vec<&String> = errors.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["address.zipcode", "email", "fullName"]);
    assert_eq!(errors["fullName"][0], "Use at least 3 characters.");
}

#[tokio::test]
async fn messages_are_portuguese_by_default() {
    let app = spawn_app().await;
    let errors = envelope(
        app.post_customer(&json!({ "fullName": "Al" })).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(errors["fullName"][0], "Use pelo menos 3 caracteres.");
}

/// Clients that give up mid-request (a closed tab, a proxy's timeout) cancel the handlers'
/// writes at any point, the start of a transaction included: none may leave the database's
/// write lock behind, or every later write waits out the busy timeout and fails.
#[tokio::test]
async fn clients_gone_mid_write_leave_no_lock_behind() {
    let app = spawn_app().await;
    let impatient = reqwest::Client::builder()
        .timeout(std::time::Duration::from_millis(3))
        .build()
        .unwrap();
    for _ in 0..5 {
        let sends = (0..40).map(|i| {
            impatient
                .post(app.url("/invoices/applications/customers"))
                .header("Authorization", format!("Basic {}", app.token))
                .json(&json!({ "fullName": format!("Cliente Apressado {i}") }))
                .send()
        });
        // Most are cut off by their own timeout; what they did is the server's to clean up.
        let _ = futures_util::future::join_all(sends).await;
        let res = app
            .post_customer(&json!({ "fullName": "Maria da Silva" }))
            .await;
        assert_eq!(
            res.status(),
            StatusCode::CREATED,
            "{}",
            res.text().await.unwrap()
        );
    }
}

#[tokio::test]
async fn gets_one_customer_of_its_own_application_only() {
    let app = spawn_app().await;
    let res = app
        .post_customer(&json!({ "fullName": "Maria da Silva", "email": "maria@example.com.br" }))
        .await;
    let created = body(res).await;
    let id = created["id"].as_str().unwrap();
    let path = format!("/invoices/applications/customers/{id}");
    let res = app
        .authed(reqwest::Method::GET, &path)
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let got = body(res).await;
    assert_eq!(got["id"], id);
    assert_eq!(got["fullName"], "Maria da Silva");
    assert_eq!(got["email"], "maria@example.com.br");
    // In upper case too (a UUID is case-insensitive).
    let upper = format!("/invoices/applications/customers/{}", id.to_uppercase());
    let res = app
        .authed(reqwest::Method::GET, &upper)
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);

    // Another application's token cannot tell it from an unknown one.
    let other = app.other_token().await;
    let res = app
        .client
        .get(app.url(&path))
        .header("Authorization", format!("Basic {other}"))
        .send()
        .await
        .unwrap();
    let env = envelope(res, StatusCode::NOT_FOUND).await;
    assert_eq!(env, Value::Null);
    // Bad ids: a clear 400, in the caller's language.
    let res = app
        .authed(
            reqwest::Method::GET,
            "/invoices/applications/customers/nao-e-um-id",
        )
        .await
        .header("Accept-Language", "en")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        body(res).await["message"],
        "The customer id must be a UUID."
    );
    // Without a token: 401.
    let res = app.get(&path).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_customer_reads_pt_br_unless_made_with_english() {
    let app = spawn_app().await;
    let made = |lang: Option<&str>| {
        let mut b = json!({ "fullName": "Maria da Silva" });
        if let Some(l) = lang {
            b["language"] = json!(l);
        }
        b
    };
    let pt = body(app.post_customer(&made(None)).await).await;
    assert_eq!(pt["language"], "pt-BR", "{pt}");
    let res = app.post_customer(&made(Some("en"))).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let en = body(res).await;
    assert_eq!(en["language"], "en", "{en}");
    let got = body(
        app.authed(
            reqwest::Method::GET,
            &format!(
                "/invoices/applications/customers/{}",
                en["id"].as_str().unwrap()
            ),
        )
        .await
        .send()
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(got["language"], "en", "{got}");
    // Any other value, on its field.
    for bad in ["fr", "english", "pt"] {
        let errors = envelope(
            app.post_customer(&made(Some(bad))).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(
            errors["language"][0], "Valor não permitido. Use um destes: pt-BR, en.",
            "{bad}: {errors}"
        );
    }
}
