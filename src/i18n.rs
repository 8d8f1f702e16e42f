//! The names the screens give the model's values (an invoice's type, a send's state…), each
//! the catalog's text (`paylink-text`, which holds every text the app shows, each once): the
//! catalog sits below the model and cannot name its enums, so the mapping is here.

use paylink_model::webhooks::DeliveryStatus;
use paylink_model::{Channel, Frequency, HookType, InvoiceState, InvoiceType};
use paylink_model::{Lang, NotificationType, PaymentType, PixChargeState, ProviderStatus};
use paylink_text::{self as text, Tr};

/// Where an invoice's Pix Automático recurrence stands, for the merchant.
pub fn pix_automatico_status(lang: Lang, v: paylink_model::PixAutomaticoStatus) -> &'static str {
    use paylink_model::PixAutomaticoStatus::*;
    let t: &Tr = match v {
        Pending => &text::RECURRENCE_PENDING,
        Created => &text::RECURRENCE_CREATED,
        Approved => &text::RECURRENCE_APPROVED,
        Rejected => &text::RECURRENCE_REJECTED,
        Expired => &text::RECURRENCE_EXPIRED,
        Cancelled => &text::CANCELLED_F,
        Refused => &text::RECURRENCE_REFUSED,
    };
    t.t(lang)
}

pub fn invoice_type(lang: Lang, v: InvoiceType) -> &'static str {
    let t: &Tr = match v {
        InvoiceType::Single => &text::INVOICE_SINGLE,
        InvoiceType::Installment => &text::INVOICE_INSTALLMENT,
        InvoiceType::Recurring => &text::INVOICE_RECURRING,
        InvoiceType::Subscription => &text::INVOICE_SUBSCRIPTION,
    };
    t.t(lang)
}

/// A payment type's name, the same in both languages.
pub fn payment_type(_lang: Lang, v: PaymentType) -> &'static str {
    match v {
        PaymentType::Pix => "PIX",
        PaymentType::Boleto => "Boleto",
    }
}

pub fn frequency(lang: Lang, v: Frequency) -> &'static str {
    let t: &Tr = match v {
        Frequency::Weekly => &text::WEEKLY,
        Frequency::Fortweekly => &text::FORTNIGHTLY,
        Frequency::Monthly => &text::MONTHLY,
        Frequency::Bimonthly => &text::BIMONTHLY,
        Frequency::Quarterly => &text::QUARTERLY,
        Frequency::Semester => &text::SEMESTER,
        Frequency::Yearly => &text::YEARLY,
    };
    t.t(lang)
}

pub fn notification_type(lang: Lang, v: NotificationType) -> &'static str {
    use NotificationType::*;
    let t: &Tr = match v {
        SendFirstInvoiceBy => &text::SEND_FIRST_INVOICE_BY,
        InvoiceGenerated => &text::INVOICE_GENERATED,
        InvoiceChanged => &text::INVOICE_CHANGED,
        SendInvoiceReminder => &text::SEND_INVOICE_REMINDER,
        SendInvoiceAtDay => &text::SEND_INVOICE_AT_DAY,
        SendInvoiceCodeAtDay => &text::SEND_INVOICE_CODE_AT_DAY,
        InvoiceFail => &text::INVOICE_FAIL,
        InvoiceResend => &text::INVOICE_RESEND,
        InvoiceConfirmPayment => &text::INVOICE_CONFIRM_PAYMENT,
    };
    t.t(lang)
}

/// A channel's name, the same in both languages.
pub fn channel(_lang: Lang, v: Channel) -> &'static str {
    match v {
        Channel::Email => "E-mail",
        Channel::WhatsApp => "WhatsApp",
        Channel::Sms => "SMS",
    }
}

/// Where a notification send stands: what the provider said of it when it said something,
/// else paylink's own state (`pending`, `sent`, `failed`, `skipped`).
pub fn send_status(lang: Lang, status: &str, provider: Option<ProviderStatus>) -> &'static str {
    let t: &Tr = match (provider, status) {
        (Some(ProviderStatus::Read), _) => &text::SEND_READ,
        (Some(ProviderStatus::Delivered), _) => &text::DELIVERED,
        (Some(ProviderStatus::Failed), _) => &text::NOT_DELIVERED,
        (_, "sent") => &text::SENT,
        (_, "failed") => &text::FAILED,
        (_, "skipped") => &text::NOT_SENT,
        _ => &text::SCHEDULED,
    };
    t.t(lang)
}

pub fn hook_type(lang: Lang, v: HookType) -> &'static str {
    let t: &Tr = match v {
        HookType::InvoiceCreated => &text::INVOICE_CREATED,
        HookType::InvoiceDeleted => &text::INVOICE_DELETED,
        HookType::PaymentGenerated => &text::PAYMENT_GENERATED,
        HookType::PaymentConfirmed => &text::PAYMENT_CONFIRMED,
        HookType::PaymentReversed => &text::PAYMENT_REVERSED,
    };
    t.t(lang)
}

/// An invoice's state as the lists show it.
pub fn state(lang: Lang, s: InvoiceState) -> &'static str {
    let t: &Tr = match s {
        InvoiceState::Open => &text::STATE_OPEN,
        InvoiceState::Paid => &text::STATE_PAID,
        InvoiceState::Overdue => &text::STATE_OVERDUE,
        InvoiceState::Cancelled => &text::CANCELLED_F,
        InvoiceState::Reversed => &text::STATE_REVERSED,
    };
    t.t(lang)
}

/// A webhook delivery's state as the screen names it.
pub fn delivery_status(lang: Lang, s: DeliveryStatus) -> &'static str {
    let t: &Tr = match s {
        DeliveryStatus::Pending => &text::DELIVERY_PENDING,
        DeliveryStatus::Succeeded => &text::DELIVERED,
        DeliveryStatus::Failed => &text::FAILED,
        DeliveryStatus::Disabled => &text::DELIVERY_DISABLED,
    };
    t.t(lang)
}

/// The heading of a PIX charge the bank does not hold, for installment `n`, and the label of
/// its reasons; `None` for the states that need nothing of the merchant.
pub fn pix_problem(lang: Lang, state: PixChargeState, n: u32) -> Option<(String, &'static str)> {
    match state {
        PixChargeState::Refused => Some((text::pix_refused(lang, n), text::REASONS.t(lang))),
        PixChargeState::Conflict => Some((text::pix_conflict(lang, n), text::DIFFERENCES.t(lang))),
        _ => None,
    }
}
