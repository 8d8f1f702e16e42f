//! Fine, interest and discount of a charge (multa, juros de mora, desconto):
//! their wire types named as Brazilian billing APIs name them, their rules
//! keyed by field path, the banks' national-holiday calendar, and the amount
//! due on a given date. Long because the three terms share one rule set
//! (value types, limits, dates against the due date) and one calculation.

use serde::{Deserialize, Serialize};

use crate::date::Date;
use crate::errors::{Errors, Msg, Violations};
use crate::money::{self, MoneyError, MAX_CENTS};
use crate::Lang;

// ---- Wire types ----

/// `fine`: charged once, from the day after the due date.
/// `{"type": "PERCENTAGE" | "FIXED", "value": 2.0}` (percent of the amount, or reais).
/// Every field is optional at parse time so a missing one is a field error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Fine {
    /// `PERCENTAGE` of the amount or a `FIXED` amount in reais.
    #[cfg_attr(feature = "openapi", schema(value_type = ValueType, required = true))]
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Percent (at most 20; at most 2 when the payer's document is a CPF) or reais.
    #[cfg_attr(
        feature = "openapi",
        schema(
            value_type = f64,
            required = true,
            exclusive_minimum = 0,
            multiple_of = 0.01,
            example = 2.0
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
}

/// `interest` (juros de mora): percent per month, charged per calendar day
/// (a thirtieth of it a day) after the due date. `{"value": 1.0}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Interest {
    /// Percent per month, more than 0 and at most 10.
    #[cfg_attr(
        feature = "openapi",
        schema(
            value_type = f64,
            required = true,
            exclusive_minimum = 0,
            maximum = 10,
            multiple_of = 0.01,
            example = 1.0
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
}

/// `discount` for paying on or before `untilDate` (not after the due date).
/// `{"type": "PERCENTAGE" | "FIXED", "value": 5.0, "untilDate": "YYYY-MM-DD"}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Discount {
    #[cfg_attr(feature = "openapi", schema(value_type = ValueType, required = true))]
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Percent (less than 100) or reais (less than the amount).
    #[cfg_attr(
        feature = "openapi",
        schema(
            value_type = f64,
            required = true,
            exclusive_minimum = 0,
            multiple_of = 0.01,
            example = 5.0
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// Last day the discount applies; on or before the due date.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = String, required = true, format = "date", example = "2027-01-25")
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_date: Option<String>,
}

/// How a fine or discount value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "UPPERCASE")]
pub enum ValueType {
    Percentage,
    Fixed,
}

impl ValueType {
    pub const NAMES: &'static [&'static str] = &["PERCENTAGE", "FIXED"];

    pub fn parse(s: &str) -> Option<ValueType> {
        match s {
            "PERCENTAGE" => Some(ValueType::Percentage),
            "FIXED" => Some(ValueType::Fixed),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ValueType::Percentage => "PERCENTAGE",
            ValueType::Fixed => "FIXED",
        }
    }
}

// ---- Checked terms (integers only) ----

/// A percentage in hundredths of a percent (`2.5` % → 250) or an amount in cents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Hundredths of a percent ("basis points"): 2 % is 200.
    Percent(i64),
    Cents(i64),
}

impl Value {
    /// From its stored form: the type and the integer (hundredths of a percent or cents).
    pub fn of(kind: ValueType, hundredths: i64) -> Value {
        match kind {
            ValueType::Percentage => Value::Percent(hundredths),
            ValueType::Fixed => Value::Cents(hundredths),
        }
    }

    /// Its stored integer (hundredths of a percent or cents); [`Value::of`] reads it back.
    pub fn stored(self) -> i64 {
        match self {
            Value::Percent(n) | Value::Cents(n) => n,
        }
    }

    /// What it comes to on `base_cents`, truncated to the cent.
    pub fn on(self, base_cents: i64) -> i64 {
        match self {
            Value::Percent(bp) => (base_cents as i128 * bp as i128 / 10_000) as i64,
            Value::Cents(c) => c,
        }
    }

    pub fn kind(self) -> ValueType {
        match self {
            Value::Percent(_) => ValueType::Percentage,
            Value::Cents(_) => ValueType::Fixed,
        }
    }

