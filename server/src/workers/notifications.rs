//! The notification sender: sends what is due in `notification_sends` by
//! e-mail (SMTP with STARTTLS or TLS and AUTH, `domain::mail`'s message), WhatsApp
//! (the Cloud API's template messages), SMS (Twilio) or the generic HTTP adapter
//! (`domain::providers` holds the providers' APIs),
//! retrying on its schedule. What is scheduled, and when, is `store::notifications`;
//! the words are `domain::messages`.

use std::sync::Arc;
use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use paylink_model::{Channel, NotificationType};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::domain::messages::{self, render, Context};
// Where `SmtpConfig` was: the tests and `serve` name it here.
use crate::domain::outbound::Outbound;
use crate::domain::payer::PayerConfig;
use crate::domain::providers::{
    self, TemplateParams, TwilioConfig, WhatsAppConfig, SMS_CALLBACK_PATH,
};
pub use crate::domain::smtp::SmtpConfig;
use crate::store::sends as store;
use crate::store::{now_iso, Db, DbError};
use paylink_model::money::format_brl;
use paylink_model::{Date, Lang};

/// Delay before retry n (after the n-th failed attempt): 1 min, 10 min, 1 h;
/// after the fourth attempt the send is `failed`.
pub const RETRY_SCHEDULE: [u64; 3] = [60, 600, 3600];
pub const MAX_ATTEMPTS: i64 = RETRY_SCHEDULE.len() as i64 + 1;
pub const SEND_TIMEOUT: Duration = Duration::from_secs(15);
/// How soon a notice held back while the payer's bank collects is looked at again, should the
/// cycle's end not bring it forward (a lost callback).
const COLLECTING_RECHECK: Duration = Duration::from_secs(6 * 3600);
/// The pause after a pass that found nothing due.
const IDLE: Duration = Duration::from_millis(300);

// ---------------------------------------------------------------------------
// Sending.

/// Why the notification settings are refused at start, naming the setting.
#[derive(Debug, thiserror::Error)]
pub enum NotifyConfigError {
    #[error("--notify-http-url {0:?}: {1}")]
    HttpUrl(String, url::ParseError),
    #[error("--notify-http-url must be http(s)://, not {0:?}")]
    HttpScheme(String),
    #[error(
        "{0}: {1} (--allow-insecure-webhooks allows http:// and local addresses, for tests only)"
    )]
    Refused(&'static str, crate::domain::outbound::RefusedUrl),
}

/// Where notifications go. A channel left out keeps its sends `pending`.
#[derive(Clone, Debug, Default)]
pub struct NotifyConfig {
    /// Base of payment links (`{public_url}/pay/{invoice id}`) and of Twilio's status
    /// callback (`{public_url}/webhooks/sms`).
    pub public_url: String,
    /// Email.
    pub smtp: Option<SmtpConfig>,
    /// WhatsApp through the Cloud API.
    pub whatsapp: Option<WhatsAppConfig>,
    /// SMS through Twilio.
    pub twilio: Option<TwilioConfig>,
    /// The generic adapter (`--notify-http-url`): a JSON POST per message, for WhatsApp and
    /// SMS when their own provider is not set.
    pub http_url: Option<String>,
    /// The merchant, as the payer page shows it: an e-mail's PIX code and boleto.
    pub payer: PayerConfig,
    /// The policy every provider URL goes through (`serve`'s webhooks' policy).
    pub outbound: Outbound,
}

