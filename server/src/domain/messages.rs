//! The payer's messages (e-mail, WhatsApp, SMS), in pt-BR, per notification type.

use paylink_model::charges::amount_due;
use paylink_model::money::format_brl;
use paylink_model::{Date, Lang, NotificationType};

/// What a message is made of: the facts of one send, read by the store.
pub(crate) use crate::store::sends::SendFacts as Context;

/// A message, in pt-BR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    pub subject: String,
    /// `paragraphs`, then `footer` after a `--` line: the e-mail's text.
    pub body: String,
    /// One paragraph, for WhatsApp and SMS.
    pub short: String,
    /// The body's paragraphs (greeting, what is due, what it is about, how to pay), for an
    /// e-mail that adds its own (the payment codes) before the footer.
    pub paragraphs: Vec<String>,
    /// The closing line every e-mail ends with.
    pub footer: String,
}

/// What every e-mail ends with.
pub const FOOTER: &str =
    "Mensagem automática enviada pelo paylink. Se você já pagou, desconsidere.";

/// An e-mail's text: paragraphs, a `--` line and the footer.
pub fn email_text(paragraphs: &[String], footer: &str) -> String {
    format!("{}\n\n--\n{footer}\n", paragraphs.join("\n\n"))
}

/// The message of `ctx` sent on `today` (in Brasília): amounts are the
/// installment's, and what a payment on `today` costs when its fine,
/// interest or discount make it differ.
pub(crate) fn render(ctx: &Context, url: &str, today: Date) -> Text {
    use NotificationType::*;
    let name = ctx
        .full_name
        .split_whitespace()
        .next()
        .unwrap_or(&ctx.full_name)
        .to_string();
    let amount = format_brl(ctx.price, Lang::PtBr);
    let date = ctx.due.map(Date::format_br).unwrap_or_default();
    // "a parcela 2 de 3" for installment plans, "a fatura" otherwise.
    let (this, of_this, to_this) = match ctx.number {
        Some(n) if ctx.invoice_type == "INSTALLMENT" && ctx.installment_count > 1 => {
            let part = format!("parcela {n} de {}", ctx.installment_count);
            (
                format!("a {part}"),
                format!("da {part}"),
                format!("à {part}"),
            )
        }
        _ => ("a fatura".into(), "da fatura".into(), "à fatura".into()),
    };
    let this_cap = capitalize(&this);
    let methods = {
        let names: Vec<&str> = ctx
            .payment_types
            .iter()
            .map(|t| if t == "BOLETO" { "boleto" } else { "PIX" })
            .collect();
        if names.is_empty() {
            "PIX ou boleto".to_string()
        } else {
            names.join(" ou ")
        }
    };
    let codes = {
        let mut c = Vec::new();
        if ctx.payment_types.iter().any(|t| t == "PIX") {
            c.push("o código PIX copia e cola");
        }
        if ctx.payment_types.iter().any(|t| t == "BOLETO") {
            c.push("a linha digitável do boleto");
        }
        if c.is_empty() {
            "Os códigos de pagamento estão".to_string()
        } else {
            capitalize(&c.join(" e ")) + if c.len() > 1 { " estão" } else { " está" }
        }
    };
    // A Pix Automático cycle before its due date: the payer's bank pays it as authorized, so
    // the message asks for nothing (and names no code or fee a payment by hand would have).
    let by_bank = by_bank(ctx);
    // What paying today costs, when the terms change it: the discount before
    // the due date, the fine and interest after it.
    let today_note = match ctx
        .due
        .filter(|_| !by_bank)
        .map(|due| amount_due(ctx.price, due, today, &ctx.terms))
    {
        Some(a) if a.discount > 0 => {
            let until = ctx.terms.discount.map(|d| d.until.min(a.effective_due));
            format!(
                " Pagando até {}, o valor é {} (desconto de {}).",
                until.map(Date::format_br).unwrap_or_default(),
                format_brl(a.total, Lang::PtBr),
                format_brl(a.discount, Lang::PtBr)
            )
        }
        Some(a) if a.total > a.original => format!(
            " Pagando hoje ({}), o valor é {}, com multa e juros por atraso.",
            today.format_br(),
            format_brl(a.total, Lang::PtBr)
        ),
        _ => String::new(),
    };
    let pay = if by_bank {
        format!(
            "Seu banco vai pagá-la no vencimento, por Pix Automático, como você autorizou: não é preciso fazer nada. Detalhes em: {url}"
        )
    } else {
        format!("Para pagar por {methods}, acesse: {url}")
    };
    let see = format!("Veja os detalhes em: {url}");
    let (subject, lead, closing) = match ctx.kind {
        SendFirstInvoiceBy => (
            format!("Sua fatura de {amount} chegou"),
            format!("{this_cap}, no valor de {amount}, vence em {date}."),
            pay,
        ),
        InvoiceGenerated => (
            format!("Nova cobrança de {amount}, vencimento em {date}"),
            format!("Foi gerada {this}, no valor de {amount}, com vencimento em {date}."),
            pay,
        ),
        SendInvoiceReminder => (
            format!("Lembrete: sua fatura vence em {date}"),
            format!("Lembrete: {this}, no valor de {amount}, vence em {date}."),
            pay,
        ),
        SendInvoiceAtDay => (
            "Sua fatura vence hoje".to_string(),
            format!("{this_cap}, no valor de {amount}, vence hoje ({date})."),
            pay,
        ),
        SendInvoiceCodeAtDay if by_bank => (
            "Sua fatura vence hoje".to_string(),
            format!("{this_cap}, no valor de {amount}, vence hoje ({date})."),
            pay,
        ),
        SendInvoiceCodeAtDay => (
            "Sua fatura vence hoje: código de pagamento".to_string(),
            format!(
                "{this_cap}, no valor de {amount}, vence hoje ({date}). {codes} na página de pagamento."
            ),
            format!("Página de pagamento: {url}"),
        ),
        InvoiceResend => (
            "Sua fatura está em aberto".to_string(),
            format!("{this_cap}, no valor de {amount}, venceu em {date} e ainda está em aberto."),
            pay,
        ),
        InvoiceFail => (
            "Fatura vencida e não paga".to_string(),
            format!(
                "Não identificamos o pagamento {of_this}, no valor de {amount}, vencida em {date}."
            ),
            format!("Para regularizar por {methods}, acesse: {url}"),
        ),
        InvoiceConfirmPayment => (
            "Pagamento confirmado".to_string(),
            format!(
                "Recebemos o pagamento de {} referente {to_this}. Obrigado!",
                format_brl(ctx.price_paid.max(ctx.price), Lang::PtBr)
            ),
            see,
        ),
        InvoiceChanged => {
            let what = match ctx.status.as_deref() {
                Some("REVERSED") => "o pagamento foi estornado".to_string(),
                Some("CONFIRMED") => "o pagamento foi confirmado".to_string(),
                Some("WAITING_PAYMENT") => "agora aguarda pagamento".to_string(),
                Some(s) => format!("a situação agora é {s}"),
                None => "houve uma alteração".to_string(),
            };
            (
                "Sua fatura foi alterada".to_string(),
                format!("{this_cap}, no valor de {amount}, com vencimento em {date}, foi alterada: {what}."),
                see,
            )
        }
    };
    // Only where the payer is asked to pay.
    let lead = match ctx.kind {
        InvoiceConfirmPayment | InvoiceChanged => lead,
        _ => lead + &today_note,
    };
    let about = ctx
        .description
        .as_deref()
        .filter(|d| !d.trim().is_empty())
        .map(|d| format!("Referente a: {d}"));
    let short = format!("Olá, {name}! {lead} {closing}");
    let paragraphs: Vec<String> = [
        Some(format!("Olá, {name}!")),
        Some(lead),
        about,
        Some(closing),
    ]
    .into_iter()
    .flatten()
    .collect();
    Text {
        subject,
        body: email_text(&paragraphs, FOOTER),
        short,
        paragraphs,
        footer: FOOTER.to_string(),
    }
}

