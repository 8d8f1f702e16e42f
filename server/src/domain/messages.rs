//! The payer's messages (e-mail, the generic adapter, SMS), per notification type, in the
//! payer's language (the customer's `language`: pt-BR unless `en`): which sentences, with
//! which amounts and dates; the sentences themselves are the catalog's
//! (`paylink_text::notices`).

use paylink_model::charges::amount_due;
use paylink_model::money::format_brl;
use paylink_model::{Date, NotificationType};
use paylink_text as text;

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

/// An e-mail's text: paragraphs, a `--` line and the footer.
pub fn email_text(paragraphs: &[String], footer: &str) -> String {
    format!("{}\n\n--\n{footer}\n", paragraphs.join("\n\n"))
}

/// The message of `ctx` sent on `today` (in Brasília), in the payer's language: amounts are
/// the installment's, and what a payment on `today` costs when its fine, interest or discount
/// make it differ.
pub(crate) fn render(ctx: &Context, url: &str, today: Date) -> Text {
    use NotificationType::*;
    let l = ctx.lang;
    let name = first_name(ctx);
    let brl = |cents: i64| format_brl(cents, l);
    let amount = brl(ctx.price);
    let date = ctx.due.map(|d| d.format_for(l)).unwrap_or_default();
    let c = charge(ctx);
    let methods = methods(ctx);
    let (pix, boleto) = (
        ctx.payment_types.iter().any(|t| t == "PIX"),
        ctx.payment_types.iter().any(|t| t == "BOLETO"),
    );
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
            let until = until.map(|d| d.format_for(l)).unwrap_or_default();
            Some(text::discount_note(
                l,
                &until,
                &brl(a.total),
                &brl(a.discount),
            ))
        }
        Some(a) if a.total > a.original => {
            Some(text::late_note(l, &today.format_for(l), &brl(a.total)))
        }
        _ => None,
    };
    let pay = if by_bank {
        text::bank_pays(l, url)
    } else {
        text::pay_at(l, &methods, url)
    };
    let (subject, lead, closing) = match ctx.kind {
        SendFirstInvoiceBy => (
            text::first_invoice_subject(l, &amount),
            text::first_invoice_lead(l, c, &amount, &date),
            pay,
        ),
        InvoiceGenerated => (
            text::new_charge_subject(l, &amount, &date),
            text::new_charge_lead(l, c, &amount, &date),
            pay,
        ),
        SendInvoiceReminder => (
            text::reminder_subject(l, &date),
            text::reminder_lead(l, c, &amount, &date),
            pay,
        ),
        SendInvoiceAtDay => (
            text::DUE_TODAY_SUBJECT.t(l).to_string(),
            text::due_today_lead(l, c, &amount, &date),
            pay,
        ),
        SendInvoiceCodeAtDay if by_bank => (
            text::DUE_TODAY_SUBJECT.t(l).to_string(),
            text::due_today_lead(l, c, &amount, &date),
            pay,
        ),
        SendInvoiceCodeAtDay => (
            text::CODE_DUE_TODAY_SUBJECT.t(l).to_string(),
            text::code_due_today_lead(l, c, &amount, &date, pix, boleto),
            text::payment_page(l, url),
        ),
        InvoiceResend => (
            text::STILL_OPEN_SUBJECT.t(l).to_string(),
            text::still_open_lead(l, c, &amount, &date),
            pay,
        ),
        InvoiceFail => (
            text::UNPAID_SUBJECT.t(l).to_string(),
            text::unpaid_lead(l, c, &amount, &date),
            text::settle_at(l, &methods, url),
        ),
        InvoiceConfirmPayment => (
            text::PAYMENT_CONFIRMED.t(l).to_string(),
            text::payment_received_lead(l, c, &brl(ctx.price_paid.max(ctx.price))),
            text::see_details(l, url),
        ),
        InvoiceChanged => {
            let what = match ctx.status.as_deref() {
                Some("REVERSED") => text::Change::Reversed,
                Some("CONFIRMED") => text::Change::Confirmed,
                Some("WAITING_PAYMENT") => text::Change::AwaitingPayment,
                Some(s) => text::Change::Status(s),
                None => text::Change::Unknown,
            };
            (
                text::CHANGED_SUBJECT.t(l).to_string(),
                text::changed_lead(l, c, &amount, &date, what),
                text::see_details(l, url),
            )
        }
    };
    // Only where the payer is asked to pay.
    let lead = match (ctx.kind, today_note) {
        (InvoiceConfirmPayment | InvoiceChanged, _) | (_, None) => lead,
        (_, Some(note)) => format!("{lead} {note}"),
    };
    let about = ctx
        .description
        .as_deref()
        .filter(|d| !d.trim().is_empty())
        .map(|d| text::charge_about(l, d));
    let hello = text::hello(l, &name);
    let short = format!("{hello} {lead} {closing}");
    let paragraphs: Vec<String> = [Some(hello), Some(lead), about, Some(closing)]
        .into_iter()
        .flatten()
        .collect();
    let footer = text::NOTICE_FOOTER.t(l).to_string();
    Text {
        subject,
        body: email_text(&paragraphs, &footer),
        short,
        paragraphs,
        footer,
    }
}

/// What the messages of `ctx` speak of: "a parcela 2 de 3" for an installment plan's, "a
/// fatura" otherwise.
fn charge(ctx: &Context) -> text::Charge {
    match ctx.number {
        Some(n) if ctx.invoice_type == "INSTALLMENT" && ctx.installment_count > 1 => {
            text::Charge::Installment {
                n,
                count: ctx.installment_count,
            }
        }
        _ => text::Charge::Invoice,
    }
}

/// The ways to pay `ctx` names, in the invoice's order (none: both are named).
fn methods(ctx: &Context) -> Vec<text::Method> {
    ctx.payment_types
        .iter()
        .map(|t| {
            if t == "BOLETO" {
                text::Method::Boleto
            } else {
                text::Method::Pix
            }
        })
        .collect()
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
    let l = ctx.lang;
    let amount = format_brl(amount_stated(ctx, today), l);
    let date = ctx.due.map(|d| d.format_for(l)).unwrap_or_default();
    let bank = by_bank(ctx);
    let (before, after) = match ctx.kind {
        SendFirstInvoiceBy | SendInvoiceReminder => {
            text::sms_due_on(l, &name, &amount, &date, bank, url)
        }
        InvoiceGenerated => text::sms_new_charge(l, &name, &amount, &date, bank, url),
        SendInvoiceAtDay | SendInvoiceCodeAtDay => {
            text::sms_due_today(l, &name, &amount, bank, url)
        }
        InvoiceResend | InvoiceFail => text::sms_overdue(l, &name, &amount, &date, url),
        InvoiceConfirmPayment => text::sms_payment_received(l, &name, &amount, url),
        InvoiceChanged => text::sms_changed(l, &name, &amount, url),
    };
    paylink_model::notify::fit_sms(&before, ctx.description.as_deref(), &after)
}
