//! The payer's notices, by e-mail, WhatsApp and SMS (the server's `domain::messages` and
//! `domain::mail`): subjects, paragraphs, the e-mail's labels and footer, the SMS. Amounts
//! and dates come formatted by the caller (`paylink_model::money::format_brl`,
//! `Date::format_for`), in the payer's language.
//!
//! A notice speaks of "a fatura" or of "a parcela 2 de 3" ([`Charge`]); each sentence puts
//! that phrase where its grammar wants it ("da parcela", "à fatura"), so the caller only says
//! which.

use crate::{Lang, Tr};

/// What a notice is about: the invoice, or one installment of a plan of several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    Invoice,
    Installment { n: i64, count: i64 },
}

/// A way to pay that a notice names (a name, the same in both languages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Pix,
    Boleto,
}

/// What became of an invoice, as "your invoice changed" says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change<'a> {
    Reversed,
    Confirmed,
    AwaitingPayment,
    /// Another status, named as the API names it.
    Status(&'a str),
    /// No status to say.
    Unknown,
}

// The charge as the subject of a sentence ("a parcela 2 de 3", "installment 2 of 3"), after
// "de" ("da parcela 2 de 3") and after "a" ("à parcela 2 de 3"); English says it one way.
fn this(l: Lang, c: Charge) -> String {
    match (l, c) {
        (Lang::PtBr, Charge::Installment { n, count }) => format!("a parcela {n} de {count}"),
        (Lang::PtBr, Charge::Invoice) => "a fatura".into(),
        (Lang::En, Charge::Installment { n, count }) => format!("installment {n} of {count}"),
        (Lang::En, Charge::Invoice) => "your invoice".into(),
    }
}

fn of_this(l: Lang, c: Charge) -> String {
    match (l, c) {
        (Lang::PtBr, Charge::Installment { n, count }) => format!("da parcela {n} de {count}"),
        (Lang::PtBr, Charge::Invoice) => "da fatura".into(),
        (Lang::En, _) => this(l, c),
    }
}

fn to_this(l: Lang, c: Charge) -> String {
    match (l, c) {
        (Lang::PtBr, Charge::Installment { n, count }) => format!("à parcela {n} de {count}"),
        (Lang::PtBr, Charge::Invoice) => "à fatura".into(),
        (Lang::En, _) => this(l, c),
    }
}

