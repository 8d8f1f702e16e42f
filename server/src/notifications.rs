//! Payer notifications: every configured notification of an invoice becomes
//! scheduled sends in the `notification_sends` outbox, written inside the
//! transaction of the change that causes them (creation, a new installment, a
//! payment, a reversal). The [`Notifier`] worker of `serve` sends what is due
//! by e-mail (plain SMTP to a relay) or through an HTTP provider (WhatsApp,
//! SMS), and keeps everything in the database, like the webhook outbox.
//!
//! The rule of each type (times are UTC; 12:00 UTC is 09:00 in Brasília):
//!
//! | type | due |
//! |---|---|
//! | `SEND_FIRST_INVOICE_BY` | at creation, once per invoice |
//! | `INVOICE_GENERATED` | at creation, and for each installment generated later |
//! | `SEND_INVOICE_REMINDER` | `period` days (default 5) before each installment's due date, 12:00 |
//! | `SEND_INVOICE_AT_DAY`, `SEND_INVOICE_CODE_AT_DAY` | each due date, 12:00 |
//! | `INVOICE_RESEND` | `period` days (default 5) after each due date, 12:00 |
//! | `INVOICE_FAIL` | 1 day after each due date, 12:00 |
//! | `INVOICE_CONFIRM_PAYMENT` | when a payment is confirmed |
//! | `INVOICE_CHANGED` | when an installment changes other than by payment (a reversal) |

use std::sync::Arc;
use std::time::Duration;

use crate::db::Tx;
use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use paylink_model::money::format_brl;
use paylink_model::{Channel, Date, Lang, NotificationType};
use serde::Serialize;
use serde_json::json;
use sqlx::Row;

use crate::db::{new_id, now_iso, Db, DbError};

/// Delay before retry n (after the n-th failed attempt): 1 min, 10 min, 1 h;
/// after the fourth attempt the send is `failed`.
pub const RETRY_SCHEDULE: [u64; 3] = [60, 600, 3600];
pub const MAX_ATTEMPTS: i64 = RETRY_SCHEDULE.len() as i64 + 1;
pub const SEND_TIMEOUT: Duration = Duration::from_secs(15);
/// `period` of a reminder or resend configured without one.
pub const DEFAULT_PERIOD_DAYS: u32 = 5;

/// The instant of a date-based send: 12:00 UTC (09:00 in Brasília).
pub fn at_noon_utc(date: Date) -> String {
    format!("{date}T12:00:00.000Z")
}

/// The status of a send.
pub const STATUSES: [&str; 4] = ["pending", "sent", "failed", "skipped"];

// ---------------------------------------------------------------------------
// Scheduling, inside the caller's transaction.

struct Config {
    id: String,
    kind: NotificationType,
    channel: Channel,
    period: u32,
}

async fn configs(
    tx: &mut Tx<'_>,
    invoice_id: &str,
    only: Option<NotificationType>,
) -> Result<Vec<Config>, DbError> {
    let rows = sqlx::query(
        "SELECT id, type, channel, period FROM invoice_notifications WHERE invoice_id = $1 ORDER BY position",
    )
    .bind(invoice_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .iter()
        .filter_map(|r| {
            Some(Config {
                id: r.get("id"),
                kind: NotificationType::parse(r.get::<&str, _>("type"))?,
                channel: Channel::parse(r.get::<&str, _>("channel"))?,
                period: r
                    .get::<Option<i64>, _>("period")
                    .map_or(DEFAULT_PERIOD_DAYS, |p| p as u32),
            })
        })
        .filter(|c| only.is_none_or(|k| k == c.kind))
        .collect())
}

/// The customer's e-mail and phone.
async fn contact(
    tx: &mut Tx<'_>,
    invoice_id: &str,
) -> Result<(Option<String>, Option<String>), DbError> {
    let row = sqlx::query(
        "SELECT c.email, c.phone FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.id = $1",
    )
    .bind(invoice_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map_or((None, None), |r| (r.get("email"), r.get("phone"))))
}

fn recipient_for(
    channel: Channel,
    (email, phone): &(Option<String>, Option<String>),
) -> Option<String> {
    match channel {
        Channel::Email => email.clone(),
        Channel::WhatsApp | Channel::Sms => phone.clone(),
    }
}

