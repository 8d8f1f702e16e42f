//! The sums behind the merchant's home screen, one query each, over the
//! indexes of the lists (installments by invoice, status and due date).

use std::collections::BTreeMap;

use paylink_model::dashboard::last_12_months;
use paylink_model::date::brasilia_day;
use paylink_model::date::MIDNIGHT_UTC_TIME;
use paylink_model::{Dashboard, Date, MonthTotal};
use sqlx::Row;

use super::{Db, DbError};

/// This application's month of `today` (Brasília): received, open and
/// overdue; and the last 12 months' received. A payment counts in the
/// month of its day in Brasília (`paylink_model::date::brasilia_day`).
pub async fn load(db: &Db, app_id: &str, today: Date) -> Result<Dashboard, DbError> {
    let months = last_12_months(today.year(), today.month());
    let month = months.last().cloned().unwrap_or_default();
    let first = format!("{month}-01");
    let next = Date::parse_iso(&first)
        .and_then(|d| d.add_months(1))
        .map(|d| d.to_string())
        .unwrap_or_default();
    let today = today.to_string();
    // Sums as BIGINT: PostgreSQL's SUM(bigint) is NUMERIC, which sqlx::Any cannot read.
    let open = sqlx::query(
        "SELECT
           CAST(COALESCE(SUM(CASE WHEN i.due_date >= $2 THEN i.price_cents ELSE 0 END), 0) AS BIGINT) AS open,
           CAST(COALESCE(SUM(CASE WHEN i.due_date < $2 THEN i.price_cents ELSE 0 END), 0) AS BIGINT) AS overdue
         FROM installments i JOIN invoices v ON v.id = i.invoice_id
         WHERE v.application_id = $1 AND v.deleted_at IS NULL AND i.deleted_at IS NULL
           AND i.status = 'WAITING_PAYMENT' AND i.due_date >= $3 AND i.due_date < $4",
    )
    .bind(app_id)
    .bind(&today)
    .bind(&first)
    .bind(&next)
    .fetch_one(&db.pool)
    .await?;
    // Received per month of the day each payment counts on (the model's
    // `brasilia_day`: an instant's day in Brasília, a day-only payment's own
    // day). Summed in SQL per UTC hour and per form (day-only or instant),
    // on each of which that day is one (Brasília's offset is whole
    // hours), so the rule stays in the model; one stamp of each group is
    // read. A day's margin after the month: its first hours in UTC are
    // still this month in Brasília.
    let since = format!("{}-01", months[0]);
    let until = Date::parse_iso(&next)
        .and_then(|d| d.add_days(1))
        .map(|d| d.to_string())
        .unwrap_or_default();
    let rows = sqlx::query(
        "SELECT SUBSTR(i.paid_at, 1, 13) AS hour,
                CAST(CASE WHEN SUBSTR(i.paid_at, 11) = $4 THEN 1 ELSE 0 END AS BIGINT) AS day_only,
                MIN(i.paid_at) AS stamp,
                CAST(COALESCE(SUM(i.price_paid_cents), 0) AS BIGINT) AS received
         FROM installments i JOIN invoices v ON v.id = i.invoice_id
         WHERE v.application_id = $1 AND i.status = 'CONFIRMED' AND i.deleted_at IS NULL
           AND i.paid_at >= $2 AND i.paid_at < $3
         GROUP BY 1, 2",
    )
    .bind(app_id)
    .bind(&since)
    .bind(&until)
    .bind(MIDNIGHT_UTC_TIME)
    .fetch_all(&db.pool)
    .await?;
    let mut received: BTreeMap<String, i64> = BTreeMap::new();
    for r in &rows {
        if let Some(day) = brasilia_day(r.try_get("stamp")?) {
            let month = format!("{:04}-{:02}", day.year(), day.month());
            *received.entry(month).or_default() += r.try_get::<i64, _>("received")?;
        }
    }
    let received_in = |m: &str| received.get(m).copied().unwrap_or(0);
    Ok(Dashboard {
        received: received_in(&month),
        open: open.try_get("open")?,
        overdue: open.try_get("overdue")?,
        months: months
            .iter()
            .map(|m| MonthTotal {
                month: m.clone(),
                received: received_in(m),
            })
            .collect(),
        month,
    })
}
