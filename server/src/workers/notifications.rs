//! The notification sender: sends what is due in `notification_sends` by
//! e-mail (plain SMTP to a relay) or through an HTTP provider (WhatsApp, SMS),
//! retrying on its schedule. What is scheduled, and when, is `store::notifications`;
//! the words are `domain::messages`.

use std::sync::Arc;
use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use paylink_model::{Channel, NotificationType};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::domain::messages::{render, Context};
use crate::store::sends as store;
use crate::store::{now_iso, Db, DbError};

/// Delay before retry n (after the n-th failed attempt): 1 min, 10 min, 1 h;
/// after the fourth attempt the send is `failed`.
pub const RETRY_SCHEDULE: [u64; 3] = [60, 600, 3600];
pub const MAX_ATTEMPTS: i64 = RETRY_SCHEDULE.len() as i64 + 1;
pub const SEND_TIMEOUT: Duration = Duration::from_secs(15);
/// The pause after a pass that found nothing due.
const IDLE: Duration = Duration::from_millis(300);

// ---------------------------------------------------------------------------
// Sending.

/// An SMTP relay reached in plain text (no TLS, no authentication).
#[derive(Clone, Debug)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub from: Mailbox,
}

impl SmtpConfig {
    /// `smtp://host[:port]` (port 25 by default) and the sender, e.g.
    /// `Loja <cobranca@loja.example>`.
    pub fn new(url: &str, from: &str) -> Result<SmtpConfig, String> {
        let parsed = reqwest::Url::parse(url).map_err(|e| format!("--smtp-url {url:?}: {e}"))?;
        if parsed.scheme() != "smtp" {
            return Err(format!(
                "--smtp-url must be smtp://host:port (plain SMTP to a local relay; TLS is not supported), not {url:?}"
            ));
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err("--smtp-url: authentication is not supported (use a local relay)".into());
        }
        let host = parsed
            .host_str()
            .ok_or_else(|| format!("--smtp-url {url:?} has no host"))?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let from = from
            .parse::<Mailbox>()
            .map_err(|e| format!("--smtp-from {from:?}: {e}"))?;
        Ok(SmtpConfig {
            host,
            port: parsed.port().unwrap_or(25),
            from,
        })
    }
}

/// Where notifications go. A channel left out keeps its sends `pending`.
#[derive(Clone, Debug, Default)]
pub struct NotifyConfig {
    /// Base of payment links: `{public_url}/pay/{invoice id}`.
    pub public_url: String,
    /// Email.
    pub smtp: Option<SmtpConfig>,
    /// WhatsApp and SMS: a JSON POST per message.
    pub http_url: Option<String>,
}

impl NotifyConfig {
    pub fn new(
        public_url: &str,
        smtp_url: Option<&str>,
        smtp_from: Option<&str>,
        http_url: Option<&str>,
    ) -> Result<NotifyConfig, String> {
        let smtp = match (smtp_url, smtp_from) {
            (Some(url), Some(from)) => Some(SmtpConfig::new(url, from)?),
            (Some(_), None) => return Err("--smtp-url needs --smtp-from".into()),
            (None, _) => None,
        };
        if let Some(u) = http_url {
            let parsed =
                reqwest::Url::parse(u).map_err(|e| format!("--notify-http-url {u:?}: {e}"))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return Err(format!("--notify-http-url must be http(s)://, not {u:?}"));
            }
        }
        Ok(NotifyConfig {
            public_url: public_url.to_string(),
            smtp,
            http_url: http_url.map(str::to_string),
        })
    }
}

#[derive(Clone)]
pub struct Notifier {
    db: Db,
    public_url: Arc<str>,
    smtp: Option<(Arc<AsyncSmtpTransport<Tokio1Executor>>, Mailbox)>,
    http_url: Option<Arc<str>>,
    client: reqwest::Client,
}

/// What one attempt came to.
enum Outcome {
    Sent,
    /// Will not be sent, and that is not a failure (paid, deleted, nobody to send to).
    Skip(String),
    /// Worth trying again later.
    Retry(String),
    /// Will never work (the relay or provider refused it for good).
    Fail(String),
}

impl Notifier {
    pub fn new(db: Db, config: NotifyConfig) -> Notifier {
        let smtp = config.smtp.map(|s| {
            let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(s.host)
                .port(s.port)
                .timeout(Some(SEND_TIMEOUT))
                .build();
            (Arc::new(transport), s.from)
        });
        Notifier {
            db,
            public_url: Arc::from(config.public_url.trim_end_matches('/')),
            smtp,
            http_url: config.http_url.map(|u| Arc::from(u.as_str())),
            client: reqwest::Client::builder()
                .timeout(SEND_TIMEOUT)
                .connect_timeout(Duration::from_secs(5))
                .redirect(reqwest::redirect::Policy::none())
                .user_agent("paylink-notifications/1")
                .build()
                .expect("a valid HTTP client"),
        }
    }

    /// Sends what is due until `shutdown`; see [`super::poll`]. Everything
    /// it needs is in the database, so a restart (or a CLI write) loses nothing.
    pub async fn run(self, shutdown: CancellationToken) {
        if self.smtp.is_none() && self.http_url.is_none() {
            tracing::warn!("no --smtp-url or --notify-http-url: notifications stay pending");
        }
        super::poll("notifications", shutdown, IDLE, || self.send_due()).await;
    }

