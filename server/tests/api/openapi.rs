//! `/openapi.json`: served without a token, equal to the committed
//! `server/openapi.json`, its operations are the app's routes, and real
//! responses satisfy the schemas it documents. Regenerate the committed file
//! after changing the model or the handlers' annotations with
//! `PAYLINK_BLESS=1 cargo test -p paylink-server --test api openapi`.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::*;

const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");

pub async fn served_document(app: &TestApp) -> Value {
    let res = app.get("/openapi.json").await;
    assert_eq!(res.status(), StatusCode::OK, "public, no token needed");
    assert_eq!(res.headers()["content-type"], "application/json");
    body(res).await
}

#[tokio::test]
async fn served_document_matches_the_committed_file() {
    let app = spawn_app().await;
    let served = served_document(&app).await;
    if std::env::var_os("PAYLINK_BLESS").is_some() {
        std::fs::write(COMMITTED, paylink_server::http::openapi::document_json()).unwrap();
    }
    let committed: Value =
        serde_json::from_str(&std::fs::read_to_string(COMMITTED).unwrap()).unwrap();
    assert!(
        served == committed,
        "server/openapi.json is out of date: regenerate it with \
         `PAYLINK_BLESS=1 cargo test -p paylink-server --test api openapi` and commit it"
    );
}

/// What the document says of a request is what the service does with it: an invoice's blank
/// `endDate` is absent (valid, and the invoice is made), one that is not a date is invalid (and
/// refused on `endDate`). Schemathesis's stateful phase once sent `"endDate": "\n\f "`.
#[tokio::test]
async fn a_blank_end_date_is_absent_in_the_document_and_in_the_service() {
    let app = spawn_app().await;
    let doc = served_document(&app).await;
    let root =
        json!({"$ref": "#/components/schemas/InvoiceRequest", "components": doc["components"]});
    let schema = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&root)
        .unwrap();
    let customer = app.customer_id().await;
    let single = |end: Value| {
        with(
            invoice_body(&customer),
            json!({"invoiceType": "SINGLE", "installmentCount": 1, "endDate": end}),
        )
    };
    let blank = single(json!("\n\u{c} "));
    assert!(schema.is_valid(&blank), "a blank endDate is valid");
    assert_eq!(app.post_invoice(&blank).await.status(), StatusCode::OK);
    let bad = with(
        single(json!("31/01/2027")),
        json!({"externalId": "order-43"}),
    );
    assert!(!schema.is_valid(&bad), "a non-date endDate is not");
    let res = app.post_invoice(&bad).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body(res).await["errors"]["endDate"].is_array());
}

