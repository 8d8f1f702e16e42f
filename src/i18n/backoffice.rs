//! The back office's texts: the actions on an invoice's detail (cancel,
//! record a payment, resend) and the dashboard (`/painel`), in pt-BR and
//! English. Kept apart from [`super::K`] and [`super::lists::LK`] so each
//! screen's keys grow without touching the others'.

use paylink_model::Lang;

/// Keys of the back office's texts. `BK::Cancel.t(lang)` gives the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BK {
    Actions,
    NoActions,
    Cancel,
    CancelAsk,
    CancelConfirm,
    Cancelled,
    CancelledNote,
    Back,
    Resend,
    ResendAsk,
    ResendConfirm,
    Pay,
    PayOf,
    PayAsk,
    PayConfirm,
    PayAmount,
    PaidOn,
    Paid,
    Status,
    Dashboard,
    Month,
    Received,
    ReceivedIn,
    Open,
    Overdue,
    ChartCaption,
    ChartLabel,
}

impl BK {
    pub fn t(self, lang: Lang) -> &'static str {
        let (pt, en) = self.pair();
        super::pick(lang, pt, en)
    }

    fn pair(self) -> (&'static str, &'static str) {
        use BK::*;
        match self {
            Actions => ("Ações", "Actions"),
            NoActions => (
                "Nada a fazer: nenhuma parcela aguarda pagamento.",
                "Nothing to do: no installment is waiting for payment.",
            ),
            Cancel => ("Cancelar cobrança", "Cancel invoice"),
            CancelAsk => (
                "Cancelar esta cobrança? O pagador verá que ela foi cancelada e não poderá mais pagá-la.",
                "Cancel this invoice? The payer will see it was cancelled and can no longer pay it.",
            ),
            CancelConfirm => ("Sim, cancelar cobrança", "Yes, cancel invoice"),
            Cancelled => ("Cobrança cancelada.", "Invoice cancelled."),
            CancelledNote => (
                "Esta cobrança foi cancelada: ela não aparece mais nas listas (a não ser no filtro \"Cancelada\").",
                "This invoice was cancelled: it no longer shows in the lists (but under the \"Cancelled\" filter).",
            ),
            Back => ("Voltar", "Back"),
            Resend => ("Reenviar notificação", "Resend notification"),
            ResendAsk => (
                "Enviar a cobrança ao pagador de novo, agora, pelos canais das notificações desta fatura?",
                "Send the invoice to the payer again, now, on the channels of its notifications?",
            ),
            ResendConfirm => ("Sim, reenviar", "Yes, resend"),
            Pay => ("Registrar pagamento", "Record payment"),
            PayOf => (
                "Registrar pagamento da parcela {n}",
                "Record payment of installment {n}",
            ),
            PayAsk => (
                "Registrar esta parcela como paga fora do paylink (dinheiro, transferência, cheque)?",
                "Record this installment as paid outside paylink (cash, transfer, check)?",
            ),
            PayConfirm => ("Confirmar pagamento", "Confirm payment"),
            PayAmount => ("Valor recebido (R$)", "Amount received (R$)"),
            PaidOn => ("Data do pagamento", "Payment date"),
            Paid => (
                "Pagamento registrado: parcela {n}.",
                "Payment recorded: installment {n}.",
            ),
            Status => ("Situação", "Status"),
            Dashboard => ("Painel", "Dashboard"),
            Month => ("Mês", "Month"),
            Received => ("Recebido", "Received"),
            ReceivedIn => ("Recebido em {month}", "Received in {month}"),
            Open => ("Em aberto (a vencer no mês)", "Open (due later this month)"),
            Overdue => ("Vencido (no mês)", "Overdue (this month)"),
            ChartCaption => ("Recebido por mês", "Received by month"),
            ChartLabel => (
                "Gráfico de barras do recebido nos últimos 12 meses; os valores estão na tabela a seguir",
                "Bar chart of the money received in the last 12 months; the numbers are in the table below",
            ),
        }
    }
}

/// "Notificação reenviada (2 envios)." / "Notification resent (2 sends)."
pub fn resent(lang: Lang, queued: usize) -> String {
    match (lang, queued) {
        (Lang::PtBr, 1) => "Notificação reenviada (1 envio).".to_string(),
        (Lang::PtBr, n) => format!("Notificação reenviada ({n} envios)."),
        (Lang::En, 1) => "Notification resent (1 send).".to_string(),
        (Lang::En, n) => format!("Notification resent ({n} sends)."),
    }
}

const MONTHS_PT: [&str; 12] = [
    "jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez",
];
const MONTHS_EN: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `2026-11` as (year, month 1–12), when it reads so.
fn year_month(ym: &str) -> Option<(i32, usize)> {
    ym.split_once('-')
        .and_then(|(y, m)| Some((y.parse::<i32>().ok()?, m.parse::<usize>().ok()?)))
        .filter(|(_, m)| (1..=12).contains(m))
}

/// `2026-11` as the language writes a month: `nov/2026`, `Nov 2026` (as
/// given when it is not `YYYY-MM`).
pub fn month_label(ym: &str, lang: Lang) -> String {
    match (year_month(ym), lang) {
        (Some((y, m)), Lang::PtBr) => format!("{}/{y}", MONTHS_PT[m - 1]),
        (Some((y, m)), Lang::En) => format!("{} {y}", MONTHS_EN[m - 1]),
        (None, _) => ym.to_string(),
    }
}

/// `2026-11` on a chart's axis: the month's short name (`nov`, `Nov`) and
/// its year apart, so twelve of them fit side by side; as given (no year)
/// when it is not `YYYY-MM`.
pub fn month_axis(ym: &str, lang: Lang) -> (String, Option<i32>) {
    match year_month(ym) {
        Some((y, m)) => {
            let names = if lang == Lang::PtBr {
                MONTHS_PT
            } else {
                MONTHS_EN
            };
            (names[m - 1].to_string(), Some(y))
        }
        None => (ym.to_string(), None),
    }
}
