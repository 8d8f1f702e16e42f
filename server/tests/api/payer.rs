//! The payer page's data through the proxy: no private data, PIX and boleto
//! codes for open installments only, views counted, sandbox payments.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

async fn created(app: &TestApp, patch: Value) -> String {
    let res = app.post("/api/customers", &json!({ "fullName": "Maria da Silva", "document": "529.982.247-25", "email": "maria@example.com", "phone": "+55 11 98765-4321" })).await;
    let customer = body(res).await;
    let req = with(invoice_body(customer["id"].as_str().unwrap()), patch);
    let res = app.post("/api/invoices", &req).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await["id"].as_str().unwrap().to_string()
}

async fn pay_view(app: &TestApp, id: &str) -> Value {
    let res = app.get(&format!("/api/pay/{id}")).await;
    assert_eq!(res.status(), StatusCode::OK);
    body(res).await
}

/// An independent BR Code reader: TLV fields and the CRC16 of field 63.
pub(crate) fn parse_br_code(payload: &str) -> std::collections::BTreeMap<String, String> {
    let mut fields = std::collections::BTreeMap::new();
    let mut rest = payload;
    while rest.len() >= 4 {
        let (id, len) = (&rest[..2], rest[2..4].parse::<usize>().unwrap());
        fields.insert(id.to_string(), rest[4..4 + len].to_string());
        rest = &rest[4 + len..];
    }
    assert!(rest.is_empty(), "trailing bytes in {payload}");
    let body = &payload[..payload.len() - 4];
    let mut crc: u16 = 0xFFFF;
    for b in body.bytes() {
        crc ^= (b as u16) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    assert_eq!(format!("{crc:04X}"), fields["63"], "CRC of {payload}");
    fields
}

#[tokio::test]
async fn shows_codes_for_open_installments_and_no_private_data() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(&app, json!({})).await;
    let v = pay_view(&app, &id).await;
    let text = v.to_string();
    for private in [
        "52998224725",
        "maria@example.com",
        "5511987654321",
        "hooks/paylink",
        "SEND_INVOICE_REMINDER",
    ] {
        assert!(!text.contains(private), "payer view leaks {private}");
    }
    assert_eq!(v["customerName"], "Maria da Silva");
    assert_eq!(v["merchantName"], "Loja Exemplo");
    assert_eq!(v["nextOpen"], 1);
    assert_eq!(v["sandbox"], true);
    let inst = v["installments"].as_array().unwrap();
    assert_eq!(inst.len(), 3);
    for i in inst {
        let pix = parse_br_code(i["pix"]["payload"].as_str().unwrap());
        assert_eq!(pix["53"], "986");
        assert_eq!(pix["58"], "BR");
        assert_eq!(pix["54"], format!("{:.2}", i["price"].as_f64().unwrap()));
        assert!(pix["26"].contains("br.gov.bcb.pix"));
        assert!(
            i["pix"]["qrSvg"].as_str().unwrap().starts_with("<?xml")
                || i["pix"]["qrSvg"].as_str().unwrap().contains("<svg")
        );
        let line: String = i["boleto"]["line"]
            .as_str()
            .unwrap()
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        let barcode = i["boleto"]["barcode"].as_str().unwrap();
        assert_eq!(line.len(), 47);
        assert_eq!(barcode.len(), 44);
        // Cross-check: the line carries the barcode's bank+currency, free field, DV, factor and value.
        assert_eq!(&line[0..4], &barcode[0..4]);
        assert_eq!(&line[32..33], &barcode[4..5]);
        assert_eq!(&line[33..47], &barcode[5..19]);
        assert_eq!(
            format!("{}{}{}", &line[4..9], &line[10..20], &line[21..31]),
            &barcode[19..44]
        );
        let cents = (i["price"].as_f64().unwrap() * 100.0).round() as i64;
        assert_eq!(barcode[9..19].parse::<i64>().unwrap(), cents);
    }
}

#[tokio::test]
async fn only_accepted_types_and_only_open_installments_get_codes() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(&app, json!({ "paymentTypes": ["BOLETO"] })).await;
    let res = app.post_empty(&format!("/api/pay/{id}/simulate")).await;
    assert_eq!(res.status(), StatusCode::OK);
    let v = body(res).await;
    let inst = v["installments"].as_array().unwrap();
    assert_eq!(inst[0]["status"], "CONFIRMED");
    assert!(
        inst[0]["boleto"].is_null(),
        "a paid installment has no code"
    );
    assert!(inst[1]["boleto"].is_object());
    assert!(inst.iter().all(|i| i["pix"].is_null()), "PIX not accepted");
    assert_eq!(v["nextOpen"], 2);
}

