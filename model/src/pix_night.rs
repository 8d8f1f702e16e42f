//! Pix at night: BACEN's rule (Resolução BCB 142/2021) lets a person's bank cap a Pix at
//! R$ 1.000,00 between 20h and 6h, so a payer (a CPF) facing more than that by Pix at night
//! is told before their bank's app refuses it. The one place the window, the threshold and
//! who it applies to are written; the payer page asks it with the server's clock.

use crate::date::BRASILIA_UTC_OFFSET_SECS;

/// The most a person's Pix may be held to at night, in cents (R$ 1.000,00): an amount above
/// it may be refused.
pub const NIGHT_LIMIT_CENTS: i64 = 100_000;

/// The night begins at 20:00 in Brasília...
pub const NIGHT_FROM_HOUR: i64 = 20;
/// ... and ends at 06:00.
pub const NIGHT_UNTIL_HOUR: i64 = 6;

/// Whether Unix time `unix_secs` is in the night window in Brasília (UTC−3 all year): from
/// 20:00:00 to 05:59:59.
pub fn is_night(unix_secs: i64) -> bool {
    let hour = (unix_secs + BRASILIA_UTC_OFFSET_SECS).rem_euclid(86_400) / 3_600;
    !(NIGHT_UNTIL_HOUR..NIGHT_FROM_HOUR).contains(&hour)
}

/// Whether a payer with `payer_document` (bare, as stored) paying `amount_cents` by Pix at
/// `unix_secs` may meet the night limit: a person (CPF; a company's CNPJ has no such cap,
/// and an unknown document is not assumed to be a person's), more than R$ 1.000,00, at night.
pub fn night_limit_applies(
    unix_secs: i64,
    payer_document: Option<&str>,
    amount_cents: i64,
) -> bool {
    amount_cents > NIGHT_LIMIT_CENTS
        && crate::charges::document_is_cpf(payer_document)
        && is_night(unix_secs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::{brasilia_day_start, Date};

    const CPF: Option<&str> = Some("52998224725");
    const CNPJ: Option<&str> = Some("11222333000181");

    /// Unix time of `h:m` in Brasília on 2026-12-02.
    fn at(h: i64, m: i64) -> i64 {
        brasilia_day_start(Date::new(2026, 12, 2).unwrap()) + h * 3_600 + m * 60
    }

    #[test]
    fn the_night_begins_at_20h_and_ends_at_6h_in_brasilia() {
        assert!(!is_night(at(19, 59)));
        assert!(is_night(at(20, 0)));
        assert!(is_night(at(23, 59)));
        assert!(is_night(at(0, 0)));
        assert!(is_night(at(5, 59)));
        assert!(!is_night(at(6, 0)));
        assert!(!is_night(at(14, 0)));
        // 20:00 in Brasília is 23:00 UTC, not 20:00 UTC.
        assert!(!is_night(
            brasilia_day_start(Date::new(2026, 12, 2).unwrap()) - 3 * 3_600 + 20 * 3_600
        ));
    }

    #[test]
    fn only_more_than_r_1000_counts() {
        assert!(!night_limit_applies(at(21, 0), CPF, 100_000));
        assert!(night_limit_applies(at(21, 0), CPF, 100_001));
    }

    #[test]
    fn the_window_bounds_the_notice() {
        assert!(!night_limit_applies(at(19, 59), CPF, 150_000));
        assert!(night_limit_applies(at(20, 0), CPF, 150_000));
        assert!(night_limit_applies(at(5, 59), CPF, 150_000));
        assert!(!night_limit_applies(at(6, 0), CPF, 150_000));
    }

    #[test]
    fn a_company_or_an_unknown_payer_is_not_told() {
        assert!(!night_limit_applies(at(21, 0), CNPJ, 150_000));
        assert!(!night_limit_applies(at(21, 0), None, 150_000));
        // Formatted as typed, a CPF is still a person's.
        assert!(night_limit_applies(
            at(21, 0),
            Some("529.982.247-25"),
            150_000
        ));
    }
}
