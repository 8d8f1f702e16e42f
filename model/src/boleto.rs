//! Boleto bancário (FEBRABAN layout): the 44-digit barcode and the 47-digit
//! "linha digitável" people type, with their check digits and due-date factor.

use crate::date::Date;

/// Bank-side configuration of the boleto's free field, Banco do Brasil's
/// layout for 7-digit agreements (convênio): `000000` + convênio (7) +
/// nosso-número complement (10) + carteira (2) = 25 digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoletoConfig {
    /// Three-digit bank code (`001` Banco do Brasil).
    pub bank_code: String,
    /// Seven-digit agreement number.
    pub agreement: String,
    /// Two-digit carteira.
    pub wallet: String,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoletoError {
    #[error("the bank code, agreement, wallet or nosso número does not have its digits")]
    BadConfig,
    #[error("the amount does not fit a boleto")]
    AmountTooLarge,
    #[error("the due date is outside the boleto's calendar")]
    DueDateOutOfRange,
}

/// Due-date factor: days since 1997-10-07, which reached 9999 on 2025-02-21;
/// from 2025-02-22 it restarted at 1000 (FEBRABAN's reset), so it cycles
/// through 1000..=9999 every 9000 days.
pub fn due_factor(due: Date) -> Result<u16, BoletoError> {
    let base = Date::new(1997, 10, 7).expect("valid base date");
    let days = due.days_since_epoch() - base.days_since_epoch();
    if days < 1000 {
        return Err(BoletoError::DueDateOutOfRange);
    }
    Ok(((days - 1000) % 9000 + 1000) as u16)
}

/// Modulo 10 check digit of a linha digitável field (weights 2,1,2,… from the
/// right, digits of each product summed).
pub fn mod10(digits: &str) -> u8 {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let p = (b - b'0') as u32 * if i % 2 == 0 { 2 } else { 1 };
            p / 10 + p % 10
        })
        .sum();
    ((10 - sum % 10) % 10) as u8
}

/// Modulo 11 general check digit of the barcode (weights 2..9 from the right;
/// 0, 10 and 11 become 1).
pub fn mod11(digits: &str) -> u8 {
    match 11 - mod11_sum(digits) % 11 {
        0 | 10 | 11 => 1,
        d => d as u8,
    }
}

/// Digits weighted 2, 3, … 9, 2, 3, … from the right, summed.
fn mod11_sum(digits: &str) -> u32 {
    digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| (b - b'0') as u32 * (2 + (i % 8) as u32))
        .sum()
}

fn all_digits(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_digit())
}

/// The 44-digit barcode for an amount due on `due`, identified by `our_number`
/// (the nosso-número complement, up to 10 digits).
pub fn barcode(
    cfg: &BoletoConfig,
    amount_cents: i64,
    due: Date,
    our_number: u64,
) -> Result<String, BoletoError> {
    if !all_digits(&cfg.bank_code, 3)
        || !all_digits(&cfg.agreement, 7)
        || !all_digits(&cfg.wallet, 2)
        || our_number >= 10_000_000_000
    {
        return Err(BoletoError::BadConfig);
    }
    if !(0..=9_999_999_999).contains(&amount_cents) {
        return Err(BoletoError::AmountTooLarge);
    }
    let free = format!("000000{}{our_number:010}{}", cfg.agreement, cfg.wallet);
    let without_dv = format!(
        "{}9{:04}{amount_cents:010}{free}",
        cfg.bank_code,
        due_factor(due)?
    );
    let dv = mod11(&without_dv);
    Ok(format!("{}{dv}{}", &without_dv[..4], &without_dv[4..]))
}

/// The bank's compensation code with its check digit, as printed beside the
/// bank's name on every boleto (`001-9`, `237-2`, `341-7`, `104-0`): modulo 11
/// with weights 2..9 from the right, where 10 and 11 become 0 (unlike the
/// barcode's [`mod11`], which turns them into 1).
pub fn bank_code_with_dv(bank_code: &str) -> Option<String> {
    if !all_digits(bank_code, 3) {
        return None;
    }
    let dv = match 11 - mod11_sum(bank_code) % 11 {
        10 | 11 => 0,
        d => d,
    };
    Some(format!("{bank_code}-{dv}"))
}

/// The 47-digit linha digitável of a 44-digit barcode (digits only).
pub fn linha_digitavel(barcode: &str) -> Option<String> {
    if !all_digits(barcode, 44) {
        return None;
    }
    let free = &barcode[19..44];
    let f1 = format!("{}{}", &barcode[0..4], &free[0..5]);
    let f2 = &free[5..15];
    let f3 = &free[15..25];
    Some(format!(
        "{f1}{}{f2}{}{f3}{}{}{}",
        mod10(&f1),
        mod10(f2),
        mod10(f3),
        &barcode[4..5],
        &barcode[5..19]
    ))
}

/// `00190.00009 01234.567004 00000.000002 1 00000000000000`, as printed.
pub fn format_linha(linha: &str) -> String {
    if linha.len() != 47 {
        return linha.to_string();
    }
    format!(
        "{}.{} {}.{} {}.{} {} {}",
        &linha[0..5],
        &linha[5..10],
        &linha[10..15],
        &linha[15..21],
        &linha[21..26],
        &linha[26..32],
        &linha[32..33],
        &linha[33..47]
    )
}