impl NotifyConfig {
    pub fn new(
        public_url: &str,
        smtp: Option<SmtpConfig>,
        http_url: Option<&str>,
    ) -> Result<NotifyConfig, NotifyConfigError> {
        if let Some(u) = http_url {
            let parsed =
                reqwest::Url::parse(u).map_err(|e| NotifyConfigError::HttpUrl(u.to_string(), e))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return Err(NotifyConfigError::HttpScheme(u.to_string()));
            }
        }
        Ok(NotifyConfig {
            public_url: public_url.to_string(),
            smtp,
            http_url: http_url.map(str::to_string),
            ..Default::default()
        })
    }

    /// Where Twilio posts an SMS's status (`StatusCallback`): `{public_url}/webhooks/sms`.
    pub fn sms_callback_url(&self) -> String {
        format!(
            "{}{SMS_CALLBACK_PATH}",
            self.public_url.trim_end_matches('/')
        )
    }

    /// Every provider URL checked against `outbound` now, so a refused one stops `serve`
    /// instead of failing each send.
    pub fn check_urls(&self) -> Result<(), NotifyConfigError> {
        let check = |flag: &'static str, url: &str| {
            self.outbound
                .target(url)
                .map(|_| ())
                .map_err(|e| NotifyConfigError::Refused(flag, e))
        };
        if let Some(u) = &self.http_url {
            check("--notify-http-url", u)?;
        }
        if let Some(w) = &self.whatsapp {
            check("--whatsapp-api-url", &w.messages_url())?;
        }
        if let Some(t) = &self.twilio {
            check("--twilio-api-url", &t.messages_url())?;
        }
        Ok(())
    }
}

#[derive(Clone)]
pub struct Notifier {
    db: Db,
    public_url: Arc<str>,
    smtp: Option<(Arc<AsyncSmtpTransport<Tokio1Executor>>, Mailbox)>,
    whatsapp: Option<Arc<WhatsAppConfig>>,
    twilio: Option<Arc<TwilioConfig>>,
    http_url: Option<Arc<str>>,
    payer: Arc<PayerConfig>,
    outbound: Outbound,
    client: reqwest::Client,
}

/// What one attempt came to.
enum Outcome {
    /// Taken; with the provider's id of the message when it gives one.
    Sent(Option<String>),
    /// Will not be sent, and that is not a failure (paid, deleted, nobody to send to).
    Skip(String),
    /// Worth trying again later.
    Retry(String),
    /// Not yet: what it would tell the payer is still being decided elsewhere.
    Wait(String),
    /// Will never work (the relay or provider refused it for good).
    Fail(String),
}

impl Notifier {
    pub fn new(db: Db, config: NotifyConfig) -> Notifier {
        let smtp = config
            .smtp
            .map(|s| (Arc::new(s.transport(SEND_TIMEOUT)), s.from));
        let builder = reqwest::Client::builder()
            .timeout(SEND_TIMEOUT)
            .connect_timeout(Duration::from_secs(5))
            .user_agent("paylink-notifications/1");
        Notifier {
            db,
            public_url: Arc::from(config.public_url.trim_end_matches('/')),
            smtp,
            whatsapp: config.whatsapp.map(Arc::new),
            twilio: config.twilio.map(Arc::new),
            http_url: config.http_url.map(|u| Arc::from(u.as_str())),
            payer: Arc::new(config.payer),
            client: config
                .outbound
                .client(builder)
                .expect("a valid HTTP client"),
            outbound: config.outbound,
        }
    }

    /// The channels this notifier can send by.
    fn channels(&self) -> store::Channels {
        let http = self.http_url.is_some();
        store::Channels {
            email: self.smtp.is_some(),
            whatsapp: self.whatsapp.is_some() || http,
            sms: self.twilio.is_some() || http,
        }
    }

    /// Sends what is due until `shutdown`; see [`super::poll`]. Everything
    /// it needs is in the database, so a restart (or a CLI write) loses nothing.
    pub async fn run(self, shutdown: CancellationToken) {
        let c = self.channels();
        if !c.email {
            tracing::warn!("no --smtp-url: Email notifications stay pending");
        }
        if !c.whatsapp {
            tracing::warn!(
                "no --whatsapp-phone-number-id or --notify-http-url: WhatsApp notifications stay pending"
            );
        }
        if !c.sms {
            tracing::warn!(
                "no --twilio-account-sid or --notify-http-url: SMS notifications stay pending"
            );
        }
        super::poll("notifications", shutdown, IDLE, || self.send_due()).await;
    }

