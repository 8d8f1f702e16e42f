//! Events of an invoice and the webhook deliveries they cause. Both are
//! written inside the caller's transaction, so an event exists exactly when
//! the change that caused it was committed (a transactional outbox).

use crate::store::WriteTx;
use paylink_model::{HookType, PaymentType};
use serde::Serialize;
use serde_json::json;
use sqlx::Row;

use crate::store::{new_id, now_iso, DbError};

/// The installment an event is about, as it is after the change.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstallmentSnapshot {
    pub id: String,
    pub installment: u32,
    #[serde(with = "paylink_model::money::reais")]
    pub price: i64,
    #[serde(with = "paylink_model::money::reais")]
    pub price_paid: i64,
    pub status: String,
    pub due_date: String,
}

pub struct NewEvent<'a> {
    pub application_id: &'a str,
    pub invoice_id: &'a str,
    pub external_id: &'a str,
    pub kind: HookType,
    pub installment: Option<InstallmentSnapshot>,
    pub method: Option<PaymentType>,
    /// `PAYMENT_REVERSED` of a Pix the bank returned: why (`data.returned`, the natureza of
    /// the devolução that completed the return); absent from the payload otherwise.
    pub returned: Option<paylink_model::DevolucaoNatureza>,
}

/// `($1, $2, $3), ($4, $5, $6)`: the VALUES of a multi-row INSERT of `rows`
/// rows of `cols` columns, so a batch is one statement (one round trip).
pub fn values_placeholders(rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| {
            let row: Vec<String> = (1..=cols).map(|c| format!("${}", r * cols + c)).collect();
            format!("({})", row.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What an INSERT of events returns, per event: how many enabled webhooks
/// (the invoice's or the application's) take its type. Read with the same
/// trip: most invoices have none, and then no webhook is read at all.
const HOOKS: &str = "RETURNING
    (SELECT COUNT(*) FROM invoice_webhooks w
     WHERE w.invoice_id = events.invoice_id AND w.hook_type = events.type AND w.disabled_at IS NULL)
    + (SELECT COUNT(*) FROM app_webhooks w
       WHERE w.application_id = events.application_id AND w.hook_type = events.type AND w.disabled_at IS NULL)
    AS hooks";

/// [`record`] for several events of one invoice (all with the same
/// `application_id` and `invoice_id`), in three statements at most instead
/// of three per event: the events, their target webhooks, the deliveries;
/// one when no webhook takes them.
/// Returns the event ids.
pub async fn record_all(tx: &mut WriteTx, evs: &[NewEvent<'_>]) -> Result<Vec<String>, DbError> {
    let Some(first) = evs.first() else {
        return Ok(Vec::new());
    };
    let (app_id, invoice_id) = (first.application_id, first.invoice_id);
    assert!(
        evs.iter()
            .all(|e| e.application_id == app_id && e.invoice_id == invoice_id),
        "record_all takes the events of one invoice"
    );
    let now = now_iso();
    let ids: Vec<String> = evs.iter().map(|_| new_id()).collect();
    let payloads: Vec<String> = evs
        .iter()
        .zip(&ids)
        .map(|(ev, id)| payload(ev, id, &now))
        .collect();
    let sql = format!(
        "INSERT INTO events (id, application_id, invoice_id, installment_id, type, payload, created_at) VALUES {} {HOOKS}",
        values_placeholders(evs.len(), 7)
    );
    let mut insert = sqlx::query(&sql);
    for ((ev, id), payload) in evs.iter().zip(&ids).zip(&payloads) {
        insert = insert
            .bind(id)
            .bind(ev.application_id)
            .bind(ev.invoice_id)
            .bind(ev.installment.as_ref().map(|i| i.id.as_str()))
            .bind(ev.kind.as_str())
            .bind(payload)
            .bind(&now);
    }
    let targeted: i64 = insert
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|r| r.try_get::<i64, _>("hooks"))
        .sum::<Result<i64, _>>()?;
    if targeted == 0 {
        return Ok(ids);
    }

    // Every enabled webhook of the invoice and of the application, in the
    // order `record` uses; each event then picks its targets by type.
    let hooks: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT 'invoice' AS source, id, url, hook_type, position AS o1, CAST(NULL AS TEXT) AS o2
         FROM invoice_webhooks WHERE invoice_id = $1 AND disabled_at IS NULL
         UNION ALL
         SELECT 'application', id, url, hook_type, 0, created_at
         FROM app_webhooks WHERE application_id = $2 AND disabled_at IS NULL
         ORDER BY source DESC, o1, o2",
    )
    .bind(invoice_id)
    .bind(app_id)
    .fetch_all(&mut **tx)
    .await?;
    let mut deliveries: Vec<(&str, &str, String, String)> = Vec::new();
    for (ev, id) in evs.iter().zip(&ids) {
        let of = |source: &str| {
            hooks
                .iter()
                .filter(|(from, _, _, kind)| from == source && kind == ev.kind.as_str())
                .map(|(_, id, url, _)| (id.clone(), url.clone()))
                .collect::<Vec<_>>()
        };
        let (source, targets) = match of("invoice") {
            t if t.is_empty() => ("application", of("application")),
            t => ("invoice", t),
        };
        for (webhook_id, url) in targets {
            deliveries.push((id.as_str(), source, webhook_id, url));
        }
    }
    if !deliveries.is_empty() {
        let sql = format!(
            "INSERT INTO deliveries (id, event_id, webhook_source, webhook_id, url, status, attempts, next_attempt_at, created_at, updated_at) VALUES {}",
            values_placeholders(deliveries.len(), 10)
        );
        let mut insert = sqlx::query(&sql);
        for (event_id, source, webhook_id, url) in &deliveries {
            insert = insert
                .bind(new_id())
                .bind(*event_id)
                .bind(*source)
                .bind(webhook_id)
                .bind(url)
                .bind("pending")
                .bind(0_i64)
                .bind(&now)
                .bind(&now)
                .bind(&now);
        }
        insert.execute(&mut **tx).await?;
    }
    Ok(ids)
}

fn payload(ev: &NewEvent<'_>, id: &str, now: &str) -> String {
    let mut v = json!({
        "id": id,
        "type": ev.kind.as_str(),
        "timestamp": now,
        "data": {
            "invoiceId": ev.invoice_id,
            "externalId": ev.external_id,
            "installment": ev.installment,
            "method": ev.method.map(|m| m.as_str()),
        }
    });
    if let Some(natureza) = ev.returned {
        v["data"]["returned"] = json!(natureza.as_str());
    }
    v.to_string()
}

/// Records the event and one pending delivery per target webhook: the
/// invoice's own webhooks of that type if it has any, otherwise the
/// application's (spec rule 3). Returns the event id.
pub async fn record(tx: &mut WriteTx, ev: NewEvent<'_>) -> Result<String, DbError> {
    let id = new_id();
    let now = now_iso();
    let payload = payload(&ev, &id, &now);
    let hooks: i64 = sqlx::query_scalar(&format!(
        "INSERT INTO events (id, application_id, invoice_id, installment_id, type, payload, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) {HOOKS}"
    ))
    .bind(&id)
    .bind(ev.application_id)
    .bind(ev.invoice_id)
    .bind(ev.installment.as_ref().map(|i| i.id.as_str()))
    .bind(ev.kind.as_str())
    .bind(&payload)
    .bind(&now)
    .fetch_one(&mut **tx)
    .await?;
    if hooks == 0 {
        return Ok(id);
    }

    let mut targets: Vec<(String, String)> = sqlx::query_as(
        "SELECT id, url FROM invoice_webhooks WHERE invoice_id = $1 AND hook_type = $2 AND disabled_at IS NULL ORDER BY position",
    )
    .bind(ev.invoice_id)
    .bind(ev.kind.as_str())
    .fetch_all(&mut **tx)
    .await?;
    let mut source = "invoice";
    if targets.is_empty() {
        source = "application";
        targets = sqlx::query_as(
            "SELECT id, url FROM app_webhooks WHERE application_id = $1 AND hook_type = $2 AND disabled_at IS NULL ORDER BY created_at",
        )
        .bind(ev.application_id)
        .bind(ev.kind.as_str())
        .fetch_all(&mut **tx)
        .await?;
    }
    for (webhook_id, url) in targets {
        insert_delivery(tx, &id, source, &webhook_id, &url, &now).await?;
    }
    Ok(id)
}

/// A pending delivery of `event_id` to one endpoint, due `now`; its id.
pub async fn insert_delivery(
    tx: &mut WriteTx,
    event_id: &str,
    source: &str,
    webhook_id: &str,
    url: &str,
    now: &str,
) -> Result<String, DbError> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO deliveries (id, event_id, webhook_source, webhook_id, url, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $6, $6)",
    )
    .bind(&id)
    .bind(event_id)
    .bind(source)
    .bind(webhook_id)
    .bind(url)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}