/// Interleaved 2 of 5 bars for a barcode: `true` = wide, alternating bar and
/// space starting with a bar, framed by the start (narrow ×4) and stop
/// (wide, narrow, narrow) patterns.
pub fn itf_pattern(digits: &str) -> Option<Vec<bool>> {
    const CODES: [[bool; 5]; 10] = {
        let (n, w) = (false, true);
        [
            [n, n, w, w, n],
            [w, n, n, n, w],
            [n, w, n, n, w],
            [w, w, n, n, n],
            [n, n, w, n, w],
            [w, n, w, n, n],
            [n, w, w, n, n],
            [n, n, n, w, w],
            [w, n, n, w, n],
            [n, w, n, w, n],
        ]
    };
    if digits.len() % 2 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut out = vec![false; 4];
    for pair in digits.as_bytes().chunks(2) {
        let (bars, spaces) = (
            CODES[(pair[0] - b'0') as usize],
            CODES[(pair[1] - b'0') as usize],
        );
        for i in 0..5 {
            out.push(bars[i]);
            out.push(spaces[i]);
        }
    }
    out.extend([true, false, false]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        Date::parse_iso(s).unwrap()
    }

    #[test]
    fn due_factor_in_both_cycles() {
        assert_eq!(due_factor(d("2000-07-03")), Ok(1000));
        assert_eq!(due_factor(d("2000-07-04")), Ok(1001));
        assert_eq!(due_factor(d("2025-02-21")), Ok(9999));
        // FEBRABAN's reset: the day after 9999 is 1000 again.
        assert_eq!(due_factor(d("2025-02-22")), Ok(1000));
        assert_eq!(due_factor(d("2025-02-23")), Ok(1001));
        assert_eq!(
            due_factor(d("2000-07-02")),
            Err(BoletoError::DueDateOutOfRange)
        );
    }

    #[test]
    fn reproduces_a_published_banco_do_brasil_boleto() {
        // A Banco do Brasil example widely used to check implementations:
        // barcode 00193373700000001000500940144816060680935031,
        // linha 00190.50095 40144.816069 06809.350314 3 37370000000100.
        let barcode = "00193373700000001000500940144816060680935031";
        let without_dv = format!("{}{}", &barcode[..4], &barcode[5..]);
        assert_eq!(mod11(&without_dv), 3);
        let linha = linha_digitavel(barcode).unwrap();
        assert_eq!(
            format_linha(&linha),
            "00190.50095 40144.816069 06809.350314 3 37370000000100"
        );
        assert_eq!(mod10("001905009"), 5);
    }

    #[test]
    fn bank_codes_get_the_check_digit_banks_print() {
        // As printed on real boletos of these banks.
        for (code, printed) in [
            ("001", "001-9"),
            ("237", "237-2"),
            ("341", "341-7"),
            ("104", "104-0"),
            ("033", "033-7"),
            ("756", "756-0"),
        ] {
            assert_eq!(bank_code_with_dv(code).as_deref(), Some(printed), "{code}");
        }
        assert_eq!(bank_code_with_dv("01"), None);
        assert_eq!(bank_code_with_dv("0a1"), None);
    }

    #[test]
    fn builds_barcode_and_linha_that_agree() {
        let cfg = BoletoConfig {
            bank_code: "001".into(),
            agreement: "1234567".into(),
            wallet: "17".into(),
        };
        let code = barcode(&cfg, 3334, d("2026-12-10"), 42).unwrap();
        assert_eq!(code.len(), 44);
        assert_eq!(&code[0..4], "0019");
        assert_eq!(
            &code[5..9],
            format!("{:04}", due_factor(d("2026-12-10")).unwrap())
        );
        assert_eq!(&code[9..19], "0000003334");
        assert_eq!(&code[19..44], "0000001234567000000004217");
        let linha = linha_digitavel(&code).unwrap();
        assert_eq!(linha.len(), 47);
        assert_eq!(
            &linha[32..33],
            &code[4..5],
            "general check digit carried over"
        );
        assert_eq!(itf_pattern(&code).unwrap().len(), 4 + 44 * 5 + 3);
        assert_eq!(
            barcode(&cfg, 10_000_000_000, d("2026-12-10"), 1),
            Err(BoletoError::AmountTooLarge)
        );
        let bad = BoletoConfig {
            bank_code: "1".into(),
            ..cfg
        };
        assert_eq!(
            barcode(&bad, 100, d("2026-12-10"), 1),
            Err(BoletoError::BadConfig)
        );
    }
}

/// The barcode as an SVG of Interleaved 2 of 5 bars (narrow 1 unit, wide 3),
/// with quiet zones, scalable to the printed size.
pub fn itf_svg(digits: &str) -> Option<String> {
    let pattern = itf_pattern(digits)?;
    let (quiet, height) = (10u32, 50u32);
    let mut x = quiet;
    let mut bars = String::new();
    for (i, wide) in pattern.iter().enumerate() {
        let w = if *wide { 3 } else { 1 };
        if i % 2 == 0 {
            bars.push_str(&format!(
                "<rect x=\"{x}\" y=\"0\" width=\"{w}\" height=\"{height}\"/>"
            ));
        }
        x += w;
    }
    let width = x + quiet;
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{digits}\" preserveAspectRatio=\"none\"><rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/><g fill=\"#000\">{bars}</g></svg>"
    ))
}

#[cfg(test)]
mod svg_tests {
    #[test]
    fn draws_one_rect_per_bar() {
        let svg = super::itf_svg("0019").unwrap();
        // start (2 bars) + 2 pairs × 5 bars + stop (2 bars).
        assert_eq!(svg.matches("<rect x=").count(), 14);
        assert!(super::itf_svg("123").is_none(), "odd digit count");
    }
}
