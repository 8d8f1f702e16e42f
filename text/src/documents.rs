//! The documents the server makes for the payer in their language: the receipt's PDF (its
//! title and lines are the model's, `paylink_model::receipt`) and its file's name. The boleto
//! is a Brazilian bank document, in pt-BR only (the server's `domain::boleto_pdf`).

use crate::Tr;

/// Before the receipt's verification URL, at its foot.
pub static RECEIPT_CHECK_AT: Tr = Tr {
    pt: "Confira a autenticidade deste comprovante em",
    en: "Check that this receipt is genuine at",
};
/// The receipt's file name's first word (`comprovante-{externalId}-{n}.pdf`).
pub static RECEIPT_FILE: Tr = Tr {
    pt: "comprovante",
    en: "receipt",
};
