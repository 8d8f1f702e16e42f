//! The payer pages' texts (the payer page, with its notices of Pix at night and of a returned
//! payment, and the payment link's page; the charges page's are in `charges`, the receipts' in
//! `receipts`, the Pix Automático offer's in `pix_automatico`), beside the merchant's: a text
//! both say is one static, in `words` or where it was first written.

use crate::{Lang, Tr};

pub static INVOICE_FROM: Tr = Tr {
    pt: "Cobrança de",
    en: "Invoice from",
};
pub static PAYMENT: Tr = Tr {
    pt: "Pagamento",
    en: "Payment",
};
pub static HOW_TO_PAY: Tr = Tr {
    pt: "Como pagar",
    en: "How to pay",
};
pub static ALL_PAID: Tr = Tr {
    pt: "Todas as parcelas estão pagas. Obrigado!",
    en: "Every installment is paid. Thank you!",
};
pub static PAYER_TERMS: Tr = Tr {
    pt: "Condições",
    en: "Terms",
};
pub static DUE_TODAY: Tr = Tr {
    pt: "Valor para pagar hoje",
    en: "Amount due today",
};
pub static DISCOUNT_OF: Tr = Tr {
    pt: "desconto de",
    en: "discount of",
};
pub static FINE_OF: Tr = Tr {
    pt: "multa de",
    en: "fine of",
};
pub static INTEREST_OF: Tr = Tr {
    pt: "juros de",
    en: "interest of",
};
pub static DAYS_LATE: Tr = Tr {
    pt: "dias de atraso",
    en: "days late",
};
pub static PAYER_COPY_FAILED: Tr = Tr {
    pt: "Não foi possível copiar; selecione o código e copie manualmente.",
    en: "Could not copy; select the code and copy it by hand.",
};
pub static PIX_QR: Tr = Tr {
    pt: "QR Code PIX",
    en: "PIX QR code",
};
pub static PIX_CODE: Tr = Tr {
    pt: "PIX copia e cola",
    en: "PIX copy-and-paste code",
};
pub static COPY_PIX: Tr = Tr {
    pt: "Copiar código PIX",
    en: "Copy PIX code",
};
pub static PIX_PENDING: Tr = Tr {
    pt: "O banco está gerando o código PIX desta parcela. Atualize a página em alguns instantes.",
    en: "The bank is generating this installment's PIX code. Reload the page in a moment.",
};
pub static PIX_UNAVAILABLE: Tr = Tr {
    pt: "O pagamento por PIX não está disponível para esta parcela. Use outra forma de pagamento ou fale com quem enviou a cobrança.",
    en: "PIX payment is not available for this installment. Use another way to pay or contact whoever sent you the charge.",
};
pub static BOLETO_LINE: Tr = Tr {
    pt: "Linha digitável",
    en: "Boleto number",
};
pub static COPY_BOLETO: Tr = Tr {
    pt: "Copiar linha digitável",
    en: "Copy boleto number",
};
pub static BOLETO_PDF: Tr = Tr {
    pt: "Baixar boleto (PDF)",
    en: "Download boleto (PDF)",
};
pub static BOLETO_PRINT: Tr = Tr {
    pt: "Imprimir",
    en: "Print",
};
pub static SIMULATE: Tr = Tr {
    pt: "Simular pagamento (sandbox)",
    en: "Simulate payment (sandbox)",
};
pub static TEST_ENVIRONMENT: Tr = Tr {
    pt: "Ambiente de teste: esta cobrança é uma simulação e não deve ser paga.",
    en: "Test environment: this charge is a simulation and must not be paid.",
};
pub static BACK_TO_SITE: Tr = Tr {
    pt: "Voltar ao site",
    en: "Back to the site",
};
pub static PAID_NOW: Tr = Tr {
    pt: "Pagamento confirmado. Voltando ao site…",
    en: "Payment confirmed. Going back to the site…",
};
pub static NOT_FOUND_TITLE: Tr = Tr {
    pt: "Cobrança indisponível",
    en: "Invoice unavailable",
};
pub static RELOAD: Tr = Tr {
    pt: "Tentar de novo",
    en: "Try again",
};
pub static YOUR_DATA: Tr = Tr {
    pt: "Seus dados",
    en: "Your details",
};
pub static TO_PAYMENT: Tr = Tr {
    pt: "Ir para o pagamento",
    en: "Continue to payment",
};
pub static PAYER_PREVIEW_EMPTY: Tr = Tr {
    pt: "Informe o valor para ver as parcelas.",
    en: "Enter the amount to see the installments.",
};
pub static INVOICE_READY: Tr = Tr {
    pt: "Cobrança gerada.",
    en: "Invoice created.",
};
pub static LINK_UNAVAILABLE: Tr = Tr {
    pt: "Link indisponível",
    en: "Link unavailable",
};

// The terms' lines on the boleto's "instruções" and the payer page; the dates and amounts
// come formatted for the language.

/// Paying by `until`, the discount `off`: pay `pay`.
pub fn discount_until(l: Lang, until: &str, off: &str, pay: &str) -> String {
    match l {
        Lang::PtBr => format!("Até {until}, desconto de {off}: pague {pay}."),
        Lang::En => format!("Until {until}, a discount of {off}: pay {pay}."),
    }
}

