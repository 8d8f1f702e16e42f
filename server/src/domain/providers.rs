//! The notification providers' published APIs, as paylink speaks them: WhatsApp Business
//! Cloud API (a template message `POST {api}/{phone-number-id}/messages`, status webhooks
//! signed with `X-Hub-Signature-256`) and Twilio's Messages API (`POST
//! /2010-04-01/Accounts/{sid}/Messages.json`, status callbacks signed with
//! `X-Twilio-Signature`). The settings (with their secrets, never printed), the bodies sent,
//! the signature checks and the statuses read back; the sending is `workers::notifications`,
//! the callbacks' routes `http::provider_webhooks`.

use hmac::{Hmac, Mac};
use paylink_model::ProviderStatus;
use serde_json::{json, Value};
use subtle::ConstantTimeEq;

/// The Graph API's base when `--whatsapp-api-url` is not given.
pub const GRAPH_API: &str = "https://graph.facebook.com/v26.0";
/// Where Twilio posts an SMS's status (`StatusCallback`), under `--public-url`.
pub const SMS_CALLBACK_PATH: &str = "/webhooks/sms";
/// Twilio's REST API when `--twilio-api-url` is not given.
pub const TWILIO_API: &str = "https://api.twilio.com";

/// A secret read from its file: compared and sent, never printed.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: String) -> Secret {
        Secret(s)
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

/// `--whatsapp-*`: the merchant's WhatsApp Business number on the Cloud API.
#[derive(Clone, Debug)]
pub struct WhatsAppConfig {
    /// The Graph API's base with its version, without a trailing `/`.
    pub api_url: String,
    pub phone_number_id: String,
    /// A system user's access token with `whatsapp_business_messaging`.
    pub token: Secret,
    /// The approved template's name and language (`pt_BR`).
    pub template: String,
    pub template_lang: String,
    /// What Meta sends back in `hub.verify_token` when the webhook is set up.
    pub verify_token: Option<Secret>,
    /// The Meta app's secret, the key of `X-Hub-Signature-256`.
    pub app_secret: Option<Secret>,
}

/// `--twilio-*`: the merchant's Twilio account and sending number.
#[derive(Clone, Debug)]
pub struct TwilioConfig {
    /// Twilio's REST API base, without a trailing `/`.
    pub api_url: String,
    pub account_sid: String,
    /// The account's auth token: basic auth's password and the key of `X-Twilio-Signature`.
    pub auth_token: Secret,
    /// The sending number (E.164) or Messaging Service SID (`MG…`).
    pub from: String,
}

impl TwilioConfig {
    /// Where messages are created.
    pub fn messages_url(&self) -> String {
        format!(
            "{}/2010-04-01/Accounts/{}/Messages.json",
            self.api_url, self.account_sid
        )
    }
}

impl WhatsAppConfig {
    /// Where messages are sent.
    pub fn messages_url(&self) -> String {
        format!("{}/{}/messages", self.api_url, self.phone_number_id)
    }
}

/// The template's body parameters, in the order the merchant's template uses them:
/// `{{1}}` the payer's first name, `{{2}}` the amount (`R$ 1.234,56`), `{{3}}` the due
/// date (`dd/mm/aaaa`), `{{4}}` the payment link.
pub struct TemplateParams {
    pub name: String,
    pub amount: String,
    pub due: String,
    pub link: String,
}

/// A template message to `to` (E.164, with its `+`) as the Cloud API takes it.
pub fn whatsapp_message(config: &WhatsAppConfig, to: &str, p: &TemplateParams) -> Value {
    let text = |t: &str| json!({ "type": "text", "text": t });
    json!({
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": to,
        "type": "template",
        "template": {
            "name": config.template,
            "language": { "code": config.template_lang },
            "components": [{
                "type": "body",
                "parameters": [text(&p.name), text(&p.amount), text(&p.due), text(&p.link)],
            }],
        },
    })
}

