//! The service's OpenAPI 3.1 document, built by utoipa from the model's types
//! (feature `openapi` of paylink-model) and the annotations on the three
//! handlers, so the routes, bodies and responses it describes are the code's.
//! Served at `GET /openapi.json` without a token: it is the contract, not data.
//! `server/openapi.json` is the committed copy; the api test
//! `openapi::served_document_matches_the_committed_file` fails when they drift
//! (`PAYLINK_BLESS=1 cargo test -p paylink-server --test api openapi` rewrites it).

use std::sync::OnceLock;

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use serde_json::Value;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "paylink invoicing service",
        description = "Customers (payers) and invoices paid by PIX or boleto. Amounts are JSON \
numbers in reais (at most 2 decimals); dates in requests are YYYY-MM-DD, in responses ISO 8601 \
UTC date-times. Every error is the envelope `{code, message, errors?}`, `code` being the HTTP \
status; messages are pt-BR, or English with `Accept-Language: en`."
    ),
    paths(
        crate::http::customers::customers_create,
        crate::http::customers::customers_get,
        crate::http::charges_links::charges_link_create,
        crate::http::charges_links::charges_link_revoke,
        crate::http::invoices::invoices_create,
        crate::http::invoices::invoices_get,
        crate::http::lists::invoices_list,
        crate::http::lists::customers_list,
        crate::http::lists::invoices_export,
        crate::http::actions::invoices_cancel,
        crate::http::actions::installments_pay,
        crate::http::actions::invoices_resend,
        crate::http::lists::dashboard_get,
        crate::http::webhooks::webhooks_list,
        crate::http::webhooks::webhooks_create,
        crate::http::webhooks::webhooks_remove,
        crate::http::webhooks::webhook_secret_rotate,
        crate::http::webhooks::deliveries_list,
        crate::http::webhooks::deliveries_redeliver,
        crate::http::links::links_list,
        crate::http::links::links_create,
        crate::http::links::links_get,
        crate::http::links::links_set_active,
    ),
    // Referenced only from a query parameter, which utoipa does not follow.
    components(schemas(paylink_model::InvoiceState, paylink_model::webhooks::DeliveryStatus)),
    modifiers(&BasicToken),
    security(("basicToken" = [])),
    tags(
        (name = "customers", description = "Payers that invoices are linked to."),
        (name = "invoices", description = "Charges paid by PIX or boleto, with their installments \
and optional fine (multa), late interest (juros de mora) and early-payment discount (desconto): \
a payment after the due date (moved to the next business day when it falls on a weekend or \
national bank holiday) adds the fine once and the interest per calendar day; one on or before \
`discount.untilDate` takes the discount off. Each amount is truncated to the cent."),
        (name = "webhooks", description = "The application's webhooks (every invoice's events of \
their type, unless the invoice has its own), the signing secret of every delivery (Standard \
Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`), and \
the deliveries: retried for about three days, then `failed`; any but a `pending` one can be sent \
again."),
        (name = "payment links", description = "A link's public page (`/l/{slug}`) lets anyone \
register and create an invoice on the link's terms only; the merchant lists, creates, reads and \
turns off their links here. `paylink link create` applies the same rules."),
    )
)]
pub struct ApiDoc;

/// The spec's `Authorization: Basic {token}`. paylink's token is
/// `Base64("{applicationId}:{secret}")`, so it is also valid HTTP Basic.
struct BasicToken;

impl Modify for BasicToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "basicToken",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Basic)
                    .description(Some(
                        "`Authorization: Basic {token}`; the token is printed by \
                         `paylink token create` (Base64 of `applicationId:secret`).",
                    ))
                    .build(),
            ),
        );
    }
}

/// The document as served: pretty JSON, the exact text of `server/openapi.json`.
pub fn document_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        let mut doc =
            serde_json::to_value(ApiDoc::openapi()).expect("an OpenAPI document serialises");
        camel_case_links(&mut doc);
        invoice_type_rules(&mut doc);
        field_rules(&mut doc);
        let mut text = serde_json::to_string_pretty(&doc).expect("a JSON value serialises");
        text.push('\n');
        text
    })
}

