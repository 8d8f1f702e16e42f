//! The payer pages' words, in pt-BR and English: one key per text, so a page
//! and its islands say the same thing in the language the server chose.

use paylink_model::{InstallmentStatus, Lang};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum T {
    Tagline,
    Language,
    InvoiceFrom,
    Payment,
    Amount,
    AmountByPayer,
    Customer,
    Description,
    HowToPay,
    AllPaid,
    Terms,
    DueToday,
    DiscountOf,
    FineOf,
    InterestOf,
    DaysLate,
    InstallmentNo,
    DueDate,
    Paid,
    Status,
    Total,
    Installments,
    Accepted,
    PaymentLink,
    CopyLink,
    Copied,
    CopyFailed,
    PixQr,
    PixCode,
    CopyPix,
    PixPending,
    PixUnavailable,
    BoletoLine,
    CopyBoleto,
    BoletoPdf,
    BoletoPrint,
    Simulate,
    /// The sandbox's banner: this page's payment settings are demo ones.
    TestEnvironment,
    BackToSite,
    PaidNow,
    NotFoundTitle,
    Reload,
    Price,
    InstallmentCount,
    PaymentTypes,
    YourData,
    ToPayment,
    Preview,
    PreviewEmpty,
    PriceFormat,
    InvoiceReady,
    LinkUnavailable,
}

impl T {
    pub fn t(self, l: Lang) -> &'static str {
        let (pt, en) = self.pair();
        pick(l, pt, en)
    }

    fn pair(self) -> (&'static str, &'static str) {
        use T::*;
        match self {
            Tagline => ("Cobranças por PIX e boleto", "Invoices paid by PIX and boleto"),
            Language => ("Idioma", "Language"),
            InvoiceFrom => ("Cobrança de", "Invoice from"),
            Payment => ("Pagamento", "Payment"),
            Amount => ("Valor", "Amount"),
            AmountByPayer => ("Definido pelo pagador", "Set by the payer"),
            Customer => ("Cliente", "Customer"),
            Description => ("Descrição", "Description"),
            HowToPay => ("Como pagar", "How to pay"),
            AllPaid => (
                "Todas as parcelas estão pagas. Obrigado!",
                "Every installment is paid. Thank you!",
            ),
            Terms => ("Condições", "Terms"),
            DueToday => ("Valor para pagar hoje", "Amount due today"),
            DiscountOf => ("desconto de", "discount of"),
            FineOf => ("multa de", "fine of"),
            InterestOf => ("juros de", "interest of"),
            DaysLate => ("dias de atraso", "days late"),
            InstallmentNo => ("Parcela", "Installment"),
            DueDate => ("Vencimento", "Due date"),
            Paid => ("Pago", "Paid"),
            Status => ("Situação", "Status"),
            Total => ("Total", "Total"),
            Installments => ("Parcelas", "Installments"),
            Accepted => ("Formas de pagamento aceitas", "Accepted payment methods"),
            PaymentLink => ("Link de pagamento", "Payment link"),
            CopyLink => ("Copiar link", "Copy link"),
            Copied => ("Copiado.", "Copied."),
            CopyFailed => (
                "Não foi possível copiar; selecione o código e copie manualmente.",
                "Could not copy; select the code and copy it by hand.",
            ),
            PixQr => ("QR Code PIX", "PIX QR code"),
            PixCode => ("PIX copia e cola", "PIX copy-and-paste code"),
            CopyPix => ("Copiar código PIX", "Copy PIX code"),
            PixPending => (
                "O banco está gerando o código PIX desta parcela. Atualize a página em alguns instantes.",
                "The bank is generating this installment's PIX code. Reload the page in a moment.",
            ),
            PixUnavailable => (
                "O pagamento por PIX não está disponível para esta parcela. Use outra forma de pagamento ou fale com quem enviou a cobrança.",
                "PIX payment is not available for this installment. Use another way to pay or contact whoever sent you the charge.",
            ),
            BoletoLine => ("Linha digitável", "Boleto number"),
            CopyBoleto => ("Copiar linha digitável", "Copy boleto number"),
            BoletoPdf => ("Baixar boleto (PDF)", "Download boleto (PDF)"),
            BoletoPrint => ("Imprimir", "Print"),
            Simulate => ("Simular pagamento (sandbox)", "Simulate payment (sandbox)"),
            TestEnvironment => (
                "Ambiente de teste: esta cobrança é uma simulação e não deve ser paga.",
                "Test environment: this charge is a simulation and must not be paid.",
            ),
            BackToSite => ("Voltar ao site", "Back to the site"),
            PaidNow => (
                "Pagamento confirmado. Voltando ao site…",
                "Payment confirmed. Going back to the site…",
            ),
            NotFoundTitle => ("Cobrança indisponível", "Invoice unavailable"),
            Reload => ("Tentar de novo", "Try again"),
            Price => ("Valor (R$)", "Amount (R$)"),
            InstallmentCount => ("Número de parcelas", "Number of installments"),
            PaymentTypes => ("Formas de pagamento", "Payment methods"),
            YourData => ("Seus dados", "Your details"),
            ToPayment => ("Ir para o pagamento", "Continue to payment"),
            Preview => ("Prévia das parcelas", "Installment preview"),
            PreviewEmpty => (
                "Informe o valor para ver as parcelas.",
                "Enter the amount to see the installments.",
            ),
            PriceFormat => (
                "Valor inválido: use o formato 1.234,56.",
                "Invalid amount: use the format 1.234,56.",
            ),
            InvoiceReady => ("Cobrança gerada.", "Invoice created."),
            LinkUnavailable => ("Link indisponível", "Link unavailable"),
        }
    }
}

/// An installment's status as the payer reads it.
pub fn status(l: Lang, s: InstallmentStatus) -> &'static str {
    match s {
        InstallmentStatus::WaitingPayment => pick(l, "Aguardando pagamento", "Awaiting payment"),
        InstallmentStatus::Confirmed => T::Paid.t(l),
        InstallmentStatus::Reversed => pick(l, "Estornado", "Reversed"),
    }
}

pub(crate) fn pick(l: Lang, pt: &'static str, en: &'static str) -> &'static str {
    if l == Lang::PtBr {
        pt
    } else {
        en
    }
}
