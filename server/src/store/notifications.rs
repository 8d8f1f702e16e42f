//! Payer notifications: every configured notification of an invoice becomes
//! scheduled sends in the `notification_sends` outbox, written inside the
//! transaction of the change that causes them (creation, a new installment, a
//! payment, a reversal). The [`Notifier`] worker of `serve` sends what is due
//! by e-mail (SMTP), WhatsApp (Cloud API), SMS (Twilio) or the generic HTTP
//! adapter, and keeps everything in the database, like the webhook outbox;
//! the providers' status callbacks are kept by provider id
//! (`notification_provider_statuses`) and read here with each send.
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
//!
//! This file holds the scheduling (inside the caller's transaction) and the reading of sends
//! (the detail's and the CLI's, the recipient masked).

use crate::store::WriteTx;
use paylink_model::notify::mask_recipient;
use paylink_model::{Channel, Date, NotificationSend, NotificationType, ProviderStatus};
use serde::Serialize;
use sqlx::Row;

use crate::store::{new_id, now_iso, Db, DbError};

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
    tx: &mut WriteTx,
    invoice_id: &str,
    only: Option<NotificationType>,
) -> Result<Vec<Config>, DbError> {
    let rows: Vec<(String, String, String, Option<i64>)> = sqlx::query_as(
        "SELECT id, type, channel, period FROM invoice_notifications WHERE invoice_id = $1 ORDER BY position",
    )
    .bind(invoice_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, kind, channel, period)| {
            Some(Config {
                id,
                kind: NotificationType::parse(&kind)?,
                channel: Channel::parse(&channel)?,
                period: period.map_or(DEFAULT_PERIOD_DAYS, |p| p as u32),
            })
        })
        .filter(|c| only.is_none_or(|k| k == c.kind))
        .collect())
}

/// The customer's e-mail and phone.
async fn contact(
    tx: &mut WriteTx,
    invoice_id: &str,
) -> Result<(Option<String>, Option<String>), DbError> {
    let row = sqlx::query_as(
        "SELECT c.email, c.phone FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.id = $1",
    )
    .bind(invoice_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.unwrap_or_default())
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
    tx: &mut WriteTx,
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

async fn has_sends(tx: &mut WriteTx, notification_id: &str) -> Result<bool, DbError> {
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
    tx: &mut WriteTx,
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
    tx: &mut WriteTx,
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
    tx: &mut WriteTx,
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
    tx: &mut WriteTx,
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

/// A send's stored columns as the detail and the CLI read them (the provider's status
/// joined by the send's provider id).
pub(crate) struct SendColumns {
    pub installment: Option<i64>,
    pub due_at: String,
    pub status: String,
    pub sent_at: Option<String>,
    pub channel: String,
    pub recipient: Option<String>,
    pub provider_id: Option<String>,
    pub provider_status: Option<String>,
    pub provider_status_at: Option<String>,
    pub last_error: Option<String>,
}

/// A send as the merchant sees it: its recipient masked (`paylink_model::notify`).
pub(crate) fn send_of(c: SendColumns) -> NotificationSend {
    let channel = Channel::parse(&c.channel);
    NotificationSend {
        installment: c.installment.map(|n| n as u32),
        due_at: c.due_at,
        status: c.status,
        sent_at: c.sent_at,
        to: match (channel, c.recipient.as_deref()) {
            (Some(ch), Some(r)) => Some(mask_recipient(ch, r)),
            _ => None,
        },
        channel,
        provider_id: c.provider_id,
        provider_status: c.provider_status.as_deref().and_then(ProviderStatus::parse),
        provider_status_at: c.provider_status_at,
        last_error: c.last_error,
    }
}

/// One line of `paylink notifications list`: the detail's send with its ids and
/// attempts. The recipient is masked, as on the merchant's screen.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SendRow {
    pub id: String,
    pub notification_id: String,
    pub invoice_id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub attempts: i64,
    pub next_attempt_at: String,
    /// The stored e-mail or phone, for tests and the worker; never printed.
    #[serde(skip)]
    pub recipient: Option<String>,
    #[serde(flatten)]
    pub send: NotificationSend,
}

impl std::ops::Deref for SendRow {
    type Target = NotificationSend;
    fn deref(&self) -> &NotificationSend {
        &self.send
    }
}

pub async fn list_sends(
    db: &Db,
    status: Option<&str>,
    invoice_id: Option<&str>,
) -> Result<Vec<SendRow>, DbError> {
    let rows = sqlx::query(
        "SELECT s.id, s.notification_id, s.invoice_id, n.number, s.type, s.channel, s.recipient, s.due_at, s.status,
                s.attempts, s.next_attempt_at, s.sent_at, s.provider_id,
                ps.status AS provider_status, ps.received_at AS provider_status_at,
                COALESCE(ps.error, s.last_error) AS last_error
         FROM notification_sends s LEFT JOIN installments n ON n.id = s.installment_id
         LEFT JOIN notification_provider_statuses ps
           ON ps.channel = s.channel AND ps.provider_id = s.provider_id
         WHERE ($1 IS NULL OR s.status = $1) AND ($2 IS NULL OR s.invoice_id = $2)
         ORDER BY s.due_at, s.created_at, s.id",
    )
    .bind(status)
    .bind(invoice_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let recipient: Option<String> = r.try_get("recipient")?;
            Ok(SendRow {
                id: r.try_get("id")?,
                notification_id: r.try_get("notification_id")?,
                invoice_id: r.try_get("invoice_id")?,
                kind: r.try_get("type")?,
                attempts: r.try_get("attempts")?,
                next_attempt_at: r.try_get("next_attempt_at")?,
                send: send_of(SendColumns {
                    installment: r.try_get("number")?,
                    due_at: r.try_get("due_at")?,
                    status: r.try_get("status")?,
                    sent_at: r.try_get("sent_at")?,
                    channel: r.try_get("channel")?,
                    recipient: recipient.clone(),
                    provider_id: r.try_get("provider_id")?,
                    provider_status: r.try_get("provider_status")?,
                    provider_status_at: r.try_get("provider_status_at")?,
                    last_error: r.try_get("last_error")?,
                }),
                recipient,
            })
        })
        .collect()
}

