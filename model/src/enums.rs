//! The spec's enums, spelled exactly as on the wire. Requests carry them as
//! strings so an unknown value becomes a field error instead of a parse failure.

use serde::{Deserialize, Serialize};

macro_rules! wire_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn parse(s: &str) -> Option<$name> {
                match s { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        // Written by hand, not derived: utoipa's derive does not see a
        // `serde(rename)` whose text comes from a macro argument, and would
        // document the Rust variant names. NAMES is what the wire carries.
        #[cfg(feature = "openapi")]
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some($name::NAMES.iter().copied()))
                    .into()
            }
        }

        #[cfg(feature = "openapi")]
        impl utoipa::ToSchema for $name {}

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use wire_enum;

wire_enum!(InvoiceType {
    Single = "SINGLE",
    Installment = "INSTALLMENT",
    Recurring = "RECURRING",
    Subscription = "SUBSCRIPTION",
});

wire_enum!(PaymentType { Pix = "PIX", Boleto = "BOLETO" });

wire_enum!(Frequency {
    Weekly = "WEEKLY",
    Fortweekly = "FORTWEEKLY",
    Monthly = "MONTHLY",
    Bimonthly = "BIMONTHLY",
    Quarterly = "QUARTERLY",
    Semester = "SEMESTER",
    Yearly = "YEARLY",
});

wire_enum!(NotificationType {
    SendFirstInvoiceBy = "SEND_FIRST_INVOICE_BY",
    InvoiceGenerated = "INVOICE_GENERATED",
    InvoiceChanged = "INVOICE_CHANGED",
    SendInvoiceReminder = "SEND_INVOICE_REMINDER",
    SendInvoiceAtDay = "SEND_INVOICE_AT_DAY",
    SendInvoiceCodeAtDay = "SEND_INVOICE_CODE_AT_DAY",
    InvoiceFail = "INVOICE_FAIL",
    InvoiceResend = "INVOICE_RESEND",
    InvoiceConfirmPayment = "INVOICE_CONFIRM_PAYMENT",
});

wire_enum!(Channel { Email = "Email", WhatsApp = "WhatsApp", Sms = "SMS" });

wire_enum!(
    /// The events a webhook can receive: the spec's four ([`InvoiceHookType`]), and paylink's
    /// `PAYMENT_REVERSED` (a confirmed payment returned to the payer in full, a Pix devolução),
    /// which only the application's webhooks take.
    HookType {
        InvoiceCreated = "INVOICE_CREATED",
        InvoiceDeleted = "INVOICE_DELETED",
        PaymentGenerated = "PAYMENT_GENERATED",
        PaymentConfirmed = "PAYMENT_CONFIRMED",
        PaymentReversed = "PAYMENT_REVERSED",
    }
);

wire_enum!(
    /// The spec's four hookTypes: the only ones an invoice's own `webhooks` take.
    InvoiceHookType {
        InvoiceCreated = "INVOICE_CREATED",
        InvoiceDeleted = "INVOICE_DELETED",
        PaymentGenerated = "PAYMENT_GENERATED",
        PaymentConfirmed = "PAYMENT_CONFIRMED",
    }
);

impl From<InvoiceHookType> for HookType {
    fn from(h: InvoiceHookType) -> HookType {
        match h {
            InvoiceHookType::InvoiceCreated => HookType::InvoiceCreated,
            InvoiceHookType::InvoiceDeleted => HookType::InvoiceDeleted,
            InvoiceHookType::PaymentGenerated => HookType::PaymentGenerated,
            InvoiceHookType::PaymentConfirmed => HookType::PaymentConfirmed,
        }
    }
}

wire_enum!(InstallmentStatus {
    WaitingPayment = "WAITING_PAYMENT",
    Confirmed = "CONFIRMED",
    Reversed = "REVERSED",
});

/// Which of the four notification arrays of the invoice detail a configured
/// notification is listed in (the spec names the arrays, not the mapping).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotificationGroup {
    BeforeDueDate,
    AfterDueDate,
    AfterPayment,
    SendTypes,
}

impl NotificationType {
    pub fn group(self) -> NotificationGroup {
        use NotificationType::*;
        match self {
            SendInvoiceReminder => NotificationGroup::BeforeDueDate,
            InvoiceResend | InvoiceFail => NotificationGroup::AfterDueDate,
            InvoiceConfirmPayment => NotificationGroup::AfterPayment,
            SendFirstInvoiceBy | InvoiceGenerated | InvoiceChanged | SendInvoiceAtDay
            | SendInvoiceCodeAtDay => NotificationGroup::SendTypes,
        }
    }

    /// `period` (days before/after) applies only to these two types.
    pub fn takes_period(self) -> bool {
        matches!(
            self,
            NotificationType::SendInvoiceReminder | NotificationType::InvoiceResend
        )
    }
}

impl InvoiceType {
    pub fn is_periodic(self) -> bool {
        matches!(self, InvoiceType::Recurring | InvoiceType::Subscription)
    }
}

wire_enum!(
    /// Where an invoice stands (see `list`), for a list's `status` filter.
    /// `cancelled` is deleted; `paid` has no installment waiting and none
    /// reversed; `overdue` has one waiting past its due date (in Brasília);
    /// `open` has one waiting and none overdue; `reversed` (not deleted) has a
    /// payment returned to the payer in full (an installment `REVERSED`), whether
    /// or not another one waits.
    InvoiceState {
        Open = "open",
        Paid = "paid",
        Overdue = "overdue",
        Cancelled = "cancelled",
        Reversed = "reversed",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_round_trip_exactly() {
        for t in NotificationType::ALL {
            assert_eq!(NotificationType::parse(t.as_str()), Some(*t));
        }
        assert_eq!(Channel::parse("WhatsApp"), Some(Channel::WhatsApp));
        assert_eq!(Channel::parse("whatsapp"), None);
        assert_eq!(Frequency::parse("FORTWEEKLY"), Some(Frequency::Fortweekly));
        assert_eq!(
            serde_json::to_string(&InstallmentStatus::WaitingPayment).unwrap(),
            "\"WAITING_PAYMENT\""
        );
        assert_eq!(serde_json::to_string(&Channel::Sms).unwrap(), "\"SMS\"");
    }
}
