//! The merchant's home screen in numbers: the month's money received, still
//! open and overdue, and what came in each of the last 12 months.

use serde::{Deserialize, Serialize};

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

#[cfg(test)]
mod tests {
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
