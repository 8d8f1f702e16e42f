//! The webhooks screen's texts (`/webhooks`: the application's webhooks, the
//! signing secret, the deliveries), in pt-BR and English. Kept apart from the
//! other tables so this screen's keys grow without touching theirs.

use paylink_model::webhooks::DeliveryStatus;
use paylink_model::Lang;

/// Keys of the webhooks screen's texts. `WK::Add.t(lang)` gives the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WK {
    Webhooks,
    Intro,
    Endpoints,
    NoWebhooks,
    Event,
    Url,
    CreatedAt,
    State,
    Active,
    DisabledGone,
    Actions,
    Remove,
    RemoveLabel,
    RemoveAsk,
    RemoveConfirm,
    Removed,
    Back,
    NewWebhook,
    UrlLabel,
    Add,
    Added,
    Secret,
    SecretAt,
    PreviousUntil,
    NoSecret,
    Rotate,
    RotateAsk,
    RotateConfirm,
    SecretOnce,
    SecretValue,
    CopySecret,
    SecretDone,
    Deliveries,
    InvoiceId,
    InvoiceIdHint,
    AnyStatus,
    Invoice,
    Attempts,
    LastError,
    NextAttempt,
    NoDeliveries,
    Redeliver,
    RedeliverLabel,
    Redelivered,
}

impl WK {
    pub fn t(self, lang: Lang) -> &'static str {
        let (pt, en) = self.pair();
        super::pick(lang, pt, en)
    }

    fn pair(self) -> (&'static str, &'static str) {
        use WK::*;
        match self {
            Webhooks => ("Webhooks", "Webhooks"),
            Intro => (
                "Os webhooks avisam o seu sistema de cada evento das cobranças com um POST assinado; uma entrega que falha é repetida por cerca de três dias.",
                "Webhooks tell your system about each invoice event with a signed POST; a failed delivery is retried for about three days.",
            ),
            Endpoints => ("Endereços", "Endpoints"),
            NoWebhooks => ("Nenhum webhook cadastrado.", "No webhooks yet."),
            Event => ("Evento", "Event"),
            Url => ("URL", "URL"),
            CreatedAt => ("Criado em", "Created"),
            State => ("Situação", "Status"),
            Active => ("Ativo", "Active"),
            DisabledGone => ("Desativado (o endereço respondeu 410)", "Disabled (the endpoint answered 410)"),
            Actions => ("Ações", "Actions"),
            Remove => ("Remover", "Remove"),
            RemoveLabel => ("Remover o webhook {event} de {url}", "Remove the {event} webhook of {url}"),
            RemoveAsk => (
                "Remover este webhook? \u{201c}{event}\u{201d} deixará de ser enviado para {url}.",
                "Remove this webhook? \u{201c}{event}\u{201d} will no longer be sent to {url}.",
            ),
            RemoveConfirm => ("Sim, remover", "Yes, remove"),
            Removed => ("Webhook removido.", "Webhook removed."),
            Back => ("Voltar", "Back"),
            NewWebhook => ("Novo webhook", "New webhook"),
            UrlLabel => ("URL (HTTPS)", "URL (HTTPS)"),
            Add => ("Adicionar webhook", "Add webhook"),
            Added => ("Webhook adicionado.", "Webhook added."),
            Secret => ("Segredo de assinatura", "Signing secret"),
            SecretAt => (
                "Em uso desde {at}. Ele não pode ser exibido de novo: se o perdeu, gere outro.",
                "In use since {at}. It cannot be shown again: if you lost it, make a new one.",
            ),
            NoSecret => (
                "Ainda não há segredo: ele é criado com o primeiro webhook.",
                "No secret yet: it is made with the first webhook.",
            ),
            Rotate => ("Gerar novo segredo", "Make a new secret"),
            PreviousUntil => (
                "O segredo anterior também assina as entregas até {at}: passe o seu sistema para o novo até lá.",
                "The previous secret also signs deliveries until {at}: move your system to the new one by then.",
            ),
            RotateAsk => (
                "Gerar um novo segredo? As próximas entregas serão assinadas com ele e, por 24 horas, também com o atual: atualize o seu sistema nesse prazo.",
                "Make a new secret? Deliveries from now on are signed with it and, for 24 hours, with the current one too: update your system within that time.",
            ),
            RotateConfirm => ("Sim, gerar novo segredo", "Yes, make a new secret"),
            SecretOnce => (
                "Copie este segredo agora e guarde-o no seu sistema: você não poderá vê-lo de novo.",
                "Copy this secret now and store it in your system: you will not see it again.",
            ),
            SecretValue => ("Segredo de assinatura (whsec_…)", "Signing secret (whsec_…)"),
            CopySecret => ("Copiar segredo", "Copy secret"),
            SecretDone => ("Já guardei o segredo", "I have stored it"),
            Deliveries => ("Entregas", "Deliveries"),
            InvoiceId => ("Fatura (id)", "Invoice (id)"),
            InvoiceIdHint => (
                "O id da fatura, como no endereço da sua página.",
                "The invoice's id, as in its page's address.",
            ),
            AnyStatus => ("Todas", "Any"),
            Invoice => ("Fatura", "Invoice"),
            Attempts => ("Tentativas", "Attempts"),
            LastError => ("Último erro", "Last error"),
            NextAttempt => ("Próxima tentativa", "Next attempt"),
            NoDeliveries => ("Nenhuma entrega.", "No deliveries."),
            Redeliver => ("Reenviar", "Send again"),
            RedeliverLabel => (
                "Reenviar \u{201c}{event}\u{201d} da fatura {invoice}",
                "Send \u{201c}{event}\u{201d} of invoice {invoice} again",
            ),
            Redelivered => (
                "Entrega reenviada: ela sai em instantes.",
                "Delivery sent again: it goes out in a moment.",
            ),
        }
    }
}

/// A delivery's state as the screen names it.
pub fn delivery_status(lang: Lang, s: DeliveryStatus) -> &'static str {
    let (pt, en) = match s {
        DeliveryStatus::Pending => ("Aguardando", "Pending"),
        DeliveryStatus::Succeeded => ("Entregue", "Delivered"),
        DeliveryStatus::Failed => ("Falhou", "Failed"),
        DeliveryStatus::Disabled => ("Desativada", "Disabled"),
    };
    super::pick(lang, pt, en)
}