    /// One pass: claims up to 16 due sends of the configured channels and
    /// sends them concurrently. Returns how many it took.
    pub async fn send_due(&self) -> Result<usize, DbError> {
        let (email, http) = (self.smtp.is_some(), self.http_url.is_some());
        if !email && !http {
            return Ok(0);
        }
        let due = store::due_sends(&self.db, email, http).await?;
        crate::store::outbox::process_claimed(&self.db, "notification_sends", due, |id| {
            let me = self.clone();
            async move {
                if let Err(e) = me.process(&id).await {
                    tracing::warn!(send = %id, error = %e, "notification failed to record");
                }
            }
        })
        .await
    }

    async fn process(&self, send_id: &str) -> Result<(), DbError> {
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
                (None, None) => Outcome::Skip(match ctx.channel {
                    Channel::Email => "the customer has no e-mail on file".into(),
                    _ => "the customer has no phone on file".into(),
                }),
                (None, Some(to)) => self.send(ctx, to).await,
            },
        };

        let attempts = match outcome {
            Outcome::Skip(_) => pending.attempts,
            _ => pending.attempts + 1,
        };
        let now = now_iso();
        let (status, next, error, sent_at) = match outcome {
            Outcome::Sent => ("sent", None, None, Some(now)),
            Outcome::Skip(reason) => ("skipped", None, Some(reason), None),
            Outcome::Fail(e) => ("failed", None, Some(e), None),
            Outcome::Retry(e) if attempts >= MAX_ATTEMPTS => ("failed", None, Some(e), None),
            Outcome::Retry(e) => {
                let delay = RETRY_SCHEDULE[(attempts - 1) as usize];
                let next = crate::store::iso_in(Duration::from_secs(delay));
                ("pending", Some(next), Some(e), None)
            }
        };
        let result = store::SendResult {
            status,
            attempts,
            next_attempt_at: next.as_deref(),
            error: error.as_deref(),
            sent_at: sent_at.as_deref(),
            recipient,
        };
        store::record_send(&self.db, send_id, &result).await
    }

    fn pay_url(&self, invoice_id: &str) -> String {
        format!("{}/pay/{invoice_id}", self.public_url)
    }

    async fn send(&self, ctx: &Context, to: &str) -> Outcome {
        let text = render(ctx, &self.pay_url(&ctx.invoice_id), crate::domain::today());
        match ctx.channel {
            Channel::Email => {
                let Some((transport, from)) = &self.smtp else {
                    return Outcome::Retry("no SMTP relay configured".into());
                };
                let address = match to.parse::<lettre::Address>() {
                    Ok(a) => a,
                    Err(e) => {
                        return Outcome::Skip(format!("the customer's e-mail is unusable: {e}"))
                    }
                };
                // The same Message-ID on every attempt, so a duplicate (the
                // relay took it but the answer was lost) can be recognised.
                let message = lettre::Message::builder()
                    .message_id(Some(format!("<{}@{}>", ctx.send_id, from.email.domain())))
                    .from(from.clone())
                    .to(Mailbox::new(Some(ctx.full_name.clone()), address))
                    .subject(text.subject)
                    .header(ContentType::TEXT_PLAIN)
                    .body(text.body);
                let message = match message {
                    Ok(m) => m,
                    Err(e) => return Outcome::Fail(format!("cannot build the e-mail: {e}")),
                };
                match transport.send(message).await {
                    Ok(_) => Outcome::Sent,
                    Err(e) if e.is_permanent() => {
                        Outcome::Fail(format!("SMTP: {}", super::error_chain(&e)))
                    }
                    Err(e) => Outcome::Retry(format!("SMTP: {}", super::error_chain(&e))),
                }
            }
            Channel::WhatsApp | Channel::Sms => {
                let Some(url) = &self.http_url else {
                    return Outcome::Retry("no HTTP provider configured".into());
                };
                let body = json!({
                    "channel": ctx.channel.as_str(),
                    "to": to,
                    "message": text.short,
                    "invoiceId": ctx.invoice_id,
                    "notificationId": ctx.notification_id,
                });
                match self.client.post(url.as_ref()).json(&body).send().await {
                    Ok(r) if r.status().is_success() => Outcome::Sent,
                    Ok(r)
                        if r.status().is_client_error()
                            && !matches!(r.status().as_u16(), 408 | 429) =>
                    {
                        Outcome::Fail(format!("provider answered HTTP {}", r.status()))
                    }
                    Ok(r) => Outcome::Retry(format!("provider answered HTTP {}", r.status())),
                    Err(e) => Outcome::Retry(super::error_chain(&e)),
                }
            }
        }
    }
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

    #[test]
    fn smtp_urls_are_plain_smtp_only() {
        let c = SmtpConfig::new("smtp://127.0.0.1:2525", "Loja <cobranca@loja.example>").unwrap();
        assert_eq!((c.host.as_str(), c.port), ("127.0.0.1", 2525));
        assert_eq!(
            SmtpConfig::new("smtp://relay", "a@b.example").unwrap().port,
            25
        );
        assert!(SmtpConfig::new("smtps://relay:465", "a@b.example").is_err());
        assert!(SmtpConfig::new("smtp://u:p@relay", "a@b.example").is_err());
        assert!(SmtpConfig::new("smtp://relay", "not an address").is_err());
    }
}
