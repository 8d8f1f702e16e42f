//! The application's webhooks and their deliveries (additive to the spec):
//! registering a webhook (its rules keyed by field path), what the service
//! answers for webhooks, the signing secret and deliveries, and the delivery
//! list's query parameters and their rules. Shared by the service, the CLI and
//! the widget's webhooks screen, so each rule is written once.

use serde::{Deserialize, Serialize};

use crate::enums::{wire_enum, HookType};
use crate::errors::{Msg, Violations};
use crate::list::Cursor;

/// The longest webhook URL taken.
pub const MAX_URL_CHARS: usize = 2000;
/// How many enabled webhooks an application may have: every event goes to each of its
/// type, so a runaway script adding them would multiply every delivery.
pub const MAX_APP_WEBHOOKS: usize = 20;

/// `POST /invoices/applications/webhooks`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AppWebhookRequest {
    /// The event it receives.
    #[cfg_attr(feature = "openapi", schema(value_type = HookType, required = true))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_type: Option<String>,
    /// HTTPS, on a public host, without credentials (at most 2000 characters).
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = String, required = true, format = "uri", max_length = 2000)
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A checked [`AppWebhookRequest`]: the URL trimmed, its text judged by
/// [`crate::outbound::check_webhook_url`] (the server also resolves its name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAppWebhook {
    pub hook_type: HookType,
    pub url: String,
}

impl AppWebhookRequest {
    /// `allow_private`: the server's `--allow-insecure-webhooks` (local tests).
    pub fn check(&self, allow_private: bool) -> Result<NewAppWebhook, Violations> {
        let mut v = Violations::default();
        let hook_type = match self.hook_type.as_deref().map(str::trim) {
            None | Some("") => {
                v.add("hookType", Msg::Required);
                None
            }
            Some(t) => {
                let kind = HookType::parse(t);
                if kind.is_none() {
                    v.add("hookType", Msg::OneOf(HookType::NAMES));
                }
                kind
            }
        };
        let url = match self.url.as_deref().map(str::trim) {
            None | Some("") => {
                v.add("url", Msg::Required);
                None
            }
            Some(u) if u.chars().count() > MAX_URL_CHARS => {
                v.add("url", Msg::MaxChars(MAX_URL_CHARS));
                None
            }
            Some(u) => match crate::outbound::check_webhook_url(u, allow_private) {
                Ok(()) => Some(u.to_string()),
                Err(msg) => {
                    v.add("url", msg);
                    None
                }
            },
        };
        match (hook_type, url) {
            (Some(hook_type), Some(url)) if v.is_empty() => Ok(NewAppWebhook { hook_type, url }),
            _ => Err(v),
        }
    }
}

/// One of the application's webhooks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AppWebhook {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    pub hook_type: HookType,
    #[cfg_attr(feature = "openapi", schema(format = "uri"))]
    pub url: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    /// When the endpoint answered 410 Gone: no event goes to it any more.
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    #[serde(default)]
    pub disabled_at: Option<String>,
    /// The application's signing secret (`whsec_…`), only in the answer to
    /// the registration that created it (the application's first webhook):
    /// it is never readable again; rotate it to get a new one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// `GET /invoices/applications/webhooks`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AppWebhookList {
    /// Oldest first.
    pub data: Vec<AppWebhook>,
    /// When the signing secret in use was made; `null` while there is none.
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub secret_created_at: Option<String>,
    /// Until when the secret the last rotation replaced still signs beside it; `null` when it
    /// no longer does.
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    #[serde(default)]
    pub previous_secret_valid_until: Option<String>,
}

/// A new signing secret, shown this once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SigningSecret {
    /// `whsec_` and the base64 of 24 random bytes; every delivery from now
    /// on is signed with it.
    #[cfg_attr(
        feature = "openapi",
        schema(example = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
    )]
    pub secret: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    /// Until when the secret it replaced signs every delivery too (a second `v1,` signature
    /// in `webhook-signature`), so the receiver can take the new one without refusing any;
    /// `null` when there was none.
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    #[serde(default)]
    pub previous_valid_until: Option<String>,
}

wire_enum!(
    /// Where a delivery stands: `pending` (waiting for its next attempt),
    /// `succeeded` (a 2xx), `failed` (no more attempts), `disabled` (the
    /// endpoint answered 410 Gone, or its webhook was removed).
    DeliveryStatus {
        Pending = "pending",
        Succeeded = "succeeded",
        Failed = "failed",
        Disabled = "disabled",
    }
);

/// One delivery of an event to one endpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    /// The event's id, also its `webhook-id` header (the same on a redelivery).
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub event_id: String,
    pub event_type: HookType,
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub invoice_id: String,
    pub external_id: String,
    #[cfg_attr(feature = "openapi", schema(format = "uri"))]
    pub url: String,
    /// `application` (one of the application's webhooks) or `invoice` (the invoice's own).
    pub source: String,
    pub status: DeliveryStatus,
    pub attempts: i64,
    /// The last attempt's HTTP status, if it got an answer.
    pub last_status_code: Option<i64>,
    pub last_error: Option<String>,
    /// When the next attempt is due (`pending` only).
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub next_attempt_at: Option<String>,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub updated_at: String,
}

impl Delivery {
    /// Whether it may be sent again: once tried (a `pending` one that failed
    /// and waits for its retry is sent now instead).
    pub fn redeliverable(&self) -> bool {
        self.status != DeliveryStatus::Pending || self.attempts > 0
    }

    /// Whether its last attempt failed (a retry waits, or none is left).
    pub fn failing(&self) -> bool {
        match self.status {
            DeliveryStatus::Succeeded => false,
            DeliveryStatus::Pending => self.attempts > 0,
            DeliveryStatus::Failed | DeliveryStatus::Disabled => true,
        }
    }
}