#[tokio::test]
async fn views_are_counted_on_the_highlighted_installment() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(&app, json!({})).await;
    for _ in 0..2 {
        let res = app.post_empty(&format!("/api/pay/{id}/view")).await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
    }
    let d = body(app.get_invoice(&id).await).await;
    assert_eq!(d["installments"][0]["viewsCount"], 2);
    assert!(d["installments"][0]["lastViewAt"].is_string());
    assert_eq!(d["installments"][1]["viewsCount"], 0);
    let res = app
        .post_empty("/api/pay/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11/view")
        .await;
    envelope(res, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn bad_ids_and_paid_invoices_get_clear_errors() {
    let app = spawn_app_with(local_proxy).await;
    let res = app.get("/api/pay/not-a-uuid").await;
    envelope(res, StatusCode::BAD_REQUEST).await;
    let res = app
        .get("/api/pay/6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11")
        .await;
    envelope(res, StatusCode::NOT_FOUND).await;
    let id = created(&app, json!({ "installmentCount": 2, "price": 20 })).await;
    for _ in 0..2 {
        app.post_empty(&format!("/api/pay/{id}/simulate")).await;
    }
    let res = app.post_empty(&format!("/api/pay/{id}/simulate")).await;
    envelope(res, StatusCode::CONFLICT).await;
    assert!(pay_view(&app, &id).await["nextOpen"].is_null());
}

#[tokio::test]
async fn simulate_is_not_there_outside_the_sandbox() {
    let app = spawn_app_production().await;
    let id = created(&app, json!({})).await;
    let res = app.post_empty(&format!("/api/pay/{id}/simulate")).await;
    envelope(res, StatusCode::NOT_FOUND).await;
    assert_eq!(pay_view(&app, &id).await["sandbox"], false);
    assert_eq!(
        body(app.get_invoice(&id).await).await["installments"][0]["_status"],
        "WAITING_PAYMENT"
    );
}

/// Every boleto has its own nosso número, given when its installment is
/// written: 8 invoices of 12 boleto installments created at once, and their
/// payer pages' barcodes (the 10-digit complement is digits 33-42, after the
/// agreement) carry 96 different numbers, the ones stored.
#[tokio::test]
async fn every_boleto_gets_a_nosso_numero_of_its_own() {
    let app = spawn_app_with(local_proxy).await;
    let customer = app.customer_id().await;
    let requests: Vec<Value> = (0..8)
        .map(|k| {
            with(
                invoice_body(&customer),
                json!({ "externalId": format!("lote-{k}"), "installmentCount": 12, "paymentTypes": ["BOLETO"] }),
            )
        })
        .collect();
    let created =
        futures_util::future::join_all(requests.iter().map(|r| app.post_invoice(r))).await;
    let mut shown = Vec::new();
    for res in created {
        assert_eq!(res.status(), StatusCode::OK);
        let id = body(res).await["id"].as_str().unwrap().to_string();
        for i in pay_view(&app, &id).await["installments"]
            .as_array()
            .unwrap()
        {
            let barcode = i["boleto"]["barcode"].as_str().unwrap();
            assert_eq!(
                &barcode[25..32],
                "1234567",
                "the agreement, then the number"
            );
            shown.push(barcode[32..42].parse::<i64>().unwrap());
        }
    }
    assert_eq!(shown.len(), 96);
    let distinct: std::collections::BTreeSet<i64> = shown.iter().copied().collect();
    assert_eq!(distinct.len(), 96, "a nosso número shown twice: {shown:?}");
    let stored: std::collections::BTreeSet<i64> =
        sqlx::query_scalar("SELECT our_number FROM installments")
            .fetch_all(&app.raw_pool().await)
            .await
            .unwrap()
            .into_iter()
            .collect();
    assert_eq!(distinct, stored);
}

/// Guessing invoice ids: a burst of misses from one address is cut to 429
/// envelopes with `Retry-After` once the default budget is spent, on the PDFs
/// too; another address keeps its own budget, and a payer's page polling at
/// the widget's pace is never near it.
#[tokio::test]
async fn a_burst_of_misses_from_one_address_is_429_and_others_are_unaffected() {
    // A budget of 10 a minute refills one request every 6 s, so nothing the test does after
    // the burst can be let through by the refill, however loaded the machine (at the default
    // 600 a minute, a tenth of a second between the 429 and the next request was enough).
    let budget = 10;
    let app = spawn_app_options(|o| {
        o.trust_forwarded_for = true;
        o.payer_rate_limit = paylink_server::http::ratelimit::Budget(budget as u32);
    })
    .await;
    let from = |ip: &'static str, path: String| {
        app.client
            .get(app.url(&path))
            .header("x-forwarded-for", ip)
            .send()
    };
    let miss = |i: usize| format!("/api/pay/0190a1b2-c3d4-7e5f-8a9b-{i:012x}");
    // The refill while the burst runs is at most a request: the budget, or one more.
    let mut answered = 0;
    let mut limited = None;
    for i in 0..budget + 5 {
        let res = from("203.0.113.7", miss(i)).await.unwrap();
        match res.status() {
            StatusCode::NOT_FOUND => answered += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                limited = Some(res);
                break;
            }
            other => panic!("{other}"),
        }
    }
    let res = limited.expect("no 429 after a burst over the budget");
    assert!((budget..=budget + 1).contains(&answered), "{answered}");
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    envelope(res, StatusCode::TOO_MANY_REQUESTS).await;
    let pdf = from(
        "203.0.113.7",
        format!("{}/installments/1/boleto.pdf", miss(0)),
    )
    .await
    .unwrap();
    envelope(pdf, StatusCode::TOO_MANY_REQUESTS).await;
    // Another payer's address still gets its answers.
    let other = from("198.51.100.20", miss(1)).await.unwrap();
    envelope(other, StatusCode::NOT_FOUND).await;
    let id = created(&app, json!({})).await;
    let res = from("198.51.100.20", format!("/api/pay/{id}"))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