    /// The wire number: percent or reais.
    pub fn wire(self) -> f64 {
        match self {
            Value::Percent(n) | Value::Cents(n) => money::cents_to_reais(n),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiscountTerm {
    pub value: Value,
    pub until: Date,
}

/// Fine, interest and discount after their rules: what the server stores
/// (type + integer value + date) and [`amount_due`] computes with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChargeTerms {
    pub fine: Option<Value>,
    /// Hundredths of a percent per month.
    pub interest_monthly_bp: Option<i64>,
    pub discount: Option<DiscountTerm>,
}

impl ChargeTerms {
    /// The wire forms, for both response forms.
    pub fn to_wire(&self) -> (Option<Fine>, Option<Interest>, Option<Discount>) {
        (
            self.fine.map(|f| Fine {
                kind: Some(f.kind().name().into()),
                value: Some(f.wire()),
            }),
            self.interest_monthly_bp.map(|bp| Interest {
                value: Some(money::cents_to_reais(bp)),
            }),
            self.discount.map(|d| Discount {
                kind: Some(d.value.kind().name().into()),
                value: Some(d.value.wire()),
                until_date: Some(d.until.to_string()),
            }),
        )
    }
}

impl ChargeTerms {
    /// The terms of one installment (or one charge of a periodic invoice)
    /// due on `due`, when the invoice's are stated for its first due date
    /// `first_due`: fine and interest as they are, the discount's last day
    /// as many days before `due` as `untilDate` is before `first_due`.
    pub fn for_due(&self, first_due: Date, due: Date) -> ChargeTerms {
        let mut t = *self;
        if let Some(d) = t.discount.as_mut() {
            let shift = due.days_since_epoch() - first_due.days_since_epoch();
            d.until = d.until.add_days(shift).unwrap_or(d.until);
        }
        t
    }
}

/// What the rules need to know about the charge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TermsContext {
    /// The amount each charge carries (the smallest installment's, for an
    /// installment plan); `None` when the payer sets it (a fixed value is
    /// then only checked for range).
    pub amount_cents: Option<i64>,
    /// The (first) due date; `None` when unknown or itself invalid.
    pub due_date: Option<Date>,
    /// The payer's document is a CPF: a consumer, so the fine is capped at 2 %.
    pub payer_is_cpf: bool,
}

/// The highest fine a consumer may be charged (CDC art. 52 §1: 2 %), in hundredths of a percent.
pub const CPF_MAX_FINE_BP: i64 = 200;
/// A sane ceiling for a fine on a company (20 %).
pub const MAX_FINE_BP: i64 = 2_000;
/// A sane ceiling for late interest (10 % a month).
pub const MAX_INTEREST_BP: i64 = 1_000;
/// A percentage discount stays below 100 %: a charge of R$ 0,00 cannot be paid.
pub const MAX_DISCOUNT_BP: i64 = 9_999;

/// True when the stored (bare) document is a CPF: 11 digits.
pub fn document_is_cpf(document: Option<&str>) -> bool {
    document.is_some_and(|d| {
        let s = crate::br::strip_formatting(d);
        s.len() == 11 && s.bytes().all(|c| c.is_ascii_digit())
    })
}

/// A wire number with at most two decimals, in hundredths; more than 0.
fn positive_hundredths(v: &mut Violations, path: &str, value: Option<f64>) -> Option<i64> {
    let Some(x) = value else {
        v.add(path, Msg::Required);
        return None;
    };
    match money::reais_to_cents(x) {
        Ok(0) | Err(MoneyError::Negative) => v.add(path, Msg::Positive),
        Ok(n) => return Some(n),
        Err(MoneyError::TooManyDecimals) => v.add(path, Msg::TooManyDecimals),
        Err(MoneyError::TooLarge) => v.add(path, Msg::MaxPrice),
        Err(MoneyError::NotANumber) => v.add(path, Msg::WrongType("a number")),
    }
    None
}

fn value_type(v: &mut Violations, path: &str, kind: &Option<String>) -> Option<ValueType> {
    match kind.as_deref().map(str::trim) {
        None | Some("") => {
            v.add(path, Msg::Required);
            None
        }
        Some(s) => ValueType::parse(s).or_else(|| {
            v.add(path, Msg::OneOf(ValueType::NAMES));
            None
        }),
    }
}

fn percent_at_most(v: &mut Violations, path: &str, bp: i64, max_bp: i64) -> bool {
    if bp > max_bp {
        v.add(path, Msg::PercentMax(max_bp));
        false
    } else {
        true
    }
}

/// Checks fine, interest and discount, adding each broken rule to `v` at its
/// path (`fine.type`, `fine.value`, `interest.value`, `discount.type`,
/// `discount.value`, `discount.untilDate`); returns the terms that passed.
pub fn check_terms_into(
    v: &mut Violations,
    fine: Option<&Fine>,
    interest: Option<&Interest>,
    discount: Option<&Discount>,
    ctx: TermsContext,
) -> ChargeTerms {
    let mut terms = ChargeTerms::default();

    if let Some(f) = fine {
        let kind = value_type(v, "fine.type", &f.kind);
        let n = positive_hundredths(v, "fine.value", f.value);
        terms.fine = match (kind, n) {
            (Some(ValueType::Percentage), Some(bp)) => {
                let max = if ctx.payer_is_cpf {
                    CPF_MAX_FINE_BP
                } else {
                    MAX_FINE_BP
                };
                if bp > max && ctx.payer_is_cpf {
                    v.add("fine.value", Msg::FineAboveCdc);
                    None
                } else {
                    percent_at_most(v, "fine.value", bp, max).then_some(Value::Percent(bp))
                }
            }
            (Some(ValueType::Fixed), Some(c)) => match ctx.amount_cents {
                // A consumer's fine is capped at 2 % whatever its form.
                Some(a) if ctx.payer_is_cpf && c * 10_000 > a * CPF_MAX_FINE_BP => {
                    v.add("fine.value", Msg::FineAboveCdc);
                    None
                }
                Some(a) if c * 10_000 > a * MAX_FINE_BP => {
                    v.add("fine.value", Msg::PercentMax(MAX_FINE_BP));
                    None
                }
                _ => Some(Value::Cents(c)),
            },
            _ => None,
        };
    }

    if let Some(i) = interest {
        terms.interest_monthly_bp = positive_hundredths(v, "interest.value", i.value)
            .filter(|&bp| percent_at_most(v, "interest.value", bp, MAX_INTEREST_BP));
    }

    if let Some(d) = discount {
        let kind = value_type(v, "discount.type", &d.kind);
        let n = positive_hundredths(v, "discount.value", d.value);
        let value = match (kind, n) {
            (Some(ValueType::Percentage), Some(bp)) => {
                percent_at_most(v, "discount.value", bp, MAX_DISCOUNT_BP)
                    .then_some(Value::Percent(bp))
            }
            (Some(ValueType::Fixed), Some(c)) => match ctx.amount_cents {
                Some(a) if c >= a => {
                    v.add("discount.value", Msg::DiscountNotBelowAmount);
                    None
                }
                _ => Some(Value::Cents(c)),
            },
            _ => None,
        };
        let until = match d.until_date.as_deref().map(str::trim) {
            None | Some("") => {
                v.add("discount.untilDate", Msg::Required);
                None
            }
            Some(s) => match Date::parse_iso(s) {
                None => {
                    v.add("discount.untilDate", Msg::IsoDate);
                    None
                }
                Some(u) if ctx.due_date.is_some_and(|due| u > due) => {
                    v.add("discount.untilDate", Msg::DiscountAfterDue);
                    None
                }
                Some(u) => Some(u),
            },
        };
        if let (Some(value), Some(until)) = (value, until) {
            terms.discount = Some(DiscountTerm { value, until });
        }
    }
    terms
}

/// [`check_terms_into`] on its own.
pub fn check_terms(
    fine: Option<&Fine>,
    interest: Option<&Interest>,
    discount: Option<&Discount>,
    ctx: TermsContext,
) -> Result<ChargeTerms, Violations> {
    let mut v = Violations::default();
    let terms = check_terms_into(&mut v, fine, interest, discount, ctx);
    if v.is_empty() {
        Ok(terms)
    } else {
        Err(v)
    }
}

/// Every broken rule of fine, interest and discount, in `lang` (for the widget).
pub fn validate_terms(
    fine: Option<&Fine>,
    interest: Option<&Interest>,
    discount: Option<&Discount>,
    ctx: TermsContext,
    lang: Lang,
) -> Errors {
    check_terms(fine, interest, discount, ctx)
        .err()
        .map(|v| v.render(lang))
        .unwrap_or_default()
}

// ---- The banks' calendar ----

/// Easter Sunday (Gregorian computus, Meeus/Jones/Butcher).
pub fn easter(year: i32) -> Date {
    let a = year % 19;
    let b = year / 100;
    let c = year % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    Date::new(year, month as u8, day as u8).expect("the computus gives a real date")
}

/// 0 = Monday … 6 = Sunday.
pub fn weekday(d: Date) -> u8 {
    // 1970-01-01 was a Thursday.
    (d.days_since_epoch() + 3).rem_euclid(7) as u8
}

/// The days the national financial system does not work besides weekends:
///
/// - the national holidays of federal law: 1 Jan, 21 Apr (Tiradentes),
///   1 May, 7 Sep, 12 Oct, 2 Nov, 15 Nov, 25 Dec (Leis 662/1949, 6.802/1980,
///   10.607/2002) and 20 Nov, Consciência Negra, from 2024 (Lei 14.759/2023);
/// - Carnival Monday and Tuesday, Good Friday and Corpus Christi: not
///   holidays by federal law, but days without banking business in the
///   calendar banks and the BCB follow (FEBRABAN's national calendar), so a
///   boleto or due-dated PIX charge due then is payable the next business day.
///
/// Left out: state and city holidays (the payer's bank may be anywhere),
/// and 24 and 31 December (banks close to the public but settle payments).
pub fn is_bank_holiday(d: Date) -> bool {
    let (m, day) = (d.month(), d.day());
    let fixed = matches!(
        (m, day),
        (1, 1) | (4, 21) | (5, 1) | (9, 7) | (10, 12) | (11, 2) | (11, 15) | (12, 25)
    ) || ((m, day) == (11, 20) && d.year() >= 2024);
    if fixed {
        return true;
    }
    let e = easter(d.year()).days_since_epoch();
    let off = d.days_since_epoch() - e;
    matches!(off, -48 | -47 | -2 | 60)
}

pub fn is_business_day(d: Date) -> bool {
    weekday(d) < 5 && !is_bank_holiday(d)
}

/// `d` if it is a business day, else the next one.
pub fn next_business_day(d: Date) -> Date {
    let mut d = d;
    while !is_business_day(d) {
        match d.add_days(1) {
            Some(n) => d = n,
            None => break,
        }
    }
    d
}

// ---- Amount due ----

/// What a charge costs on a date, in cents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AmountDue {
    pub original: i64,
    pub discount: i64,
    pub fine: i64,
    pub interest: i64,
    /// original − discount + fine + interest; never below zero.
    pub total: i64,
    /// The due date moved to a business day: the last day without charges.
    pub effective_due: Date,
    /// Calendar days of interest (0 until paid late).
    pub late_days: i64,
}