/// The rules of `InvoiceRequest` that depend on `invoiceType` (the model's
/// `InvoiceRequest::check`), as JSON Schema conditionals the derive cannot
/// write: which fields apply to which type, `installmentCount` per type, and
/// `price` unless `priceByCustomer`. An absent, null or blank field counts as
/// absent there, so "must not be given" is written as [`blank`]. What JSON
/// Schema cannot say (the customer exists, each installment is at least
/// R$ 5,00, `endDate` after `dueDate`, check digits) stays a keyed 422.
fn invoice_type_rules(doc: &mut Value) {
    use serde_json::json;
    let of_type = |types: &[&str]| json!({"required": ["invoiceType"], "properties": {"invoiceType": {"enum": types}}});
    let blank = json!({"anyOf": [{"type": "null"}, {"type": "string", "pattern": "^\\s*$"}]});
    let not_chosen_by_payer = json!({"enum": [false, null]});
    let rules = json!([
        {
            "if": of_type(&["RECURRING", "SUBSCRIPTION"]),
            "then": {
                "required": ["frequency"],
                "properties": {
                    "frequency": {"$ref": "#/components/schemas/Frequency"},
                    "installmentCount": {"const": 1},
                    "priceByCustomer": not_chosen_by_payer,
                }
            },
            "else": {"properties": {"frequency": blank, "endDate": blank}}
        },
        {
            "if": of_type(&["RECURRING"]),
            "then": {"anyOf": [
                {"required": ["endDate"], "properties": {"endDate": {"type": "string", "pattern": "\\S"}}},
                {"required": ["endInstallment"], "properties": {"endInstallment": {"type": "integer"}}}
            ]},
            "else": {"properties": {"endInstallment": {"type": "null"}}}
        },
        {
            "if": of_type(&["SUBSCRIPTION"]),
            "else": {"properties": {"endSubscription": blank}}
        },
        {
            "if": of_type(&["INSTALLMENT"]),
            "then": {"properties": {
                "installmentCount": {"minimum": 2},
                "priceByCustomer": not_chosen_by_payer
            }},
            "else": {"properties": {"installmentCount": {"const": 1}}}
        },
        {
            "if": {"required": ["pixAutomatico"], "properties": {"pixAutomatico": {"type": "object"}}},
            "then": {
                "required": ["invoiceType", "frequency", "paymentTypes"],
                "properties": {
                    "invoiceType": {"enum": ["RECURRING", "SUBSCRIPTION"]},
                    "frequency": {"enum": paylink_model::Frequency::ALL
                        .iter()
                        .filter(|f| f.periodicidade().is_some())
                        .map(|f| f.as_str())
                        .collect::<Vec<_>>()},
                    "paymentTypes": {"contains": {"const": "PIX"}},
                    "priceByCustomer": not_chosen_by_payer,
                }
            }
        },
        {
            "if": {"required": ["priceByCustomer"], "properties": {"priceByCustomer": {"const": true}}},
            "else": {"required": ["price"], "properties": {"price": {"type": "number"}}}
        }
    ]);
    if let Some(schema) = doc.pointer_mut("/components/schemas/InvoiceRequest") {
        schema["allOf"] = rules;
        // The same rule on the property itself: a blank `endDate` is absent, not a bad date
        // (`format: date` alone would call it invalid while the service takes it).
        if let Some(end) = schema["properties"]["endDate"].as_object_mut() {
            end.remove("format");
            end.remove("type");
            end.insert(
                "anyOf".into(),
                json!([{"type": "string", "format": "date"}, blank]),
            );
        }
    }
}

