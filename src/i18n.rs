//! Every string the widget shows, in pt-BR (default) and English.
//!
//! Sentences that carry a value are whole templates with named placeholders
//! (`"Nova cobrança para {name}"`), filled by [`fill`] (or split by
//! [`around`] where the value is wrapped in markup), so each language puts
//! the value where its grammar wants it; counts pick their plural form in a
//! function per sentence ([`customers_found`], `backoffice::resent`). A few
//! lines of our own rather than fluent or leptos_i18n: two languages, a
//! dozen such sentences, and no parser or bundle in the wasm (what fluent
//! would add: `bench/i18n-size`).
//!
//! Validation messages are not here: they come from `paylink_model` already
//! rendered in the selected language, so the browser and the server say the
//! same thing.

use paylink_model::{Channel, Frequency, HookType, InstallmentStatus, InvoiceType, Lang};
use paylink_model::{NotificationType, PaymentType, ProviderStatus};

pub mod backoffice;
pub mod links;
pub mod lists;
pub mod pix;
pub mod session;
pub mod webhooks;

/// Keys of the interface texts. `K::FullName.t(lang)` gives the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum K {
    Tagline,
    Language,
    // customer form
    NewCustomer,
    FullName,
    Document,
    Email,
    Phone,
    CreateCustomer,
    HaveCustomer,
    CustomerCreated,
    ChargeFor,
    PickCustomer,
    // invoice form
    NewInvoice,
    CustomerId,
    CustomerHint,
    ExternalId,
    DueDate,
    PaymentTypes,
    InvoiceTypeLabel,
    InstallmentCount,
    FrequencyLabel,
    EndDate,
    EndInstallment,
    EndSubscription,
    Price,
    PriceByCustomer,
    PixAutomatico,
    PixAutomaticoRetries,
    Description,
    Notifications,
    NotificationType,
    Channel,
    PeriodDays,
    AddNotification,
    NotificationN,
    Webhooks,
    WebhookN,
    HookType,
    WebhookUrl,
    AddWebhook,
    Remove,
    RemoveRow,
    RedirectTo,
    Preview,
    PreviewEmpty,
    CreateInvoice,
    BackToCustomer,
    PriceFormat,
    Optional,
    // views
    Invoice,
    Payment,
    Amount,
    AmountByPayer,
    Customer,
    Contact,
    Installments,
    InstallmentNo,
    Paid,
    Status,
    Total,
    Accepted,
    PaymentLink,
    CopyLink,
    Copied,
    CopyFailed,
    ConfiguredNotifications,
    ConfiguredWebhooks,
    NotificationSends,
    SentTo,
    When,
    ProviderId,
    LastError,
    None,
    Loading,
    LoadingCustomer,
    Days,
    NotFound,
    GoHome,
    // payer page
    InvoiceFrom,
    HowToPay,
    AllPaid,
    PixQr,
    PixPending,
    PixUnavailable,
    PixCode,
    CopyPix,
    BoletoLine,
    CopyBoleto,
    Simulate,
    BackToSite,
    // payment link page
    YourData,
    ToPayment,
    InvoiceReady,
    // fine, interest, discount and the boleto PDF (issue 23)
    Terms,
    FineType,
    FineValue,
    InterestValue,
    DiscountType,
    DiscountValue,
    DiscountUntil,
    Percentage,
    FixedAmount,
    NumberFormat,
    DueToday,
    DiscountOf,
    FineOf,
    InterestOf,
    DaysLate,
    BoletoPdf,
    BoletoPrint,
    Fine,
    Interest,
    Discount,
    PerMonth,
    Until,
}

