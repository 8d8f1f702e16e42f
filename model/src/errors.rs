//! Field errors keyed by API field path (`fullName`, `address.zipcode`,
//! `notifications[1].period`), the key format of garde's reports, so a server
//! error and a browser error land on the same form field.

use std::collections::BTreeMap;

use crate::enums::Frequency;
use crate::Lang;

/// The wire form: field path → messages.
pub type Errors = BTreeMap<String, Vec<String>>;

/// One broken rule. Kept as data so it can be rendered in either language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    Required,
    MinChars(usize),
    MaxChars(usize),
    Cpf,
    Cnpj,
    DocumentLength,
    Email,
    Phone,
    /// A Brazilian phone whose area code is not in ANATEL's plan.
    PhoneDdd,
    Uf,
    Cep,
    Uuid,
    IsoDate,
    /// A date typed in a form: the format depends on the form's language.
    DateInput,
    /// A new charge's due date before today (in Brasília).
    DateInPast,
    OneOf(&'static [&'static str]),
    AtLeastOne,
    Duplicate,
    MinPrice,
    MaxPrice,
    TooManyDecimals,
    Negative,
    IntRange(i64, i64),
    OnlyWhen(&'static str),
    PeriodMin,
    HttpsUrl,
    InternalHost,
    Url,
    EndDateAfterDue,
    RecurringNeedsEnd,
    InstallmentBelowMin,
    CustomerNotFound,
    /// A payment link sets this field: the payer may not change it.
    FixedByLink,
    /// A payment link does not offer this value (or this field at all).
    NotAllowedByLink,
    /// The merchant does not offer this payment type (`serve --payment-types`).
    PaymentTypeNotOffered,
    /// The customer was not registered through the payment link.
    CustomerNotFromLink,
    /// The JSON value has the wrong type; the text names what was expected.
    WrongType(&'static str),
    /// A value that must be more than zero.
    Positive,
    /// A percentage above its ceiling, in hundredths of a percent.
    PercentMax(i64),
    /// A fine above 2 % on a consumer (CPF): CDC art. 52 §1.
    FineAboveCdc,
    DiscountNotBelowAmount,
    DiscountAfterDue,
    /// A date before the one in the named parameter (`dueTo` before `dueFrom`).
    NotBefore(&'static str),
    /// A list cursor that is not a page's `nextCursor`.
    Cursor,
    /// A list parameter this list does not have.
    NotAFilter,
    /// A day after today (a payment received tomorrow).
    DateInFuture,
    /// A payment received before its invoice was created (that day, in Brasília).
    BeforeInvoiceCreated(crate::date::Date),
    /// A payment above what the installment costs (in cents).
    AboveAmountDue(i64),
    /// An installment plan whose last due date would be past 31/12/9999, the
    /// last day a `YYYY-MM-DD` date can name.
    PlanPastCalendar,
    /// An invoice that cannot be charged through Pix Automático, and why.
    PixAutomatico(PixAutomaticoRefusal),
    /// The application already has a webhook of this event at this URL.
    WebhookExists,
    /// The application has as many webhooks as it may (`webhooks::MAX_APP_WEBHOOKS`, given).
    WebhookLimit(usize),
    /// A payment link's slug that is not lower-case letters, digits and inner hyphens.
    Slug,
    /// A payment link's slug another link has.
    SlugTaken,
}

/// Why an invoice cannot be charged through Pix Automático (the rules are `pix_automatico`'s;
/// the messages are here, with the others, so that this file names no module that uses it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PixAutomaticoRefusal {
    /// The server does not talk to a bank's API Pix (`serve --pix-api-url`).
    NoApiPix,
    /// Recurrences are received by companies: the merchant's document is not a CNPJ.
    MerchantNotCompany,
    /// The recurrence's `vinculo.devedor` needs the payer's CPF or CNPJ.
    PayerWithoutDocument,
    /// A frequency with no periodicity in the arrangement.
    NoPeriodicity(Frequency),
    /// The recurrence has a fixed value (`valorRec`): the payer cannot set the amount.
    PriceByCustomer,
    /// The invoice does not accept PIX.
    PixNotAccepted,
}

impl PixAutomaticoRefusal {
    pub fn render(&self, pt: bool) -> String {
        let t = |p: &str, e: &str| if pt { p } else { e }.to_string();
        match self {
            PixAutomaticoRefusal::NoApiPix => t(
                "O Pix Automático precisa da API Pix de um banco: inicie o paylink com --pix-api-url.",
                "Pix Automático needs a bank's API Pix: start paylink with --pix-api-url.",
            ),
            PixAutomaticoRefusal::MerchantNotCompany => t(
                "Só empresas recebem por Pix Automático: o documento do recebedor (--merchant-document) precisa ser um CNPJ.",
                "Only companies receive through Pix Automático: the merchant's document (--merchant-document) must be a CNPJ.",
            ),
            PixAutomaticoRefusal::PayerWithoutDocument => t(
                "O cliente precisa de CPF ou CNPJ para autorizar o Pix Automático.",
                "The customer needs a CPF or CNPJ to authorize Pix Automático.",
            ),
            PixAutomaticoRefusal::NoPeriodicity(f) => {
                if pt {
                    format!("O Pix Automático não tem a frequência {f}: use WEEKLY, MONTHLY, QUARTERLY, SEMESTER ou YEARLY.")
                } else {
                    format!("Pix Automático has no {f} frequency: use WEEKLY, MONTHLY, QUARTERLY, SEMESTER or YEARLY.")
                }
            }
            PixAutomaticoRefusal::PriceByCustomer => t(
                "O Pix Automático cobra um valor fixo: não se aplica quando priceByCustomer é true.",
                "Pix Automático charges a fixed amount: it does not apply when priceByCustomer is true.",
            ),
            PixAutomaticoRefusal::PixNotAccepted => t(
                "O Pix Automático precisa que a cobrança aceite PIX (paymentTypes).",
                "Pix Automático needs the invoice to accept PIX (paymentTypes).",
            ),
        }
    }
}

/// Minimum days for `notifications[].period`.
pub const MIN_PERIOD_DAYS: i64 = 5;
pub const MAX_PERIOD_DAYS: i64 = 365;

impl Msg {
    pub fn render(&self, lang: Lang) -> String {
        use Msg::*;
        let pt = lang == Lang::PtBr;
        match self {
            Required => t(pt, "Campo obrigatório.", "This field is required."),
            MinChars(n) => {
                if pt {
                    format!("Use pelo menos {n} caracteres.")
                } else {
                    format!("Use at least {n} characters.")
                }
            }
            MaxChars(n) => {
                if pt {
                    format!("Use no máximo {n} caracteres.")
                } else {
                    format!("Use at most {n} characters.")
                }
            }
            Cpf => t(
                pt,
                "CPF inválido: confira os dígitos.",
                "Invalid CPF: check the digits.",
            ),
            Cnpj => t(
                pt,
                "CNPJ inválido: confira os dígitos.",
                "Invalid CNPJ: check the digits.",
            ),
            DocumentLength => t(
                pt,
                "Informe um CPF (11 dígitos) ou CNPJ (14 caracteres).",
                "Enter a CPF (11 digits) or a CNPJ (14 characters).",
            ),
            Email => t(pt, "E-mail inválido.", "Invalid e-mail address."),
            Phone => t(
                pt,
                "Telefone inválido: informe DDD e número, como (11) 98765-4321; números estrangeiros começam com +.",
                "Invalid phone: enter the area code and number, like (11) 98765-4321; foreign numbers start with +.",
            ),
            PhoneDdd => t(
                pt,
                "DDD inexistente: confira o código de área.",
                "No such area code (DDD) in Brazil: check it.",
            ),
            Uf => t(
                pt,
                "UF inválida: use a sigla de um dos 27 estados.",
                "Invalid state: use one of the 27 two-letter codes.",
            ),
            Cep => t(
                pt,
                "CEP inválido: são 8 dígitos.",
                "Invalid CEP: it has 8 digits.",
            ),
            Uuid => t(
                pt,
                "Identificador inválido (UUID esperado).",
                "Invalid identifier (a UUID is expected).",
            ),
            IsoDate => t(
                pt,
                "Data inválida (use AAAA-MM-DD).",
                "Invalid date (use YYYY-MM-DD).",
            ),
            DateInput => t(
                pt,
                "Data inválida: use dd/mm/aaaa.",
                "Invalid date: use yyyy-mm-dd.",
            ),
            DateInPast => t(
                pt,
                "A data não pode ser anterior a hoje.",
                "The date cannot be before today.",
            ),
            OneOf(allowed) => {
                if pt {
                    format!(
                        "Valor não permitido. Use um destes: {}.",
                        allowed.join(", ")
                    )
                } else {
                    format!("Value not allowed. Use one of: {}.", allowed.join(", "))
                }
            }
            AtLeastOne => t(
                pt,
                "Escolha pelo menos uma opção.",
                "Choose at least one option.",
            ),
            Duplicate => t(pt, "Valor repetido.", "Duplicated value."),
            MinPrice => t(
                pt,
                "O valor mínimo é R$ 5,00.",
                "The minimum amount is R$ 5.00.",
            ),
            MaxPrice => t(
                pt,
                "O valor máximo é R$ 99.999.999,99.",
                "The maximum amount is R$ 99,999,999.99.",
            ),
            TooManyDecimals => t(
                pt,
                "Use no máximo 2 casas decimais.",
                "Use at most 2 decimal places.",
            ),
            Negative => t(
                pt,
                "O valor não pode ser negativo.",
                "The amount cannot be negative.",
            ),
            IntRange(a, b) => {
                if pt {
                    format!("Use um número inteiro entre {a} e {b}.")
                } else {
                    format!("Use a whole number between {a} and {b}.")
                }
            }
            NotBefore(other) => {
                if pt {
                    format!("Não pode ser anterior a {other}.")
                } else {
                    format!("Must not be before {other}.")
                }
            }
            Cursor => t(
                pt,
                "Cursor inválido: use o nextCursor da página anterior.",
                "Invalid cursor: use the previous page's nextCursor.",
            ),
            DateInFuture => t(
                pt,
                "A data não pode ser posterior a hoje.",
                "The date cannot be after today.",
            ),
            BeforeInvoiceCreated(created) => {
                let day = created.format_for(lang);
                if pt {
                    format!("A data não pode ser anterior à criação da cobrança ({day}).")
                } else {
                    format!("The date cannot be before the invoice was created ({day}).")
                }
            }
            AboveAmountDue(cents) => {
                let due = crate::money::format_brl(*cents, lang);
                if pt {
                    format!("O valor não pode passar do devido nesta parcela ({due}).")
                } else {
                    format!("The amount cannot exceed what is due on this installment ({due}).")
                }
            }
            NotAFilter => t(
                pt,
                "Esta lista não tem este filtro.",
                "This list has no such filter.",
            ),
            OnlyWhen(cond) => {
                if pt {
                    format!("Só se aplica quando {cond}.")
                } else {
                    format!("Only applies when {cond}.")
                }
            }
            PeriodMin => {
                if pt {
                    format!("O período mínimo é de {MIN_PERIOD_DAYS} dias.")
                } else {
                    format!("The minimum period is {MIN_PERIOD_DAYS} days.")
                }
            }
            InternalHost => t(
                pt,
                "O endereço aponta para uma rede interna; use um host público.",
                "The address points to an internal network; use a public host.",
            ),
            HttpsUrl => t(
                pt,
                "Informe uma URL HTTPS válida.",
                "Enter a valid HTTPS URL.",
            ),
            Url => t(
                pt,
                "Informe uma URL http(s) válida.",
                "Enter a valid http(s) URL.",
            ),
            PlanPastCalendar => t(
                pt,
                "A última parcela venceria depois de 31/12/9999: escolha um vencimento anterior.",
                "The last installment would fall due after 31/12/9999: choose an earlier due date.",
            ),
            EndDateAfterDue => t(
                pt,
                "A data final deve ser posterior ao vencimento.",
                "The end date must be after the due date.",
            ),
            RecurringNeedsEnd => t(
                pt,
                "Uma cobrança recorrente precisa de data final ou parcela final.",
                "A recurring invoice needs an end date or an end installment.",
            ),
            InstallmentBelowMin => t(
                pt,
                "Cada parcela deve ser de pelo menos R$ 5,00.",
                "Each installment must be at least R$ 5.00.",
            ),
            CustomerNotFound => t(pt, "Cliente não encontrado.", "Customer not found."),
            FixedByLink => t(
                pt,
                "Este valor é definido pelo link de pagamento e não pode ser alterado.",
                "This value is set by the payment link and cannot be changed.",
            ),
            NotAllowedByLink => t(
                pt,
                "O link de pagamento não permite este valor.",
                "The payment link does not allow this value.",
            ),
            PaymentTypeNotOffered => t(
                pt,
                "Este recebedor não aceita esta forma de pagamento.",
                "This merchant does not accept this payment type.",
            ),
            CustomerNotFromLink => t(
                pt,
                "Cliente não cadastrado por este link de pagamento.",
                "This customer was not registered through this payment link.",
            ),
            Positive => t(
                pt,
                "O valor deve ser maior que zero.",
                "The value must be more than zero.",
            ),
            PercentMax(bp) => {
                let (whole, frac) = (bp / 100, bp % 100);
                if pt {
                    let n = if frac == 0 { format!("{whole}") } else { format!("{whole},{frac:02}") };
                    format!("O máximo é {n} %.")
                } else {
                    let n = if frac == 0 { format!("{whole}") } else { format!("{whole}.{frac:02}") };
                    format!("The maximum is {n} %.")
                }
            }
            FineAboveCdc => t(
                pt,
                "Para pagador com CPF, a multa não pode passar de 2 % (Código de Defesa do Consumidor, art. 52 §1º).",
                "For a payer with a CPF the fine cannot exceed 2 % (Consumer Protection Code, art. 52 §1).",
            ),
            DiscountNotBelowAmount => t(
                pt,
                "O desconto deve ser menor que o valor da cobrança.",
                "The discount must be less than the amount charged.",
            ),
            DiscountAfterDue => t(
                pt,
                "O prazo do desconto não pode ser depois do vencimento.",
                "The discount deadline cannot be after the due date.",
            ),
            PixAutomatico(why) => why.render(pt),
            WebhookExists => t(
                pt,
                "Esta URL já recebe este evento.",
                "This URL already receives this event.",
            ),
            WebhookLimit(n) => {
                t(
                    pt,
                    &format!("A aplicação já tem {n} webhooks, o máximo: remova um antes de adicionar outro."),
                    &format!("The application already has {n} webhooks, the most it may have: remove one before adding another."),
                )
            }
            Slug => t(
                pt,
                "Use de 1 a 64 letras minúsculas sem acento, algarismos e hifens entre eles (como curso-rust).",
                "Use 1 to 64 lower-case letters without accents, digits and hyphens between them (like curso-rust).",
            ),
            SlugTaken => t(
                pt,
                "Já existe um link com este endereço: escolha outro.",
                "A link with this address already exists: choose another.",
            ),
            WrongType(expected) => {
                if pt {
                    format!("Tipo inválido: esperado {}.", expected_pt(expected))
                } else {
                    format!("Wrong type: expected {expected}.")
                }
            }
        }
    }
}

fn t(pt: bool, pt_text: &str, en_text: &str) -> String {
    if pt { pt_text } else { en_text }.to_string()
}

fn expected_pt(expected: &str) -> &str {
    match expected {
        "a number" => "um número",
        "a whole number" => "um número inteiro",
        "a string" => "um texto",
        "a boolean" => "verdadeiro ou falso",
        "an array" => "uma lista",
        "an object" => "um objeto",
        other => other,
    }
}

/// Broken rules collected while checking a request, in field order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Violations(pub Vec<(String, Msg)>);

impl Violations {
    pub fn add(&mut self, path: impl Into<String>, msg: Msg) {
        self.0.push((path.into(), msg));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn has(&self, path: &str) -> bool {
        self.0.iter().any(|(p, _)| p == path)
    }

    pub fn render(&self, lang: Lang) -> Errors {
        let mut errors = Errors::new();
        for (path, msg) in &self.0 {
            errors
                .entry(path.clone())
                .or_default()
                .push(msg.render(lang));
        }
        errors
    }
}
