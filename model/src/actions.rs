//! The merchant's actions on an invoice, beyond creating it: the request to
//! record a payment received outside paylink (cash, a transfer, a check),
//! and its rules keyed by field path; what a resend answers.

use serde::{Deserialize, Serialize};

use crate::date::Date;
use crate::errors::{Msg, Violations};
use crate::money::{self, MoneyError};

/// `POST .../invoices/{id}/installments/{n}/payments`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ManualPaymentRequest {
    /// The amount received, in reais (at most 2 decimals, more than zero).
    #[cfg_attr(
        feature = "openapi",
        schema(
            value_type = f64,
            required = true,
            exclusive_minimum = 0,
            maximum = 99999999.99,
            multiple_of = 0.01,
            example = 33.34
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<f64>,
    /// The day it was received, YYYY-MM-DD: today or before (in Brasília).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = String, required = true, format = Date, example = "2026-11-25")
    )]
    pub paid_on: Option<String>,
}

/// What a resend queued.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Resent {
    /// Sends queued: one per channel the invoice's notifications use.
    pub queued: usize,
}

/// A checked [`ManualPaymentRequest`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ManualPayment {
    pub cents: i64,
    pub paid_on: Date,
}

impl ManualPaymentRequest {
    /// `today` is Brasília's: a payment cannot be received tomorrow.
    pub fn check(&self, today: Date) -> Result<ManualPayment, Violations> {
        let mut v = Violations::default();
        let cents = match self.amount.map(money::reais_to_cents) {
            None => {
                v.add("amount", Msg::Required);
                None
            }
            Some(Ok(0)) | Some(Err(MoneyError::Negative)) => {
                v.add("amount", Msg::Positive);
                None
            }
            Some(Ok(c)) => Some(c),
            Some(Err(MoneyError::TooManyDecimals)) => {
                v.add("amount", Msg::TooManyDecimals);
                None
            }
            Some(Err(MoneyError::TooLarge)) => {
                v.add("amount", Msg::MaxPrice);
                None
            }
            Some(Err(MoneyError::NotANumber)) => {
                v.add("amount", Msg::WrongType("a number"));
                None
            }
        };
        let paid_on = match self.paid_on.as_deref().map(str::trim) {
            None | Some("") => {
                v.add("paidOn", Msg::Required);
                None
            }
            Some(s) => match Date::parse_iso(s) {
                None => {
                    v.add("paidOn", Msg::IsoDate);
                    None
                }
                Some(d) if d > today => {
                    v.add("paidOn", Msg::DateInFuture);
                    None
                }
                Some(d) => Some(d),
            },
        };
        match (cents, paid_on) {
            (Some(cents), Some(paid_on)) if v.is_empty() => Ok(ManualPayment { cents, paid_on }),
            _ => Err(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payment_needs_a_positive_amount_and_a_day_not_after_today() {
        let today = Date::parse_iso("2026-11-25").unwrap();
        let ok = ManualPaymentRequest {
            amount: Some(33.34),
            paid_on: Some("2026-11-25".into()),
        };
        assert_eq!(
            ok.check(today),
            Ok(ManualPayment {
                cents: 3334,
                paid_on: today
            })
        );
        for (amount, paid_on, field) in [
            (None, Some("2026-11-20"), "amount"),
            (Some(0.0), Some("2026-11-20"), "amount"),
            (Some(-1.0), Some("2026-11-20"), "amount"),
            (Some(1.001), Some("2026-11-20"), "amount"),
            (Some(10.0), None, "paidOn"),
            (Some(10.0), Some("20/11/2026"), "paidOn"),
            (Some(10.0), Some("2026-11-26"), "paidOn"),
        ] {
            let r = ManualPaymentRequest {
                amount,
                paid_on: paid_on.map(str::to_string),
            };
            assert!(
                r.check(today).unwrap_err().has(field),
                "{amount:?} {paid_on:?}"
            );
        }
    }
}