impl K {
    pub fn t(self, lang: Lang) -> &'static str {
        let (pt, en) = self.pair();
        pick(lang, pt, en)
    }

    fn pair(self) -> (&'static str, &'static str) {
        use K::*;
        match self {
            Tagline => (
                "Cobranças por PIX e boleto",
                "Invoices paid by PIX and boleto",
            ),
            Language => ("Idioma", "Language"),
            NewCustomer => ("Novo cliente", "New customer"),
            FullName => ("Nome completo", "Full name"),
            Document => ("CPF ou CNPJ", "CPF or CNPJ"),
            Email => ("E-mail", "E-mail"),
            Phone => ("Telefone", "Phone"),
            CreateCustomer => ("Cadastrar cliente", "Create customer"),
            HaveCustomer => (
                "Cliente já cadastrado: criar cobrança",
                "A customer I already have: create an invoice",
            ),
            CustomerCreated => ("Cliente cadastrado: {name}", "Customer created: {name}"),
            ChargeFor => ("Cobrança para {name}", "Invoice for {name}"),
            PickCustomer => (
                "Cliente já cadastrado? Encontre-o em {list} e escolha \u{201c}Nova cobrança\u{201d}.",
                "A customer you already have? Find them in {list} and choose \u{201c}New invoice\u{201d}.",
            ),
            NewInvoice => ("Nova cobrança", "New invoice"),
            CustomerId => ("ID do cliente", "Customer ID"),
            CustomerHint => (
                "Digite o nome, o CPF/CNPJ ou o e-mail e escolha na lista.",
                "Type the name, CPF/CNPJ or e-mail and choose from the list.",
            ),
            ExternalId => ("ID externo (seu sistema)", "External ID (your system)"),
            DueDate => ("Vencimento", "Due date"),
            PaymentTypes => ("Formas de pagamento", "Payment methods"),
            InvoiceTypeLabel => ("Tipo de cobrança", "Invoice type"),
            InstallmentCount => ("Número de parcelas", "Number of installments"),
            FrequencyLabel => ("Frequência", "Frequency"),
            EndDate => ("Data final", "End date"),
            EndInstallment => ("Parcela final", "Last installment"),
            EndSubscription => ("Término da assinatura", "Subscription end"),
            Price => ("Valor (R$)", "Amount (R$)"),
            PriceByCustomer => ("O pagador define o valor", "The payer sets the amount"),
            PixAutomatico => (
                "Pix Automático: o pagador autoriza uma vez e o banco dele paga cada cobrança",
                "Pix Automático: the payer authorizes once and their bank pays each charge",
            ),
            PixAutomaticoRetries => (
                "Tentar de novo uma cobrança que falhar (até 3 vezes em 7 dias)",
                "Try a failed charge again (up to 3 times within 7 days)",
            ),
            Description => ("Descrição para o pagador", "Description for the payer"),
            Notifications => ("Notificações ao pagador", "Payer notifications"),
            NotificationType => ("Evento", "Event"),
            Channel => ("Canal", "Channel"),
            PeriodDays => ("Dias (mínimo 5)", "Days (at least 5)"),
            AddNotification => ("Adicionar notificação", "Add notification"),
            NotificationN => ("Notificação {n}", "Notification {n}"),
            Webhooks => ("Webhooks", "Webhooks"),
            WebhookN => ("Webhook {n}", "Webhook {n}"),
            HookType => ("Evento", "Event"),
            WebhookUrl => ("URL (HTTPS)", "URL (HTTPS)"),
            AddWebhook => ("Adicionar webhook", "Add webhook"),
            Remove => ("Remover", "Remove"),
            RemoveRow => ("Remover {row}", "Remove {row}"),
            RedirectTo => (
                "Redirecionar após o pagamento (URL)",
                "Redirect after payment (URL)",
            ),
            Preview => ("Prévia das parcelas", "Installment preview"),
            PreviewEmpty => (
                "Informe valor e vencimento para ver as parcelas.",
                "Enter an amount and a due date to see the installments.",
            ),
            CreateInvoice => ("Criar cobrança", "Create invoice"),
            BackToCustomer => ("Voltar ao cadastro de cliente", "Back to the customer form"),
            PriceFormat => (
                "Valor inválido: use o formato 1.234,56.",
                "Invalid amount: use the format 1.234,56.",
            ),
            Optional => ("opcional", "optional"),
            Invoice => ("Cobrança", "Invoice"),
            Payment => ("Pagamento", "Payment"),
            Amount => ("Valor", "Amount"),
            AmountByPayer => ("Definido pelo pagador", "Set by the payer"),
            Customer => ("Cliente", "Customer"),
            Contact => ("Contato", "Contact"),
            Installments => ("Parcelas", "Installments"),
            InstallmentNo => ("Parcela", "Installment"),
            Paid => ("Pago", "Paid"),
            Status => ("Situação", "Status"),
            Total => ("Total", "Total"),
            Accepted => ("Formas de pagamento aceitas", "Accepted payment methods"),
            PaymentLink => ("Link de pagamento", "Payment link"),
            CopyLink => ("Copiar link", "Copy link"),
            Copied => ("Copiado.", "Copied."),
            CopyFailed => (
                "Não foi possível copiar; selecione o link e copie manualmente.",
                "Could not copy; select the link and copy it by hand.",
            ),
            ConfiguredNotifications => ("Notificações configuradas", "Configured notifications"),
            ConfiguredWebhooks => ("Webhooks configurados", "Configured webhooks"),
            NotificationSends => ("Envios de notificações", "Notification sends"),
            SentTo => ("Para", "To"),
            When => ("Quando", "When"),
            ProviderId => ("ID no provedor", "Provider id"),
            LastError => ("Último erro", "Last error"),
            None => ("Nenhum.", "None."),
            Loading => ("Carregando…", "Loading…"),
            LoadingCustomer => ("Carregando o cliente…", "Loading the customer…"),
            Days => ("Dias", "Days"),
            NotFound => ("Página não encontrada.", "Page not found."),
            GoHome => ("Criar uma cobrança", "Create an invoice"),
            InvoiceFrom => ("Cobrança de", "Invoice from"),
            HowToPay => ("Como pagar", "How to pay"),
            AllPaid => (
                "Todas as parcelas estão pagas. Obrigado!",
                "Every installment is paid. Thank you!",
            ),
            PixQr => ("QR Code PIX", "PIX QR code"),
            PixPending => (
                "O banco está gerando o código PIX desta parcela. Atualize a página em alguns instantes.",
                "The bank is generating this installment's PIX code. Reload the page in a moment.",
            ),
            PixUnavailable => (
                "O pagamento por PIX não está disponível para esta parcela. Use outra forma de pagamento ou fale com quem enviou a cobrança.",
                "PIX payment is not available for this installment. Use another way to pay or contact whoever sent you the charge.",
            ),
            PixCode => ("PIX copia e cola", "PIX copy-and-paste code"),
            CopyPix => ("Copiar código PIX", "Copy PIX code"),
            BoletoLine => ("Linha digitável", "Boleto number"),
            CopyBoleto => ("Copiar linha digitável", "Copy boleto number"),
            Simulate => ("Simular pagamento (sandbox)", "Simulate payment (sandbox)"),
            BackToSite => ("Voltar ao site", "Back to the site"),
            YourData => ("Seus dados", "Your details"),
            ToPayment => ("Ir para o pagamento", "Continue to payment"),
            InvoiceReady => ("Cobrança gerada.", "Invoice created."),
            Terms => (
                "Multa, juros e desconto (opcionais)",
                "Fine, interest and discount (optional)",
            ),
            FineType => ("Tipo de multa", "Fine type"),
            FineValue => ("Multa (% ou R$)", "Fine (% or R$)"),
            InterestValue => ("Juros de mora (% ao mês)", "Late interest (% a month)"),
            DiscountType => ("Tipo de desconto", "Discount type"),
            DiscountValue => ("Desconto (% ou R$)", "Discount (% or R$)"),
            DiscountUntil => ("Desconto até", "Discount until"),
            Percentage => ("Percentual (%)", "Percentage (%)"),
            FixedAmount => ("Valor fixo (R$)", "Fixed amount (R$)"),
            NumberFormat => (
                "Número inválido: use o formato 2,5 ou 1.234,56.",
                "Invalid number: use the format 2,5 or 1.234,56.",
            ),
            DueToday => ("Valor para pagar hoje", "Amount due today"),
            DiscountOf => ("desconto de", "discount of"),
            FineOf => ("multa de", "fine of"),
            InterestOf => ("juros de", "interest of"),
            DaysLate => ("dias de atraso", "days late"),
            BoletoPdf => ("Baixar boleto (PDF)", "Download boleto (PDF)"),
            BoletoPrint => ("Imprimir", "Print"),
            Fine => ("Multa", "Fine"),
            Interest => ("Juros de mora", "Late interest"),
            Discount => ("Desconto", "Discount"),
            PerMonth => ("ao mês", "a month"),
            Until => ("até", "until"),
        }
    }
}