/// `messages[0].id` of the Cloud API's answer.
pub fn whatsapp_message_id(answer: &Value) -> Option<&str> {
    answer["messages"][0]["id"]
        .as_str()
        .filter(|s| !s.is_empty())
}

/// The error a Graph API refusal carries (`(#131030) Recipient phone number not in allowed
/// list`), or nothing.
pub fn graph_error(answer: &Value) -> Option<String> {
    let e = &answer["error"];
    let message = e["message"].as_str()?;
    Some(match e["code"].as_i64() {
        Some(code) if !message.contains(&code.to_string()) => format!("{code}: {message}"),
        _ => message.to_string(),
    })
}

/// The error a Twilio refusal carries (`21211: The 'To' number is not a valid phone number.`).
pub fn twilio_error(answer: &Value) -> Option<String> {
    let message = answer["message"].as_str()?;
    Some(match answer["code"].as_i64() {
        Some(code) => format!("{code}: {message}"),
        None => message.to_string(),
    })
}

/// A Cloud API message status (`statuses[].status`): `sent`, `delivered`, `read`, `failed`
/// (others, such as `deleted`, are not a message's delivery).
pub fn whatsapp_status(s: &str) -> Option<ProviderStatus> {
    ProviderStatus::parse(s)
}

/// A Twilio `MessageStatus`: `sent`, `delivered`, `read`; `undelivered`, `failed` and
/// `canceled` are failures; `queued`, `accepted`, `scheduled`, `sending` are on the way.
pub fn twilio_status(s: &str) -> Option<ProviderStatus> {
    match s {
        "undelivered" | "failed" | "canceled" => Some(ProviderStatus::Failed),
        other => ProviderStatus::parse(other),
    }
}

/// One status of a Cloud API webhook.
#[derive(Debug, PartialEq, Eq)]
pub struct StatusUpdate {
    pub provider_id: String,
    pub status: ProviderStatus,
    pub error: Option<String>,
}

/// The message statuses of a Cloud API webhook body (`entry[].changes[].value.statuses[]`);
/// incoming messages and other fields are not paylink's and are passed over.
pub fn whatsapp_statuses(body: &Value) -> Vec<StatusUpdate> {
    let empty = Vec::new();
    let list = |v: &Value| v.as_array().unwrap_or(&empty).clone();
    let mut out = Vec::new();
    for entry in list(&body["entry"]) {
        for change in list(&entry["changes"]) {
            for s in list(&change["value"]["statuses"]) {
                let (Some(id), Some(status)) = (
                    s["id"].as_str(),
                    s["status"].as_str().and_then(whatsapp_status),
                ) else {
                    continue;
                };
                let error = s["errors"][0].as_object().map(|e| {
                    let code = e.get("code").and_then(Value::as_i64).unwrap_or_default();
                    let title = e
                        .get("title")
                        .or_else(|| e.get("message"))
                        .and_then(Value::as_str)
                        .unwrap_or("error");
                    let details = e
                        .get("error_data")
                        .and_then(|d| d["details"].as_str())
                        .map(|d| format!(" ({d})"))
                        .unwrap_or_default();
                    format!("WhatsApp {code}: {title}{details}")
                });
                out.push(StatusUpdate {
                    provider_id: id.to_string(),
                    status,
                    error,
                });
            }
        }
    }
    out
}

