//! The names of the model's values as the screens show them (invoice types, frequencies,
//! events, states). The mapping from each model enum to its name is the caller's (the model
//! sits above this crate); the words are here, once.

use crate::Tr;

// Invoice types.
pub static INVOICE_SINGLE: Tr = Tr {
    pt: "Avulsa",
    en: "Single",
};
pub static INVOICE_INSTALLMENT: Tr = Tr {
    pt: "Parcelada",
    en: "Installments",
};
pub static INVOICE_RECURRING: Tr = Tr {
    pt: "Recorrente",
    en: "Recurring",
};
pub static INVOICE_SUBSCRIPTION: Tr = Tr {
    pt: "Assinatura",
    en: "Subscription",
};

// Frequencies.
pub static WEEKLY: Tr = Tr {
    pt: "Semanal",
    en: "Weekly",
};
pub static FORTNIGHTLY: Tr = Tr {
    pt: "Quinzenal",
    en: "Fortnightly",
};
pub static MONTHLY: Tr = Tr {
    pt: "Mensal",
    en: "Monthly",
};
pub static BIMONTHLY: Tr = Tr {
    pt: "Bimestral",
    en: "Every two months",
};
pub static QUARTERLY: Tr = Tr {
    pt: "Trimestral",
    en: "Quarterly",
};
pub static SEMESTER: Tr = Tr {
    pt: "Semestral",
    en: "Every six months",
};
pub static YEARLY: Tr = Tr {
    pt: "Anual",
    en: "Yearly",
};

// Notifications to the payer: their events.
pub static SEND_FIRST_INVOICE_BY: Tr = Tr {
    pt: "Envio da primeira cobrança",
    en: "First invoice sent",
};
pub static INVOICE_GENERATED: Tr = Tr {
    pt: "Cobrança gerada",
    en: "Invoice generated",
};
pub static INVOICE_CHANGED: Tr = Tr {
    pt: "Cobrança alterada",
    en: "Invoice changed",
};
pub static SEND_INVOICE_REMINDER: Tr = Tr {
    pt: "Lembrete antes do vencimento",
    en: "Reminder before the due date",
};
pub static SEND_INVOICE_AT_DAY: Tr = Tr {
    pt: "Cobrança no dia do vencimento",
    en: "Invoice on the due date",
};
pub static SEND_INVOICE_CODE_AT_DAY: Tr = Tr {
    pt: "Código de pagamento no vencimento",
    en: "Payment code on the due date",
};
pub static INVOICE_FAIL: Tr = Tr {
    pt: "Falha na cobrança",
    en: "Invoice failed",
};
pub static INVOICE_RESEND: Tr = Tr {
    pt: "Reenvio após o vencimento",
    en: "Resend after the due date",
};
pub static INVOICE_CONFIRM_PAYMENT: Tr = Tr {
    pt: "Confirmação de pagamento",
    en: "Payment confirmation",
};

// A notification send: what the provider said, else paylink's own state.
pub static SEND_READ: Tr = Tr {
    pt: "Lida",
    en: "Read",
};
pub static DELIVERED: Tr = Tr {
    pt: "Entregue",
    en: "Delivered",
};
pub static NOT_DELIVERED: Tr = Tr {
    pt: "Não entregue",
    en: "Not delivered",
};
pub static SENT: Tr = Tr {
    pt: "Enviada",
    en: "Sent",
};
pub static FAILED: Tr = Tr {
    pt: "Falhou",
    en: "Failed",
};
pub static NOT_SENT: Tr = Tr {
    pt: "Não enviada",
    en: "Skipped",
};
pub static SCHEDULED: Tr = Tr {
    pt: "Agendada",
    en: "Scheduled",
};

// Webhook events.
pub static INVOICE_CREATED: Tr = Tr {
    pt: "Cobrança criada",
    en: "Invoice created",
};
pub static INVOICE_DELETED: Tr = Tr {
    pt: "Cobrança excluída",
    en: "Invoice deleted",
};
pub static PAYMENT_GENERATED: Tr = Tr {
    pt: "Pagamento gerado",
    en: "Payment generated",
};
pub static PAYMENT_CONFIRMED: Tr = Tr {
    pt: "Pagamento confirmado",
    en: "Payment confirmed",
};
pub static PAYMENT_REVERSED: Tr = Tr {
    pt: "Pagamento devolvido",
    en: "Payment reversed",
};

// An installment's state (its "paid" is `PAID`).
pub static AWAITING_PAYMENT: Tr = Tr {
    pt: "Aguardando pagamento",
    en: "Awaiting payment",
};
pub static INSTALLMENT_REVERSED: Tr = Tr {
    pt: "Estornado",
    en: "Reversed",
};

// An invoice's state in the lists.
pub static STATE_OPEN: Tr = Tr {
    pt: "Em aberto",
    en: "Open",
};
pub static STATE_PAID: Tr = Tr {
    pt: "Paga",
    en: "Paid",
};
pub static STATE_OVERDUE: Tr = Tr {
    pt: "Vencida",
    en: "Overdue",
};
pub static CANCELLED_F: Tr = Tr {
    pt: "Cancelada",
    en: "Cancelled",
};
pub static STATE_REVERSED: Tr = Tr {
    pt: "Com devolução",
    en: "Reversed",
};

// A webhook delivery's state (also `DELIVERED`, `FAILED`).
pub static DELIVERY_PENDING: Tr = Tr {
    pt: "Aguardando",
    en: "Pending",
};
pub static DELIVERY_DISABLED: Tr = Tr {
    pt: "Desativada",
    en: "Disabled",
};

// Where a Pix Automático recurrence stands, for the merchant (also `CANCELLED_F`).
pub static RECURRENCE_PENDING: Tr = Tr {
    pt: "Sendo criada no banco",
    en: "Being made at the bank",
};
pub static RECURRENCE_CREATED: Tr = Tr {
    pt: "Aguardando a autorização do pagador",
    en: "Waiting for the payer's authorization",
};
pub static RECURRENCE_APPROVED: Tr = Tr {
    pt: "Autorizada: o banco do pagador paga cada cobrança",
    en: "Authorized: the payer's bank pays each charge",
};
pub static RECURRENCE_REJECTED: Tr = Tr {
    pt: "Recusada pelo pagador",
    en: "Declined by the payer",
};
pub static RECURRENCE_EXPIRED: Tr = Tr {
    pt: "Expirada sem autorização",
    en: "Expired without authorization",
};
pub static RECURRENCE_REFUSED: Tr = Tr {
    pt: "Recusada pelo banco",
    en: "Refused by the bank",
};