#[tokio::test]
async fn document_describes_the_three_operations_of_the_spec_the_two_lists_and_the_export() {
    let app = spawn_app().await;
    let doc = served_document(&app).await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    let mut ids: Vec<(String, String, String)> = operations(&doc)
        .into_iter()
        .map(|(method, path, op)| (method, path, op["operationId"].as_str().unwrap().into()))
        .collect();
    ids.sort();
    assert_eq!(
        ids,
        [
            (
                "delete",
                "/invoices/applications/customers/{id}/charges-link",
                "revokeChargesLinks",
            ),
            (
                "delete",
                "/invoices/applications/invoices/{id}",
                "cancelInvoice",
            ),
            (
                "delete",
                "/invoices/applications/webhooks/{id}",
                "removeWebhook",
            ),
            ("get", "/invoices/applications/customers", "listCustomers"),
            (
                "get",
                "/invoices/applications/customers/{id}",
                "getCustomer",
            ),
            ("get", "/invoices/applications/dashboard", "getDashboard"),
            ("get", "/invoices/applications/deliveries", "listDeliveries"),
            ("get", "/invoices/applications/invoices", "listInvoices"),
            (
                "get",
                "/invoices/applications/invoices.csv",
                "exportInvoices",
            ),
            ("get", "/invoices/applications/invoices/{id}", "getInvoice"),
            (
                "get",
                "/invoices/applications/payment-links",
                "listPaymentLinks",
            ),
            (
                "get",
                "/invoices/applications/payment-links/{slug}",
                "getPaymentLink",
            ),
            ("get", "/invoices/applications/webhooks", "listWebhooks"),
            (
                "patch",
                "/invoices/applications/payment-links/{slug}",
                "setPaymentLinkActive",
            ),
            ("post", "/invoices/applications/customers", "createCustomer"),
            (
                "post",
                "/invoices/applications/customers/{id}/charges-link",
                "createChargesLink",
            ),
            (
                "post",
                "/invoices/applications/deliveries/{id}/redeliver",
                "redeliver",
            ),
            ("post", "/invoices/applications/invoices", "createInvoice"),
            (
                "post",
                "/invoices/applications/invoices/{id}/installments/{n}/payments",
                "recordPayment",
            ),
            (
                "post",
                "/invoices/applications/invoices/{id}/resend",
                "resendInvoice",
            ),
            (
                "post",
                "/invoices/applications/payment-links",
                "createPaymentLink",
            ),
            ("post", "/invoices/applications/webhooks", "createWebhook"),
            (
                "post",
                "/invoices/applications/webhooks/secret",
                "rotateWebhookSecret",
            ),
        ]
        .map(|(m, p, o)| (m.to_string(), p.to_string(), o.to_string()))
    );
    let scheme = &doc["components"]["securitySchemes"]["basicToken"];
    assert_eq!(
        (&scheme["type"], &scheme["scheme"]),
        (&json!("http"), &json!("basic"))
    );
    assert_eq!(doc["security"], json!([{ "basicToken": [] }]));
    // Both response forms, each with the names that tell them apart.
    let schemas = &doc["components"]["schemas"];
    let created = &schemas["InstallmentCreated"]["properties"];
    let detail = &schemas["Installment"]["properties"];
    assert!(created.get("status").is_some() && created.get("_status").is_none());
    assert!(detail.get("_status").is_some() && detail.get("status").is_none());
    assert!(schemas["PaymentTypeCreated"]["properties"]
        .get("type")
        .is_some());
    assert!(schemas["PaymentTypeDetail"]["properties"]
        .get("paymentTypeAccepted")
        .is_some());
    // The ids flow as the spec says: customer → invoice → detail.
    let links = |path: &str, method: &str, status: &str| {
        doc["paths"][path][method]["responses"][status]["links"].clone()
    };
    assert_eq!(
        links("/invoices/applications/customers", "post", "201")["CreateInvoiceForCustomer"]
            ["requestBody"]["customerId"],
        "$response.body#/id"
    );
    assert_eq!(
        links("/invoices/applications/customers", "post", "201")["CreateInvoiceForCustomer"]
            ["operationId"],
        "createInvoice"
    );
    assert_eq!(
        links("/invoices/applications/invoices", "post", "200")["GetInvoice"]["parameters"],
        json!({ "id": "$response.body#/id" })
    );
    // Every error the operations document is the envelope.
    for (method, path, op) in operations(&doc) {
        for (status, response) in op["responses"].as_object().unwrap() {
            if status.starts_with('4') {
                assert_eq!(
                    response["content"]["application/json"]["schema"]["$ref"],
                    "#/components/schemas/ErrorEnvelope",
                    "{method} {path} {status}"
                );
            }
        }
    }
}

/// The document's paths and methods are the app's routes: without a token,
/// each answers the 401 envelope it documents (an unknown route would be a
/// 404, a wrong method a 405).
#[tokio::test]
async fn every_documented_operation_is_a_route_behind_the_token() {
    let app = spawn_app().await;
    let doc = served_document(&app).await;
    for (method, path, op) in operations(&doc) {
        assert!(op["responses"].get("401").is_some(), "{method} {path}");
        let url = app.url(&path.replace("{id}", "0b6f5a3e-8c1d-4f2a-9e7b-5d4c3b2a1f00"));
        let res = app
            .client
            .request(
                Method::from_bytes(method.to_uppercase().as_bytes()).unwrap(),
                url,
            )
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        let what = format!("{method} {path}");
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{what}");
        let envelope = body(res).await;
        assert!(
            conforms(&doc, &op["responses"]["401"], &envelope).is_empty(),
            "{what}"
        );
    }
}