// `this`, opening a sentence.
fn this_cap(l: Lang, c: Charge) -> String {
    let s = this(l, c);
    let mut chars = s.chars();
    match chars.next() {
        Some(f) => f.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

// The ways to pay, in the order given; none given names both.
fn methods(l: Lang, m: &[Method]) -> String {
    let or = match l {
        Lang::PtBr => " ou ",
        Lang::En => " or ",
    };
    if m.is_empty() {
        return format!("PIX{or}boleto");
    }
    let names: Vec<&str> = m
        .iter()
        .map(|m| match m {
            Method::Pix => "PIX",
            Method::Boleto => "boleto",
        })
        .collect();
    names.join(or)
}

// Where the payment page shows the codes: "O código PIX copia e cola e a linha digitável do
// boleto estão", the verb agreeing with how many there are.
fn codes_are(l: Lang, pix: bool, boleto: bool) -> &'static str {
    match (l, pix, boleto) {
        (Lang::PtBr, true, true) => "O código PIX copia e cola e a linha digitável do boleto estão",
        (Lang::PtBr, true, false) => "O código PIX copia e cola está",
        (Lang::PtBr, false, true) => "A linha digitável do boleto está",
        (Lang::PtBr, false, false) => "Os códigos de pagamento estão",
        (Lang::En, true, true) => "The PIX copy-and-paste code and the boleto's digitable line are",
        (Lang::En, true, false) => "The PIX copy-and-paste code is",
        (Lang::En, false, true) => "The boleto's digitable line is",
        (Lang::En, false, false) => "The payment codes are",
    }
}

// Subjects.

/// The first invoice's subject.
pub fn first_invoice_subject(l: Lang, amount: &str) -> String {
    match l {
        Lang::PtBr => format!("Sua fatura de {amount} chegou"),
        Lang::En => format!("Your invoice of {amount} is here"),
    }
}

/// A new charge's subject.
pub fn new_charge_subject(l: Lang, amount: &str, date: &str) -> String {
    match l {
        Lang::PtBr => format!("Nova cobrança de {amount}, vencimento em {date}"),
        Lang::En => format!("New charge of {amount}, due on {date}"),
    }
}

/// The reminder's subject, before the due date.
pub fn reminder_subject(l: Lang, date: &str) -> String {
    match l {
        Lang::PtBr => format!("Lembrete: sua fatura vence em {date}"),
        Lang::En => format!("Reminder: your invoice is due on {date}"),
    }
}

pub static DUE_TODAY_SUBJECT: Tr = Tr {
    pt: "Sua fatura vence hoje",
    en: "Your invoice is due today",
};
pub static CODE_DUE_TODAY_SUBJECT: Tr = Tr {
    pt: "Sua fatura vence hoje: código de pagamento",
    en: "Your invoice is due today: payment code",
};
pub static STILL_OPEN_SUBJECT: Tr = Tr {
    pt: "Sua fatura está em aberto",
    en: "Your invoice is still open",
};
pub static UNPAID_SUBJECT: Tr = Tr {
    pt: "Fatura vencida e não paga",
    en: "Invoice overdue and unpaid",
};
// The payment's confirmation: `PAYMENT_CONFIRMED` (values).
pub static CHANGED_SUBJECT: Tr = Tr {
    pt: "Sua fatura foi alterada",
    en: "Your invoice changed",
};

// The paragraphs, in the order an e-mail has them.

/// The greeting.
pub fn hello(l: Lang, name: &str) -> String {
    match l {
        Lang::PtBr => format!("Olá, {name}!"),
        Lang::En => format!("Hello, {name}!"),
    }
}

/// What is due: the first invoice, and the notice on the first send.
pub fn first_invoice_lead(l: Lang, c: Charge, amount: &str, date: &str) -> String {
    let this = this_cap(l, c);
    match l {
        Lang::PtBr => format!("{this}, no valor de {amount}, vence em {date}."),
        Lang::En => format!("{this}, of {amount}, is due on {date}."),
    }
}

/// What is due: a new charge.
pub fn new_charge_lead(l: Lang, c: Charge, amount: &str, date: &str) -> String {
    match l {
        Lang::PtBr => format!(
            "Foi gerada {}, no valor de {amount}, com vencimento em {date}.",
            this(l, c)
        ),
        Lang::En => format!(
            "{}, of {amount}, was issued, due on {date}.",
            this_cap(l, c)
        ),
    }
}

/// What is due: the reminder before the due date.
pub fn reminder_lead(l: Lang, c: Charge, amount: &str, date: &str) -> String {
    let this = this(l, c);
    match l {
        Lang::PtBr => format!("Lembrete: {this}, no valor de {amount}, vence em {date}."),
        Lang::En => format!("Reminder: {this}, of {amount}, is due on {date}."),
    }
}

/// What is due: on the due date (`date`).
pub fn due_today_lead(l: Lang, c: Charge, amount: &str, date: &str) -> String {
    let this = this_cap(l, c);
    match l {
        Lang::PtBr => format!("{this}, no valor de {amount}, vence hoje ({date})."),
        Lang::En => format!("{this}, of {amount}, is due today ({date})."),
    }
}

/// What is due on the due date, and where the codes are (the PIX code, the boleto's line,
/// both or, with neither, "the payment codes").
pub fn code_due_today_lead(
    l: Lang,
    c: Charge,
    amount: &str,
    date: &str,
    pix: bool,
    boleto: bool,
) -> String {
    let (this, codes) = (this_cap(l, c), codes_are(l, pix, boleto));
    match l {
        Lang::PtBr => format!(
            "{this}, no valor de {amount}, vence hoje ({date}). {codes} na página de pagamento."
        ),
        Lang::En => {
            format!("{this}, of {amount}, is due today ({date}). {codes} on the payment page.")
        }
    }
}

/// What is due: after the due date, still open.
pub fn still_open_lead(l: Lang, c: Charge, amount: &str, date: &str) -> String {
    let this = this_cap(l, c);
    match l {
        Lang::PtBr => {
            format!("{this}, no valor de {amount}, venceu em {date} e ainda está em aberto.")
        }
        Lang::En => format!("{this}, of {amount}, was due on {date} and is still open."),
    }
}

/// What is due: overdue and unpaid.
pub fn unpaid_lead(l: Lang, c: Charge, amount: &str, date: &str) -> String {
    let of_this = of_this(l, c);
    match l {
        Lang::PtBr => format!(
            "Não identificamos o pagamento {of_this}, no valor de {amount}, vencida em {date}."
        ),
        Lang::En => {
            format!("We have not received the payment of {of_this}, of {amount}, due on {date}.")
        }
    }
}

/// The payment of `paid` received.
pub fn payment_received_lead(l: Lang, c: Charge, paid: &str) -> String {
    let to_this = to_this(l, c);
    match l {
        Lang::PtBr => format!("Recebemos o pagamento de {paid} referente {to_this}. Obrigado!"),
        Lang::En => format!("We received your payment of {paid} for {to_this}. Thank you!"),
    }
}

/// What changed in the invoice.
pub fn changed_lead(l: Lang, c: Charge, amount: &str, date: &str, what: Change<'_>) -> String {
    let this = this_cap(l, c);
    let what = match (l, what) {
        (Lang::PtBr, Change::Reversed) => "o pagamento foi estornado".to_string(),
        (Lang::En, Change::Reversed) => "the payment was reversed".to_string(),
        (Lang::PtBr, Change::Confirmed) => "o pagamento foi confirmado".to_string(),
        (Lang::En, Change::Confirmed) => "the payment was confirmed".to_string(),
        (Lang::PtBr, Change::AwaitingPayment) => "agora aguarda pagamento".to_string(),
        (Lang::En, Change::AwaitingPayment) => "it now awaits payment".to_string(),
        (Lang::PtBr, Change::Status(s)) => format!("a situação agora é {s}"),
        (Lang::En, Change::Status(s)) => format!("its status is now {s}"),
        (Lang::PtBr, Change::Unknown) => "houve uma alteração".to_string(),
        (Lang::En, Change::Unknown) => "something changed".to_string(),
    };
    match l {
        Lang::PtBr => {
            format!("{this}, no valor de {amount}, com vencimento em {date}, foi alterada: {what}.")
        }
        Lang::En => format!("{this}, of {amount}, due on {date}, changed: {what}."),
    }
}

/// What paying by `until` costs, with the discount (`off`): said after what is due.
pub fn discount_note(l: Lang, until: &str, total: &str, off: &str) -> String {
    match l {
        Lang::PtBr => format!("Pagando até {until}, o valor é {total} (desconto de {off})."),
        Lang::En => format!("Paid by {until}, it is {total} (a {off} discount)."),
    }
}

/// What paying today (`on`) costs, late: said after what is due.
pub fn late_note(l: Lang, on: &str, total: &str) -> String {
    match l {
        Lang::PtBr => {
            format!("Pagando hoje ({on}), o valor é {total}, com multa e juros por atraso.")
        }
        Lang::En => format!("Paid today ({on}), it is {total}, with the late fine and interest."),
    }
}

/// What the charge is for: the merchant's description.
pub fn charge_about(l: Lang, description: &str) -> String {
    match l {
        Lang::PtBr => format!("Referente a: {description}"),
        Lang::En => format!("For: {description}"),
    }
}

/// How to pay, at the payer's page `url`.
pub fn pay_at(l: Lang, m: &[Method], url: &str) -> String {
    let methods = methods(l, m);
    match l {
        Lang::PtBr => format!("Para pagar por {methods}, acesse: {url}"),
        Lang::En => format!("To pay by {methods}, open: {url}"),
    }
}

/// Nothing to do: the payer's bank pays it by Pix Automático; details at `url`.
pub fn bank_pays(l: Lang, url: &str) -> String {
    match l {
        Lang::PtBr => format!(
            "Seu banco vai pagá-la no vencimento, por Pix Automático, como você autorizou: não é preciso fazer nada. Detalhes em: {url}"
        ),
        Lang::En => format!(
            "Your bank will pay it on the due date through Pix Automático, as you authorized: there is nothing to do. Details: {url}"
        ),
    }
}

/// The payment page (`url`), where the codes are.
pub fn payment_page(l: Lang, url: &str) -> String {
    match l {
        Lang::PtBr => format!("Página de pagamento: {url}"),
        Lang::En => format!("Payment page: {url}"),
    }
}

/// How to settle an overdue charge, at `url`.
pub fn settle_at(l: Lang, m: &[Method], url: &str) -> String {
    let methods = methods(l, m);
    match l {
        Lang::PtBr => format!("Para regularizar por {methods}, acesse: {url}"),
        Lang::En => format!("To settle it by {methods}, open: {url}"),
    }
}

/// Where the details are, when there is nothing to pay.
pub fn see_details(l: Lang, url: &str) -> String {
    match l {
        Lang::PtBr => format!("Veja os detalhes em: {url}"),
        Lang::En => format!("See the details at: {url}"),
    }
}

// What an e-mail adds after the message's paragraphs (the PIX code's label is `PIX_CODE`,
// payer; a sandbox's warning is `TEST_ENVIRONMENT`, payer).

pub static BOLETO_DIGITABLE_LINE: Tr = Tr {
    pt: "Linha digitável do boleto",
    en: "Boleto digitable line",
};
pub static BOLETO_ATTACHED: Tr = Tr {
    pt: "O boleto segue anexo, em PDF.",
    en: "The boleto is attached, as a PDF.",
};
pub static RECEIPT_ATTACHED: Tr = Tr {
    pt: "O comprovante segue anexo, em PDF.",
    en: "The receipt is attached, as a PDF.",
};
/// Before the link to the payer's page of charges.
pub static ALL_YOUR_CHARGES: Tr = Tr {
    pt: "Todas as suas cobranças, em aberto e pagas:",
    en: "All your charges, open and paid:",
};
/// Before a sandbox's subject.
pub static TEST_TAG: Tr = Tr {
    pt: "[TESTE]",
    en: "[TEST]",
};
/// What every e-mail ends with.
pub static NOTICE_FOOTER: Tr = Tr {
    pt: "Mensagem automática enviada pelo paylink. Se você já pagou, desconsidere.",
    en: "Automatic message sent by paylink. If you have already paid, please ignore it.",
};

// The SMS: each is the text before the charge's description and the text after it (the
// caller fits the description between them, in parentheses, or leaves it out).

/// How an SMS asks for the payment: "Pague:", or that the payer's bank pays.
fn sms_pay(l: Lang, bank_pays: bool) -> &'static str {
    match (l, bank_pays) {
        (Lang::PtBr, true) => "Seu banco paga por Pix Automático:",
        (Lang::En, true) => "Your bank pays it by Pix Automatico:",
        (Lang::PtBr, false) => "Pague:",
        (Lang::En, false) => "Pay:",
    }
}