/// One page of deliveries, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeliveryPage {
    pub data: Vec<Delivery>,
    /// The `cursor` of the next page; `null` on the last one.
    pub next_cursor: Option<String>,
}

/// The delivery list's query parameters as they come (every one optional text).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryParams {
    pub invoice_id: Option<String>,
    pub status: Option<String>,
    pub cursor: Option<String>,
    pub limit: Option<String>,
}

/// A checked delivery list query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeliveryFilter {
    /// Lower-cased.
    pub invoice_id: Option<String>,
    pub status: Option<DeliveryStatus>,
    pub cursor: Option<Cursor>,
    pub limit: u32,
}

impl DeliveryParams {
    /// `invoiceId` a UUID, `status` one of [`DeliveryStatus`], `cursor` a
    /// page's `nextCursor`, `limit` 1 to 100 (default 50). A parameter given
    /// empty breaks its rule, as in the other lists: a form leaves a blank
    /// filter out of the URL.
    pub fn filter(&self) -> Result<DeliveryFilter, Violations> {
        let mut v = Violations::default();
        let present = |s: &Option<String>| s.as_deref().map(str::trim).map(str::to_string);
        let invoice_id = present(&self.invoice_id).and_then(|id| {
            if crate::br::uuid_is_valid(&id) {
                Some(id.to_ascii_lowercase())
            } else {
                v.add("invoiceId", Msg::Uuid);
                None
            }
        });
        let status = present(&self.status).and_then(|s| {
            let status = DeliveryStatus::parse(&s.to_ascii_lowercase());
            if status.is_none() {
                v.add("status", Msg::OneOf(DeliveryStatus::NAMES));
            }
            status
        });
        let (cursor, limit) = crate::list::page(&self.cursor, &self.limit, &mut v);
        if !v.is_empty() {
            return Err(v);
        }
        Ok(DeliveryFilter {
            invoice_id,
            status,
            cursor,
            limit,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(hook_type: Option<&str>, url: Option<&str>) -> AppWebhookRequest {
        AppWebhookRequest {
            hook_type: hook_type.map(str::to_string),
            url: url.map(str::to_string),
        }
    }

    #[test]
    fn a_webhook_needs_a_known_event_and_a_public_https_url() {
        assert_eq!(
            req(
                Some("PAYMENT_CONFIRMED"),
                Some(" https://loja.example/hooks ")
            )
            .check(false),
            Ok(NewAppWebhook {
                hook_type: HookType::PaymentConfirmed,
                url: "https://loja.example/hooks".into()
            })
        );
        for (r, field) in [
            (req(None, Some("https://loja.example")), "hookType"),
            (req(Some(" "), Some("https://loja.example")), "hookType"),
            (
                req(Some("payment_confirmed"), Some("https://loja.example")),
                "hookType",
            ),
            (req(Some("PAYMENT_CONFIRMED"), None), "url"),
            (req(Some("PAYMENT_CONFIRMED"), Some("")), "url"),
            (
                req(Some("PAYMENT_CONFIRMED"), Some("http://loja.example")),
                "url",
            ),
            (
                req(Some("PAYMENT_CONFIRMED"), Some("https://127.0.0.1/x")),
                "url",
            ),
            (
                req(Some("PAYMENT_CONFIRMED"), Some("https://localhost/x")),
                "url",
            ),
            (req(Some("PAYMENT_CONFIRMED"), Some("loja.example")), "url"),
        ] {
            let e = r.check(false).unwrap_err();
            assert!(e.has(field), "{r:?}: {e:?}");
        }
        let long = format!("https://loja.example/{}", "a".repeat(MAX_URL_CHARS));
        assert!(req(Some("INVOICE_CREATED"), Some(&long))
            .check(false)
            .unwrap_err()
            .has("url"));
        // Local tests: http and loopback allowed.
        assert!(req(Some("INVOICE_CREATED"), Some("http://127.0.0.1:9/x"))
            .check(true)
            .is_ok());
    }

    #[test]
    fn the_delivery_filters_are_checked_and_blank_ones_refused() {
        let p = DeliveryParams {
            invoice_id: Some(" 0B6F1F0E-6A3E-4B8E-9A57-2D1C4A1E9F10 ".into()),
            status: Some("FAILED".into()),
            ..Default::default()
        };
        let f = p.filter().unwrap();
        assert_eq!(
            f.invoice_id.as_deref(),
            Some("0b6f1f0e-6a3e-4b8e-9a57-2d1c4a1e9f10")
        );
        assert_eq!(f.status, Some(DeliveryStatus::Failed));
        assert_eq!(f.limit, crate::list::DEFAULT_LIMIT);
        assert_eq!(DeliveryParams::default().filter().unwrap().status, None);
        let blank = DeliveryParams {
            invoice_id: Some("".into()),
            status: Some(" ".into()),
            ..Default::default()
        };
        let e = blank.filter().unwrap_err();
        assert!(e.has("invoiceId") && e.has("status"), "{e:?}");
        for (p, field) in [
            (
                DeliveryParams {
                    invoice_id: Some("x".into()),
                    ..Default::default()
                },
                "invoiceId",
            ),
            (
                DeliveryParams {
                    status: Some("ok".into()),
                    ..Default::default()
                },
                "status",
            ),
            (
                DeliveryParams {
                    cursor: Some("".into()),
                    ..Default::default()
                },
                "cursor",
            ),
            (
                DeliveryParams {
                    limit: Some("0".into()),
                    ..Default::default()
                },
                "limit",
            ),
            (
                DeliveryParams {
                    limit: Some("101".into()),
                    ..Default::default()
                },
                "limit",
            ),
        ] {
            assert!(p.filter().unwrap_err().has(field), "{field}");
        }
    }
}
