//! The payer's page of charges (`/c/{token}`, `payer/src/charges.rs`): every invoice of one
//! customer with one merchant, open and paid, and the page a link that opens nothing gets.
//! "Em aberto" is the invoice state's (`STATE_OPEN`).

use crate::{Lang, Tr};

/// What an invoice without a description is called on the page.
pub static CHARGE: Tr = Tr {
    pt: "Cobrança",
    en: "Charge",
};

/// Which installment `n` of `count` a line is.
///
/// ```
/// use paylink_text::{installment_of, Lang};
/// assert_eq!(installment_of(Lang::PtBr, 2, 12), "Parcela 2 de 12");
/// assert_eq!(installment_of(Lang::En, 2, 12), "Installment 2 of 12");
/// ```
pub fn installment_of(l: Lang, n: u32, count: u32) -> String {
    match l {
        Lang::PtBr => format!("Parcela {n} de {count}"),
        Lang::En => format!("Installment {n} of {count}"),
    }
}

pub static NOTHING_OPEN: Tr = Tr {
    pt: "Nada em aberto. Obrigado!",
    en: "Nothing to pay. Thank you!",
};
pub static PAID_CHARGES: Tr = Tr {
    pt: "Pagas",
    en: "Paid",
};
pub static YOUR_CHARGES: Tr = Tr {
    pt: "Suas cobranças",
    en: "Your charges",
};

// A link that opens nothing (unknown, expired or revoked: the same words for all).
pub static PAGE_UNAVAILABLE: Tr = Tr {
    pt: "Página indisponível",
    en: "Page unavailable",
};
pub static LINK_OPENS_NOTHING: Tr = Tr {
    pt: "Este link não abre nenhuma página. Peça um novo a quem cobrou você.",
    en: "This link opens no page. Ask whoever charged you for a new one.",
};