fn sms_your_invoice(l: Lang, name: &str, amount: &str) -> String {
    match l {
        Lang::PtBr => format!("{name}, sua fatura de {amount}"),
        Lang::En => format!("{name}, your invoice of {amount}"),
    }
}

/// The SMS of an invoice due on `date` (the first one, the reminder).
pub fn sms_due_on(
    l: Lang,
    name: &str,
    amount: &str,
    date: &str,
    bank_pays: bool,
    url: &str,
) -> (String, String) {
    let pay = sms_pay(l, bank_pays);
    let after = match l {
        Lang::PtBr => format!(" vence em {date}. {pay} {url}"),
        Lang::En => format!(" is due {date}. {pay} {url}"),
    };
    (sms_your_invoice(l, name, amount), after)
}

/// The SMS of a new charge.
pub fn sms_new_charge(
    l: Lang,
    name: &str,
    amount: &str,
    date: &str,
    bank_pays: bool,
    url: &str,
) -> (String, String) {
    let pay = sms_pay(l, bank_pays);
    match l {
        Lang::PtBr => (
            format!("{name}, nova cobrança de {amount}"),
            format!(", vencimento {date}. {pay} {url}"),
        ),
        Lang::En => (
            format!("{name}, new charge of {amount}"),
            format!(", due {date}. {pay} {url}"),
        ),
    }
}

