//! An installment's PIX charge at the bank on the invoice's detail, and the table of Pix
//! Automático's cycles and their attempts.

use crate::Tr;

pub static REASONS: Tr = Tr {
    pt: "Motivos informados pelo banco",
    en: "Reasons given by the bank",
};
pub static DIFFERENCES: Tr = Tr {
    pt: "O que difere (no banco ≠ no paylink)",
    en: "What differs (at the bank ≠ in paylink)",
};
pub static WHAT_TO_DO: Tr = Tr { pt: "O pagador não tem código PIX para esta parcela. Corrija os dados (por exemplo, o CPF ou CNPJ do cliente), cancele esta cobrança e crie outra.", en: "The payer has no PIX code for this installment. Correct the data (for example, the customer's CPF or CNPJ), cancel this invoice and create it again." };
pub static CYCLES: Tr = Tr {
    pt: "Cobranças do Pix Automático e suas tentativas",
    en: "Pix Automático charges and their attempts",
};
pub static RETURNED: Tr = Tr {
    pt: "Devoluções do PIX",
    en: "PIX returns",
};
pub static CYCLE: Tr = Tr {
    pt: "Situação da cobrança",
    en: "Charge status",
};
pub static ATTEMPT_DATE: Tr = Tr {
    pt: "Data da tentativa",
    en: "Attempt date",
};
pub static ATTEMPT_KIND: Tr = Tr {
    pt: "Tipo",
    en: "Kind",
};
pub static ATTEMPT_STATUS: Tr = Tr {
    pt: "Situação da tentativa",
    en: "Attempt status",
};
pub static REASON: Tr = Tr {
    pt: "Motivo da falha",
    en: "Why it failed",
};

use crate::Lang;

/// The heading of installment `n`'s PIX charge that the bank refused.
pub fn pix_refused(l: Lang, n: u32) -> String {
    match l {
        Lang::PtBr => format!("O banco recusou a cobrança PIX da parcela {n}"),
        Lang::En => format!("The bank refused the PIX charge of installment {n}"),
    }
}

/// The heading of installment `n`'s PIX charge when the bank holds another one under its code.
pub fn pix_conflict(l: Lang, n: u32) -> String {
    match l {
        Lang::PtBr => format!("O banco já tem outra cobrança PIX com o código da parcela {n}"),
        Lang::En => {
            format!("The bank already holds another PIX charge under the code of installment {n}")
        }
    }
}

// What became of a Pix Automático cycle (the table's "Situação da cobrança"); the model maps
// the bank's status to these. A cycle or an attempt paid, scheduled or cancelled says
// `STATE_PAID`, `SCHEDULED`, `CANCELLED_F`.
pub static CYCLE_RETRY_SCHEDULED: Tr = Tr {
    pt: "Nova tentativa agendada no banco do pagador",
    en: "Another attempt scheduled at the payer's bank",
};
pub static CYCLE_ATTEMPT_REJECTED: Tr = Tr {
    pt: "Tentativa rejeitada pelo banco do pagador",
    en: "Attempt rejected by the payer's bank",
};
pub static CYCLE_SCHEDULED: Tr = Tr {
    pt: "Agendada: o banco do pagador paga no vencimento",
    en: "Scheduled: the payer's bank pays it on the due date",
};
pub static CYCLE_PAID: Tr = Tr {
    pt: "Paga pelo banco do pagador",
    en: "Paid by the payer's bank",
};
pub static CYCLE_NOT_PAID: Tr = Tr {
    pt: "Não paga: o banco do pagador rejeitou e não há novas tentativas",
    en: "Not paid: the payer's bank rejected it and no retry is left",
};
pub static CYCLE_EXPIRED: Tr = Tr {
    pt: "Expirou sem pagamento",
    en: "Expired unpaid",
};
pub static CYCLE_REFUSED: Tr = Tr {
    pt: "Recusada pelo banco ao ser enviada",
    en: "Refused by the bank when sent",
};
/// Said after a cycle that ended unpaid (`CYCLE_NOT_PAID; a parcela voltou…`).
pub static CYCLE_BACK_ON_PAGE: Tr = Tr {
    pt: "; a parcela voltou para a página de pagamento",
    en: "; the installment is back on the payment page",
};

// An attempt's kind and status (the table's "Tipo" and "Situação da tentativa").
pub static ATTEMPT_ON_DUE_DATE: Tr = Tr {
    pt: "No vencimento",
    en: "On the due date",
};
pub static ATTEMPT_RETRY: Tr = Tr {
    pt: "Nova tentativa",
    en: "Retry",
};
pub static ATTEMPT_REQUESTED: Tr = Tr {
    pt: "Solicitada",
    en: "Requested",
};
pub static ATTEMPT_REJECTED: Tr = Tr {
    pt: "Rejeitada",
    en: "Rejected",
};
pub static ATTEMPT_EXPIRED: Tr = Tr {
    pt: "Expirada",
    en: "Expired",
};

/// Why the payer's bank did not pay an attempt: its `words` (Portuguese, as banks write them)
/// and the Pix catalogue's `code`.
pub fn bank_declined(l: Lang, words: &str, code: &str) -> String {
    match l {
        Lang::PtBr => format!("O banco do pagador recusou: “{words}” (código {code})"),
        Lang::En => {
            format!("The payer's bank declined it: “{words}” (code {code}, in the bank's words)")
        }
    }
}
