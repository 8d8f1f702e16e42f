//! The sums behind the merchant's home screen, one query each, over the
//! indexes of the lists (installments by invoice, status and due date).

use paylink_model::dashboard::last_12_months;
use paylink_model::{Dashboard, Date, MonthTotal};
use sqlx::Row;

use super::{Db, DbError};

impl Db {
    /// This application's month of `today` (Brasília): received, open and
    /// overdue; and the last 12 months' received. A payment counts in the
    /// month of its stored UTC day (one paid after 21:00 in Brasília on a
    /// month's last day counts in the next).
    pub async fn dashboard(&self, app_id: &str, today: Date) -> Result<Dashboard, DbError> {
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
        .fetch_one(&self.pool)
        .await?;
        let since = format!("{}-01", months[0]);
        let rows = sqlx::query(
            "SELECT SUBSTR(i.paid_at, 1, 7) AS month,
                    CAST(COALESCE(SUM(i.price_paid_cents), 0) AS BIGINT) AS received
             FROM installments i JOIN invoices v ON v.id = i.invoice_id
             WHERE v.application_id = $1 AND i.status = 'CONFIRMED' AND i.deleted_at IS NULL
               AND i.paid_at >= $2 AND i.paid_at < $3
             GROUP BY SUBSTR(i.paid_at, 1, 7)",
        )
        .bind(app_id)
        .bind(&since)
        .bind(&next)
        .fetch_all(&self.pool)
        .await?;
        let received_in = |m: &str| {
            rows.iter()
                .find(|r| r.get::<&str, _>("month") == m)
                .map_or(0, |r| r.get::<i64, _>("received"))
        };
        Ok(Dashboard {
            received: received_in(&month),
            open: open.get("open"),
            overdue: open.get("overdue"),
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
}
