//! The payer page's Pix Automático offer (`payer/src/pix_automatico.rs`): the terms the payer
//! agrees to by paying the composite code, the code itself, the note an installment the payer's
//! bank pays shows, and the offer to authorize the recurrence again. The periodicities are the
//! merchant's frequencies (`values`), the terms' label is the payer page's (`PAYER_TERMS`).

use crate::Tr;

// The retry policies.
pub static RETRIES_NONE: Tr = Tr {
    pt: "Sem novas tentativas: um pagamento que falhar no vencimento não é cobrado de novo.",
    en: "No retries: a payment that fails on its due date is not tried again.",
};
pub static RETRIES_UP_TO_3: Tr = Tr {
    pt: "Se um pagamento falhar no vencimento, até 3 novas tentativas em até 7 dias.",
    en: "If a payment fails on its due date, up to 3 more tries within 7 days.",
};

// The offer's facts.
pub static UNTIL_YOU_CANCEL: Tr = Tr {
    pt: "até você cancelar",
    en: "until you cancel",
};
pub static CONTRACT: Tr = Tr {
    pt: "Contrato",
    en: "Contract",
};
pub static EACH_CHARGE: Tr = Tr {
    pt: "Valor de cada cobrança",
    en: "Each charge",
};
pub static PERIODICITY: Tr = Tr {
    pt: "Periodicidade",
    en: "Frequency",
};
pub static FIRST_CHARGE: Tr = Tr {
    pt: "Primeira cobrança",
    en: "First charge",
};
pub static LAST_CHARGE: Tr = Tr {
    pt: "Última cobrança",
    en: "Last charge",
};

// The offer.
pub static PAY_FIRST_AUTHORIZE_NEXT: Tr = Tr {
    pt: "Pague a primeira cobrança com este código e autorize as próximas: o seu banco paga cada uma no vencimento, sem você precisar voltar aqui.",
    en: "Pay the first charge with this code and authorize the next ones: your bank pays each on its due date, without you coming back here.",
};
pub static AUTHORIZE_NEXT: Tr = Tr {
    pt: "Autorize as próximas cobranças com este código (nada é pago agora): o seu banco paga cada uma no vencimento, sem você precisar voltar aqui.",
    en: "Authorize the next charges with this code (nothing is paid now): your bank pays each on its due date, without you coming back here.",
};
pub static CANCEL_IN_BANK_APP: Tr = Tr {
    pt: "Você pode cancelar a autorização a qualquer momento no app do seu banco.",
    en: "You can cancel the authorization at any time in your bank's app.",
};
pub static PIX_AUTOMATICO_QR: Tr = Tr {
    pt: "QR code do Pix Automático",
    en: "Pix Automático QR code",
};
pub static PIX_AUTOMATICO_CODE: Tr = Tr {
    pt: "Pix copia e cola",
    en: "Pix copy and paste",
};
pub static COPY_PIX_AUTOMATICO: Tr = Tr {
    pt: "Copiar código do Pix Automático",
    en: "Copy the Pix Automático code",
};

// An installment the payer's bank pays.
pub static PAID_BY_PIX_AUTOMATICO: Tr = Tr {
    pt: "Pago pelo Pix Automático: o seu banco paga esta parcela no vencimento.",
    en: "Paid through Pix Automático: your bank pays this installment on its due date.",
};

// Authorizing it again.
pub static PIX_AUTOMATICO_DECLINED: Tr = Tr {
    pt: "Você recusou a autorização do Pix Automático no app do seu banco.",
    en: "You declined the Pix Automático authorization in your bank's app.",
};
pub static PIX_AUTOMATICO_EXPIRED: Tr = Tr {
    pt: "A autorização do Pix Automático expirou sem ser feita.",
    en: "The Pix Automático authorization expired before it was given.",
};
pub static PIX_AUTOMATICO_PREPARING: Tr = Tr {
    pt: "Estamos gerando um novo código de autorização com o banco. Recarregue a página em alguns instantes.",
    en: "A new authorization code is being made with the bank. Reload the page in a few moments.",
};
pub static RELOAD_PAGE: Tr = Tr {
    pt: "Recarregar",
    en: "Reload",
};
pub static ASK_NEW_CODE: Tr = Tr {
    pt: "Se mudou de ideia, peça um novo código: autorizando, o seu banco paga cada cobrança no vencimento, e você pode cancelar quando quiser no app do banco.",
    en: "If you changed your mind, ask for a new code: once you authorize it, your bank pays each charge on its due date, and you can cancel at any time in your bank's app.",
};
pub static AUTHORIZE_PIX_AUTOMATICO: Tr = Tr {
    pt: "Autorizar o Pix Automático",
    en: "Authorize Pix Automático",
};