/// The amount due when paying on `pay_date` a charge of `original_cents`
/// due on `due_date`, following the rules of the BCB's due-dated PIX charges
/// (cobrança com vencimento, Manual de Padrões para Iniciação do Pix,
/// Anexo III) as this function implements them:
///
/// 1. A due date on a weekend or bank holiday ([`is_bank_holiday`]) moves
///    to the next business day; paying on that day costs nothing extra.
/// 2. Discount (fixed date): paid on or before `untilDate`, the discount is
///    the fixed amount or the percentage of the original amount. It is
///    taken off the original, never below zero. `untilDate` does not move.
/// 3. Fine: paid after the (moved) due date, once: the fixed amount or the
///    percentage of the original amount.
/// 4. Interest, percent per month in calendar days: original × (rate ÷ 30)
///    × days, the days counted from the day after the (moved) due date up
///    to and including the payment date.
/// 5. Every amount (discount, fine, interest) is truncated to the cent,
///    each on its own, and the total is their sum: never rounded up.
pub fn amount_due(
    original_cents: i64,
    due_date: Date,
    pay_date: Date,
    terms: &ChargeTerms,
) -> AmountDue {
    let original = original_cents.clamp(0, MAX_CENTS);
    let effective_due = next_business_day(due_date);
    let discount = match terms.discount {
        Some(d) if pay_date <= d.until && pay_date <= effective_due => {
            d.value.on(original).clamp(0, original)
        }
        _ => 0,
    };
    let late_days = (pay_date.days_since_epoch() - effective_due.days_since_epoch()).max(0);
    let (fine, interest) = if late_days > 0 {
        let fine = terms.fine.map_or(0, |f| f.on(original));
        let interest = terms.interest_monthly_bp.map_or(0, |bp| {
            (original as i128 * bp as i128 * late_days as i128 / (30 * 10_000)) as i64
        });
        (fine, interest)
    } else {
        (0, 0)
    };
    AmountDue {
        original,
        discount,
        fine,
        interest,
        total: original - discount + fine + interest,
        effective_due,
        late_days,
    }
}