fn pick(lang: Lang, pt: &'static str, en: &'static str) -> &'static str {
    if lang == Lang::PtBr {
        pt
    } else {
        en
    }
}

/// Where an invoice's Pix Automático recurrence stands, for the merchant.
pub fn pix_automatico_status(lang: Lang, v: paylink_model::PixAutomaticoStatus) -> &'static str {
    use paylink_model::PixAutomaticoStatus::*;
    match v {
        Pending => pick(lang, "Sendo criada no banco", "Being made at the bank"),
        Created => pick(
            lang,
            "Aguardando a autorização do pagador",
            "Waiting for the payer's authorization",
        ),
        Approved => pick(
            lang,
            "Autorizada: o banco do pagador paga cada cobrança",
            "Authorized: the payer's bank pays each charge",
        ),
        Rejected => pick(lang, "Recusada pelo pagador", "Declined by the payer"),
        Expired => pick(
            lang,
            "Expirada sem autorização",
            "Expired without authorization",
        ),
        Cancelled => pick(lang, "Cancelada", "Cancelled"),
        Refused => pick(lang, "Recusada pelo banco", "Refused by the bank"),
    }
}

pub fn invoice_type(lang: Lang, v: InvoiceType) -> &'static str {
    match v {
        InvoiceType::Single => pick(lang, "Avulsa", "Single"),
        InvoiceType::Installment => pick(lang, "Parcelada", "Installments"),
        InvoiceType::Recurring => pick(lang, "Recorrente", "Recurring"),
        InvoiceType::Subscription => pick(lang, "Assinatura", "Subscription"),
    }
}

