//! The merchant's home screen in numbers: the month's money received, still
//! open and overdue, and what came in each of the last 12 months.

use serde::{Deserialize, Serialize};

use crate::date::{brasilia_today_from_millis, millis_from_rfc3339, Date, MIDNIGHT_UTC_TIME};

/// `GET /invoices/applications/dashboard`. Amounts in reais on the wire.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    /// The month, `YYYY-MM` (today's, in Brasília).
    pub month: String,
    /// Paid this month (the amounts paid, by the day they were paid).
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub received: i64,
    /// Waiting for payment, due this month from today on.
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub open: i64,
    /// Waiting for payment, due this month before today.
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub overdue: i64,
    /// Received in each of the last 12 months, oldest first, this one last.
    pub months: Vec<MonthTotal>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MonthTotal {
    /// `YYYY-MM`.
    pub month: String,
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub received: i64,
}

/// `YYYY-MM` of the 12 months ending with `(year, month)`, oldest first.
pub fn last_12_months(year: i32, month: u8) -> Vec<String> {
    let end = year * 12 + i32::from(month) - 1;
    (end - 11..=end)
        .map(|m| format!("{:04}-{:02}", m.div_euclid(12), m.rem_euclid(12) + 1))
        .collect()
}

/// The day, in Brasília, that a payment stored as `paid_at` counts on (its
/// month on the home screen, "Pago em" in the export). A payment known only
/// by its day (a boleto's retorno, one recorded by hand) is stored at
/// midnight UTC of that day ([`Date::to_iso_midnight_utc`]) and counts on
/// that day as it is; any other stamp is an instant (UTC, `…Z`), which
/// counts on its date in Brasília: a Pix at 2026-12-01T01:30Z was paid at
/// 22:30 on 30 November. An instant of exactly 00:00:00.000 UTC cannot be
/// told from a day-only payment: it counts on its UTC date (one millisecond
/// a day; nothing stored says which a payment was).
pub fn paid_day(paid_at: &str) -> Option<Date> {
    if paid_at.get(10..) == Some(MIDNIGHT_UTC_TIME) {
        return Date::parse_iso_prefix(paid_at);
    }
    brasilia_today_from_millis(millis_from_rfc3339(paid_at)?)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_payment_counts_on_its_day_in_brasilia() {
        let day = |s: &str| super::paid_day(s).map(|d| d.to_string());
        let is = |s: &str| Some(s.to_string());
        // Instants: Brasília's day turns at 03:00 UTC, across months and years.
        assert_eq!(day("2026-12-01T01:30:00.000Z"), is("2026-11-30"));
        assert_eq!(day("2026-12-01T02:59:59.999Z"), is("2026-11-30"));
        assert_eq!(day("2026-12-01T03:00:00.000Z"), is("2026-12-01"));
        assert_eq!(day("2027-01-01T00:00:01.000Z"), is("2026-12-31"));
        assert_eq!(day("2026-11-30T23:59:00.000Z"), is("2026-11-30"));
        // Day-only payments are their day, not shifted.
        assert_eq!(day("2026-12-01T00:00:00.000Z"), is("2026-12-01"));
        let first = crate::Date::parse_iso("2027-01-01").unwrap();
        assert_eq!(day(&first.to_iso_midnight_utc()), is("2027-01-01"));
        for bad in ["", "2026-12-01", "2026-12-01 01:30", "2026-12-01Tx"] {
            assert_eq!(day(bad), None, "{bad}");
        }
    }

    #[test]
    fn twelve_months_cross_the_year() {
        let m = super::last_12_months(2026, 2);
        assert_eq!(m.len(), 12);
        assert_eq!(
            (m[0].as_str(), m[10].as_str(), m[11].as_str()),
            ("2025-03", "2026-01", "2026-02")
        );
    }
}
