//! What an installment of an invoice's detail costs on a day, and what bounds a manual payment
//! of it: the invoice's terms read back from its detail, the most a payment received on a day
//! may be, and the one check the API, the CLI's `installment mark-paid` and the merchant's
//! payment step all ask.

use crate::actions::{ManualPayment, ManualPaymentRequest, PaymentBounds};
use crate::charges::{self, AmountDue, ChargeTerms, TermsContext};
use crate::date::{brasilia_day, Date};
use crate::enums::InstallmentStatus;
use crate::errors::Violations;
use crate::invoice::{Installment, InvoiceDetail};

/// The invoice's fine, interest and discount from its detail (which may come from a remote
/// upstream): the model's rules read them back; terms that do not pass them (an upstream's own
/// rules) count as none, so the payer is never charged more than paylink's rules allow.
pub fn detail_terms(d: &InvoiceDetail) -> ChargeTerms {
    charges::check_terms(
        d.fine.as_ref(),
        d.interest.as_ref(),
        d.discount.as_ref(),
        TermsContext::default(),
    )
    .unwrap_or_default()
}

/// The terms of installment `i`: the invoice's `terms`, its discount lasting as many days
/// before this installment's due date as before the first one's.
pub fn installment_terms(d: &InvoiceDetail, i: &Installment, terms: &ChargeTerms) -> ChargeTerms {
    match (
        Date::parse_iso_prefix(&d.due_date),
        Date::parse_iso_prefix(&i.due_date),
    ) {
        (Some(first), Some(due)) => terms.for_due(first, due),
        _ => *terms,
    }
}

/// What installment `i` costs when paid on `today` under the invoice's `terms`: `None` unless
/// it is open (waiting for payment, with an amount) and its due date reads.
pub fn amount_due(
    d: &InvoiceDetail,
    i: &Installment,
    terms: &ChargeTerms,
    today: Date,
) -> Option<AmountDue> {
    if i.status != InstallmentStatus::WaitingPayment || i.price <= 0 {
        return None;
    }
    let due = Date::parse_iso_prefix(&i.due_date)?;
    let terms = installment_terms(d, i, terms);
    Some(charges::amount_due(i.price, due, today, &terms))
}

/// The most a payment of installment `i` received on `day` may be, as a manual payment records
/// it: its price, or what it cost that day with fine and interest when more (a discount lowers
/// what the payer owed, not what the merchant may have been paid).
pub fn most_due_on(d: &InvoiceDetail, i: &Installment, day: Date) -> i64 {
    let terms = installment_terms(d, i, &detail_terms(d));
    Date::parse_iso_prefix(&i.due_date).map_or(i.price, |due| {
        charges::amount_due(i.price, due, day, &terms)
            .total
            .max(i.price)
    })
}

/// Why a manual payment of an installment is not recorded.
#[derive(Debug)]
pub enum PaymentRefused {
    /// The invoice has no installment of that number.
    NoInstallment,
    /// The model's rules: field messages keyed by API field path.
    Invalid(Violations),
}

/// A manual payment of installment `n` of `d` received as `req` says, checked on `today` (in
/// Brasília): more than zero, on a day from the invoice's creation (in Brasília) to today, and
/// at most [`most_due_on`] that day.
pub fn check_manual_payment(
    d: &InvoiceDetail,
    n: u32,
    req: &ManualPaymentRequest,
    today: Date,
) -> Result<ManualPayment, PaymentRefused> {
    let i = d
        .installments
        .iter()
        .find(|i| i.installment == n)
        .ok_or(PaymentRefused::NoInstallment)?;
    // A stored creation time always reads; one that did not would bound nothing.
    let created_on =
        brasilia_day(&d.created_at).unwrap_or_else(|| Date::new(1, 1, 1).unwrap_or(today));
    let bounds = PaymentBounds {
        created_on,
        due_on: |day| most_due_on(d, i, day),
    };
    req.check_within(today, &bounds)
        .map_err(PaymentRefused::Invalid)
}
