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