/// The txid (field 62.05) of each installment's static PIX code on the payer view.
fn static_txids(view: &Value) -> Vec<String> {
    view["installments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let fields = parse_br_code(i["pix"]["payload"].as_str().unwrap());
            let mut rest = fields["62"].as_str();
            let mut txid = None;
            while rest.len() >= 4 {
                let (id, len) = (&rest[..2], rest[2..4].parse::<usize>().unwrap());
                if id == "05" {
                    txid = Some(rest[4..4 + len].to_string());
                }
                rest = &rest[4 + len..];
            }
            txid.expect("a txid in field 62")
        })
        .collect()
}

/// Issue 38: the static PIX code's txid was the first 22 hex digits of the
/// invoice id, so a receipt or a bank statement gave away most of the id that
/// opens the payer page. Now each installment has its own random txid, stored
/// (the same code on every read), sharing no run of the id's digits.
#[tokio::test]
async fn the_static_codes_txid_is_random_per_installment_and_not_the_invoice_id() {
    let app = spawn_app_with(local_proxy).await;
    let id = created(&app, json!({})).await;
    let hex: String = id
        .chars()
        .filter(char::is_ascii_hexdigit)
        .collect::<String>()
        .to_ascii_lowercase();
    let txids = static_txids(&pay_view(&app, &id).await);
    assert_eq!(txids.len(), 3);
    for txid in &txids {
        assert_eq!(txid.len(), 25, "{txid}");
        assert!(txid.chars().all(|c| c.is_ascii_alphanumeric()), "{txid}");
        let lower = txid.to_ascii_lowercase();
        for run in hex.as_bytes().windows(8) {
            let run = std::str::from_utf8(run).unwrap();
            assert!(!lower.contains(run), "{txid} shares {run} with {id}");
        }
    }
    let mut distinct = txids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "one per installment: {txids:?}");
    // Stored: the same codes on the next read, and in the installments' rows.
    assert_eq!(static_txids(&pay_view(&app, &id).await), txids);
    let stored: Vec<String> = sqlx::query_scalar(
        "SELECT pix_txid FROM installments WHERE invoice_id = $1 ORDER BY number",
    )
    .bind(&id)
    .fetch_all(&app.raw_pool().await)
    .await
    .unwrap();
    assert_eq!(stored, txids);
}
