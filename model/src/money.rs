//! Money is integer cents inside paylink; reais (a JSON number) only on the wire.

use crate::Lang;

/// The largest amount a boleto can carry: its value field has 10 digits.
pub const MAX_CENTS: i64 = 9_999_999_999;
/// The spec's minimum invoice price, R$ 5,00.
pub const MIN_PRICE_CENTS: i64 = 500;

/// Converts a wire amount in reais to cents. `None` when it is not finite,
/// negative, too large, or has more than two decimals (`10.005`). Decimal
/// text such as `10.07` is not exact in binary, so "two decimals" means
/// within a millionth of a cent of a whole cent.
pub fn reais_to_cents(reais: f64) -> Result<i64, MoneyError> {
    if !reais.is_finite() {
        return Err(MoneyError::NotANumber);
    }
    if reais < 0.0 {
        return Err(MoneyError::Negative);
    }
    let scaled = reais * 100.0;
    if scaled > MAX_CENTS as f64 {
        return Err(MoneyError::TooLarge);
    }
    let cents = scaled.round();
    if (scaled - cents).abs() > 1e-6 {
        return Err(MoneyError::TooManyDecimals);
    }
    Ok(cents as i64)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("not a number")]
    NotANumber,
    #[error("negative")]
    Negative,
    #[error("too large")]
    TooLarge,
    #[error("more than two decimals")]
    TooManyDecimals,
}