/// Inserts a pending send. With `once`, nothing is inserted when this
/// notification already has a send for this installment, so scheduling the
/// same installment twice never sends twice.
async fn insert_send(
    tx: &mut Tx<'_>,
    invoice_id: &str,
    c: &Config,
    installment_id: Option<&str>,
    recipient: Option<&str>,
    due_at: &str,
    once: bool,
) -> Result<(), DbError> {
    let now = now_iso();
    sqlx::query(
        "INSERT INTO notification_sends (id, notification_id, invoice_id, installment_id, type, channel, recipient,
                due_at, status, attempts, next_attempt_at, created_at, updated_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $8, $9, $9
         WHERE NOT ($10 AND EXISTS (SELECT 1 FROM notification_sends WHERE notification_id = $2 AND installment_id = $4))",
    )
    .bind(new_id())
    .bind(&c.id)
    .bind(invoice_id)
    .bind(installment_id)
    .bind(c.kind.as_str())
    .bind(c.channel.as_str())
    .bind(recipient)
    .bind(due_at)
    .bind(&now)
    .bind(once)
    .execute(&mut **tx)
    .await
    .map(|_| ())
}

async fn has_sends(tx: &mut Tx<'_>, notification_id: &str) -> Result<bool, DbError> {
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM notification_sends WHERE notification_id = $1")
            .bind(notification_id)
            .fetch_one(&mut **tx)
            .await?;
    Ok(n > 0)
}

/// Schedules the sends of newly created installments `(id, number, due
/// date)`: at invoice creation (every installment of the new invoice) and
/// when the scheduler generates a later charge. Idempotent per installment.
pub async fn schedule_for_new_installments(
    tx: &mut Tx<'_>,
    invoice_id: &str,
    installments: &[(&str, u32, Date)],
) -> Result<(), DbError> {
    let Some(&(first_id, ..)) = installments.iter().min_by_key(|i| i.1) else {
        return Ok(());
    };
    let configs = configs(tx, invoice_id, None).await?;
    if configs.is_empty() {
        return Ok(());
    }
    let contact = contact(tx, invoice_id).await?;
    let now = now_iso();
    for c in &configs {
        let to = recipient_for(c.channel, &contact);
        let to = to.as_deref();
        let days = |d: Date, n: i64| at_noon_utc(d.add_days(n).unwrap_or(d));
        match c.kind {
            NotificationType::SendFirstInvoiceBy => {
                if !has_sends(tx, &c.id).await? {
                    insert_send(tx, invoice_id, c, Some(first_id), to, &now, true).await?;
                }
            }
            NotificationType::InvoiceGenerated => {
                if has_sends(tx, &c.id).await? {
                    // Charges generated after creation: one each.
                    for (id, ..) in installments {
                        insert_send(tx, invoice_id, c, Some(id), to, &now, true).await?;
                    }
                } else {
                    // The invoice itself, at creation: one, about its first charge.
                    insert_send(tx, invoice_id, c, Some(first_id), to, &now, true).await?;
                }
            }
            NotificationType::SendInvoiceReminder => {
                for &(id, _, due) in installments {
                    let at = days(due, -(c.period as i64));
                    insert_send(tx, invoice_id, c, Some(id), to, &at, true).await?;
                }
            }
            NotificationType::SendInvoiceAtDay | NotificationType::SendInvoiceCodeAtDay => {
                for &(id, _, due) in installments {
                    insert_send(tx, invoice_id, c, Some(id), to, &at_noon_utc(due), true).await?;
                }
            }
            NotificationType::InvoiceResend => {
                for &(id, _, due) in installments {
                    let at = days(due, c.period as i64);
                    insert_send(tx, invoice_id, c, Some(id), to, &at, true).await?;
                }
            }
            NotificationType::InvoiceFail => {
                for &(id, _, due) in installments {
                    insert_send(tx, invoice_id, c, Some(id), to, &days(due, 1), true).await?;
                }
            }
            // Caused by events, not dates.
            NotificationType::InvoiceConfirmPayment | NotificationType::InvoiceChanged => {}
        }
    }
    Ok(())
}

