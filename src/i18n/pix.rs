//! The texts of an installment's PIX charge at the bank on the merchant's invoice detail (a
//! charge the bank refused, or a different one it already holds), in pt-BR and English. The
//! bank's own reasons are shown as the bank wrote them. Also the headings of the table of Pix
//! Automático's cycles and their attempts (the cells' texts are the model's).

use paylink_model::{Lang, PixChargeState};

/// Keys of the PIX charge texts. `PK::Refused.t(lang)` gives the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PK {
    Refused,
    Conflict,
    Reasons,
    Differences,
    WhatToDo,
    Cycles,
    Installment,
    DueDate,
    Cycle,
    AttemptDate,
    AttemptKind,
    AttemptStatus,
    Reason,
}

impl PK {
    pub fn t(self, lang: Lang) -> &'static str {
        let (pt, en) = self.pair();
        super::pick(lang, pt, en)
    }

    fn pair(self) -> (&'static str, &'static str) {
        use PK::*;
        match self {
            Refused => (
                "O banco recusou a cobrança PIX da parcela",
                "The bank refused the PIX charge of installment",
            ),
            Conflict => (
                "O banco já tem outra cobrança PIX com o código da parcela",
                "The bank already holds another PIX charge under the code of installment",
            ),
            Reasons => ("Motivos informados pelo banco", "Reasons given by the bank"),
            Differences => (
                "O que difere (no banco ≠ no paylink)",
                "What differs (at the bank ≠ in paylink)",
            ),
            WhatToDo => (
                "O pagador não tem código PIX para esta parcela. Corrija os dados (por exemplo, o CPF ou CNPJ do cliente), cancele esta cobrança e crie outra.",
                "The payer has no PIX code for this installment. Correct the data (for example, the customer's CPF or CNPJ), cancel this invoice and create it again.",
            ),
            Cycles => (
                "Cobranças do Pix Automático e suas tentativas",
                "Pix Automático charges and their attempts",
            ),
            Installment => ("Parcela", "Installment"),
            DueDate => ("Vencimento", "Due date"),
            Cycle => ("Situação da cobrança", "Charge status"),
            AttemptDate => ("Data da tentativa", "Attempt date"),
            AttemptKind => ("Tipo", "Kind"),
            AttemptStatus => ("Situação da tentativa", "Attempt status"),
            Reason => ("Motivo da falha", "Why it failed"),
        }
    }
}

/// The heading of a charge the bank does not hold, for installment `n`, and the label of its
/// reasons; `None` for the states that need nothing of the merchant.
pub fn problem(lang: Lang, state: PixChargeState, n: u32) -> Option<(String, &'static str)> {
    let (key, reasons) = match state {
        PixChargeState::Refused => (PK::Refused, PK::Reasons),
        PixChargeState::Conflict => (PK::Conflict, PK::Differences),
        _ => return None,
    };
    Some((format!("{} {n}", key.t(lang)), reasons.t(lang)))
}