    /// One pass: claims up to 16 due sends of the configured channels and
    /// sends them concurrently. Returns how many it took.
    #[tracing::instrument(name = "pass", skip_all, fields(queue = "notifications"))]
    pub async fn send_due(&self) -> Result<usize, DbError> {
        let channels = self.channels();
        if !channels.any() {
            return Ok(0);
        }
        let claim = store::claim_due_sends(&self.db, channels).await?;
        Ok(crate::store::outbox::run_claimed(claim, |id, lease| {
            let me = self.clone();
            async move {
                match me.process(&id, &lease).await {
                    Ok(true) => {}
                    // Another worker took the send after this one's lease ran out: its
                    // outcome is the one recorded.
                    Ok(false) => tracing::warn!(send = %id, lease = lease.as_str(), "notification's lease was lost; its outcome is not recorded"),
                    Err(e) => tracing::warn!(send = %id, error = %e, "notification failed to record"),
                }
            }
        })
        .await)
    }

    /// Sends (or skips) one send and records its outcome; whether it still held `lease` to.
    #[tracing::instrument(name = "row", skip_all, fields(queue = "notifications", id = %send_id))]
    async fn process(
        &self,
        send_id: &str,
        lease: &crate::store::outbox::Lease,
    ) -> Result<bool, DbError> {
        let pending = store::pending_send(&self.db, send_id).await?;
        let recipient = pending.recipient.as_deref();
        let outcome = match &pending.facts {
            None => Outcome::Fail("unknown stored type or channel".into()),
            Some(_) if pending.invoice_deleted => Outcome::Skip("the invoice was deleted".into()),
            Some(_) if pending.installment_deleted => {
                Outcome::Skip("the installment was deleted".into())
            }
            Some(ctx) => match (no_longer_applies(ctx), recipient) {
                (Some(reason), _) => Outcome::Skip(reason),
                // The payer's bank may still pay it on a retry; ending the cycle unpaid
                // (`store::pix_charges::cycle_ended`) makes this send due again at once.
                _ if ctx.bank_collects && overdue_notice(ctx.kind) => Outcome::Wait(
                    "waiting: the payer's bank is still collecting this installment (Pix Automático)"
                        .into(),
                ),
                (None, None) => Outcome::Skip(match ctx.channel {
                    Channel::Email => "the customer has no e-mail on file".into(),
                    _ => "the customer has no phone on file".into(),
                }),
                (None, Some(to)) => self.send(ctx, to).await,
            },
        };

        let attempts = match outcome {
            Outcome::Skip(_) | Outcome::Wait(_) => pending.attempts,
            _ => pending.attempts + 1,
        };
        let label = match &outcome {
            Outcome::Sent(_) => "ok",
            Outcome::Skip(_) => "skipped",
            Outcome::Wait(_) => "wait",
            Outcome::Retry(_) if attempts < MAX_ATTEMPTS => "retry",
            Outcome::Fail(_) | Outcome::Retry(_) => "failed",
        };
        metrics::counter!(
            "paylink_outbox_attempts_total",
            "queue" => "notifications",
            "outcome" => label,
        )
        .increment(1);
        let now = now_iso();
        let (status, next, error, sent_at, provider_id) = match outcome {
            Outcome::Sent(id) => ("sent", None, None, Some(now), id),
            Outcome::Skip(reason) => ("skipped", None, Some(reason), None, None),
            Outcome::Wait(why) => {
                let next = crate::store::iso_in(COLLECTING_RECHECK);
                ("pending", Some(next), Some(why), None, None)
            }
            Outcome::Fail(e) => ("failed", None, Some(e), None, None),
            Outcome::Retry(e) if attempts >= MAX_ATTEMPTS => ("failed", None, Some(e), None, None),
            Outcome::Retry(e) => {
                let delay = RETRY_SCHEDULE[(attempts - 1) as usize];
                let next = crate::store::iso_in(Duration::from_secs(delay));
                ("pending", Some(next), Some(e), None, None)
            }
        };
        let result = store::SendResult {
            status,
            attempts,
            next_attempt_at: next.as_deref(),
            error: error.as_deref(),
            sent_at: sent_at.as_deref(),
            recipient,
            provider_id: provider_id.as_deref(),
        };
        store::record_send(&self.db, send_id, lease, &result).await
    }