/// Real answers of the three operations (and their errors) against the
/// schemas of the served document: every required key present, every key
/// documented, every value of the documented type, enum and format.
#[tokio::test]
async fn real_responses_conform_to_the_documented_schemas() {
    let app = spawn_app().await;
    let doc = served_document(&app).await;
    let response_schema = |path: &str, method: &str, status: u16| {
        doc["paths"][path][method]["responses"][status.to_string()].clone()
    };

    let res = app
        .post_customer(&json!({
            "fullName": "Maria da Silva", "document": "529.982.247-25",
            "email": "maria@example.com", "phone": "+55 (11) 98765-4321",
            "address": { "zipcode": "01310-100", "state": "SP", "city": "São Paulo" }
        }))
        .await;
    let customers = "/invoices/applications/customers";
    let customer = expect(&doc, res, &response_schema(customers, "post", 201), 201).await;
    let customer_id = customer["id"].as_str().unwrap();

    let invoices = "/invoices/applications/invoices";
    let res = app.post_invoice(&invoice_body(customer_id)).await;
    let created = expect(&doc, res, &response_schema(invoices, "post", 200), 200).await;
    assert_eq!(created["installments"].as_array().unwrap().len(), 3);

    let one = "/invoices/applications/invoices/{id}";
    let res = app.get_invoice(created["id"].as_str().unwrap()).await;
    let detail = expect(&doc, res, &response_schema(one, "get", 200), 200).await;
    assert_eq!(
        detail["notificationBeforeDueDate"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let res = app
        .post_invoice(&with(invoice_body(customer_id), json!({ "price": 1 })))
        .await;
    let invalid = expect(&doc, res, &response_schema(invoices, "post", 422), 422).await;
    assert!(invalid["errors"]["price"].is_array());
    let res = app
        .get_invoice("0b6f5a3e-8c1d-4f2a-9e7b-5d4c3b2a1f00")
        .await;
    expect(&doc, res, &response_schema(one, "get", 404), 404).await;
}

/// The checker itself finds what it is meant to find.
#[test]
fn the_checker_reports_missing_undocumented_and_mistyped_keys() {
    let doc = json!({ "components": { "schemas": { "T": {
        "type": "object", "required": ["id", "n"],
        "properties": {
            "id": { "type": "string", "format": "uuid" },
            "n": { "type": "integer" },
            "at": { "type": ["string", "null"], "format": "date-time" },
            "kind": { "oneOf": [{ "type": "null" }, { "$ref": "#/components/schemas/K" }] }
        }
    }, "K": { "type": "string", "enum": ["A", "B"] } } } });
    let schema = json!({ "$ref": "#/components/schemas/T" });
    let good = json!({ "id": "0b6f5a3e-8c1d-4f2a-9e7b-5d4c3b2a1f00", "n": 1,
                       "at": "2027-01-31T00:00:00.000Z", "kind": "A" });
    assert_eq!(check(&doc, &schema, &good, "$"), Vec::<String>::new());
    for (bad, problem) in [
        (
            json!({ "id": "0b6f5a3e-8c1d-4f2a-9e7b-5d4c3b2a1f00" }),
            "$.n: required",
        ),
        (
            with(good.clone(), json!({ "extra": 1 })),
            "$.extra: not documented",
        ),
        (
            with(good.clone(), json!({ "n": 1.5 })),
            "$.n: 1.5 is not integer",
        ),
        (
            with(good.clone(), json!({ "id": "x" })),
            "$.id: \"x\" is not a uuid",
        ),
        (
            with(good.clone(), json!({ "at": "2027-01-31" })),
            "$.at: \"2027-01-31\" is not a date-time",
        ),
        (
            with(good, json!({ "kind": "C" })),
            "$.kind: matches no alternative",
        ),
    ] {
        let problems = check(&doc, &schema, &bad, "$");
        assert!(
            problems.iter().any(|p| p.starts_with(problem)),
            "{bad}: {problems:?}"
        );
    }
}

/// (method, path, operation) of every operation in the document.
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            out.push((method.clone(), path.clone(), op.clone()));
        }
    }
    out
}

/// Asserts the status and that the JSON body conforms to the documented response.
async fn expect(doc: &Value, res: reqwest::Response, response: &Value, status: u16) -> Value {
    assert_eq!(res.status().as_u16(), status);
    assert!(response.is_object(), "status {status} is not documented");
    let value = body(res).await;
    let problems = conforms(doc, response, &value);
    assert!(problems.is_empty(), "{problems:#?}\nin {value:#}");
    value
}

pub fn conforms(doc: &Value, response: &Value, value: &Value) -> Vec<String> {
    let schema = &response["content"]["application/json"]["schema"];
    assert!(schema.is_object(), "the response documents no JSON body");
    check(doc, schema, value, "$")
}