/// Rules of single fields the derive cannot write, as the model checks them, so that the
/// document calls valid only what the service takes (short of what JSON Schema cannot say:
/// docs/api.md lists it). A percentage fine or discount has its ceiling (`type` decides what
/// `value` means); `address.state` is one of the 27 UFs in any case and `address.zipcode`
/// 8 digits with the punctuation people type, each with blanks around or blank alone
/// (absent). Whitespace as Rust's `trim` takes it (U+0085 is not in every regex's `\s`).
fn field_rules(doc: &mut Value) {
    use paylink_model::charges::{MAX_DISCOUNT_BP, MAX_FINE_BP};
    use serde_json::json;
    let percentage_at_most = |bp: i64| {
        json!([{
            "if": {"required": ["type"], "properties": {"type": {"const": "PERCENTAGE"}}},
            "then": {"properties": {"value": {"maximum": bp as f64 / 100.0}}}
        }])
    };
    if let Some(fine) = doc.pointer_mut("/components/schemas/Fine") {
        fine["allOf"] = percentage_at_most(MAX_FINE_BP);
    }
    if let Some(discount) = doc.pointer_mut("/components/schemas/Discount") {
        discount["allOf"] = percentage_at_most(MAX_DISCOUNT_BP);
    }
    const BLANK: &str = "[\\s\\u0085]*";
    let either_case = |uf: &str| -> String {
        uf.chars()
            .map(|c| format!("[{}{}]", c, c.to_ascii_lowercase()))
            .collect()
    };
    let ufs: Vec<String> = paylink_model::br::UFS
        .iter()
        .map(|uf| either_case(uf))
        .collect();
    let state = format!("^{BLANK}(?:{})?{BLANK}$", ufs.join("|"));
    // `br::strip_formatting` drops these around and between the digits.
    let punct = "[.\\-/ ()+]*";
    let zipcode = format!("^{BLANK}(?:{punct}(?:[0-9]{punct}){{8}})?{BLANK}$");
    link_rules(doc);
    if let Some(props) = doc.pointer_mut("/components/schemas/AddressRequest/properties") {
        props["state"]["pattern"] = json!(state);
        props["zipcode"]["pattern"] = json!(zipcode);
    }
}

/// The rules of `LinkRequest` JSON Schema can state (`LinkRequest::check`):
/// the slug's form, a price unless the payer states it, `maxInstallments`
/// with INSTALLMENT only, and a percentage fine of at most 2 % (anyone may
/// pay through a link). Each installment's R$ 5,00 and a FIXED fine against
/// the smallest installment stay keyed 422s.
fn link_rules(doc: &mut Value) {
    use paylink_model::charges::CPF_MAX_FINE_BP;
    use serde_json::json;
    let Some(link) = doc.pointer_mut("/components/schemas/LinkRequest") else {
        return;
    };
    // Absent or null: PIX and BOLETO.
    let types = link["properties"]["paymentTypes"].take();
    link["properties"]["paymentTypes"] = json!({"oneOf": [{"type": "null"}, types]});
    link["properties"]["slug"]["pattern"] = json!("^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$");
    link["properties"]["fine"]["allOf"] = json!([{
        "if": {"required": ["type"], "properties": {"type": {"const": "PERCENTAGE"}}},
        "then": {"properties": {"value": {"maximum": CPF_MAX_FINE_BP as f64 / 100.0}}}
    }]);
    let by_payer = json!({"required": ["priceByCustomer"], "properties": {"priceByCustomer": {"const": true}}});
    link["allOf"] = json!([
        {
            "if": by_payer,
            "then": {"properties": {"price": {"type": "null"}}},
            "else": {"required": ["price"], "properties": {"price": {"type": "number"}}}
        },
        {
            "if": {"required": ["invoiceType"], "properties": {"invoiceType": {"const": "INSTALLMENT"}}},
            "then": {"required": ["maxInstallments"], "properties": {"maxInstallments": {"type": "integer", "minimum": 2}}},
            "else": {"properties": {"maxInstallments": {"enum": [1, null]}}}
        }
    ]);
}

/// utoipa 5 writes the fields of a Link Object in snake case (`operation_id`,
/// `request_body`); OpenAPI and the tools that follow links (schemathesis's
/// stateful phase) read `operationId`, `operationRef` and `requestBody`.
fn camel_case_links(doc: &mut Value) {
    let responses = doc["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(|op| op.get_mut("responses").and_then(Value::as_object_mut))
        .flat_map(|responses| responses.values_mut());
    for response in responses {
        let Some(links) = response.get_mut("links").and_then(Value::as_object_mut) else {
            continue;
        };
        for link in links.values_mut().filter_map(Value::as_object_mut) {
            for (snake, camel) in [
                ("operation_id", "operationId"),
                ("operation_ref", "operationRef"),
                ("request_body", "requestBody"),
            ] {
                if let Some(v) = link.remove(snake) {
                    link.insert(camel.to_string(), v);
                }
            }
        }
    }
}

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/openapi.json", get(openapi_get))
}

async fn openapi_get() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        document_json(),
    )
}