    /// The payer page of `ctx`'s invoice, opened in the payer's language.
    fn pay_url(&self, ctx: &Context) -> String {
        let lang = match ctx.lang {
            Lang::PtBr => "",
            Lang::En => "?lang=en",
        };
        format!("{}/pay/{}{lang}", self.public_url, ctx.invoice_id)
    }

    /// A new link to the payer's page of charges for `ctx`'s e-mail (`domain::charges_links`):
    /// each send makes its own, an attempt after a failed one replacing it. Best effort: an
    /// e-mail without it still tells the payer what is due.
    async fn charges_link(&self, ctx: &Context) -> Option<String> {
        let customer = crate::store::charges_links::customer_of(&self.db, &ctx.invoice_id)
            .await
            .ok()??;
        let minted = crate::domain::charges_links::mint(
            &self.db,
            &self.public_url,
            &ctx.application_id,
            &customer,
            crate::domain::now_ms(),
            Some(&ctx.send_id),
        )
        .await;
        match minted {
            Ok(m) if ctx.lang == Lang::En => Some(format!("{}?lang=en", m.url)),
            Ok(m) => Some(m.url),
            Err(e) => {
                tracing::warn!(error = %e, "no link to the page of charges in this e-mail");
                None
            }
        }
    }

    /// Sends through the channel's provider, counted in `paylink_provider_requests_total`.
    async fn send(&self, ctx: &Context, to: &str) -> Outcome {
        let (provider, outcome) = match ctx.channel {
            Channel::Email => ("smtp", self.send_email(ctx, to).await),
            Channel::WhatsApp if self.whatsapp.is_some() => {
                ("whatsapp", self.send_whatsapp(ctx, to).await)
            }
            Channel::Sms if self.twilio.is_some() => ("sms", self.send_twilio(ctx, to).await),
            Channel::WhatsApp | Channel::Sms => ("http", self.send_http(ctx, to).await),
        };
        let label = match &outcome {
            Outcome::Sent(_) => "ok",
            // Worth another try later: unreachable, a timeout, a 5xx, or not configured yet.
            Outcome::Retry(_) => "error",
            // The provider said no for good (or the message could not be built).
            Outcome::Fail(_) => "refused",
            // Nothing was sent: an unusable address, say.
            Outcome::Skip(_) | Outcome::Wait(_) => "skipped",
        };
        metrics::counter!(
            "paylink_provider_requests_total",
            "provider" => provider,
            "outcome" => label,
        )
        .increment(1);
        outcome
    }

    async fn send_email(&self, ctx: &Context, to: &str) -> Outcome {
        let Some((transport, from)) = &self.smtp else {
            return Outcome::Retry("no SMTP server configured".into());
        };
        let address = match to.parse::<lettre::Address>() {
            Ok(a) => a,
            Err(e) => return Outcome::Skip(format!("the customer's e-mail is unusable: {e}")),
        };
        let url = self.pay_url(ctx);
        let mail = match crate::domain::mail::email(
            &self.db,
            &self.payer,
            ctx,
            &url,
            &self.public_url,
            crate::domain::today(),
        )
        .await
        {
            Ok(m) => m,
            Err(e) => return Outcome::Retry(format!("cannot read the invoice: {e}")),
        };
        let mut mail = mail;
        if let Some(link) = self.charges_link(ctx).await {
            crate::domain::mail::with_charges_link(&mut mail, ctx.lang, &link);
        }
        let alternative = MultiPart::alternative_plain_html(mail.text, mail.html);
        let body = match mail.attachment {
            Some(a) => MultiPart::mixed().multipart(alternative).singlepart(
                lettre::message::Attachment::new(a.file_name).body(
                    a.bytes,
                    ContentType::parse(a.content_type).unwrap_or(ContentType::TEXT_PLAIN),
                ),
            ),
            None => alternative,
        };
        // The same Message-ID on every attempt, so a duplicate (the
        // server took it but the answer was lost) can be recognised.
        let message_id = format!("<{}@{}>", ctx.send_id, from.email.domain());
        let message = lettre::Message::builder()
            .message_id(Some(message_id.clone()))
            .from(from.clone())
            .to(Mailbox::new(Some(ctx.full_name.clone()), address))
            .subject(mail.subject)
            .multipart(body);
        let message = match message {
            Ok(m) => m,
            Err(e) => return Outcome::Fail(format!("cannot build the e-mail: {e}")),
        };
        match transport.send(message).await {
            Ok(_) => Outcome::Sent(Some(message_id)),
            // 5xx: the server refused it for good (the address, the content, the login).
            Err(e) if e.is_permanent() => {
                Outcome::Fail(format!("SMTP: {}", super::error_chain(&e)))
            }
            // 4xx, a connection or TLS failure, a timeout: later.
            Err(e) => Outcome::Retry(format!("SMTP: {}", super::error_chain(&e))),
        }
    }