/// The part of JSON Schema utoipa writes: `$ref`, `type` (one or a list),
/// `properties`, `required`, `additionalProperties`, `items`, `oneOf`, `enum`
/// and the `uuid` / `date-time` formats. Unlike plain JSON Schema, a key not
/// in `properties` is reported, so the document cannot fall behind the code.
fn check(doc: &Value, schema: &Value, value: &Value, at: &str) -> Vec<String> {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.strip_prefix("#/components/schemas/").unwrap();
        let target = &doc["components"]["schemas"][name];
        assert!(target.is_object(), "dangling {r}");
        return check(doc, target, value, at);
    }
    if let Some(alternatives) = schema["oneOf"].as_array() {
        let matching = alternatives
            .iter()
            .filter(|s| check(doc, s, value, at).is_empty())
            .count();
        return match matching {
            1 => vec![],
            0 => vec![format!("{at}: matches no alternative of {schema}")],
            _ => vec![format!("{at}: matches several alternatives of {schema}")],
        };
    }
    let mut problems = Vec::new();
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let type_of = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let actual = type_of(value);
    let type_ok = types.is_empty()
        || types.contains(&actual)
        || (actual == "integer" && types.contains(&"number"));
    if !type_ok {
        return vec![format!("{at}: {value} is not {}", types.join(" or "))];
    }
    if let Some(allowed) = schema["enum"].as_array() {
        if !allowed.contains(value) {
            problems.push(format!("{at}: {value} is not one of {allowed:?}"));
        }
    }
    if let (Some(format), Some(s)) = (schema["format"].as_str(), value.as_str()) {
        let ok = match format {
            "uuid" => paylink_model::br::uuid_is_valid(s),
            "date-time" => is_utc_date_time(s),
            _ => true,
        };
        if !ok {
            problems.push(format!("{at}: {value} is not a {format}"));
        }
    }
    if let Value::Object(map) = value {
        let properties = schema["properties"].as_object();
        for key in schema["required"].as_array().into_iter().flatten() {
            if !map.contains_key(key.as_str().unwrap()) {
                problems.push(format!("{at}.{}: required", key.as_str().unwrap()));
            }
        }
        for (key, v) in map {
            let path = format!("{at}.{key}");
            match (
                properties.and_then(|p| p.get(key)),
                &schema["additionalProperties"],
            ) {
                (Some(s), _) => problems.extend(check(doc, s, v, &path)),
                (None, extra) if extra.is_object() => problems.extend(check(doc, extra, v, &path)),
                (None, _) => problems.push(format!("{path}: not documented")),
            }
        }
    }
    if let Value::Array(items) = value {
        for (i, v) in items.iter().enumerate() {
            problems.extend(check(doc, &schema["items"], v, &format!("{at}[{i}]")));
        }
    }
    problems
}

/// `2027-01-31T00:00:00.000Z`, the form paylink writes.
fn is_utc_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    b.len() >= 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
        && s.ends_with('Z')
}

/// The patterns the document gives `address.state`, `address.zipcode` and the lists' `q` call
/// valid exactly what the model accepts (blank as absent), so neither schemathesis nor a
/// client generator meets a schema-valid value refused, or a refused one documented valid.
#[test]
fn field_patterns_agree_with_the_model() {
    use paylink_model::br::{check_cep, check_uf};
    let doc: Value = serde_json::from_str(paylink_server::http::openapi::document_json()).unwrap();
    let validator = |pointer: &str| {
        let schema = doc.pointer(pointer).unwrap_or_else(|| panic!("{pointer}"));
        let pattern = schema["pattern"]
            .as_str()
            .unwrap_or_else(|| panic!("{pointer}: no pattern"));
        jsonschema::validator_for(&json!({ "type": "string", "pattern": pattern })).unwrap()
    };
    let blank = |s: &str| s.trim().is_empty();
    let state = |s: &str| blank(s) || check_uf(s.trim()).is_ok();
    let zipcode = |s: &str| blank(s) || check_cep(s.trim()).is_ok();
    let samples = [
        "",
        " ",
        "\t",
        "\u{85}",
        "SP",
        "sp",
        " Sp\u{a0}",
        "\u{85}rj\u{85}",
        "XX",
        "S P",
        "SPX",
        "\u{1c}SP",
        "01310-100",
        "01310100",
        " (01310) 100 ",
        "01.310/100+",
        "0131010",
        "013101000",
        "01310\t100",
        "\t01310100\n",
        "٠١٣١٠١٠٠",
        "0131O100",
        "01310-10O",
    ];
    let address = "/components/schemas/AddressRequest/properties";
    let (state_schema, zipcode_schema) = (
        validator(&format!("{address}/state")),
        validator(&format!("{address}/zipcode")),
    );
    for s in samples {
        assert_eq!(state_schema.is_valid(&json!(s)), state(s), "state: {s:?}");
        assert_eq!(
            zipcode_schema.is_valid(&json!(s)),
            zipcode(s),
            "zipcode: {s:?}"
        );
    }
    let q = validator("/paths/~1invoices~1applications~1invoices/get/parameters/3/schema");
    for (s, ok) in [
        ("maria", true),
        (" joão silva ", true),
        ("\tmaria\n", true),
        ("ma\tria", false),
        ("a\u{0}b", false),
        ("a\u{9f}", false),
    ] {
        assert_eq!(q.is_valid(&json!(s)), ok, "q: {s:?}");
    }
}
