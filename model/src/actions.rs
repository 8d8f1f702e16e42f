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

/// What bounds a manual payment of one installment, beyond its form: the day
/// its invoice was created (in Brasília), before which nothing was received
/// for it, and what the installment costs on a given day.
pub struct PaymentBounds<F: Fn(Date) -> i64> {
    pub created_on: Date,
    /// The most a payment received on that day may be: the installment's
    /// price, or what it costs that day with fine and interest when more.
    pub due_on: F,
}

impl ManualPaymentRequest {
    /// `today` is Brasília's: a payment cannot be received tomorrow.
    pub fn check(&self, today: Date) -> Result<ManualPayment, Violations> {
        let (v, cents, paid_on) = self.read(today);
        match (cents, paid_on) {
            (Some(cents), Some(paid_on)) if v.is_empty() => Ok(ManualPayment { cents, paid_on }),
            _ => Err(v),
        }
    }

    /// [`check`](Self::check), and the payment within `bounds`: received
    /// on or after the invoice's creation, and no more than is due that day.
    pub fn check_within<F: Fn(Date) -> i64>(
        &self,
        today: Date,
        bounds: &PaymentBounds<F>,
    ) -> Result<ManualPayment, Violations> {
        let (mut v, cents, paid_on) = self.read(today);
        let paid_on = match paid_on {
            Some(d) if d < bounds.created_on => {
                v.add("paidOn", Msg::BeforeInvoiceCreated(bounds.created_on));
                None
            }
            d => d,
        };
        // Without a day that reads, the most is what it costs today (the
        // most it has cost: fine and interest only grow).
        let most = (bounds.due_on)(paid_on.unwrap_or(today));
        let cents = match cents {
            Some(c) if c > most => {
                v.add("amount", Msg::AboveAmountDue(most));
                None
            }
            c => c,
        };
        match (cents, paid_on) {
            (Some(cents), Some(paid_on)) if v.is_empty() => Ok(ManualPayment { cents, paid_on }),
            _ => Err(v),
        }
    }

    /// The form's rules: the violations, and each field that passed them.
    fn read(&self, today: Date) -> (Violations, Option<i64>, Option<Date>) {
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
        (v, cents, paid_on)
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

    /// Issue 38: R$ 99.999.999,99 on a R$ 33,33 installment and a payment of
    /// 01/01/0001 were taken.
    #[test]
    fn a_payment_is_at_most_what_is_due_and_not_before_the_invoice() {
        let today = Date::parse_iso("2026-11-25").unwrap();
        let bounds = PaymentBounds {
            created_on: Date::parse_iso("2026-11-01").unwrap(),
            // R$ 33,33 until the 20th, then R$ 34,00 with the fine.
            due_on: |d: Date| {
                if d <= Date::parse_iso("2026-11-20").unwrap() {
                    3333
                } else {
                    3400
                }
            },
        };
        let req = |amount: f64, paid_on: &str| ManualPaymentRequest {
            amount: Some(amount),
            paid_on: Some(paid_on.into()),
        };
        for (amount, paid_on) in [
            (33.33, "2026-11-01"),
            (34.0, "2026-11-25"),
            (0.01, "2026-11-20"),
        ] {
            assert!(
                req(amount, paid_on).check_within(today, &bounds).is_ok(),
                "{amount} {paid_on}"
            );
        }
        for (amount, paid_on, field, msg) in [
            (
                99_999_999.99,
                "2026-11-10",
                "amount",
                Msg::AboveAmountDue(3333),
            ),
            (33.34, "2026-11-20", "amount", Msg::AboveAmountDue(3333)),
            (34.01, "2026-11-25", "amount", Msg::AboveAmountDue(3400)),
            (
                33.33,
                "0001-01-01",
                "paidOn",
                Msg::BeforeInvoiceCreated(bounds.created_on),
            ),
            (
                33.33,
                "2026-10-31",
                "paidOn",
                Msg::BeforeInvoiceCreated(bounds.created_on),
            ),
            (33.33, "2026-11-26", "paidOn", Msg::DateInFuture),
        ] {
            let v = req(amount, paid_on)
                .check_within(today, &bounds)
                .unwrap_err();
            assert_eq!(v.0, vec![(field.to_string(), msg)], "{amount} {paid_on}");
        }
        // Both wrong at once: both fields say so.
        let v = req(99_999_999.99, "0001-01-01")
            .check_within(today, &bounds)
            .unwrap_err();
        assert!(v.has("amount") && v.has("paidOn"), "{v:?}");
        assert_eq!(
            Msg::AboveAmountDue(3333).render(crate::Lang::PtBr),
            "O valor não pode passar do devido nesta parcela (R$ 33,33)."
        );
        assert_eq!(
            Msg::BeforeInvoiceCreated(bounds.created_on).render(crate::Lang::En),
            "The date cannot be before the invoice was created (2026-11-01)."
        );
    }
}