    /// A template message through WhatsApp's Cloud API; its `messages[0].id` is kept for
    /// the status webhooks.
    async fn send_whatsapp(&self, ctx: &Context, to: &str) -> Outcome {
        let Some(w) = &self.whatsapp else {
            return Outcome::Retry("WhatsApp is not configured".into());
        };
        let today = crate::domain::today();
        let params = TemplateParams {
            name: messages::first_name(ctx),
            amount: format_brl(messages::amount_stated(ctx, today), Lang::PtBr),
            due: ctx.due.map(Date::format_br).unwrap_or_default(),
            link: self.pay_url(ctx),
        };
        let body = providers::whatsapp_message(w, to, &params);
        let url = match self.outbound.target(&w.messages_url()) {
            Ok(u) => u,
            Err(e) => return Outcome::Retry(format!("WhatsApp: {e}")),
        };
        let request = self
            .client
            .post(url)
            .bearer_auth(w.token.expose())
            .json(&body);
        match self.call(request, "WhatsApp", providers::graph_error).await {
            Ok(answer) => match providers::whatsapp_message_id(&answer) {
                Some(id) => Outcome::Sent(Some(id.to_string())),
                None => Outcome::Sent(None),
            },
            Err(o) => o,
        }
    }

    /// An SMS through Twilio's Messages API, with a status callback to this server; its
    /// `sid` is kept for the callbacks.
    async fn send_twilio(&self, ctx: &Context, to: &str) -> Outcome {
        let Some(t) = &self.twilio else {
            return Outcome::Retry("Twilio is not configured".into());
        };
        let text = messages::sms(ctx, &self.pay_url(ctx), crate::domain::today());
        let callback = format!("{}{SMS_CALLBACK_PATH}", self.public_url);
        let from_field = if t.from.starts_with("MG") {
            "MessagingServiceSid"
        } else {
            "From"
        };
        let form = [
            ("To", to),
            (from_field, t.from.as_str()),
            ("Body", text.as_str()),
            ("StatusCallback", callback.as_str()),
        ];
        let url = match self.outbound.target(&t.messages_url()) {
            Ok(u) => u,
            Err(e) => return Outcome::Retry(format!("Twilio: {e}")),
        };
        let request = self
            .client
            .post(url)
            .basic_auth(&t.account_sid, Some(t.auth_token.expose()))
            .form(&form);
        match self.call(request, "Twilio", providers::twilio_error).await {
            Ok(answer) => Outcome::Sent(
                answer["sid"]
                    .as_str()
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            ),
            Err(o) => o,
        }
    }

