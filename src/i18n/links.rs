//! The payment links screen's texts (`/links`), in pt-BR and English. Kept
//! apart from [`super::K`] so this screen's keys grow without touching the
//! others'. Sentences with a value are templates filled by [`super::fill`].

use paylink_model::Lang;

/// Keys of the links screen's texts. `LinkK::Title.t(lang)` gives the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkK {
    Title,
    NewLink,
    Name,
    Description,
    Price,
    PriceByCustomer,
    PayerSets,
    InvoiceType,
    Single,
    Installment,
    UpTo,
    MaxInstallments,
    DueInDays,
    RedirectTo,
    Slug,
    SlugHint,
    DiscountDays,
    Create,
    Created,
    Active,
    Yes,
    No,
    InvoicesMade,
    AmountPaid,
    Amount,
    Type,
    Actions,
    Deactivate,
    Reactivate,
    DeactivateName,
    ReactivateName,
    Deactivated,
    Reactivated,
    Share,
    ShareName,
    NoLinks,
    Address,
    CopyUrl,
    EmbedIframe,
    EmbedIframeHint,
    EmbedMount,
    EmbedMountHint,
    CopyIframe,
    CopyMount,
    Qr,
    QrOf,
    PrintQr,
    Close,
}

impl LinkK {
    pub fn t(self, lang: Lang) -> &'static str {
        let (pt, en) = self.pair();
        super::pick(lang, pt, en)
    }

    fn pair(self) -> (&'static str, &'static str) {
        use LinkK::*;
        match self {
            Title => ("Links de pagamento", "Payment links"),
            NewLink => ("Novo link de pagamento", "New payment link"),
            Name => ("Nome", "Name"),
            Description => ("Descrição", "Description"),
            Price => ("Valor (R$)", "Amount (R$)"),
            PriceByCustomer => ("O pagador define o valor", "The payer sets the amount"),
            PayerSets => ("o pagador define", "payer sets"),
            InvoiceType => ("Tipo de cobrança", "Invoice type"),
            Single => ("À vista", "Single payment"),
            Installment => ("Parcelado", "Installments"),
            UpTo => ("Parcelado em até {n}x", "Up to {n} installments"),
            MaxInstallments => ("Máximo de parcelas", "Most installments"),
            DueInDays => (
                "Vencimento (dias após a criação da fatura)",
                "Due date (days after the invoice is made)",
            ),
            RedirectTo => (
                "Endereço para onde o pagador vai depois de pagar",
                "Where the payer goes after paying",
            ),
            Slug => ("Endereço do link", "Link address"),
            SlugHint => (
                "Opcional: feito a partir do nome quando vazio.",
                "Optional: made from the name when blank.",
            ),
            DiscountDays => (
                "O desconto acaba quantos dias antes do vencimento",
                "The discount ends this many days before the due date",
            ),
            Create => ("Criar link", "Create link"),
            Created => ("Link {name} criado.", "Link {name} created."),
            Active => ("Ativo", "Active"),
            Yes => ("Sim", "Yes"),
            No => ("Não", "No"),
            InvoicesMade => ("Faturas geradas", "Invoices made"),
            AmountPaid => ("Valor pago", "Amount paid"),
            Amount => ("Valor", "Amount"),
            Type => ("Tipo", "Type"),
            Actions => ("Ações", "Actions"),
            Deactivate => ("Desativar", "Deactivate"),
            Reactivate => ("Reativar", "Reactivate"),
            DeactivateName => ("Desativar o link {name}", "Deactivate link {name}"),
            ReactivateName => ("Reativar o link {name}", "Reactivate link {name}"),
            Deactivated => ("Link {name} desativado.", "Link {name} deactivated."),
            Reactivated => ("Link {name} reativado.", "Link {name} reactivated."),
            Share => ("Compartilhar", "Share"),
            ShareName => ("Compartilhar o link {name}", "Share link {name}"),
            NoLinks => ("Nenhum link de pagamento ainda.", "No payment links yet."),
            Address => ("Endereço", "Address"),
            CopyUrl => ("Copiar endereço", "Copy address"),
            EmbedIframe => (
                "Na sua página, em um quadro (embed.js)",
                "On your page, in a frame (embed.js)",
            ),
            EmbedIframeHint => (
                "Cole onde o formulário de pagamento deve aparecer.",
                "Paste it where the payment form goes.",
            ),
            EmbedMount => (
                "Na sua página, sem quadro (mount())",
                "On your page, without a frame (mount())",
            ),
            EmbedMountHint => (
                "O formulário entra no elemento #checkout da sua página.",
                "The form goes into your page's #checkout element.",
            ),
            CopyIframe => ("Copiar código do quadro", "Copy the frame's code"),
            CopyMount => ("Copiar código do mount()", "Copy the mount() code"),
            Qr => ("QR code para imprimir", "QR code to print"),
            QrOf => ("QR code do link {url}", "QR code of the link {url}"),
            PrintQr => ("Imprimir QR code", "Print QR code"),
            Close => ("Fechar", "Close"),
        }
    }
}
