//! The payer pages' words: every fixed text is the catalog's (`paylink-text`, the merchant's
//! app's too); here is how an installment's status reads to the payer, and the one `pick` of
//! a language's version for the sentences still written where they are shown.

use paylink_model::{InstallmentStatus, Lang};
use paylink_text as text;

pub use paylink_text::pick;

/// An installment's status as the payer reads it.
pub fn status(l: Lang, s: InstallmentStatus) -> &'static str {
    match s {
        InstallmentStatus::WaitingPayment => text::AWAITING_PAYMENT.t(l),
        InstallmentStatus::Confirmed => text::PAID.t(l),
        InstallmentStatus::Reversed => text::INSTALLMENT_REVERSED.t(l),
    }
}
