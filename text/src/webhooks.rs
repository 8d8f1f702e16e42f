//! The webhooks screen (`/webhooks`): endpoints, the signing secret, deliveries.

use crate::Tr;

pub static WEBHOOKS_INTRO: Tr = Tr { pt: "Os webhooks avisam o seu sistema de cada evento das cobranças com um POST assinado; uma entrega que falha é repetida por cerca de três dias.", en: "Webhooks tell your system about each invoice event with a signed POST; a failed delivery is retried for about three days." };
pub static ENDPOINTS: Tr = Tr {
    pt: "Endereços",
    en: "Endpoints",
};
pub static NO_WEBHOOKS: Tr = Tr {
    pt: "Nenhum webhook cadastrado.",
    en: "No webhooks yet.",
};
pub static URL: Tr = Tr {
    pt: "URL",
    en: "URL",
};
pub static CREATED_AT: Tr = Tr {
    pt: "Criado em",
    en: "Created",
};
pub static DISABLED_GONE: Tr = Tr {
    pt: "Desativado (o endereço respondeu 410)",
    en: "Disabled (the endpoint answered 410)",
};
pub static REMOVE_CONFIRM: Tr = Tr {
    pt: "Sim, remover",
    en: "Yes, remove",
};
pub static REMOVED: Tr = Tr {
    pt: "Webhook removido.",
    en: "Webhook removed.",
};
pub static NEW_WEBHOOK: Tr = Tr {
    pt: "Novo webhook",
    en: "New webhook",
};
pub static ADDED: Tr = Tr {
    pt: "Webhook adicionado.",
    en: "Webhook added.",
};
pub static SECRET: Tr = Tr {
    pt: "Segredo de assinatura",
    en: "Signing secret",
};
pub static NO_SECRET: Tr = Tr {
    pt: "Ainda não há segredo: ele é criado com o primeiro webhook.",
    en: "No secret yet: it is made with the first webhook.",
};
pub static ROTATE: Tr = Tr {
    pt: "Gerar novo segredo",
    en: "Make a new secret",
};
pub static ROTATE_ASK: Tr = Tr { pt: "Gerar um novo segredo? As próximas entregas serão assinadas com ele e, por 24 horas, também com o atual: atualize o seu sistema nesse prazo.", en: "Make a new secret? Deliveries from now on are signed with it and, for 24 hours, with the current one too: update your system within that time." };
pub static ROTATE_CONFIRM: Tr = Tr {
    pt: "Sim, gerar novo segredo",
    en: "Yes, make a new secret",
};
pub static SECRET_ONCE: Tr = Tr {
    pt: "Copie este segredo agora e guarde-o no seu sistema: você não poderá vê-lo de novo.",
    en: "Copy this secret now and store it in your system: you will not see it again.",
};
pub static SECRET_VALUE: Tr = Tr {
    pt: "Segredo de assinatura (whsec_…)",
    en: "Signing secret (whsec_…)",
};
pub static COPY_SECRET: Tr = Tr {
    pt: "Copiar segredo",
    en: "Copy secret",
};
pub static SECRET_DONE: Tr = Tr {
    pt: "Já guardei o segredo",
    en: "I have stored it",
};
pub static DELIVERIES: Tr = Tr {
    pt: "Entregas",
    en: "Deliveries",
};
pub static INVOICE_ID: Tr = Tr {
    pt: "Fatura (id)",
    en: "Invoice (id)",
};
pub static INVOICE_ID_HINT: Tr = Tr {
    pt: "O id da fatura, como no endereço da sua página.",
    en: "The invoice's id, as in its page's address.",
};
pub static ANY_DELIVERY_STATUS: Tr = Tr {
    pt: "Todas",
    en: "Any",
};
pub static DELIVERY_INVOICE: Tr = Tr {
    pt: "Fatura",
    en: "Invoice",
};
pub static ATTEMPTS: Tr = Tr {
    pt: "Tentativas",
    en: "Attempts",
};
pub static NEXT_ATTEMPT: Tr = Tr {
    pt: "Próxima tentativa",
    en: "Next attempt",
};
pub static NO_DELIVERIES: Tr = Tr {
    pt: "Nenhuma entrega.",
    en: "No deliveries.",
};
pub static REDELIVER: Tr = Tr {
    pt: "Reenviar",
    en: "Send again",
};
pub static REDELIVERED: Tr = Tr {
    pt: "Entrega reenviada: ela sai em instantes.",
    en: "Delivery sent again: it goes out in a moment.",
};

use crate::Lang;

/// The label of the button that removes the `event` webhook of `url`.
pub fn remove_webhook_label(l: Lang, event: &str, url: &str) -> String {
    match l {
        Lang::PtBr => format!("Remover o webhook {event} de {url}"),
        Lang::En => format!("Remove the {event} webhook of {url}"),
    }
}

/// The question before removing the `event` webhook of `url`.
pub fn remove_webhook_ask(l: Lang, event: &str, url: &str) -> String {
    match l {
        Lang::PtBr => format!(
            "Remover este webhook? \u{201c}{event}\u{201d} deixará de ser enviado para {url}."
        ),
        Lang::En => {
            format!("Remove this webhook? \u{201c}{event}\u{201d} will no longer be sent to {url}.")
        }
    }
}

/// Since when (`at`, a date and time) the signing secret is in use.
pub fn secret_at(l: Lang, at: &str) -> String {
    match l {
        Lang::PtBr => {
            format!("Em uso desde {at}. Ele não pode ser exibido de novo: se o perdeu, gere outro.")
        }
        Lang::En => {
            format!("In use since {at}. It cannot be shown again: if you lost it, make a new one.")
        }
    }
}

/// Until when (`at`) the previous secret also signs.
pub fn previous_until(l: Lang, at: &str) -> String {
    match l {
        Lang::PtBr => format!(
            "O segredo anterior também assina as entregas até {at}: passe o seu sistema para o novo até lá."
        ),
        Lang::En => format!(
            "The previous secret also signs deliveries until {at}: move your system to the new one by then."
        ),
    }
}

/// The label of the button that sends `event` of invoice `invoice` again.
pub fn redeliver_label(l: Lang, event: &str, invoice: &str) -> String {
    match l {
        Lang::PtBr => format!("Reenviar \u{201c}{event}\u{201d} da fatura {invoice}"),
        Lang::En => format!("Send \u{201c}{event}\u{201d} of invoice {invoice} again"),
    }
}