/// The amount a PIX BR Code shown on `today` should carry: [`amount_due`]'s
/// total, so the QR code, the payer page and the boleto's instructions agree.
pub fn br_code_amount(
    original_cents: i64,
    due_date: Date,
    today: Date,
    terms: &ChargeTerms,
) -> i64 {
    amount_due(original_cents, due_date, today, terms).total
}

/// The last day, from `today` on, on which the charge costs what it costs
/// `today` ([`amount_due`]'s total): a PIX charge payable now (`cob`) carries
/// one amount, so it must stop being payable when that amount no longer
/// holds, and a new one be made for the new amount. The amount changes when
/// a discount ends, when the (business-day) due date has passed and every
/// day of interest after it. `None`: it holds for `horizon_days` more days
/// or longer (nothing left to change it, or not within the horizon).
pub fn amount_holds_until(
    original_cents: i64,
    due_date: Date,
    today: Date,
    terms: &ChargeTerms,
    horizon_days: i64,
) -> Option<Date> {
    let total = |d: Date| amount_due(original_cents, due_date, d, terms).total;
    let now = total(today);
    (1..=horizon_days)
        .map_while(|n| today.add_days(n))
        .find(|d| total(*d) != now)
        .and_then(|changed| changed.add_days(-1))
}

/// A percentage in hundredths as the language writes it: `2`, `2,5`, `0,33` (pt-BR) or `2.5` (en).
fn percent_text(bp: i64, lang: Lang) -> String {
    let sep = if lang == Lang::PtBr { ',' } else { '.' };
    match bp % 100 {
        0 => format!("{}", bp / 100),
        f if f % 10 == 0 => format!("{}{sep}{}", bp / 100, f / 10),
        f => format!("{}{sep}{f:02}", bp / 100),
    }
}

/// The lines the boleto's "instruções" and the payer page show for these
/// terms, with amounts computed by [`amount_due`] so the text and the
/// charged amount agree. Dates as the language writes them; empty when
/// there are no terms.
pub fn instructions(
    original_cents: i64,
    due_date: Date,
    terms: &ChargeTerms,
    lang: Lang,
) -> Vec<String> {
    use crate::money::format_brl;
    let mut lines = Vec::new();
    if let Some(d) = terms.discount {
        let a = amount_due(original_cents, due_date, d.until, terms);
        lines.push(paylink_text::discount_until(
            lang,
            &d.until.format_for(lang),
            &format_brl(a.discount, lang),
            &format_brl(a.total, lang),
        ));
    }
    let after = next_business_day(due_date).format_for(lang);
    if let Some(f) = terms.fine {
        let fine = format_brl(f.on(original_cents.clamp(0, MAX_CENTS)), lang);
        lines.push(paylink_text::fine_after(lang, &after, &fine));
    }
    if let Some(bp) = terms.interest_monthly_bp {
        let p = percent_text(bp, lang);
        lines.push(paylink_text::interest_after(lang, &after, &p));
    }
    lines
}