pub fn payment_type(_lang: Lang, v: PaymentType) -> &'static str {
    match v {
        PaymentType::Pix => "PIX",
        PaymentType::Boleto => "Boleto",
    }
}

pub fn frequency(lang: Lang, v: Frequency) -> &'static str {
    match v {
        Frequency::Weekly => pick(lang, "Semanal", "Weekly"),
        Frequency::Fortweekly => pick(lang, "Quinzenal", "Fortnightly"),
        Frequency::Monthly => pick(lang, "Mensal", "Monthly"),
        Frequency::Bimonthly => pick(lang, "Bimestral", "Every two months"),
        Frequency::Quarterly => pick(lang, "Trimestral", "Quarterly"),
        Frequency::Semester => pick(lang, "Semestral", "Every six months"),
        Frequency::Yearly => pick(lang, "Anual", "Yearly"),
    }
}

pub fn notification_type(lang: Lang, v: NotificationType) -> &'static str {
    use NotificationType::*;
    match v {
        SendFirstInvoiceBy => pick(lang, "Envio da primeira cobrança", "First invoice sent"),
        InvoiceGenerated => pick(lang, "Cobrança gerada", "Invoice generated"),
        InvoiceChanged => pick(lang, "Cobrança alterada", "Invoice changed"),
        SendInvoiceReminder => pick(
            lang,
            "Lembrete antes do vencimento",
            "Reminder before the due date",
        ),
        SendInvoiceAtDay => pick(
            lang,
            "Cobrança no dia do vencimento",
            "Invoice on the due date",
        ),
        SendInvoiceCodeAtDay => pick(
            lang,
            "Código de pagamento no vencimento",
            "Payment code on the due date",
        ),
        InvoiceFail => pick(lang, "Falha na cobrança", "Invoice failed"),
        InvoiceResend => pick(
            lang,
            "Reenvio após o vencimento",
            "Resend after the due date",
        ),
        InvoiceConfirmPayment => pick(lang, "Confirmação de pagamento", "Payment confirmation"),
    }
}

pub fn channel(_lang: Lang, v: Channel) -> &'static str {
    match v {
        Channel::Email => "E-mail",
        Channel::WhatsApp => "WhatsApp",
        Channel::Sms => "SMS",
    }
}