/// Cents to the wire number. Exact for every amount up to [`MAX_CENTS`]:
/// the JSON writer prints the shortest text that reads back to this f64.
pub fn cents_to_reais(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// `R$ 1.234,56` (pt-BR) or `R$ 1,234.56` (en), from integer cents so no
/// float formatting is ever shipped to the browser.
pub fn format_brl(cents: i64, lang: Lang) -> String {
    let (thousands, decimal) = match lang {
        Lang::PtBr => ('.', ','),
        Lang::En => (',', '.'),
    };
    let neg = cents < 0;
    let abs = cents.unsigned_abs();
    let units = (abs / 100).to_string();
    let mut grouped = String::with_capacity(units.len() + units.len() / 3);
    for (i, c) in units.chars().enumerate() {
        if i > 0 && (units.len() - i) % 3 == 0 {
            grouped.push(thousands);
        }
        grouped.push(c);
    }
    let frac = abs % 100;
    format!(
        "{}R$ {grouped}{decimal}{}{}",
        if neg { "-" } else { "" },
        (b'0' + (frac / 10) as u8) as char,
        (b'0' + (frac % 10) as u8) as char
    )
}

/// Reads what a person types in a pt-BR currency field: `1.234,56`,
/// `R$ 1234,5`, `1234`. The comma is the decimal separator and dots are
/// thousands separators. `None` for anything else.
pub fn parse_brl(input: &str) -> Option<i64> {
    let s = input.trim();
    let s = s.strip_prefix("R$").unwrap_or(s).trim();
    if s.is_empty() {
        return None;
    }
    let (int_part, frac_part) = match s.split_once(',') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    let digits: String = int_part.chars().filter(|&c| c != '.').collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 9 {
        return None;
    }
    // Dots must sit between groups of three digits, as a thousands separator does.
    if int_part.contains('.') && int_part.split('.').skip(1).any(|g| g.len() != 3) {
        return None;
    }
    let units: i64 = digits.parse().ok()?;
    let frac = match frac_part {
        None => 0,
        Some(f) if f.len() == 1 && f.bytes().all(|b| b.is_ascii_digit()) => {
            f.parse::<i64>().ok()? * 10
        }
        Some(f) if f.len() == 2 && f.bytes().all(|b| b.is_ascii_digit()) => {
            f.parse::<i64>().ok()?
        }
        Some(_) => return None,
    };
    let cents = units.checked_mul(100)?.checked_add(frac)?;
    (cents <= MAX_CENTS).then_some(cents)
}

/// A price as Brazilian merchants type it in a pt-BR form: `1.000,00`,
/// `1000,00`, `1000.00`, `R$ 300`. A single dot followed by one or two digits
/// (and no comma) is a decimal point, as in `1000.00`; otherwise dots are
/// thousands separators and the comma is the decimal one ([`parse_brl`]).
pub fn parse_price_input(input: &str) -> Option<i64> {
    let s = input.trim();
    let decimal_dot = !s.contains(',')
        && s.rsplit_once('.')
            .is_some_and(|(int, frac)| !int.contains('.') && (1..=2).contains(&frac.len()));
    if decimal_dot {
        parse_brl(&s.replacen('.', ",", 1))
    } else {
        parse_brl(s)
    }
}

/// Formats cents for an editable pt-BR currency input: `1.234,56` (no symbol).
pub fn format_brl_input(cents: i64) -> String {
    format_brl(cents, Lang::PtBr)
        .trim_start_matches("R$ ")
        .to_string()
}

/// `#[serde(with = "paylink_model::money::reais")]` for response amounts.
pub mod reais {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(cents: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(super::cents_to_reais(*cents))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        let v = f64::deserialize(d)?;
        super::reais_to_cents(v)
            .map_err(|e| serde::de::Error::custom(format!("invalid amount {v}: {e:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_amounts_become_exact_cents() {
        assert_eq!(reais_to_cents(10.07), Ok(1007));
        assert_eq!(reais_to_cents(0.1 + 0.2), Ok(30));
        assert_eq!(reais_to_cents(5.0), Ok(500));
        assert_eq!(reais_to_cents(99_999_999.99), Ok(MAX_CENTS));
        assert_eq!(reais_to_cents(10.005), Err(MoneyError::TooManyDecimals));
        assert_eq!(reais_to_cents(10.001), Err(MoneyError::TooManyDecimals));
        assert_eq!(reais_to_cents(-1.0), Err(MoneyError::Negative));
        assert_eq!(reais_to_cents(1e12), Err(MoneyError::TooLarge));
        assert_eq!(reais_to_cents(f64::NAN), Err(MoneyError::NotANumber));
    }

    #[test]
    fn every_cent_survives_the_wire() {
        for cents in (0..2_000_000).step_by(7).chain([MAX_CENTS, MAX_CENTS - 1]) {
            assert_eq!(reais_to_cents(cents_to_reais(cents)), Ok(cents));
        }
    }

    #[test]
    fn formats_brl_in_both_languages() {
        assert_eq!(format_brl(123456, Lang::PtBr), "R$ 1.234,56");
        assert_eq!(format_brl(123456, Lang::En), "R$ 1,234.56");
        assert_eq!(format_brl(5, Lang::PtBr), "R$ 0,05");
        assert_eq!(format_brl(100000000, Lang::PtBr), "R$ 1.000.000,00");
        assert_eq!(format_brl(-1050, Lang::PtBr), "-R$ 10,50");
        assert_eq!(format_brl_input(123456), "1.234,56");
    }

    #[test]
    fn a_price_field_takes_the_three_ways_merchants_type() {
        for (typed, cents) in [
            ("1.000,00", 100_000),
            ("1000,00", 100_000),
            ("1000.00", 100_000),
            ("1000.5", 100_050),
            ("R$ 1.000,00", 100_000),
            ("300", 30_000),
            ("1.000", 100_000),
            ("1.234.567,89", 123_456_789),
            (" 0.99 ", 99),
            ("10.005", 1_000_500),
        ] {
            assert_eq!(parse_price_input(typed), Some(cents), "{typed}");
        }
        for bad in ["", "1.000.00", "1,000.00", "1.00,00", "abc", "-5", "1.0000"] {
            assert_eq!(parse_price_input(bad), None, "{bad}");
        }
    }

    #[test]
    fn parses_pt_br_currency_input() {
        assert_eq!(parse_brl("1.234,56"), Some(123456));
        assert_eq!(parse_brl("R$ 1234,5"), Some(123450));
        assert_eq!(parse_brl("15"), Some(1500));
        assert_eq!(parse_brl(" 0,99 "), Some(99));
        for bad in [
            "",
            "abc",
            "1,234",
            "12,3,4",
            "1.23,00",
            "-5",
            "1.2345,00",
            "99999999999",
        ] {
            assert_eq!(parse_brl(bad), None, "{bad}");
        }
    }
}
