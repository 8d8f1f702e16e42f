//! The payer's messages (e-mail, the generic adapter, SMS), per notification type, in the
//! payer's language (the customer's `language`: pt-BR unless `en`).

use paylink_model::charges::amount_due;
use paylink_model::money::format_brl;
use paylink_model::{Date, Lang, NotificationType};

/// What a message is made of: the facts of one send, read by the store.
pub(crate) use crate::store::sends::SendFacts as Context;

/// A message, in the payer's language.
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

/// What every e-mail ends with, in the payer's language.
pub fn footer(lang: Lang) -> &'static str {
    match lang {
        Lang::PtBr => "Mensagem automática enviada pelo paylink. Se você já pagou, desconsidere.",
        Lang::En => {
            "Automatic message sent by paylink. If you have already paid, please ignore it."
        }
    }
}

/// An e-mail's text: paragraphs, a `--` line and the footer.
pub fn email_text(paragraphs: &[String], footer: &str) -> String {
    format!("{}\n\n--\n{footer}\n", paragraphs.join("\n\n"))
}

/// The message of `ctx` sent on `today` (in Brasília), in the payer's language: amounts are
/// the installment's, and what a payment on `today` costs when its fine, interest or discount
/// make it differ.
pub(crate) fn render(ctx: &Context, url: &str, today: Date) -> Text {
    use NotificationType::*;
    let lang = ctx.lang;
    let pt = lang == Lang::PtBr;
    // The same sentence in the payer's language.
    let tr = |p: String, e: String| if pt { p } else { e };
    let name = first_name(ctx);
    let brl = |cents: i64| format_brl(cents, lang);
    let amount = brl(ctx.price);
    let date = ctx.due.map(|d| d.format_for(lang)).unwrap_or_default();
    // "a parcela 2 de 3" for installment plans, "a fatura" otherwise.
    let (this, of_this, to_this) = match ctx.number {
        Some(n) if ctx.invoice_type == "INSTALLMENT" && ctx.installment_count > 1 => {
            let count = ctx.installment_count;
            if pt {
                let part = format!("parcela {n} de {count}");
                (
                    format!("a {part}"),
                    format!("da {part}"),
                    format!("à {part}"),
                )
            } else {
                let part = format!("installment {n} of {count}");
                (part.clone(), part.clone(), part)
            }
        }
        _ if pt => ("a fatura".into(), "da fatura".into(), "à fatura".into()),
        _ => (
            "your invoice".into(),
            "your invoice".into(),
            "your invoice".into(),
        ),
    };
    let this_cap = capitalize(&this);
    let or = if pt { " ou " } else { " or " };
    let methods = {
        let names: Vec<&str> = ctx
            .payment_types
            .iter()
            .map(|t| if t == "BOLETO" { "boleto" } else { "PIX" })
            .collect();
        if names.is_empty() {
            format!("PIX{or}boleto")
        } else {
            names.join(or)
        }
    };
    let codes = {
        let mut c = Vec::new();
        if ctx.payment_types.iter().any(|t| t == "PIX") {
            c.push(if pt {
                "o código PIX copia e cola"
            } else {
                "the PIX copy-and-paste code"
            });
        }
        if ctx.payment_types.iter().any(|t| t == "BOLETO") {
            c.push(if pt {
                "a linha digitável do boleto"
            } else {
                "the boleto's digitable line"
            });
        }
        match (pt, c.len()) {
            (true, 0) => "Os códigos de pagamento estão".to_string(),
            (true, n) => capitalize(&c.join(" e ")) + if n > 1 { " estão" } else { " está" },
            (false, 0) => "The payment codes are".to_string(),
            (false, n) => capitalize(&c.join(" and ")) + if n > 1 { " are" } else { " is" },
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
            let until = until.map(|d| d.format_for(lang)).unwrap_or_default();
            let (total, off) = (brl(a.total), brl(a.discount));
            tr(
                format!(" Pagando até {until}, o valor é {total} (desconto de {off})."),
                format!(" Paid by {until}, it is {total} (a {off} discount)."),
            )
        }
        Some(a) if a.total > a.original => {
            let (on, total) = (today.format_for(lang), brl(a.total));
            tr(
                format!(" Pagando hoje ({on}), o valor é {total}, com multa e juros por atraso."),
                format!(" Paid today ({on}), it is {total}, with the late fine and interest."),
            )
        }
        _ => String::new(),
    };
    let pay = match (by_bank, pt) {
        (true, true) => format!(
            "Seu banco vai pagá-la no vencimento, por Pix Automático, como você autorizou: não é preciso fazer nada. Detalhes em: {url}"
        ),
        (true, false) => format!(
            "Your bank will pay it on the due date through Pix Automático, as you authorized: there is nothing to do. Details: {url}"
        ),
        (false, true) => format!("Para pagar por {methods}, acesse: {url}"),
        (false, false) => format!("To pay by {methods}, open: {url}"),
    };
    let see = tr(
        format!("Veja os detalhes em: {url}"),
        format!("See the details at: {url}"),
    );
    let (subject, lead, closing) = match ctx.kind {
        SendFirstInvoiceBy => (
            tr(format!("Sua fatura de {amount} chegou"), format!("Your invoice of {amount} is here")),
            tr(
                format!("{this_cap}, no valor de {amount}, vence em {date}."),
                format!("{this_cap}, of {amount}, is due on {date}."),
            ),
            pay,
        ),
        InvoiceGenerated => (
            tr(
                format!("Nova cobrança de {amount}, vencimento em {date}"),
                format!("New charge of {amount}, due on {date}"),
            ),
            tr(
                format!("Foi gerada {this}, no valor de {amount}, com vencimento em {date}."),
                format!("{this_cap}, of {amount}, was issued, due on {date}."),
            ),
            pay,
        ),
        SendInvoiceReminder => (
            tr(
                format!("Lembrete: sua fatura vence em {date}"),
                format!("Reminder: your invoice is due on {date}"),
            ),
            tr(
                format!("Lembrete: {this}, no valor de {amount}, vence em {date}."),
                format!("Reminder: {this}, of {amount}, is due on {date}."),
            ),
            pay,
        ),
        SendInvoiceAtDay => (
            tr("Sua fatura vence hoje".into(), "Your invoice is due today".into()),
            tr(
                format!("{this_cap}, no valor de {amount}, vence hoje ({date})."),
                format!("{this_cap}, of {amount}, is due today ({date})."),
            ),
            pay,
        ),
        SendInvoiceCodeAtDay if by_bank => (
            tr("Sua fatura vence hoje".into(), "Your invoice is due today".into()),
            tr(
                format!("{this_cap}, no valor de {amount}, vence hoje ({date})."),
                format!("{this_cap}, of {amount}, is due today ({date})."),
            ),
            pay,
        ),
        SendInvoiceCodeAtDay => (
            tr(
                "Sua fatura vence hoje: código de pagamento".into(),
                "Your invoice is due today: payment code".into(),
            ),
            tr(
                format!(
                    "{this_cap}, no valor de {amount}, vence hoje ({date}). {codes} na página de pagamento."
                ),
                format!(
                    "{this_cap}, of {amount}, is due today ({date}). {codes} on the payment page."
                ),
            ),
            tr(
                format!("Página de pagamento: {url}"),
                format!("Payment page: {url}"),
            ),
        ),
        InvoiceResend => (
            tr("Sua fatura está em aberto".into(), "Your invoice is still open".into()),
            tr(
                format!("{this_cap}, no valor de {amount}, venceu em {date} e ainda está em aberto."),
                format!("{this_cap}, of {amount}, was due on {date} and is still open."),
            ),
            pay,
        ),
        InvoiceFail => (
            tr("Fatura vencida e não paga".into(), "Invoice overdue and unpaid".into()),
            tr(
                format!(
                    "Não identificamos o pagamento {of_this}, no valor de {amount}, vencida em {date}."
                ),
                format!("We have not received the payment of {of_this}, of {amount}, due on {date}."),
            ),
            tr(
                format!("Para regularizar por {methods}, acesse: {url}"),
                format!("To settle it by {methods}, open: {url}"),
            ),
        ),
        InvoiceConfirmPayment => {
            let paid = brl(ctx.price_paid.max(ctx.price));
            (
                tr("Pagamento confirmado".into(), "Payment confirmed".into()),
                tr(
                    format!("Recebemos o pagamento de {paid} referente {to_this}. Obrigado!"),
                    format!("We received your payment of {paid} for {to_this}. Thank you!"),
                ),
                see,
            )
        }
        InvoiceChanged => {
            let what = match (ctx.status.as_deref(), pt) {
                (Some("REVERSED"), true) => "o pagamento foi estornado".to_string(),
                (Some("REVERSED"), false) => "the payment was reversed".to_string(),
                (Some("CONFIRMED"), true) => "o pagamento foi confirmado".to_string(),
                (Some("CONFIRMED"), false) => "the payment was confirmed".to_string(),
                (Some("WAITING_PAYMENT"), true) => "agora aguarda pagamento".to_string(),
                (Some("WAITING_PAYMENT"), false) => "it now awaits payment".to_string(),
                (Some(s), true) => format!("a situação agora é {s}"),
                (Some(s), false) => format!("its status is now {s}"),
                (None, true) => "houve uma alteração".to_string(),
                (None, false) => "something changed".to_string(),
            };
            (
                tr("Sua fatura foi alterada".into(), "Your invoice changed".into()),
                tr(
                    format!("{this_cap}, no valor de {amount}, com vencimento em {date}, foi alterada: {what}."),
                    format!("{this_cap}, of {amount}, due on {date}, changed: {what}."),
                ),
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
        .map(|d| tr(format!("Referente a: {d}"), format!("For: {d}")));
    let hello = tr(format!("Olá, {name}!"), format!("Hello, {name}!"));
    let short = format!("{hello} {lead} {closing}");
    let paragraphs: Vec<String> = [Some(hello), Some(lead), about, Some(closing)]
        .into_iter()
        .flatten()
        .collect();
    let footer = footer(lang).to_string();
    Text {
        subject,
        body: email_text(&paragraphs, &footer),
        short,
        paragraphs,
        footer,
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
    let lang = ctx.lang;
    let amount = format_brl(amount_stated(ctx, today), lang);
    let date = ctx.due.map(|d| d.format_for(lang)).unwrap_or_default();
    let pt = lang == Lang::PtBr;
    let tr = |p: String, e: String| if pt { p } else { e };
    let pay = match (by_bank(ctx), pt) {
        (true, true) => "Seu banco paga por Pix Automático:",
        (true, false) => "Your bank pays it by Pix Automatico:",
        (false, true) => "Pague:",
        (false, false) => "Pay:",
    };
    let your_invoice = tr(
        format!("{name}, sua fatura de {amount}"),
        format!("{name}, your invoice of {amount}"),
    );
    let (before, after) = match ctx.kind {
        SendFirstInvoiceBy | SendInvoiceReminder => (
            your_invoice,
            tr(
                format!(" vence em {date}. {pay} {url}"),
                format!(" is due {date}. {pay} {url}"),
            ),
        ),
        InvoiceGenerated => (
            tr(
                format!("{name}, nova cobrança de {amount}"),
                format!("{name}, new charge of {amount}"),
            ),
            tr(
                format!(", vencimento {date}. {pay} {url}"),
                format!(", due {date}. {pay} {url}"),
            ),
        ),
        SendInvoiceAtDay | SendInvoiceCodeAtDay => (
            your_invoice,
            tr(
                format!(" vence hoje. {pay} {url}"),
                format!(" is due today. {pay} {url}"),
            ),
        ),
        InvoiceResend | InvoiceFail => (
            your_invoice,
            tr(
                format!(" venceu em {date} e está em aberto. Pague: {url}"),
                format!(" was due {date} and is open. Pay: {url}"),
            ),
        ),
        InvoiceConfirmPayment => (
            tr(
                format!("{name}, recebemos seu pagamento de {amount}"),
                format!("{name}, we received your payment of {amount}"),
            ),
            tr(format!(". Obrigado! {url}"), format!(". Thank you! {url}")),
        ),
        InvoiceChanged => (
            your_invoice,
            tr(
                format!(" foi alterada. Veja: {url}"),
                format!(" changed. See: {url}"),
            ),
        ),
    };
    paylink_model::notify::fit_sms(&before, ctx.description.as_deref(), &after)
}