async fn on_event(
    tx: &mut Tx<'_>,
    invoice_id: &str,
    installment_id: &str,
    kind: NotificationType,
) -> Result<(), DbError> {
    let configs = configs(tx, invoice_id, Some(kind)).await?;
    if configs.is_empty() {
        return Ok(());
    }
    let contact = contact(tx, invoice_id).await?;
    let now = now_iso();
    for c in &configs {
        let to = recipient_for(c.channel, &contact);
        insert_send(
            tx,
            invoice_id,
            c,
            Some(installment_id),
            to.as_deref(),
            &now,
            false,
        )
        .await?;
    }
    Ok(())
}

/// `INVOICE_CONFIRM_PAYMENT`, due now: called in the payment's transaction.
pub async fn on_payment_confirmed(
    tx: &mut Tx<'_>,
    invoice_id: &str,
    installment_id: &str,
) -> Result<(), DbError> {
    on_event(
        tx,
        invoice_id,
        installment_id,
        NotificationType::InvoiceConfirmPayment,
    )
    .await
}

/// `INVOICE_CHANGED`, due now: called in the transaction of a change other
/// than a payment (a reversal).
pub async fn on_installment_changed(
    tx: &mut Tx<'_>,
    invoice_id: &str,
    installment_id: &str,
) -> Result<(), DbError> {
    on_event(
        tx,
        invoice_id,
        installment_id,
        NotificationType::InvoiceChanged,
    )
    .await
}

// ---------------------------------------------------------------------------
// Reading: the invoice detail and the CLI.

/// One line of `paylink notifications list`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SendRow {
    pub id: String,
    pub notification_id: String,
    pub invoice_id: String,
    pub installment: Option<u32>,
    #[serde(rename = "type")]
    pub kind: String,
    pub channel: String,
    pub recipient: Option<String>,
    pub due_at: String,
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: String,
    pub last_error: Option<String>,
    pub sent_at: Option<String>,
}

pub async fn list_sends(
    db: &Db,
    status: Option<&str>,
    invoice_id: Option<&str>,
) -> Result<Vec<SendRow>, DbError> {
    let rows = sqlx::query(
        "SELECT s.id, s.notification_id, s.invoice_id, n.number, s.type, s.channel, s.recipient, s.due_at, s.status,
                s.attempts, s.next_attempt_at, s.last_error, s.sent_at
         FROM notification_sends s LEFT JOIN installments n ON n.id = s.installment_id
         WHERE ($1 IS NULL OR s.status = $1) AND ($2 IS NULL OR s.invoice_id = $2)
         ORDER BY s.due_at, s.created_at, s.id",
    )
    .bind(status)
    .bind(invoice_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| SendRow {
            id: r.get("id"),
            notification_id: r.get("notification_id"),
            invoice_id: r.get("invoice_id"),
            installment: r.get::<Option<i64>, _>("number").map(|n| n as u32),
            kind: r.get("type"),
            channel: r.get("channel"),
            recipient: r.get("recipient"),
            due_at: r.get("due_at"),
            status: r.get("status"),
            attempts: r.get("attempts"),
            next_attempt_at: r.get("next_attempt_at"),
            last_error: r.get("last_error"),
            sent_at: r.get("sent_at"),
        })
        .collect())
}

#[derive(clap::Subcommand)]
pub enum NotificationsCommand {
    /// List scheduled sends, one JSON line each, in due order.
    List {
        /// pending, sent, failed or skipped.
        #[arg(long)]
        status: Option<String>,
        #[arg(long)]
        invoice: Option<String>,
        #[arg(long, default_value = "./paylink.db")]
        db: String,
    },
}

/// `paylink notifications ...`
pub async fn cli(command: NotificationsCommand) -> Result<(), String> {
    match command {
        NotificationsCommand::List {
            status,
            invoice,
            db: path,
        } => {
            if let Some(s) = &status {
                if !STATUSES.contains(&s.as_str()) {
                    return Err(format!("--status must be one of {}", STATUSES.join(", ")));
                }
            }
            let db = Db::open(&path)
                .await
                .map_err(|e| format!("cannot open database {path}: {e}"))?;
            let rows = list_sends(&db, status.as_deref(), invoice.as_deref())
                .await
                .map_err(|e| e.to_string())?;
            for r in rows {
                println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
            }
            Ok(())
        }
    }
}

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