/// Where a notification send stands: what the provider said of it when it said something,
/// else paylink's own state (`pending`, `sent`, `failed`, `skipped`).
pub fn send_status(lang: Lang, status: &str, provider: Option<ProviderStatus>) -> &'static str {
    match (provider, status) {
        (Some(ProviderStatus::Read), _) => pick(lang, "Lida", "Read"),
        (Some(ProviderStatus::Delivered), _) => pick(lang, "Entregue", "Delivered"),
        (Some(ProviderStatus::Failed), _) => pick(lang, "Não entregue", "Not delivered"),
        (_, "sent") => pick(lang, "Enviada", "Sent"),
        (_, "failed") => pick(lang, "Falhou", "Failed"),
        (_, "skipped") => pick(lang, "Não enviada", "Skipped"),
        _ => pick(lang, "Agendada", "Scheduled"),
    }
}

pub fn hook_type(lang: Lang, v: HookType) -> &'static str {
    match v {
        HookType::InvoiceCreated => pick(lang, "Cobrança criada", "Invoice created"),
        HookType::InvoiceDeleted => pick(lang, "Cobrança excluída", "Invoice deleted"),
        HookType::PaymentGenerated => pick(lang, "Pagamento gerado", "Payment generated"),
        HookType::PaymentConfirmed => pick(lang, "Pagamento confirmado", "Payment confirmed"),
    }
}

pub fn status(lang: Lang, v: InstallmentStatus) -> &'static str {
    match v {
        InstallmentStatus::WaitingPayment => pick(lang, "Aguardando pagamento", "Awaiting payment"),
        InstallmentStatus::Confirmed => pick(lang, "Pago", "Paid"),
        InstallmentStatus::Reversed => pick(lang, "Estornado", "Reversed"),
    }
}

/// How many customers a search found, as a sentence with its plural
/// ("Nenhum cliente encontrado.", "1 cliente encontrado.", "3 clientes
/// encontrados.").
pub fn customers_found(lang: Lang, n: usize) -> String {
    match (lang, n) {
        (Lang::PtBr, 0) => "Nenhum cliente encontrado.".into(),
        (Lang::PtBr, 1) => "1 cliente encontrado.".into(),
        (Lang::PtBr, n) => format!("{n} clientes encontrados."),
        (Lang::En, 0) => "No customer found.".into(),
        (Lang::En, 1) => "1 customer found.".into(),
        (Lang::En, n) => format!("{n} customers found."),
    }
}

/// `template` with each `{key}` replaced by its value in `args`, in one pass
/// (a value that itself holds `{…}`, a customer's name, stays as it is); an
/// unknown key is left as written.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let key = &after[..close];
                match args.iter().find(|(k, _)| *k == key) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text before and after placeholder `{key}` of `template`, for a value
/// shown in markup of its own (a name in `<strong>`, a link).
pub fn around<'a>(template: &'a str, key: &str) -> (&'a str, &'a str) {
    let placeholder = format!("{{{key}}}");
    template
        .split_once(placeholder.as_str())
        .unwrap_or((template, ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_is_filled_once_by_name() {
        let t = K::ChargeFor.t(Lang::PtBr);
        assert_eq!(
            fill(t, &[("name", "Maria da Silva")]),
            "Cobrança para Maria da Silva"
        );
        // A value holding a placeholder's shape stays as typed; an unknown key stays written.
        assert_eq!(
            fill("{a} e {b} e {c}", &[("a", "{b}"), ("b", "2")]),
            "{b} e 2 e {c}"
        );
        assert_eq!(fill("sem fim {a", &[("a", "1")]), "sem fim {a");
        assert_eq!(
            around(K::PickCustomer.t(Lang::En), "list"),
            (
                "A customer you already have? Find them in ",
                " and choose \u{201c}New invoice\u{201d}."
            )
        );
        assert_eq!(around("no placeholder", "x"), ("no placeholder", ""));
    }

    #[test]
    fn counts_take_their_plural() {
        assert_eq!(customers_found(Lang::PtBr, 1), "1 cliente encontrado.");
        assert_eq!(customers_found(Lang::PtBr, 2), "2 clientes encontrados.");
        assert_eq!(customers_found(Lang::En, 0), "No customer found.");
        assert_eq!(customers_found(Lang::En, 5), "5 customers found.");
    }
}
