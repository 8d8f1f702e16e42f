//! The back office: the actions on an invoice's detail (cancel, record a payment, resend)
//! and the dashboard.

use crate::Tr;

pub static NO_ACTIONS: Tr = Tr {
    pt: "Nada a fazer: nenhuma parcela aguarda pagamento.",
    en: "Nothing to do: no installment is waiting for payment.",
};
pub static CANCEL: Tr = Tr {
    pt: "Cancelar cobrança",
    en: "Cancel invoice",
};
pub static CANCEL_ASK: Tr = Tr {
    pt: "Cancelar esta cobrança? O pagador verá que ela foi cancelada e não poderá mais pagá-la.",
    en: "Cancel this invoice? The payer will see it was cancelled and can no longer pay it.",
};
pub static CANCEL_CONFIRM: Tr = Tr {
    pt: "Sim, cancelar cobrança",
    en: "Yes, cancel invoice",
};
pub static CANCELLED: Tr = Tr {
    pt: "Cobrança cancelada.",
    en: "Invoice cancelled.",
};
pub static CANCELLED_NOTE: Tr = Tr { pt: "Esta cobrança foi cancelada: ela não aparece mais nas listas (a não ser no filtro \"Cancelada\").", en: "This invoice was cancelled: it no longer shows in the lists (but under the \"Cancelled\" filter)." };
pub static RESEND: Tr = Tr {
    pt: "Reenviar notificação",
    en: "Resend notification",
};
pub static RESEND_ASK: Tr = Tr {
    pt: "Enviar a cobrança ao pagador de novo, agora, pelos canais das notificações desta fatura?",
    en: "Send the invoice to the payer again, now, on the channels of its notifications?",
};
pub static RESEND_CONFIRM: Tr = Tr {
    pt: "Sim, reenviar",
    en: "Yes, resend",
};
pub static PAY_ASK: Tr = Tr {
    pt: "Registrar esta parcela como paga fora do paylink (dinheiro, transferência, cheque)?",
    en: "Record this installment as paid outside paylink (cash, transfer, check)?",
};
pub static PAY_CONFIRM: Tr = Tr {
    pt: "Confirmar pagamento",
    en: "Confirm payment",
};
pub static PAY_AMOUNT: Tr = Tr {
    pt: "Valor recebido (R$)",
    en: "Amount received (R$)",
};
pub static PAID_ON: Tr = Tr {
    pt: "Data do pagamento",
    en: "Payment date",
};
pub static MONTH: Tr = Tr {
    pt: "Mês",
    en: "Month",
};
pub static RECEIVED: Tr = Tr {
    pt: "Recebido",
    en: "Received",
};
pub static OPEN: Tr = Tr {
    pt: "Em aberto (a vencer no mês)",
    en: "Open (due later this month)",
};
pub static OVERDUE: Tr = Tr {
    pt: "Vencido (no mês)",
    en: "Overdue (this month)",
};
pub static CHART_CAPTION: Tr = Tr {
    pt: "Recebido por mês",
    en: "Received by month",
};
pub static CHART_LABEL: Tr = Tr {
    pt: "Gráfico de barras do recebido nos últimos 12 meses; os valores estão na tabela a seguir",
    en: "Bar chart of the money received in the last 12 months; the numbers are in the table below",
};

use crate::Lang;

/// The label of the button that records installment `n`'s payment.
pub fn pay_of(l: Lang, n: u32) -> String {
    match l {
        Lang::PtBr => format!("Registrar pagamento da parcela {n}"),
        Lang::En => format!("Record payment of installment {n}"),
    }
}

/// What the detail says once installment `n`'s payment is recorded.
pub fn paid_installment(l: Lang, n: u32) -> String {
    match l {
        Lang::PtBr => format!("Pagamento registrado: parcela {n}."),
        Lang::En => format!("Payment recorded: installment {n}."),
    }
}

/// The dashboard's figure of the money received in `month` (as [`month_label`] writes it).
pub fn received_in(l: Lang, month: &str) -> String {
    match l {
        Lang::PtBr => format!("Recebido em {month}"),
        Lang::En => format!("Received in {month}"),
    }
}

/// "Notificação reenviada (2 envios)." / "Notification resent (2 sends)."
pub fn resent(l: Lang, queued: usize) -> String {
    match (l, queued) {
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
pub fn month_label(ym: &str, l: Lang) -> String {
    match (year_month(ym), l) {
        (Some((y, m)), Lang::PtBr) => format!("{}/{y}", MONTHS_PT[m - 1]),
        (Some((y, m)), Lang::En) => format!("{} {y}", MONTHS_EN[m - 1]),
        (None, _) => ym.to_string(),
    }
}

/// `2026-11` on a chart's axis: the month's short name (`nov`, `Nov`) and
/// its year apart, so twelve of them fit side by side; as given (no year)
/// when it is not `YYYY-MM`.
pub fn month_axis(ym: &str, l: Lang) -> (String, Option<i32>) {
    match year_month(ym) {
        Some((y, m)) => {
            let names = if l == Lang::PtBr {
                MONTHS_PT
            } else {
                MONTHS_EN
            };
            (names[m - 1].to_string(), Some(y))
        }
        None => (ym.to_string(), None),
    }
}