/// Why a resend could not be queued.
#[derive(Debug, thiserror::Error)]
pub enum ResendError {
    /// No installment is waiting for payment: nothing to ask for.
    #[error("no installment is waiting for payment")]
    NothingOpen,
    /// The invoice has no notification configured: no channel to use.
    #[error("the invoice has no notification to send through")]
    NoChannel,
    #[error("database error: {0}")]
    Db(DbError),
}

impl From<DbError> for ResendError {
    fn from(e: DbError) -> Self {
        ResendError::Db(e)
    }
}

/// The merchant's "send the charge again": one `INVOICE_GENERATED` send,
/// due now, about the next open installment, on each channel the invoice's
/// notifications use (the first notification of a channel carries it).
/// Returns how many sends were queued.
pub async fn resend_now(db: &Db, invoice_id: &str) -> Result<usize, ResendError> {
    let mut tx = db.begin_write().await?;
    let open: Option<String> = sqlx::query_scalar(
        "SELECT id FROM installments WHERE invoice_id = $1 AND status = 'WAITING_PAYMENT'
           AND deleted_at IS NULL ORDER BY number LIMIT 1",
    )
    .bind(invoice_id)
    .fetch_optional(&mut *tx)
    .await?;
    let open = open.ok_or(ResendError::NothingOpen)?;
    let mut channels = Vec::new();
    let all = configs(&mut tx, invoice_id, None).await?;
    for c in all {
        if !channels.iter().any(|k: &Config| k.channel == c.channel) {
            channels.push(Config {
                kind: NotificationType::InvoiceGenerated,
                ..c
            });
        }
    }
    if channels.is_empty() {
        return Err(ResendError::NoChannel);
    }
    let contact = contact(&mut tx, invoice_id).await?;
    let now = now_iso();
    for c in &channels {
        let to = recipient_for(c.channel, &contact);
        insert_send(
            &mut tx,
            invoice_id,
            c,
            Some(&open),
            to.as_deref(),
            &now,
            false,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(channels.len())
}