    /// A provider's API call: its JSON answer on 2xx; a 4xx (but 408 and 429) fails the
    /// send for good with the provider's own error, a 5xx, 408, 429 or no answer retries.
    async fn call(
        &self,
        request: reqwest::RequestBuilder,
        provider: &str,
        error_of: fn(&serde_json::Value) -> Option<String>,
    ) -> Result<serde_json::Value, Outcome> {
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => {
                return Err(Outcome::Retry(format!(
                    "{provider}: {}",
                    super::error_chain(&e)
                )))
            }
        };
        let status = response.status();
        let answer: serde_json::Value = response.json().await.unwrap_or_default();
        if status.is_success() {
            return Ok(answer);
        }
        let why = match error_of(&answer) {
            Some(e) => format!("{provider} answered HTTP {status}: {e}"),
            None => format!("{provider} answered HTTP {status}"),
        };
        if status.is_client_error() && !matches!(status.as_u16(), 408 | 429) {
            Err(Outcome::Fail(why))
        } else {
            Err(Outcome::Retry(why))
        }
    }

    /// The generic adapter (`--notify-http-url`): one JSON POST per message.
    async fn send_http(&self, ctx: &Context, to: &str) -> Outcome {
        let Some(url) = &self.http_url else {
            return Outcome::Retry("no HTTP provider configured".into());
        };
        let url = match self.outbound.target(url) {
            Ok(u) => u,
            Err(e) => return Outcome::Retry(e.to_string()),
        };
        let text = render(ctx, &self.pay_url(ctx), crate::domain::today());
        let body = json!({
            "channel": ctx.channel.as_str(),
            "to": to,
            "message": text.short,
            "invoiceId": ctx.invoice_id,
            "notificationId": ctx.notification_id,
        });
        match self.client.post(url).json(&body).send().await {
            Ok(r) if r.status().is_success() => Outcome::Sent(None),
            Ok(r) if r.status().is_client_error() && !matches!(r.status().as_u16(), 408 | 429) => {
                Outcome::Fail(format!("provider answered HTTP {}", r.status()))
            }
            Ok(r) => Outcome::Retry(format!("provider answered HTTP {}", r.status())),
            Err(e) => Outcome::Retry(super::error_chain(&e)),
        }
    }
}

/// The notices that an installment went unpaid past its due date: held back while a Pix
/// Automático cycle is still with the payer's bank, whose retries run up to 7 days after it.
fn overdue_notice(kind: NotificationType) -> bool {
    matches!(
        kind,
        NotificationType::InvoiceFail | NotificationType::InvoiceResend
    )
}