/// Whether `header` (`X-Hub-Signature-256: sha256=<hex>`) is the HMAC-SHA256 of the raw
/// `body` with the app's secret, compared in constant time.
pub fn whatsapp_signature_ok(app_secret: &Secret, body: &[u8], header: Option<&str>) -> bool {
    let Some(hex) = header.and_then(|h| h.trim().strip_prefix("sha256=")) else {
        return false;
    };
    let Some(given) = decode_hex(hex) else {
        return false;
    };
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(app_secret.expose().as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(body);
    mac.verify_slice(&given).is_ok()
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Twilio's request signature: Base64 of the HMAC-SHA1, keyed with the auth token, of the
/// full URL Twilio called followed by each POST parameter's name and value, sorted by name.
pub fn twilio_signature(auth_token: &Secret, url: &str, params: &[(String, String)]) -> String {
    use base64::Engine;
    let mut sorted: Vec<&(String, String)> = params.iter().collect();
    sorted.sort();
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(auth_token.expose().as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(url.as_bytes());
    for (k, v) in sorted {
        mac.update(k.as_bytes());
        mac.update(v.as_bytes());
    }
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// Whether `header` (`X-Twilio-Signature`) signs this callback, compared in constant time.
pub fn twilio_signature_ok(
    auth_token: &Secret,
    url: &str,
    params: &[(String, String)],
    header: Option<&str>,
) -> bool {
    let Some(given) = header.map(str::trim).filter(|h| !h.is_empty()) else {
        return false;
    };
    let expected = twilio_signature(auth_token, url, params);
    bool::from(given.as_bytes().ct_eq(expected.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twilio_signature_follows_twilios_published_example() {
        // The example of Twilio's "Webhooks security" page, which its helper libraries test
        // against: this token, URL and parameters sign to this value.
        let token = Secret::new("12345".into());
        let url = "https://mycompany.com/myapp.php?foo=1&bar=2";
        let params: Vec<(String, String)> = [
            ("CallSid", "CA1234567890ABCDE"),
            ("Caller", "+14158675309"),
            ("Digits", "1234"),
            ("From", "+14158675309"),
            ("To", "+18005551212"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(
            twilio_signature(&token, url, &params),
            "RSOYDt4T1cUTdK1PDd93/VVr8B8="
        );
        assert!(twilio_signature_ok(
            &token,
            url,
            &params,
            Some("RSOYDt4T1cUTdK1PDd93/VVr8B8=")
        ));
        assert!(!twilio_signature_ok(&token, url, &params, Some("x")));
        assert!(!twilio_signature_ok(&token, url, &params, None));
    }

    #[test]
    fn whatsapp_signatures_are_the_hmac_of_the_raw_body() {
        let secret = Secret::new("app-secret".into());
        let body = br#"{"object":"whatsapp_business_account"}"#;
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(b"app-secret").unwrap();
        mac.update(body);
        let hex = hex::encode(mac.finalize().into_bytes());
        let good = format!("sha256={hex}");
        assert!(whatsapp_signature_ok(&secret, body, Some(&good)));
        assert!(!whatsapp_signature_ok(&secret, b"{}", Some(&good)));
        assert!(!whatsapp_signature_ok(&secret, body, Some(&hex)));
        assert!(!whatsapp_signature_ok(&secret, body, Some("sha256=zz")));
        assert!(!whatsapp_signature_ok(&secret, body, None));
        assert_eq!(format!("{secret:?}"), "***");
    }

    #[test]
    fn webhook_statuses_are_read_and_the_rest_passed_over() {
        let body = json!({"object": "whatsapp_business_account", "entry": [{"id": "1", "changes": [
            {"field": "messages", "value": {"messaging_product": "whatsapp", "statuses": [
                {"id": "wamid.A", "status": "delivered", "timestamp": "1"},
                {"id": "wamid.B", "status": "failed", "errors": [{"code": 131047,
                  "title": "Re-engagement message", "error_data": {"details": "more than 24 hours"}}]},
                {"id": "wamid.C", "status": "deleted"}
            ]}},
            {"field": "messages", "value": {"messages": [{"id": "wamid.in", "text": {"body": "oi"}}]}}
        ]}]});
        let got = whatsapp_statuses(&body);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].status, ProviderStatus::Delivered);
        assert_eq!(
            got[1].error.as_deref(),
            Some("WhatsApp 131047: Re-engagement message (more than 24 hours)")
        );
        assert_eq!(twilio_status("undelivered"), Some(ProviderStatus::Failed));
        assert_eq!(twilio_status("queued"), None);
        assert_eq!(twilio_status("delivered"), Some(ProviderStatus::Delivered));
    }
}
