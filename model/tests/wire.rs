//! The requests' nested objects are read only from JSON objects: an array where the API says
//! object is a type error (serde's derive alone would read `[]` as an empty object).

use paylink_model::{CustomerRequest, InvoiceRequest};

#[test]
fn an_address_must_be_an_object_or_null() {
    let ok: CustomerRequest =
        serde_json::from_str(r#"{"fullName":"Maria","address":{"city":"Recife"}}"#).unwrap();
    assert_eq!(ok.address.unwrap().city.as_deref(), Some("Recife"));
    let none: CustomerRequest =
        serde_json::from_str(r#"{"fullName":"Maria","address":null}"#).unwrap();
    assert!(none.address.is_none());
    let absent: CustomerRequest = serde_json::from_str(r#"{"fullName":"Maria"}"#).unwrap();
    assert!(absent.address.is_none());
    for bad in [r#"[]"#, r#"["Recife"]"#, r#""Recife""#, "1"] {
        let body = format!(r#"{{"fullName":"Maria","address":{bad}}}"#);
        let err = serde_json::from_str::<CustomerRequest>(&body).unwrap_err();
        assert!(
            err.to_string().contains("expected an object"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn notifications_and_webhooks_are_arrays_of_objects() {
    let ok: InvoiceRequest = serde_json::from_str(
        r#"{"notifications":[{"type":"INVOICE_GENERATED","channel":"Email"}],"webhooks":null}"#,
    )
    .unwrap();
    assert_eq!(ok.notifications.unwrap().len(), 1);
    for bad in [
        r#"{"notifications":[[]]}"#,
        r#"{"webhooks":[["https://x"]]}"#,
        r#"{"webhooks":{}}"#,
    ] {
        assert!(
            serde_json::from_str::<InvoiceRequest>(bad).is_err(),
            "{bad}"
        );
    }
}