/// Paying after `after`, the fine `fine`.
pub fn fine_after(l: Lang, after: &str, fine: &str) -> String {
    match l {
        Lang::PtBr => format!("Após {after}, multa de {fine}."),
        Lang::En => format!("After {after}, a fine of {fine}."),
    }
}

/// Paying after `after`, late interest of `percent` % a month.
pub fn interest_after(l: Lang, after: &str, percent: &str) -> String {
    match l {
        Lang::PtBr => {
            format!("Após {after}, juros de mora de {percent} % ao mês, por dia corrido de atraso.")
        }
        Lang::En => {
            format!("After {after}, late interest of {percent} % a month, per calendar day late.")
        }
    }
}

// The receipt (comprovante): its title, notes and lines' labels. The amount's label is
// `AMOUNT_PAID`, the installment's `INSTALLMENT`.
pub static RECEIPT_TITLE: Tr = Tr {
    pt: "Comprovante de pagamento",
    en: "Payment receipt",
};
/// What a reversed receipt says first.
pub static RECEIPT_REVERSED: Tr = Tr {
    pt: "Este pagamento foi devolvido ao pagador: o comprovante não vale como prova de pagamento.",
    en: "This payment was returned to the payer: the receipt is no longer proof of payment.",
};
pub static RECEIPT_CODE: Tr = Tr {
    pt: "Código de verificação",
    en: "Verification code",
};
pub static RECEIPT_PAID_TO: Tr = Tr {
    pt: "Recebedor",
    en: "Paid to",
};
pub static RECEIPT_MERCHANT_DOCUMENT: Tr = Tr {
    pt: "CPF/CNPJ do recebedor",
    en: "Merchant's CPF/CNPJ",
};
pub static RECEIPT_PAYER: Tr = Tr {
    pt: "Pagador",
    en: "Payer",
};
pub static RECEIPT_PAYER_DOCUMENT: Tr = Tr {
    pt: "CPF/CNPJ do pagador",
    en: "Payer's CPF/CNPJ",
};
pub static RECEIPT_PAID_ON: Tr = Tr {
    pt: "Data do pagamento",
    en: "Paid on",
};
pub static RECEIPT_METHOD: Tr = Tr {
    pt: "Forma de pagamento",
    en: "Method",
};
/// The method of a payment the merchant recorded by hand.
pub static RECEIPT_BY_MERCHANT: Tr = Tr {
    pt: "Registrado pelo recebedor",
    en: "Recorded by the merchant",
};
/// The label of a Pix payment's reference.
pub static RECEIPT_END_TO_END_ID: Tr = Tr {
    pt: "ID da transação (endToEndId)",
    en: "Transaction ID (endToEndId)",
};
/// The label of a boleto's (or a recorded payment's) reference.
pub static RECEIPT_NOSSO_NUMERO: Tr = Tr {
    pt: "Nosso número",
    en: "Bank reference (nosso número)",
};

/// A day and time `at` (formatted for `l`) said to be Brasília's.
pub fn at_brasilia_time(l: Lang, at: &str) -> String {
    match l {
        Lang::PtBr => format!("{at} (horário de Brasília)"),
        Lang::En => format!("{at} (Brasília time)"),
    }
}

/// Installment `n` of `count`, as the receipt's line says it (its label says "Parcela").
pub fn number_of(l: Lang, n: u32, count: u32) -> String {
    match l {
        Lang::PtBr => format!("{n} de {count}"),
        Lang::En => format!("{n} of {count}"),
    }
}

// Pix at night (`payer/src/after.rs`).
/// Why the payer's bank may refuse a Pix now: it may cap a person's Pix at `limit` at night.
///
/// ```
/// use paylink_text::{pix_night_limit, Lang};
/// assert!(pix_night_limit(Lang::En, "R$ 1,000.00").contains("to R$ 1,000.00:"));
/// ```
pub fn pix_night_limit(l: Lang, limit: &str) -> String {
    match l {
        Lang::PtBr => format!(
            "Entre 20h e 6h, o seu banco pode limitar um Pix de pessoa física a {limit}: um Pix deste valor pode ser recusado agora."
        ),
        Lang::En => format!(
            "Between 8 pm and 6 am, your bank may limit a Pix by a person to {limit}: a Pix of this amount may be refused now."
        ),
    }
}
pub static PIX_NIGHT_BOLETO: Tr = Tr {
    pt: "Você pode pagar pelo boleto abaixo, ou pagar o Pix depois das 6h.",
    en: "You can pay by the boleto below, or pay by Pix after 6 am.",
};
pub static PIX_NIGHT_LATER: Tr = Tr {
    pt: "Se o seu banco recusar, pague o Pix depois das 6h.",
    en: "If your bank refuses it, pay by Pix after 6 am.",
};

// A returned payment the payer may make again (`payer/src/after.rs`).
pub static PAY_AGAIN: Tr = Tr {
    pt: "Pagar novamente",
    en: "Pay again",
};
pub static PAYMENT_RETURNED: Tr = Tr {
    pt: "Pagamento devolvido",
    en: "Payment returned",
};
pub static PAYMENT_RETURNED_NOTE: Tr = Tr {
    pt: "O pagamento desta parcela foi devolvido e ela continua em aberto. Você pode pagá-la novamente.",
    en: "The payment of this installment was returned, and it is still owed. You can pay it again.",
};
