//! An installment's status as the merchant's app and the payer pages show it: its name (the
//! catalog's) and the class of its badge.

use paylink_model::{InstallmentStatus, Lang};
use paylink_text as text;

/// The status's name in `l`.
pub fn status_name(l: Lang, s: InstallmentStatus) -> &'static str {
    match s {
        InstallmentStatus::WaitingPayment => text::AWAITING_PAYMENT.t(l),
        InstallmentStatus::Confirmed => text::PAID.t(l),
        InstallmentStatus::Reversed => text::INSTALLMENT_REVERSED.t(l),
    }
}

/// The classes of the status's badge (its colour in both style sheets).
pub fn status_badge(s: InstallmentStatus) -> &'static str {
    match s {
        InstallmentStatus::WaitingPayment => "badge waiting",
        InstallmentStatus::Confirmed => "badge confirmed",
        InstallmentStatus::Reversed => "badge reversed",
    }
}