/// The rows a message is made of.
struct Context {
    send_id: String,
    kind: NotificationType,
    channel: Channel,
    invoice_id: String,
    notification_id: String,
    invoice_type: String,
    installment_count: i64,
    description: Option<String>,
    full_name: String,
    number: Option<i64>,
    price: i64,
    price_paid: i64,
    due: Option<Date>,
    status: Option<String>,
    payment_types: Vec<String>,
}

/// A message, in pt-BR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    pub subject: String,
    pub body: String,
    /// One paragraph, for WhatsApp and SMS.
    pub short: String,
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

    /// Runs forever: sends what is due, then waits a little. Everything it
    /// needs is in the database, so a restart (or a CLI write) loses nothing.
    pub async fn run(self) {
        if self.smtp.is_none() && self.http_url.is_none() {
            tracing::warn!("no --smtp-url or --notify-http-url: notifications stay pending");
        }
        loop {
            match self.send_due().await {
                Ok(n) if n > 0 => continue,
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "notification pass failed"),
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }

    /// One pass: claims up to 16 due sends of the configured channels and
    /// sends them concurrently. Returns how many it took.
    pub async fn send_due(&self) -> Result<usize, DbError> {
        let (email, http) = (self.smtp.is_some(), self.http_url.is_some());
        if !email && !http {
            return Ok(0);
        }
        let now = now_iso();
        let due: Vec<String> = sqlx::query(
            "SELECT id FROM notification_sends WHERE status = 'pending' AND next_attempt_at <= $1
               AND (locked_until IS NULL OR locked_until < $1)
               AND (($2 AND channel = 'Email') OR ($3 AND channel <> 'Email'))
             ORDER BY next_attempt_at LIMIT 16",
        )
        .bind(&now)
        .bind(email)
        .bind(http)
        .fetch_all(&self.db.pool)
        .await?
        .iter()
        .map(|r| r.get("id"))
        .collect();
        crate::outbox::process_claimed(&self.db, "notification_sends", due, |id| {
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
        let row = sqlx::query(
            "SELECT s.notification_id, s.invoice_id, s.type, s.channel, s.attempts,
                    i.deleted_at AS invoice_deleted_at, i.invoice_type, i.installment_count, i.description,
                    i.price_cents AS invoice_price,
                    c.full_name, c.email, c.phone,
                    n.number, n.price_cents, n.price_paid_cents, n.due_date, n.status AS installment_status,
                    n.deleted_at AS installment_deleted_at
             FROM notification_sends s
             JOIN invoices i ON i.id = s.invoice_id
             JOIN customers c ON c.id = i.customer_id
             LEFT JOIN installments n ON n.id = s.installment_id
             WHERE s.id = $1",
        )
        .bind(send_id)
        .fetch_one(&self.db.pool)
        .await?;
        let attempts = row.get::<i64, _>("attempts");
        let channel = Channel::parse(row.get::<&str, _>("channel"));
        let kind = NotificationType::parse(row.get::<&str, _>("type"));
        let recipient: Option<String> = match channel {
            Some(Channel::Email) => row.get("email"),
            Some(_) => row.get("phone"),
            None => None,
        };
        let outcome = match (kind, channel) {
            (Some(kind), Some(channel)) => {
                let invoice_id: String = row.get("invoice_id");
                let payment_types: Vec<String> = sqlx::query_scalar(
                    "SELECT payment_type FROM invoice_payment_types WHERE invoice_id = $1 ORDER BY position",
                )
                .bind(&invoice_id)
                .fetch_all(&self.db.pool)
                .await?;
                let ctx = Context {
                    send_id: send_id.to_string(),
                    kind,
                    channel,
                    notification_id: row.get("notification_id"),
                    invoice_type: row.get("invoice_type"),
                    installment_count: row.get("installment_count"),
                    description: row.get("description"),
                    full_name: row.get("full_name"),
                    number: row.get("number"),
                    price: row
                        .get::<Option<i64>, _>("price_cents")
                        .unwrap_or_else(|| row.get("invoice_price")),
                    price_paid: row.get::<Option<i64>, _>("price_paid_cents").unwrap_or(0),
                    due: row
                        .get::<Option<String>, _>("due_date")
                        .and_then(|d| Date::parse_iso(&d)),
                    status: row.get("installment_status"),
                    payment_types,
                    invoice_id,
                };
                if row.get::<Option<String>, _>("invoice_deleted_at").is_some() {
                    Outcome::Skip("the invoice was deleted".into())
                } else if row
                    .get::<Option<String>, _>("installment_deleted_at")
                    .is_some()
                {
                    Outcome::Skip("the installment was deleted".into())
                } else if let Some(reason) = no_longer_applies(&ctx) {
                    Outcome::Skip(reason)
                } else {
                    match &recipient {
                        None => Outcome::Skip(match channel {
                            Channel::Email => "the customer has no e-mail on file".into(),
                            _ => "the customer has no phone on file".into(),
                        }),
                        Some(to) => self.send(&ctx, to).await,
                    }
                }
            }
            _ => Outcome::Fail("unknown stored type or channel".into()),
        };

        let now = now_iso();
        let attempts = match outcome {
            Outcome::Skip(_) => attempts,
            _ => attempts + 1,
        };
        let (status, next, error, sent_at) = match outcome {
            Outcome::Sent => ("sent", None, None, Some(now.clone())),
            Outcome::Skip(reason) => ("skipped", None, Some(reason), None),
            Outcome::Fail(e) => ("failed", None, Some(e), None),
            Outcome::Retry(e) if attempts >= MAX_ATTEMPTS => ("failed", None, Some(e), None),
            Outcome::Retry(e) => {
                let delay = RETRY_SCHEDULE[(attempts - 1) as usize];
                let next = crate::db::iso_in(Duration::from_secs(delay));
                ("pending", Some(next), Some(e), None)
            }
        };
        let _w = self.db.lock_writes().await;
        sqlx::query(
            "UPDATE notification_sends SET status = $1, attempts = $2,
                    next_attempt_at = COALESCE($3, next_attempt_at), last_error = $4, sent_at = $5,
                    recipient = COALESCE($6, recipient), locked_until = NULL, updated_at = $7
             WHERE id = $8",
        )
        .bind(status)
        .bind(attempts)
        .bind(&next)
        .bind(&error)
        .bind(&sent_at)
        .bind(&recipient)
        .bind(&now)
        .bind(send_id)
        .execute(&self.db.pool)
        .await?;
        Ok(())
    }

    fn pay_url(&self, invoice_id: &str) -> String {
        format!("{}/pay/{invoice_id}", self.public_url)
    }

    async fn send(&self, ctx: &Context, to: &str) -> Outcome {
        let text = render(ctx, &self.pay_url(&ctx.invoice_id));
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
                        Outcome::Fail(format!("SMTP: {}", error_chain(&e)))
                    }
                    Err(e) => Outcome::Retry(format!("SMTP: {}", error_chain(&e))),
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
                    Err(e) => Outcome::Retry(error_chain(&e)),
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

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// The pt-BR message of a send.
fn render(ctx: &Context, url: &str) -> Text {
    use NotificationType::*;
    let name = ctx
        .full_name
        .split_whitespace()
        .next()
        .unwrap_or(&ctx.full_name)
        .to_string();
    let amount = format_brl(ctx.price, Lang::PtBr);
    let date = ctx.due.map(Date::format_br).unwrap_or_default();
    // "a parcela 2 de 3" for installment plans, "a fatura" otherwise.
    let (this, of_this, to_this) = match ctx.number {
        Some(n) if ctx.invoice_type == "INSTALLMENT" && ctx.installment_count > 1 => {
            let part = format!("parcela {n} de {}", ctx.installment_count);
            (
                format!("a {part}"),
                format!("da {part}"),
                format!("à {part}"),
            )
        }
        _ => ("a fatura".into(), "da fatura".into(), "à fatura".into()),
    };
    let this_cap = capitalize(&this);
    let methods = {
        let names: Vec<&str> = ctx
            .payment_types
            .iter()
            .map(|t| if t == "BOLETO" { "boleto" } else { "PIX" })
            .collect();
        if names.is_empty() {
            "PIX ou boleto".to_string()
        } else {
            names.join(" ou ")
        }
    };
    let codes = {
        let mut c = Vec::new();
        if ctx.payment_types.iter().any(|t| t == "PIX") {
            c.push("o código PIX copia e cola");
        }
        if ctx.payment_types.iter().any(|t| t == "BOLETO") {
            c.push("a linha digitável do boleto");
        }
        if c.is_empty() {
            "Os códigos de pagamento estão".to_string()
        } else {
            capitalize(&c.join(" e ")) + if c.len() > 1 { " estão" } else { " está" }
        }
    };
    let pay = format!("Para pagar por {methods}, acesse: {url}");
    let see = format!("Veja os detalhes em: {url}");
    let (subject, lead, closing) = match ctx.kind {
        SendFirstInvoiceBy => (
            format!("Sua fatura de {amount} chegou"),
            format!("{this_cap}, no valor de {amount}, vence em {date}."),
            pay,
        ),
        InvoiceGenerated => (
            format!("Nova cobrança de {amount}, vencimento em {date}"),
            format!("Foi gerada {this}, no valor de {amount}, com vencimento em {date}."),
            pay,
        ),
        SendInvoiceReminder => (
            format!("Lembrete: sua fatura vence em {date}"),
            format!("Lembrete: {this}, no valor de {amount}, vence em {date}."),
            pay,
        ),
        SendInvoiceAtDay => (
            "Sua fatura vence hoje".to_string(),
            format!("{this_cap}, no valor de {amount}, vence hoje ({date})."),
            pay,
        ),
        SendInvoiceCodeAtDay => (
            "Sua fatura vence hoje: código de pagamento".to_string(),
            format!(
                "{this_cap}, no valor de {amount}, vence hoje ({date}). {codes} na página de pagamento."
            ),
            format!("Página de pagamento: {url}"),
        ),
        InvoiceResend => (
            "Sua fatura está em aberto".to_string(),
            format!("{this_cap}, no valor de {amount}, venceu em {date} e ainda está em aberto."),
            pay,
        ),
        InvoiceFail => (
            "Fatura vencida e não paga".to_string(),
            format!(
                "Não identificamos o pagamento {of_this}, no valor de {amount}, vencida em {date}."
            ),
            format!("Para regularizar por {methods}, acesse: {url}"),
        ),
        InvoiceConfirmPayment => (
            "Pagamento confirmado".to_string(),
            format!(
                "Recebemos o pagamento de {} referente {to_this}. Obrigado!",
                format_brl(ctx.price_paid.max(ctx.price), Lang::PtBr)
            ),
            see,
        ),
        InvoiceChanged => {
            let what = match ctx.status.as_deref() {
                Some("REVERSED") => "o pagamento foi estornado".to_string(),
                Some("CONFIRMED") => "o pagamento foi confirmado".to_string(),
                Some("WAITING_PAYMENT") => "agora aguarda pagamento".to_string(),
                Some(s) => format!("a situação agora é {s}"),
                None => "houve uma alteração".to_string(),
            };
            (
                "Sua fatura foi alterada".to_string(),
                format!("{this_cap}, no valor de {amount}, com vencimento em {date}, foi alterada: {what}."),
                see,
            )
        }
    };
    let about = ctx
        .description
        .as_deref()
        .filter(|d| !d.trim().is_empty())
        .map(|d| format!("Referente a: {d}\n\n"))
        .unwrap_or_default();
    let body = format!(
        "Olá, {name}!\n\n{lead}\n\n{about}{closing}\n\n--\nMensagem automática enviada pelo paylink. \
         Se você já pagou, desconsidere.\n"
    );
    let short = format!("Olá, {name}! {lead} {closing}");
    Text {
        subject,
        body,
        short,
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        }
    }

    #[test]
    fn every_message_is_pt_br_and_carries_the_payment_url() {
        for &kind in NotificationType::ALL {
            let t = render(&ctx(kind), "https://pay.example/pay/inv");
            assert!(t.body.starts_with("Olá, Maria!"), "{kind:?}: {}", t.body);
            assert!(t.body.contains("https://pay.example/pay/inv"), "{kind:?}");
            assert!(t.short.contains("https://pay.example/pay/inv"), "{kind:?}");
            assert!(t.body.contains("Curso de violão"), "{kind:?}");
            assert!(!t.subject.is_empty());
        }
        let r = render(&ctx(NotificationType::SendInvoiceReminder), "u");
        assert!(
            r.body
                .contains("a parcela 2 de 3, no valor de R$ 33,33, vence em 28/02/2027"),
            "{}",
            r.body
        );
        let code = render(&ctx(NotificationType::SendInvoiceCodeAtDay), "u");
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
