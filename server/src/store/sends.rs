//! The notification sender's side of the `notification_sends` outbox: claiming
//! the due sends, the facts one is about, and recording what became of it.
//! (Scheduling sends, and listing them, is `store::notifications`.)

use paylink_model::charges::ChargeTerms;
use paylink_model::{Channel, Date, Lang, NotificationType, ProviderStatus};
use sqlx::Row;

use crate::store::outbox::{self, Claim, Lease};
use crate::store::{now_iso, Db, DbError};

/// How many due rows one pass takes.
const BATCH: i64 = 16;

/// The channels a notifier can send by.
#[derive(Clone, Copy, Debug)]
pub struct Channels {
    pub email: bool,
    pub whatsapp: bool,
    pub sms: bool,
}

impl Channels {
    pub fn any(self) -> bool {
        self.email || self.whatsapp || self.sms
    }
}

/// Claims up to 16 pending sends whose time has come, of the channels the
/// server can send, lease run out, oldest first (see [`outbox::claim`]).
pub async fn claim_due_sends(db: &Db, channels: Channels) -> Result<Claim, DbError> {
    outbox::claim(
        db,
        "notification_sends",
        "AND (($5 AND channel = 'Email') OR ($6 AND channel = 'WhatsApp') OR ($7 AND channel = 'SMS'))",
        |q| q.bind(channels.email).bind(channels.whatsapp).bind(channels.sms),
        BATCH,
    )
    .await
}

/// The facts of one send a message is made of (`domain::messages` renders them).
pub(crate) struct SendFacts {
    pub(crate) send_id: String,
    pub(crate) kind: NotificationType,
    pub(crate) channel: Channel,
    pub(crate) invoice_id: String,
    /// The invoice's application (its detail is read per application).
    pub(crate) application_id: String,
    pub(crate) notification_id: String,
    pub(crate) invoice_type: String,
    pub(crate) installment_count: i64,
    pub(crate) description: Option<String>,
    pub(crate) full_name: String,
    pub(crate) number: Option<i64>,
    pub(crate) price: i64,
    pub(crate) price_paid: i64,
    pub(crate) due: Option<Date>,
    pub(crate) status: Option<String>,
    pub(crate) payment_types: Vec<String>,
    /// The invoice's fine, interest and discount for this installment's due
    /// date: a message sent late or early states what is due on its day.
    pub(crate) terms: ChargeTerms,
    /// The installment is a Pix Automático cycle: its payer's bank pays it (the recurring
    /// charge is live, due or between retries), nothing is asked of the payer.
    pub(crate) bank_collects: bool,
    /// The language the payer reads (the customer's).
    pub(crate) lang: Lang,
}

/// A pending send, as the sender needs it.
pub(crate) struct PendingSend {
    /// `None` when the stored type or channel is unknown to this version.
    pub(crate) facts: Option<SendFacts>,
    /// The customer's e-mail or phone, per the channel.
    pub(crate) recipient: Option<String>,
    pub(crate) attempts: i64,
    pub(crate) invoice_deleted: bool,
    pub(crate) installment_deleted: bool,
}

pub(crate) async fn pending_send(db: &Db, send_id: &str) -> Result<PendingSend, DbError> {
    let row = sqlx::query(
        "SELECT s.notification_id, s.invoice_id, s.type, s.channel, s.attempts,
                i.deleted_at AS invoice_deleted_at, i.application_id, i.invoice_type, i.installment_count, i.description,
                i.price_cents AS invoice_price, i.due_date AS first_due_date,
                i.fine_type, i.fine_value, i.interest_monthly_bp,
                i.discount_type, i.discount_value, i.discount_until,
                c.full_name, c.email, c.phone, c.language,
                n.number, n.price_cents, n.price_paid_cents, n.due_date, n.status AS installment_status,
                n.deleted_at AS installment_deleted_at, s.installment_id
         FROM notification_sends s
         JOIN invoices i ON i.id = s.invoice_id
         JOIN customers c ON c.id = i.customer_id
         LEFT JOIN installments n ON n.id = s.installment_id
         WHERE s.id = $1",
    )
    .bind(send_id)
    .fetch_one(&db.pool)
    .await?;
    let channel = Channel::parse(row.try_get::<&str, _>("channel")?);
    let kind = NotificationType::parse(row.try_get::<&str, _>("type")?);
    let recipient: Option<String> = match channel {
        Some(Channel::Email) => row.try_get("email")?,
        Some(_) => row.try_get("phone")?,
        None => None,
    };
    let invoice_id: String = row.try_get("invoice_id")?;
    let installment_id: Option<String> = row.try_get("installment_id")?;
    let due = row
        .try_get::<Option<String>, _>("due_date")?
        .and_then(|d| Date::parse_iso(&d));
    let terms = crate::store::invoices::terms_of(&row)?;
    let terms = match (Date::parse_iso_prefix(row.try_get("first_due_date")?), due) {
        (Some(first), Some(due)) => terms.for_due(first, due),
        _ => terms,
    };
    let facts = match (kind, channel) {
        (Some(kind), Some(channel)) => Some(SendFacts {
            send_id: send_id.to_string(),
            kind,
            channel,
            notification_id: row.try_get("notification_id")?,
            application_id: row.try_get("application_id")?,
            invoice_type: row.try_get("invoice_type")?,
            installment_count: row.try_get("installment_count")?,
            description: row.try_get("description")?,
            full_name: row.try_get("full_name")?,
            number: row.try_get("number")?,
            price: match row.try_get::<Option<i64>, _>("price_cents")? {
                Some(cents) => cents,
                None => row.try_get("invoice_price")?,
            },
            price_paid: row.try_get::<Option<i64>, _>("price_paid_cents")?.unwrap_or(0),
            due,
            terms,
            status: row.try_get("installment_status")?,
            payment_types: sqlx::query_scalar(
                "SELECT payment_type FROM invoice_payment_types WHERE invoice_id = $1 ORDER BY position",
            )
            .bind(&invoice_id)
            .fetch_all(&db.pool)
            .await?,
            lang: crate::store::customers::language(row.try_get("language")?),
            bank_collects: match &installment_id {
                Some(id) => crate::store::pix_charges::is_cycle(db, id).await?,
                None => false,
            },
            invoice_id,
        }),
        _ => None,
    };
    Ok(PendingSend {
        facts,
        recipient,
        attempts: row.try_get("attempts")?,
        invoice_deleted: row
            .try_get::<Option<String>, _>("invoice_deleted_at")?
            .is_some(),
        installment_deleted: row
            .try_get::<Option<String>, _>("installment_deleted_at")?
            .is_some(),
    })
}

