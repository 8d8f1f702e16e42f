//! The payment links screen (`/links`): the form, the table, sharing and embedding.

use crate::Tr;

pub static NEW_LINK: Tr = Tr {
    pt: "Novo link de pagamento",
    en: "New payment link",
};
pub static LINK_DESCRIPTION: Tr = Tr {
    pt: "Descrição",
    en: "Description",
};
pub static PAYER_SETS: Tr = Tr {
    pt: "o pagador define",
    en: "payer sets",
};
pub static SINGLE: Tr = Tr {
    pt: "À vista",
    en: "Single payment",
};
pub static INSTALLMENTS_UP_TO: Tr = Tr {
    pt: "Parcelado",
    en: "Installments",
};
pub static MAX_INSTALLMENTS: Tr = Tr {
    pt: "Máximo de parcelas",
    en: "Most installments",
};
pub static DUE_IN_DAYS: Tr = Tr {
    pt: "Vencimento (dias após a criação da fatura)",
    en: "Due date (days after the invoice is made)",
};
pub static LINK_REDIRECT_TO: Tr = Tr {
    pt: "Endereço para onde o pagador vai depois de pagar",
    en: "Where the payer goes after paying",
};
pub static SLUG: Tr = Tr {
    pt: "Endereço do link",
    en: "Link address",
};
pub static SLUG_HINT: Tr = Tr {
    pt: "Opcional: feito a partir do nome quando vazio.",
    en: "Optional: made from the name when blank.",
};
pub static DISCOUNT_DAYS: Tr = Tr {
    pt: "O desconto acaba quantos dias antes do vencimento",
    en: "The discount ends this many days before the due date",
};
pub static CREATE: Tr = Tr {
    pt: "Criar link",
    en: "Create link",
};
pub static YES: Tr = Tr {
    pt: "Sim",
    en: "Yes",
};
pub static NO: Tr = Tr {
    pt: "Não",
    en: "No",
};
pub static INVOICES_MADE: Tr = Tr {
    pt: "Faturas geradas",
    en: "Invoices made",
};
pub static AMOUNT_PAID: Tr = Tr {
    pt: "Valor pago",
    en: "Amount paid",
};
pub static TYPE: Tr = Tr {
    pt: "Tipo",
    en: "Type",
};
pub static DEACTIVATE: Tr = Tr {
    pt: "Desativar",
    en: "Deactivate",
};
pub static REACTIVATE: Tr = Tr {
    pt: "Reativar",
    en: "Reactivate",
};
pub static SHARE: Tr = Tr {
    pt: "Compartilhar",
    en: "Share",
};
pub static NO_LINKS: Tr = Tr {
    pt: "Nenhum link de pagamento ainda.",
    en: "No payment links yet.",
};
pub static COPY_URL: Tr = Tr {
    pt: "Copiar endereço",
    en: "Copy address",
};
pub static EMBED_IFRAME: Tr = Tr {
    pt: "Na sua página, em um quadro (embed.js)",
    en: "On your page, in a frame (embed.js)",
};
pub static EMBED_IFRAME_HINT: Tr = Tr {
    pt: "Cole onde o formulário de pagamento deve aparecer.",
    en: "Paste it where the payment form goes.",
};
pub static EMBED_MOUNT: Tr = Tr {
    pt: "Na sua página, sem quadro (mount())",
    en: "On your page, without a frame (mount())",
};
pub static EMBED_MOUNT_HINT: Tr = Tr {
    pt: "O formulário entra no elemento #checkout da sua página.",
    en: "The form goes into your page's #checkout element.",
};
pub static COPY_IFRAME: Tr = Tr {
    pt: "Copiar código do quadro",
    en: "Copy the frame's code",
};
pub static COPY_MOUNT: Tr = Tr {
    pt: "Copiar código do mount()",
    en: "Copy the mount() code",
};
pub static PRINT_QR: Tr = Tr {
    pt: "Imprimir QR code",
    en: "Print QR code",
};
pub static CLOSE: Tr = Tr {
    pt: "Fechar",
    en: "Close",
};

use crate::Lang;

/// A link's installments column: "Parcelado em até {n}x".
pub fn up_to(l: Lang, n: u32) -> String {
    match l {
        Lang::PtBr => format!("Parcelado em até {n}x"),
        Lang::En => format!("Up to {n} installments"),
    }
}

/// What the screen says once link `name` is made.
pub fn link_created(l: Lang, name: &str) -> String {
    match l {
        Lang::PtBr => format!("Link {name} criado."),
        Lang::En => format!("Link {name} created."),
    }
}

/// What the screen says once link `name` is deactivated.
pub fn link_deactivated(l: Lang, name: &str) -> String {
    match l {
        Lang::PtBr => format!("Link {name} desativado."),
        Lang::En => format!("Link {name} deactivated."),
    }
}

/// What the screen says once link `name` is active again.
pub fn link_reactivated(l: Lang, name: &str) -> String {
    match l {
        Lang::PtBr => format!("Link {name} reativado."),
        Lang::En => format!("Link {name} reactivated."),
    }
}

/// The label of the button that deactivates link `name`.
pub fn deactivate_link(l: Lang, name: &str) -> String {
    match l {
        Lang::PtBr => format!("Desativar o link {name}"),
        Lang::En => format!("Deactivate link {name}"),
    }
}

/// The label of the button that makes link `name` active again.
pub fn reactivate_link(l: Lang, name: &str) -> String {
    match l {
        Lang::PtBr => format!("Reativar o link {name}"),
        Lang::En => format!("Reactivate link {name}"),
    }
}

/// The label of the button (and the heading of the dialog) that shares link `name`.
pub fn share_link(l: Lang, name: &str) -> String {
    match l {
        Lang::PtBr => format!("Compartilhar o link {name}"),
        Lang::En => format!("Share link {name}"),
    }
}

/// What the QR code image of the link at `url` is.
pub fn qr_of(l: Lang, url: &str) -> String {
    match l {
        Lang::PtBr => format!("QR code do link {url}"),
        Lang::En => format!("QR code of the link {url}"),
    }
}
