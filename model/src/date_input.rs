//! The date rules that answer with a field's message: a date typed in the form's language
//! ([`Date::parse_for`]) and a new charge's due date not in the past ([`check_not_past`]).
//! Apart from `date.rs`, the type, whose values the messages (`errors.rs`) show.

use crate::date::Date;
use crate::errors::{Msg, Violations};
use crate::Lang;

impl Date {
    /// A date field as the form's language writes it: pt-BR `dd/mm/aaaa`
    /// (the ISO form a calendar picker gives is accepted too, it cannot be
    /// mistaken), English ISO `yyyy-mm-dd` only (a slashed date would be read
    /// day-first by some and month-first by others).
    pub fn parse_for(lang: Lang, s: &str) -> Result<Date, Msg> {
        let s = s.trim();
        let parsed = match lang {
            Lang::PtBr => Date::parse_br(s).or_else(|| Date::parse_iso(s)),
            Lang::En => Date::parse_iso(s),
        };
        parsed.ok_or(Msg::DateInput)
    }
}

/// The rule for a new charge's due date: not before today in Brasília (a
/// charge due yesterday is late the moment it is created). `path` is the
/// field's API path (`dueDate`), so the error lands on that field.
pub fn check_not_past(path: &str, date: Date, today: Date) -> Result<(), Violations> {
    if date < today {
        let mut v = Violations::default();
        v.add(path, Msg::DateInPast);
        Err(v)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::brasilia_today_from_millis;

    fn d(y: i32, m: u8, day: u8) -> Date {
        Date::new(y, m, day).unwrap()
    }

    #[test]
    fn pt_br_reads_day_first_and_english_reads_iso() {
        let dec2 = d(2026, 12, 2);
        for (lang, input, want) in [
            (Lang::PtBr, "02/12/2026", Some(dec2)),
            (Lang::PtBr, "2/12/2026", Some(dec2)),
            (Lang::PtBr, " 02/12/2026 ", Some(dec2)),
            (Lang::PtBr, "2026-12-02", Some(dec2)),
            (Lang::PtBr, "29/02/2028", Some(d(2028, 2, 29))),
            (Lang::PtBr, "29/02/2027", None),
            (Lang::PtBr, "31/04/2026", None),
            (Lang::PtBr, "12/31/2026", None),
            (Lang::PtBr, "02/12/26", None),
            (Lang::PtBr, "02/12/20266", None),
            (Lang::PtBr, "02-12-2026", None),
            (Lang::PtBr, "02/12/2026/1", None),
            (Lang::PtBr, "0a/12/2026", None),
            (Lang::PtBr, "//", None),
            (Lang::PtBr, "", None),
            (Lang::En, "2026-12-02", Some(dec2)),
            (Lang::En, "02/12/2026", None),
            (Lang::En, "12/02/2026", None),
            (Lang::En, "2026-02-30", None),
        ] {
            let got = Date::parse_for(lang, input);
            match want {
                Some(date) => assert_eq!(got, Ok(date), "{lang:?} {input}"),
                None => assert_eq!(got, Err(Msg::DateInput), "{lang:?} {input}"),
            }
        }
        assert_eq!(dec2.format_for(Lang::PtBr), "02/12/2026");
        assert_eq!(dec2.format_for(Lang::En), "2026-12-02");
        for lang in [Lang::PtBr, Lang::En] {
            assert_eq!(Date::parse_for(lang, &dec2.format_for(lang)), Ok(dec2));
        }
        assert_eq!(
            Msg::DateInput.render(Lang::PtBr),
            "Data inválida: use dd/mm/aaaa."
        );
        assert_eq!(
            Msg::DateInput.render(Lang::En),
            "Invalid date: use yyyy-mm-dd."
        );
    }

    #[test]
    fn a_due_date_before_today_in_brasilia_is_refused_at_its_path() {
        let today = d(2026, 11, 25);
        assert_eq!(check_not_past("dueDate", today, today), Ok(()));
        assert_eq!(check_not_past("dueDate", d(2027, 1, 1), today), Ok(()));
        let err = check_not_past("dueDate", d(2026, 11, 24), today).unwrap_err();
        assert_eq!(err.0, vec![("dueDate".to_string(), Msg::DateInPast)]);
        let rendered = err.render(Lang::PtBr);
        assert_eq!(
            rendered["dueDate"],
            vec!["A data não pode ser anterior a hoje."]
        );
        // 02:30 UTC on the 25th is still the 24th in São Paulo: a charge due on
        // the 24th may still be created then, and not half an hour later.
        let nov25_utc = d(2026, 11, 25).days_since_epoch() * 86_400_000;
        let late_evening = brasilia_today_from_millis(nov25_utc + 2 * 3_600_000 + 1_800_000);
        assert_eq!(late_evening, Some(d(2026, 11, 24)));
        assert!(check_not_past("dueDate", d(2026, 11, 24), late_evening.unwrap()).is_ok());
        let next_morning = brasilia_today_from_millis(nov25_utc + 3 * 3_600_000).unwrap();
        assert!(check_not_past("dueDate", d(2026, 11, 24), next_morning).is_err());
    }
}