/// Whether `ctx` is a notice before the due date of an installment its payer's bank pays by
/// Pix Automático (the notices after it wait while the bank still collects: `workers`).
fn by_bank(ctx: &Context) -> bool {
    use NotificationType::*;
    ctx.bank_collects
        && matches!(
            ctx.kind,
            SendFirstInvoiceBy
                | InvoiceGenerated
                | SendInvoiceReminder
                | SendInvoiceAtDay
                | SendInvoiceCodeAtDay
        )
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The amount a message states: what paying on `today` costs (fine and interest after the
/// due date, the discount before it) for a charge still asked for; what was paid for a
/// payment notice.
pub(crate) fn amount_stated(ctx: &Context, today: Date) -> i64 {
    use NotificationType::*;
    match (ctx.kind, ctx.due) {
        (InvoiceConfirmPayment, _) => ctx.price_paid.max(ctx.price),
        (InvoiceChanged, _) | (_, None) => ctx.price,
        _ if by_bank(ctx) => ctx.price,
        (_, Some(due)) => amount_due(ctx.price, due, today, &ctx.terms).total,
    }
}

/// The payer's first name, as the messages greet them.
pub(crate) fn first_name(ctx: &Context) -> String {
    ctx.full_name
        .split_whitespace()
        .next()
        .unwrap_or(&ctx.full_name)
        .to_string()
}

/// The SMS of `ctx` sent on `today`: one GSM-7 segment where it can be
/// (`paylink_model::notify::fit_sms`): the amount and the link whole, the description
/// shortened or left out.
pub(crate) fn sms(ctx: &Context, url: &str, today: Date) -> String {
    use NotificationType::*;
    let name = first_name(ctx);
    let amount = format_brl(amount_stated(ctx, today), Lang::PtBr);
    let date = ctx.due.map(Date::format_br).unwrap_or_default();
    let pay = if by_bank(ctx) {
        "Seu banco paga por Pix Automático:"
    } else {
        "Pague:"
    };
    let (before, after) = match ctx.kind {
        SendFirstInvoiceBy | SendInvoiceReminder => (
            format!("{name}, sua fatura de {amount}"),
            format!(" vence em {date}. {pay} {url}"),
        ),
        InvoiceGenerated => (
            format!("{name}, nova cobrança de {amount}"),
            format!(", vencimento {date}. {pay} {url}"),
        ),
        SendInvoiceAtDay | SendInvoiceCodeAtDay => (
            format!("{name}, sua fatura de {amount}"),
            format!(" vence hoje. {pay} {url}"),
        ),
        InvoiceResend | InvoiceFail => (
            format!("{name}, sua fatura de {amount}"),
            format!(" venceu em {date} e está em aberto. Pague: {url}"),
        ),
        InvoiceConfirmPayment => (
            format!("{name}, recebemos seu pagamento de {amount}"),
            format!(". Obrigado! {url}"),
        ),
        InvoiceChanged => (
            format!("{name}, sua fatura de {amount}"),
            format!(" foi alterada. Veja: {url}"),
        ),
    };
    paylink_model::notify::fit_sms(&before, ctx.description.as_deref(), &after)
}
