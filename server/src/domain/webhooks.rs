//! Webhook signatures, the Standard Webhooks way (`webhook-signature:
//! v1,<base64 HMAC-SHA256>`), and registering an application's webhook with
//! every rule (the model's, the outbound policy's resolution of the name, no
//! duplicate), for the API and the CLI alike.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, Mac};
use paylink_model::webhooks::{AppWebhook, AppWebhookRequest};
use paylink_model::{Msg, Violations};
use sha2::Sha256;

use crate::domain::outbound::Outbound;
use crate::store::webhooks::{register as store_register, Registered};
use crate::store::{Db, DbError};

/// Registers `req` as one of the application's webhooks: the model's rules
/// (keyed `hookType`, `url`), then the URL's name as it resolves now
/// (`outbound`), then no second webhook of the same event at the same URL, and no more than
/// `MAX_APP_WEBHOOKS`.
/// The answer carries the signing secret when this made it.
pub async fn register(
    db: &Db,
    outbound: &Outbound,
    app_id: &str,
    req: &AppWebhookRequest,
) -> Result<Result<AppWebhook, Violations>, DbError> {
    let new = match req.check(outbound.allows_private()) {
        Ok(new) => new,
        Err(v) => return Ok(Err(v)),
    };
    let refused = |msg: Msg| {
        let mut v = Violations::default();
        v.add("url", msg);
        Ok(Err(v))
    };
    if let Err(msg) = outbound.check_new(&new.url).await {
        return refused(msg);
    }
    match store_register(db, app_id, new.hook_type, &new.url).await? {
        Registered::Added(hook) => Ok(Ok(hook)),
        Registered::Exists => refused(Msg::WebhookExists),
        Registered::Full => refused(Msg::WebhookLimit(paylink_model::webhooks::MAX_APP_WEBHOOKS)),
    }
}

/// `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` with the secret
/// after its `whsec_` prefix, base64-decoded.
pub fn sign(secret: &str, msg_id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").unwrap_or(secret))
        .ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{msg_id}.{timestamp}.{body}").as_bytes());
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_like_the_standard_webhooks_reference() {
        // The example of the Standard Webhooks specification.
        let sig = sign(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            r#"{"test": 2432232314}"#,
        );
        assert_eq!(
            sig.as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }
}
