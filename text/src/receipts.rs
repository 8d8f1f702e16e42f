//! A paid installment's receipt on the payer page and the verification page `/r/{code}`
//! (`payer/src/receipt.rs`). The receipt's own lines and title are the model's
//! (`paylink_model::receipt`).

use crate::{Lang, Tr};

/// What follows the receipt's title: which installment `n` it is of.
///
/// ```
/// use paylink_text::{receipt_installment, Lang};
/// assert_eq!(receipt_installment(Lang::PtBr, 3), "parcela 3");
/// assert_eq!(receipt_installment(Lang::En, 3), "installment 3");
/// ```
pub fn receipt_installment(l: Lang, n: u32) -> String {
    match l {
        Lang::PtBr => format!("parcela {n}"),
        Lang::En => format!("installment {n}"),
    }
}

pub static DOWNLOAD_RECEIPT: Tr = Tr {
    pt: "Baixar comprovante (PDF)",
    en: "Download receipt (PDF)",
};

// `/r/{code}`.
pub static RECEIPT_GENUINE: Tr = Tr {
    pt: "Comprovante autêntico",
    en: "Genuine receipt",
};
pub static RECEIPT_GENUINE_NOTE: Tr = Tr {
    pt: "Este comprovante foi emitido pela paylink e confere com o pagamento registrado:",
    en: "paylink issued this receipt, and it matches the payment on record:",
};
pub static RECEIPT_NOT_FOUND: Tr = Tr {
    pt: "Comprovante não encontrado",
    en: "Receipt not found",
};
pub static RECEIPT_UNKNOWN_NOTE: Tr = Tr {
    pt: "Nenhum comprovante tem este código de verificação. Confira o código impresso no comprovante.",
    en: "No receipt has this verification code. Check the code printed on the receipt.",
};