/// The SMS on the due date.
pub fn sms_due_today(
    l: Lang,
    name: &str,
    amount: &str,
    bank_pays: bool,
    url: &str,
) -> (String, String) {
    let pay = sms_pay(l, bank_pays);
    let after = match l {
        Lang::PtBr => format!(" vence hoje. {pay} {url}"),
        Lang::En => format!(" is due today. {pay} {url}"),
    };
    (sms_your_invoice(l, name, amount), after)
}

/// The SMS after the due date, unpaid.
pub fn sms_overdue(l: Lang, name: &str, amount: &str, date: &str, url: &str) -> (String, String) {
    let after = match l {
        Lang::PtBr => format!(" venceu em {date} e está em aberto. Pague: {url}"),
        Lang::En => format!(" was due {date} and is open. Pay: {url}"),
    };
    (sms_your_invoice(l, name, amount), after)
}

/// The SMS of a payment received.
pub fn sms_payment_received(l: Lang, name: &str, amount: &str, url: &str) -> (String, String) {
    match l {
        Lang::PtBr => (
            format!("{name}, recebemos seu pagamento de {amount}"),
            format!(". Obrigado! {url}"),
        ),
        Lang::En => (
            format!("{name}, we received your payment of {amount}"),
            format!(". Thank you! {url}"),
        ),
    }
}

