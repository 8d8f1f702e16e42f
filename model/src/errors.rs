//! Field errors keyed by API field path (`fullName`, `address.zipcode`,
//! `notifications[1].period`), the key format of garde's reports, so a server
//! error and a browser error land on the same form field.

use std::collections::BTreeMap;

use paylink_text as text;

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
    pub fn render(&self, lang: Lang) -> String {
        match self {
            PixAutomaticoRefusal::NoPeriodicity(f) => {
                text::pix_automatico_no_periodicity(lang, f.as_str())
            }
            fixed => fixed
                .sentence()
                .map_or_else(String::new, |s| s.t(lang).to_string()),
        }
    }

    /// The catalog's sentence of a refusal that carries no value.
    fn sentence(&self) -> Option<&'static text::Tr> {
        use PixAutomaticoRefusal::*;
        Some(match self {
            NoApiPix => &text::PIX_AUTOMATICO_NO_API_PIX,
            MerchantNotCompany => &text::PIX_AUTOMATICO_MERCHANT_NOT_COMPANY,
            PayerWithoutDocument => &text::PIX_AUTOMATICO_PAYER_WITHOUT_DOCUMENT,
            PriceByCustomer => &text::PIX_AUTOMATICO_PRICE_BY_CUSTOMER,
            PixNotAccepted => &text::PIX_AUTOMATICO_PIX_NOT_ACCEPTED,
            NoPeriodicity(_) => return None,
        })
    }
}

/// Minimum days for `notifications[].period`.
pub const MIN_PERIOD_DAYS: i64 = 5;
pub const MAX_PERIOD_DAYS: i64 = 365;

impl Msg {
    /// The message in `lang`: each rule's sentence is the catalog's (`paylink_text::fields`).
    pub fn render(&self, lang: Lang) -> String {
        use Msg::*;
        match self {
            MinChars(n) => text::min_chars(lang, *n),
            MaxChars(n) => text::max_chars(lang, *n),
            OneOf(allowed) => text::one_of(lang, allowed),
            IntRange(a, b) => text::int_range(lang, *a, *b),
            NotBefore(other) => text::not_before(lang, other),
            BeforeInvoiceCreated(created) => {
                text::before_invoice_created(lang, &created.format_for(lang))
            }
            AboveAmountDue(cents) => {
                text::above_amount_due(lang, &crate::money::format_brl(*cents, lang))
            }
            OnlyWhen(cond) => text::only_when(lang, cond),
            PeriodMin => text::period_min(lang, MIN_PERIOD_DAYS),
            PercentMax(bp) => text::percent_max(lang, *bp),
            PixAutomatico(why) => why.render(lang),
            WebhookLimit(n) => text::webhook_limit(lang, *n),
            WrongType(expected) => text::wrong_type(lang, expected),
            fixed => fixed
                .sentence()
                .map_or_else(String::new, |s| s.t(lang).to_string()),
        }
    }