/// What became of one send.
pub struct SendResult<'a> {
    /// `pending` (retry at `next_attempt_at`), `sent`, `failed` or `skipped`.
    pub status: &'static str,
    pub attempts: i64,
    pub next_attempt_at: Option<&'a str>,
    pub error: Option<&'a str>,
    pub sent_at: Option<&'a str>,
    pub recipient: Option<&'a str>,
    /// The provider's id of the message it took (WhatsApp, Twilio).
    pub provider_id: Option<&'a str>,
}

/// Records a send's outcome and releases its lease, if the send still
/// carries `lease`; `false`, recording nothing, when another worker has
/// taken it since (see [`Lease`]).
pub async fn record_send(
    db: &Db,
    send_id: &str,
    lease: &Lease,
    r: &SendResult<'_>,
) -> Result<bool, DbError> {
    let mut tx = db.begin_write().await?;
    let held = sqlx::query(
        "UPDATE notification_sends SET status = $1, attempts = $2,
                next_attempt_at = COALESCE($3, next_attempt_at), last_error = $4, sent_at = $5,
                recipient = COALESCE($6, recipient), locked_until = NULL, lease_id = NULL,
                updated_at = $7, provider_id = COALESCE($8, provider_id)
         WHERE id = $9 AND lease_id = $10",
    )
    .bind(r.status)
    .bind(r.attempts)
    .bind(r.next_attempt_at)
    .bind(r.error)
    .bind(r.sent_at)
    .bind(r.recipient)
    .bind(now_iso())
    .bind(r.provider_id)
    .bind(send_id)
    .bind(lease.as_str())
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if !held {
        return Ok(false);
    }
    if let Some(provider_id) = r.provider_id {
        // Its status, should the provider's callback have come first, is this send's now.
        sqlx::query(
            "UPDATE notification_provider_statuses SET claimed = 1
             WHERE provider_id = $1
               AND channel = (SELECT channel FROM notification_sends WHERE id = $2)",
        )
        .bind(provider_id)
        .bind(send_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// How long the status of a message no send holds is kept: a callback may come before the
/// worker has recorded the id it was given, but not days before.
pub const UNCLAIMED_STATUS_HOURS: i64 = 48;

/// What a provider's (signed) status callback said of its message `provider_id` sent by
/// `channel`: recorded when it moves the message forward (`ProviderStatus::rank`), so the
/// same callback twice, or an older one after a newer, changes nothing. Kept by provider id,
/// so a callback that comes before the worker has recorded the id is not lost; the statuses
/// of messages no send holds (the account's other traffic) are dropped after
/// [`UNCLAIMED_STATUS_HOURS`]. Returns whether it changed anything.
pub async fn record_provider_status(
    db: &Db,
    channel: Channel,
    provider_id: &str,
    status: ProviderStatus,
    error: Option<&str>,
) -> Result<bool, DbError> {
    let now = now_iso();
    let mut tx = db.begin_write().await?;
    let done = sqlx::query(
        "INSERT INTO notification_provider_statuses
                (channel, provider_id, status, status_rank, error, received_at, claimed)
         VALUES ($1, $2, $3, $4, $5, $6,
                 CASE WHEN EXISTS (SELECT 1 FROM notification_sends
                                    WHERE channel = $1 AND provider_id = $2) THEN 1 ELSE 0 END)
         ON CONFLICT (channel, provider_id) DO UPDATE
           SET status = excluded.status, status_rank = excluded.status_rank,
               error = excluded.error, received_at = excluded.received_at
           WHERE notification_provider_statuses.status_rank < excluded.status_rank",
    )
    .bind(channel.as_str())
    .bind(provider_id)
    .bind(status.as_str())
    .bind(status.rank())
    .bind(error)
    .bind(&now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        // `claimed` keeps the scan to the few unclaimed rows; a send that recorded its id at
        // the same instant as the status arrived (neither saw the other) still keeps it.
        "DELETE FROM notification_provider_statuses
         WHERE claimed = 0 AND received_at < $1
           AND NOT EXISTS (SELECT 1 FROM notification_sends s
                            WHERE s.channel = notification_provider_statuses.channel
                              AND s.provider_id = notification_provider_statuses.provider_id)",
    )
    .bind(crate::store::iso_hours_ago(UNCLAIMED_STATUS_HOURS))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected() > 0)
}