/// The SMS of an invoice changed.
pub fn sms_changed(l: Lang, name: &str, amount: &str, url: &str) -> (String, String) {
    let after = match l {
        Lang::PtBr => format!(" foi alterada. Veja: {url}"),
        Lang::En => format!(" changed. See: {url}"),
    };
    (sms_your_invoice(l, name, amount), after)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Lang::{En, PtBr};

    // As the server wrote them before they were here (server/src/domain/messages.rs, mail.rs).
    #[test]
    fn the_notices_say_what_the_server_said() {
        assert_eq!(
            reminder_subject(PtBr, "28/02/2027"),
            "Lembrete: sua fatura vence em 28/02/2027"
        );
        assert_eq!(
            reminder_subject(En, "2027-02-28"),
            "Reminder: your invoice is due on 2027-02-28"
        );
        let plan = Charge::Installment { n: 2, count: 3 };
        assert_eq!(
            unpaid_lead(PtBr, plan, "R$ 33,33", "28/02/2027"),
            "Não identificamos o pagamento da parcela 2 de 3, no valor de R$ 33,33, vencida em 28/02/2027."
        );
        assert_eq!(
            unpaid_lead(En, plan, "R$ 33.33", "2027-02-28"),
            "We have not received the payment of installment 2 of 3, of R$ 33.33, due on 2027-02-28."
        );
        assert_eq!(
            payment_received_lead(PtBr, Charge::Invoice, "R$ 34,00"),
            "Recebemos o pagamento de R$ 34,00 referente à fatura. Obrigado!"
        );
        assert_eq!(
            payment_received_lead(En, Charge::Invoice, "R$ 34.00"),
            "We received your payment of R$ 34.00 for your invoice. Thank you!"
        );
        assert_eq!(
            code_due_today_lead(PtBr, Charge::Invoice, "R$ 33,33", "28/02/2027", true, false),
            "A fatura, no valor de R$ 33,33, vence hoje (28/02/2027). O código PIX copia e cola está na página de pagamento."
        );
        assert_eq!(
            code_due_today_lead(En, plan, "R$ 33.33", "2027-02-28", true, true),
            "Installment 2 of 3, of R$ 33.33, is due today (2027-02-28). The PIX copy-and-paste code and the boleto's digitable line are on the payment page."
        );
        assert_eq!(
            pay_at(PtBr, &[], "u"),
            "Para pagar por PIX ou boleto, acesse: u"
        );
        assert_eq!(
            pay_at(En, &[Method::Boleto, Method::Pix], "u"),
            "To pay by boleto or PIX, open: u"
        );
        assert_eq!(
            sms_overdue(PtBr, "Maria", "R$ 33,33", "28/02/2027", "u"),
            (
                "Maria, sua fatura de R$ 33,33".to_string(),
                " venceu em 28/02/2027 e está em aberto. Pague: u".to_string()
            )
        );
        assert_eq!(
            NOTICE_FOOTER.t(En),
            "Automatic message sent by paylink. If you have already paid, please ignore it."
        );
    }
}