    /// The catalog's sentence of a rule that carries no value. One lookup and one
    /// conversion for all of them, instead of a conversion per rule, is 0.2 KB less in the
    /// link page's bundle and 0.4 KB in the merchant's (brotli, bench/README.md).
    fn sentence(&self) -> Option<&'static text::Tr> {
        use Msg::*;
        Some(match self {
            Required => &text::FIELD_REQUIRED,
            Cpf => &text::FIELD_CPF,
            Cnpj => &text::FIELD_CNPJ,
            DocumentLength => &text::FIELD_DOCUMENT_LENGTH,
            Email => &text::FIELD_EMAIL,
            Phone => &text::FIELD_PHONE,
            PhoneDdd => &text::FIELD_PHONE_DDD,
            Uf => &text::FIELD_UF,
            Cep => &text::FIELD_CEP,
            Uuid => &text::FIELD_UUID,
            IsoDate => &text::FIELD_ISO_DATE,
            DateInput => &text::FIELD_DATE_INPUT,
            DateInPast => &text::FIELD_DATE_IN_PAST,
            AtLeastOne => &text::FIELD_AT_LEAST_ONE,
            Duplicate => &text::FIELD_DUPLICATE,
            MinPrice => &text::FIELD_MIN_PRICE,
            MaxPrice => &text::FIELD_MAX_PRICE,
            TooManyDecimals => &text::FIELD_TOO_MANY_DECIMALS,
            Negative => &text::FIELD_NEGATIVE,
            Cursor => &text::FIELD_CURSOR,
            DateInFuture => &text::FIELD_DATE_IN_FUTURE,
            NotAFilter => &text::FIELD_NOT_A_FILTER,
            InternalHost => &text::FIELD_INTERNAL_HOST,
            HttpsUrl => &text::FIELD_HTTPS_URL,
            Url => &text::FIELD_URL,
            PlanPastCalendar => &text::FIELD_PLAN_PAST_CALENDAR,
            EndDateAfterDue => &text::FIELD_END_DATE_AFTER_DUE,
            RecurringNeedsEnd => &text::FIELD_RECURRING_NEEDS_END,
            InstallmentBelowMin => &text::FIELD_INSTALLMENT_BELOW_MIN,
            CustomerNotFound => &text::CUSTOMER_NOT_FOUND,
            FixedByLink => &text::FIELD_FIXED_BY_LINK,
            NotAllowedByLink => &text::FIELD_NOT_ALLOWED_BY_LINK,
            PaymentTypeNotOffered => &text::FIELD_PAYMENT_TYPE_NOT_OFFERED,
            CustomerNotFromLink => &text::FIELD_CUSTOMER_NOT_FROM_LINK,
            Positive => &text::FIELD_POSITIVE,
            FineAboveCdc => &text::FIELD_FINE_ABOVE_CDC,
            DiscountNotBelowAmount => &text::FIELD_DISCOUNT_NOT_BELOW_AMOUNT,
            DiscountAfterDue => &text::FIELD_DISCOUNT_AFTER_DUE,
            WebhookExists => &text::FIELD_WEBHOOK_EXISTS,
            Slug => &text::FIELD_SLUG,
            SlugTaken => &text::FIELD_SLUG_TAKEN,
            // The sentences with a value, which `render` writes.
            MinChars(_)
            | MaxChars(_)
            | OneOf(_)
            | IntRange(..)
            | NotBefore(_)
            | BeforeInvoiceCreated(_)
            | AboveAmountDue(_)
            | OnlyWhen(_)
            | PeriodMin
            | PercentMax(_)
            | PixAutomatico(_)
            | WebhookLimit(_)
            | WrongType(_) => return None,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    // The texts as this file wrote them before they moved to the catalog: the move changed
    // where they are, not a byte of what they say.
    #[test]
    fn messages_render_as_they_did_before_the_catalog() {
        let both = |m: Msg| (m.render(Lang::PtBr), m.render(Lang::En));
        assert_eq!(
            both(Msg::Required),
            (
                "Campo obrigatório.".into(),
                "This field is required.".into()
            )
        );
        assert_eq!(
            both(Msg::MinChars(3)),
            (
                "Use pelo menos 3 caracteres.".into(),
                "Use at least 3 characters.".into()
            )
        );
        assert_eq!(
            both(Msg::AboveAmountDue(123_456)),
            (
                "O valor não pode passar do devido nesta parcela (R$ 1.234,56).".into(),
                "The amount cannot exceed what is due on this installment (R$ 1,234.56).".into()
            )
        );
        assert_eq!(
            both(Msg::WrongType("an array")),
            (
                "Tipo inválido: esperado uma lista.".into(),
                "Wrong type: expected an array.".into()
            )
        );
        assert_eq!(
            both(Msg::PixAutomatico(PixAutomaticoRefusal::NoPeriodicity(
                Frequency::Fortweekly
            ))),
            (
                "O Pix Automático não tem a frequência FORTWEEKLY: use WEEKLY, MONTHLY, QUARTERLY, SEMESTER ou YEARLY.".into(),
                "Pix Automático has no FORTWEEKLY frequency: use WEEKLY, MONTHLY, QUARTERLY, SEMESTER or YEARLY.".into()
            )
        );
    }
}