/// Why a date-based send about an installment no longer makes sense: the
/// installment is not waiting for payment any more.
fn no_longer_applies(ctx: &Context) -> Option<String> {
    use NotificationType::*;
    let about_an_open_charge = matches!(
        ctx.kind,
        SendInvoiceReminder | SendInvoiceAtDay | SendInvoiceCodeAtDay | InvoiceResend | InvoiceFail
    );
    match ctx.status.as_deref() {
        Some(s) if about_an_open_charge && s != "WAITING_PAYMENT" => Some(format!(
            "the installment is {s} (no longer waiting for payment)"
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::notifications::at_noon_utc;
    use paylink_model::Date;

    fn ctx(kind: NotificationType) -> Context {
        Context {
            send_id: "s".into(),
            kind,
            channel: Channel::Email,
            invoice_id: "inv".into(),
            application_id: "app".into(),
            notification_id: "n".into(),
            invoice_type: "INSTALLMENT".into(),
            installment_count: 3,
            description: Some("Curso de violão".into()),
            full_name: "Maria da Silva".into(),
            number: Some(2),
            price: 3333,
            price_paid: 0,
            due: Date::parse_iso("2027-02-28"),
            status: Some("WAITING_PAYMENT".into()),
            payment_types: vec!["PIX".into(), "BOLETO".into()],
            terms: Default::default(),
            bank_collects: false,
            lang: Lang::PtBr,
        }
    }

    fn day(iso: &str) -> Date {
        Date::parse_iso(iso).unwrap()
    }

    #[test]
    fn a_message_states_what_paying_on_its_day_costs() {
        use paylink_model::charges::{amount_due, DiscountTerm, Value};
        let mut c = ctx(NotificationType::InvoiceResend);
        // 2 % fine and 1 % a month: 10 days late on R$ 33,33 (due Sunday 28/02/2027, so
        // late from Tuesday 02/03, Monday being the last day without charges).
        c.terms.fine = Some(Value::Percent(200));
        c.terms.interest_monthly_bp = Some(100);
        let late = render(&c, "u", day("2027-03-10"));
        let a = amount_due(3333, day("2027-02-28"), day("2027-03-10"), &c.terms);
        assert!(a.total > 3333 + 66, "{a:?}");
        assert!(
            late.body.contains(&format!(
                "Pagando hoje (10/03/2027), o valor é {}, com multa e juros por atraso.",
                paylink_model::money::format_brl(a.total, paylink_model::Lang::PtBr)
            )),
            "{}",
            late.body
        );
        // On the due date nothing more is due: no note.
        let on_time = render(&c, "u", day("2027-02-28"));
        assert!(!on_time.body.contains("Pagando"), "{}", on_time.body);

        // A discount until 20/02: the reminder of 18/02 states it, that of 25/02 does not.
        c.kind = NotificationType::SendInvoiceReminder;
        c.terms.discount = Some(DiscountTerm {
            value: Value::Cents(333),
            until: day("2027-02-20"),
        });
        let early = render(&c, "u", day("2027-02-18"));
        assert!(
            early
                .body
                .contains("Pagando até 20/02/2027, o valor é R$ 30,00 (desconto de R$ 3,33)."),
            "{}",
            early.body
        );
        assert!(!render(&c, "u", day("2027-02-25")).body.contains("Pagando"));
        // The payment notice says what was paid, nothing about today.
        c.kind = NotificationType::InvoiceConfirmPayment;
        assert!(!render(&c, "u", day("2027-03-10")).body.contains("Pagando"));
    }

    #[test]
    fn every_message_is_pt_br_and_carries_the_payment_url() {
        for &kind in NotificationType::ALL {
            let t = render(&ctx(kind), "https://pay.example/pay/inv", day("2027-02-01"));
            assert!(t.body.starts_with("Olá, Maria!"), "{kind:?}: {}", t.body);
            assert!(t.body.contains("https://pay.example/pay/inv"), "{kind:?}");
            assert!(t.short.contains("https://pay.example/pay/inv"), "{kind:?}");
            assert!(t.body.contains("Curso de violão"), "{kind:?}");
            assert!(!t.subject.is_empty());
        }
        let r = render(
            &ctx(NotificationType::SendInvoiceReminder),
            "u",
            day("2027-02-01"),
        );
        assert!(
            r.body
                .contains("a parcela 2 de 3, no valor de R$ 33,33, vence em 28/02/2027"),
            "{}",
            r.body
        );
        let code = render(
            &ctx(NotificationType::SendInvoiceCodeAtDay),
            "u",
            day("2027-02-01"),
        );
        assert!(code.body.contains("O código PIX copia e cola e a linha digitável do boleto estão na página de pagamento"), "{}", code.body);
    }

    #[test]
    fn an_english_payer_reads_every_message_in_english() {
        let url = "https://pay.example/pay/inv?lang=en";
        for &kind in NotificationType::ALL {
            let mut c = ctx(kind);
            c.lang = Lang::En;
            let t = render(&c, url, day("2027-02-01"));
            assert!(t.body.starts_with("Hello, Maria!"), "{kind:?}: {}", t.body);
            assert!(t.body.contains(url) && t.short.contains(url), "{kind:?}");
            assert!(
                t.body.contains("For: Curso de violão"),
                "{kind:?}: {}",
                t.body
            );
            assert!(t.body.contains("If you have already paid"), "{kind:?}");
            for pt in ["Olá", "fatura", "parcela", "vence", "acesse", "Referente"] {
                assert!(!t.body.contains(pt), "{kind:?} says {pt:?}: {}", t.body);
                assert!(!t.subject.contains(pt), "{kind:?}: {}", t.subject);
            }
            let sms = messages::sms(&c, url, day("2027-02-01"));
            assert!(
                paylink_model::notify::gsm7_septets(&sms).is_some_and(|n| n <= 160),
                "{kind:?}: {sms}"
            );
            assert!(sms.ends_with(url), "{kind:?}: {sms}");
        }
        let mut c = ctx(NotificationType::SendInvoiceReminder);
        c.lang = Lang::En;
        let r = render(&c, "u", day("2027-02-01"));
        assert!(
            r.body
                .contains("Reminder: installment 2 of 3, of R$ 33.33, is due on 2027-02-28."),
            "{}",
            r.body
        );
        assert!(
            r.body.contains("To pay by PIX or boleto, open: u"),
            "{}",
            r.body
        );
        // What paying late costs, with the amount and date as English writes them.
        c.kind = NotificationType::InvoiceResend;
        c.terms.fine = Some(paylink_model::charges::Value::Percent(200));
        let late = render(&c, "u", day("2027-03-10"));
        assert!(
            late.body.contains(" Paid today (2027-03-10), it is R$ "),
            "{}",
            late.body
        );
    }

    #[test]
    fn every_sms_fits_one_segment_with_its_amount_and_link_whole() {
        let url = "https://loja.example/pay/0b6f3f1e-8a57-4f0e-9d2c-1c2b3a4d5e6f";
        for &kind in NotificationType::ALL {
            let mut c = ctx(kind);
            c.description =
                Some("Mensalidade do curso de violão clássico, turma de sábado ".repeat(3));
            let text = messages::sms(&c, url, day("2027-02-01"));
            assert!(
                paylink_model::notify::gsm7_septets(&text).is_some_and(|n| n <= 160),
                "{kind:?}: {text}"
            );
            assert!(text.starts_with("Maria, "), "{kind:?}: {text}");
            assert!(text.contains("R$ 33,33"), "{kind:?}: {text}");
            assert!(text.ends_with(url), "{kind:?}: {text}");
            assert!(
                text.contains("(Mensalidade"),
                "cut, not left out: {kind:?}: {text}"
            );
        }
    }

    #[test]
    fn a_pix_automatico_cycle_asks_the_payer_for_nothing_before_its_due_date() {
        use paylink_model::charges::{DiscountTerm, Value};
        use NotificationType::*;
        let url = "https://loja.example/pay/0b6f3f1e-8a57-4f0e-9d2c-1c2b3a4d5e6f";
        for kind in [
            SendFirstInvoiceBy,
            InvoiceGenerated,
            SendInvoiceReminder,
            SendInvoiceAtDay,
            SendInvoiceCodeAtDay,
        ] {
            let mut c = ctx(kind);
            c.bank_collects = true;
            c.payment_types = vec!["PIX".into()];
            // A discount a payment by hand would get is not the bank's amount.
            c.terms.discount = Some(DiscountTerm {
                value: Value::Cents(333),
                until: day("2027-02-20"),
            });
            let t = render(&c, url, day("2027-02-01"));
            assert!(
                t.body.contains(&format!("Seu banco vai pagá-la no vencimento, por Pix Automático, como você autorizou: não é preciso fazer nada. Detalhes em: {url}")),
                "{kind:?}: {}",
                t.body
            );
            for asked in ["Para pagar", "copia e cola", "Pagando até", "R$ 30,00"] {
                assert!(!t.body.contains(asked), "{kind:?}: {}", t.body);
            }
            let sms = messages::sms(&c, url, day("2027-02-01"));
            assert!(
                sms.contains("R$ 33,33") && sms.contains("Seu banco paga por Pix Automatico:"),
                "{kind:?}: {sms}"
            );
            assert!(!sms.contains("Pague"), "{kind:?}: {sms}");
        }
        // After the due date the notices wait while the bank collects (see `process`); once it
        // gave up, they ask as any other.
        let mut c = ctx(InvoiceFail);
        c.bank_collects = false;
        assert!(render(&c, url, day("2027-03-01"))
            .body
            .contains("Para regularizar"));
        assert!(overdue_notice(InvoiceFail) && overdue_notice(InvoiceResend));
        assert!(!overdue_notice(SendInvoiceReminder));
    }

    #[test]
    fn date_based_sends_are_at_noon_utc() {
        let d = Date::parse_iso("2027-01-31").unwrap();
        assert_eq!(
            at_noon_utc(d.add_days(-5).unwrap()),
            "2027-01-26T12:00:00.000Z"
        );
    }

    #[test]
    fn a_paid_installment_skips_reminders_but_not_the_payment_notice() {
        let mut c = ctx(NotificationType::SendInvoiceReminder);
        c.status = Some("CONFIRMED".into());
        assert!(no_longer_applies(&c).is_some());
        c.kind = NotificationType::InvoiceConfirmPayment;
        assert!(no_longer_applies(&c).is_none());
    }
}
