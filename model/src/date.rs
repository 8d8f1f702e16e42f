//! Calendar dates and UTC timestamps without a date library: the widget ships
//! this code to browsers, so it stays small, and both sides compute the same dates.

use core::fmt;

use crate::Lang;

/// A civil date (proleptic Gregorian), as the spec's `YYYY-MM-DD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u8,
    day: u8,
}

pub fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

pub fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(year) => 29,
        _ => 28,
    }
}

impl Date {
    pub fn new(year: i32, month: u8, day: u8) -> Option<Date> {
        if !(1..=9999).contains(&year) || !(1..=12).contains(&month) {
            return None;
        }
        if day == 0 || day > days_in_month(year, month) {
            return None;
        }
        Some(Date { year, month, day })
    }

    pub fn year(self) -> i32 {
        self.year
    }
    pub fn month(self) -> u8 {
        self.month
    }
    pub fn day(self) -> u8 {
        self.day
    }

    /// Strict ISO `YYYY-MM-DD` (what `<input type="date">` produces).
    pub fn parse_iso(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let num = |r: core::ops::Range<usize>| -> Option<u32> {
            let mut v = 0u32;
            for &c in &b[r] {
                if !c.is_ascii_digit() {
                    return None;
                }
                v = v * 10 + (c - b'0') as u32;
            }
            Some(v)
        };
        Date::new(num(0..4)? as i32, num(5..7)? as u8, num(8..10)? as u8)
    }

    /// The date part of an ISO date or date-time (`2026-12-10T00:00:00.000Z`).
    pub fn parse_iso_prefix(s: &str) -> Option<Date> {
        s.get(..10).and_then(Date::parse_iso)
    }

    /// Same day `months` later, clamped to the end of a shorter month
    /// (Jan 31 + 1 month = Feb 28/29).
    pub fn add_months(self, months: u32) -> Option<Date> {
        let total = self.year as i64 * 12 + (self.month as i64 - 1) + months as i64;
        let year = (total / 12) as i32;
        let month = (total % 12) as u8 + 1;
        if year > 9999 {
            return None;
        }
        let day = self.day.min(days_in_month(year, month));
        Date::new(year, month, day)
    }

    pub fn add_days(self, days: i64) -> Option<Date> {
        Date::from_days_since_epoch(self.days_since_epoch() + days)
    }

    /// Days since 1970-01-01 (H. Hinnant's days_from_civil).
    pub fn days_since_epoch(self) -> i64 {
        let y = self.year as i64 - if self.month <= 2 { 1 } else { 0 };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = self.month as i64;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + self.day as i64 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146097 + doe - 719468
    }

    pub fn from_days_since_epoch(z: i64) -> Option<Date> {
        let z = z + 719468;
        let era = z.div_euclid(146097);
        let doe = z - era * 146097;
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
        Date::new(i32::try_from(y).ok()?, m, d)
    }

    /// `dd/mm/aaaa`, as Brazilians write dates.
    pub fn format_br(self) -> String {
        format!("{:02}/{:02}/{:04}", self.day, self.month, self.year)
    }

    /// `dd/mm/aaaa` as Brazilians type it; day and month may have one digit
    /// (`2/12/2026`), the year has four. Only real dates.
    pub fn parse_br(s: &str) -> Option<Date> {
        let mut parts = s.trim().split('/');
        let (d, m, y) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let num = |t: &str, lens: core::ops::RangeInclusive<usize>| -> Option<u32> {
            (lens.contains(&t.len()) && t.bytes().all(|c| c.is_ascii_digit()))
                .then(|| t.parse().ok())
                .flatten()
        };
        Date::new(
            num(y, 4..=4)? as i32,
            num(m, 1..=2)? as u8,
            num(d, 1..=2)? as u8,
        )
    }

    /// The date as the form's language shows it: `02/12/2026` or `2026-12-02`.
    pub fn format_for(self, lang: Lang) -> String {
        match lang {
            Lang::PtBr => self.format_br(),
            Lang::En => self.to_string(),
        }
    }

    /// The spec's date-time form of a due date: midnight UTC.
    pub fn to_iso_midnight_utc(self) -> String {
        format!("{self}{MIDNIGHT_UTC_TIME}")
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// The time part of [`Date::to_iso_midnight_utc`].
pub const MIDNIGHT_UTC_TIME: &str = "T00:00:00.000Z";

/// Brasília's offset from UTC: −03:00 all year (Brazil has had no daylight saving
/// time since 2019).
pub const BRASILIA_UTC_OFFSET_SECS: i64 = -3 * 3600;

/// The calendar date in Brasília at Unix time `unix_secs`: the date boletos and PIX
/// charges are due by, so a payment link opened at 22:00 in São Paulo counts its
/// days from that evening's date, not from the next day's in UTC.
pub fn brasilia_date(unix_secs: i64) -> Option<Date> {
    Date::from_days_since_epoch((unix_secs + BRASILIA_UTC_OFFSET_SECS).div_euclid(86_400))
}

/// The Unix time (seconds) at which `date` begins in Brasília (00:00, UTC−3):
/// when a charge that holds until the day before stops being payable.
pub fn brasilia_day_start(date: Date) -> i64 {
    date.days_since_epoch() * 86_400 - BRASILIA_UTC_OFFSET_SECS
}

/// Today in Brasília from Unix milliseconds (what `Date.now()` and the
/// server's clock give): the "today" due dates are compared with.
pub fn brasilia_today_from_millis(ms: i64) -> Option<Date> {
    brasilia_date(ms.div_euclid(1000))
}

/// The day a stored stamp means to a person, in Brasília: the one way every
/// date printed for people is made (the boleto PDF's dates, the CSV export,
/// messages, the command line), so a charge made at 21:45 in Brasília
/// (00:45 UTC the next day) is of that evening's date everywhere. A day
/// (`2026-12-01`, or a day stored at midnight UTC as
/// [`Date::to_iso_midnight_utc`] writes it: due dates, a boleto's retorno, a
/// payment recorded by hand) is that day as it is; any other stamp is an
/// instant, on its date in Brasília. An instant of exactly 00:00:00.000 UTC
/// cannot be told from a day: it reads as its UTC date (one millisecond a
/// day; nothing stored says which it was).
pub fn brasilia_day(stamp: &str) -> Option<Date> {
    if stamp.len() == 10 || stamp.get(10..) == Some(MIDNIGHT_UTC_TIME) {
        return Date::parse_iso_prefix(stamp);
    }
    brasilia_today_from_millis(millis_from_rfc3339(stamp)?)
}

/// An instant (`2026-11-28T12:03:00.000Z`) as a person in Brasília reads it: its date in
/// the language's form and the time, `28/11/2026 09:03`; the stamp itself when it is
/// not one.
pub fn format_instant_brasilia(stamp: &str, lang: Lang) -> String {
    let Some(ms) = millis_from_rfc3339(stamp) else {
        return stamp.to_string();
    };
    let local = ms.div_euclid(1000) + BRASILIA_UTC_OFFSET_SECS;
    let Some(day) = Date::from_days_since_epoch(local.div_euclid(86_400)) else {
        return stamp.to_string();
    };
    let minutes = local.rem_euclid(86_400) / 60;
    format!(
        "{} {:02}:{:02}",
        day.format_for(lang),
        minutes / 60,
        minutes % 60
    )
}

/// The typing mask of a pt-BR date field: `dd/mm/aaaa`, each slash
/// appearing once the part before it is complete.
pub fn mask_date_br(input: &str) -> String {
    let mut out = String::new();
    for (i, c) in input
        .chars()
        .filter(char::is_ascii_digit)
        .take(8)
        .enumerate()
    {
        if i == 2 || i == 4 {
            out.push('/');
        }
        out.push(c);
    }
    out
}

/// ISO 8601 UTC with milliseconds (`2026-11-23T03:30:18.123Z`) from Unix milliseconds.
pub fn iso_utc_from_millis(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let date = Date::from_days_since_epoch(days).unwrap_or(Date {
        year: 1970,
        month: 1,
        day: 1,
    });
    let (h, m, s, milli) = (
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000,
    );
    format!("{date}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

/// Unix milliseconds of an RFC 3339 date-time (`2027-01-10T09:00:00-03:00`,
/// `2027-01-10T12:00:00.5Z`; fractions past milliseconds are cut), `None`
/// for anything else. Times from others (a bank's `horario`) are stored as
/// [`iso_utc_from_millis`] writes them, so that every stored instant reads
/// alike whatever offset its sender used.
pub fn millis_from_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 || !matches!(b[10], b'T' | b't') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let date = Date::parse_iso(s.get(..10)?)?;
    let two = |at: usize| s.get(at..at + 2).and_then(num_of);
    let (h, m, sec) = (two(11)?, two(14)?, two(17)?);
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let mut rest = &s[19..];
    let mut milli = 0;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let first3 = format!("{:0<3}", &frac[..digits.min(3)]);
        milli = first3.parse::<i64>().ok()?;
        rest = &frac[digits..];
    }
    let offset_min = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            if rest.len() != 6 || rest.as_bytes()[3] != b':' {
                return None;
            }
            let (oh, om) = (num_of(&rest[1..3])?, num_of(&rest[4..6])?);
            if oh > 23 || om > 59 {
                return None;
            }
            sign * (oh * 60 + om)
        }
    };
    let local = date.days_since_epoch() * 86_400_000 + ((h * 60 + m) * 60 + sec) * 1000 + milli;
    Some(local - offset_min * 60_000)
}

/// Two ASCII digits.
fn num_of(s: &str) -> Option<i64> {
    (s.len() == 2 && s.bytes().all(|c| c.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The boleto of issue 30: made at 21:45 in Brasília (00:45 UTC the next
    /// day), its document date is that evening's, not the next day's.
    #[test]
    fn a_stamp_is_printed_as_its_day_in_brasilia() {
        let day = |s: &str| brasilia_day(s).map(|d| d.to_string());
        let is = |s: &str| Some(s.to_string());
        assert_eq!(day("2026-11-27T00:45:00.000Z"), is("2026-11-26"));
        assert_eq!(day("2026-11-26T21:45:00-03:00"), is("2026-11-26"));
        // Brasília's day turns at 03:00 UTC, across months and years.
        assert_eq!(day("2026-12-01T01:30:00.000Z"), is("2026-11-30"));
        assert_eq!(day("2026-12-01T02:59:59.999Z"), is("2026-11-30"));
        assert_eq!(day("2026-12-01T03:00:00.000Z"), is("2026-12-01"));
        assert_eq!(day("2027-01-01T00:00:01.000Z"), is("2026-12-31"));
        assert_eq!(day("2026-11-30T23:59:00.000Z"), is("2026-11-30"));
        // Days (a due date, a day-only payment) are their day, not shifted.
        assert_eq!(day("2026-12-01T00:00:00.000Z"), is("2026-12-01"));
        assert_eq!(day("2026-12-01"), is("2026-12-01"));
        let first = Date::parse_iso("2027-01-01").unwrap();
        assert_eq!(day(&first.to_iso_midnight_utc()), is("2027-01-01"));
        for bad in [
            "",
            "2026-12-1",
            "2026-12-01 01:30",
            "2026-12-01Tx",
            "2026-13-01",
        ] {
            assert_eq!(day(bad), None, "{bad}");
        }
    }

    #[test]
    fn rfc3339_times_read_as_the_same_instant_whatever_their_offset() {
        let utc = millis_from_rfc3339("2027-01-10T12:00:00.000Z").unwrap();
        assert_eq!(iso_utc_from_millis(utc), "2027-01-10T12:00:00.000Z");
        assert_eq!(millis_from_rfc3339("2027-01-10T09:00:00-03:00"), Some(utc));
        assert_eq!(millis_from_rfc3339("2027-01-10T12:00:00Z"), Some(utc));
        assert_eq!(millis_from_rfc3339("2027-01-10T14:30:00+02:30"), Some(utc));
        // Just past midnight in Brasília is the next UTC day's 03:00.
        assert_eq!(
            millis_from_rfc3339("2026-12-01T00:10:00.25-03:00").map(iso_utc_from_millis),
            Some("2026-12-01T03:10:00.250Z".into())
        );
        // Nanoseconds are cut to milliseconds.
        assert_eq!(
            millis_from_rfc3339("2027-01-10T12:00:00.123456789Z").map(iso_utc_from_millis),
            Some("2027-01-10T12:00:00.123Z".into())
        );
        for bad in [
            "",
            "2027-01-10",
            "2027-01-10 12:00:00Z",
            "2027-01-10T12:00:00",
            "2027-01-10T24:00:00Z",
            "2027-02-30T12:00:00Z",
            "2027-01-10T12:00:00.Z",
            "2027-01-10T12:00:00+0300",
            "2027-01-10T12:00:00+03",
            "2027-01-10T12:00:00-3:00",
            "2027-01-10T12:00:00ZZ",
            "2027-01-10T1a:00:00Z",
        ] {
            assert_eq!(millis_from_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn parses_only_real_iso_dates() {
        assert_eq!(Date::parse_iso("2026-02-28"), Date::new(2026, 2, 28));
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "26-01-01",
            "2026/01/01",
            "2026-1-01",
            "",
            "2026-01-01T00:00:00Z",
        ] {
            assert_eq!(Date::parse_iso(bad), None, "{bad}");
        }
        assert!(Date::parse_iso("2028-02-29").is_some());
    }

    #[test]
    fn month_arithmetic_clamps_to_month_end() {
        let d = Date::new(2026, 1, 31).unwrap();
        assert_eq!(d.add_months(1).unwrap().to_string(), "2026-02-28");
        assert_eq!(d.add_months(2).unwrap().to_string(), "2026-03-31");
        assert_eq!(d.add_months(13).unwrap().to_string(), "2027-02-28");
        assert_eq!(
            Date::new(2027, 12, 31)
                .unwrap()
                .add_months(2)
                .unwrap()
                .to_string(),
            "2028-02-29"
        );
    }

    #[test]
    fn epoch_days_round_trip() {
        assert_eq!(Date::new(1970, 1, 1).unwrap().days_since_epoch(), 0);
        assert_eq!(Date::new(2000, 3, 1).unwrap().days_since_epoch(), 11017);
        for z in (-1000..30000).step_by(7) {
            assert_eq!(
                Date::from_days_since_epoch(z).unwrap().days_since_epoch(),
                z
            );
        }
    }

    #[test]
    fn the_brasilia_date_turns_at_three_utc() {
        // 2026-11-24T02:59:59Z is 23:59:59 on the 23rd in São Paulo.
        let at = |iso_secs: i64| brasilia_date(iso_secs).unwrap().to_string();
        let nov24 = Date::new(2026, 11, 24).unwrap().days_since_epoch() * 86_400;
        assert_eq!(at(nov24 + 3 * 3600 - 1), "2026-11-23");
        assert_eq!(at(nov24 + 3 * 3600), "2026-11-24");
        assert_eq!(at(nov24), "2026-11-23");
        // New Year's Eve at 22:00 in Brasília is already 2027 in UTC.
        let jan1 = Date::new(2027, 1, 1).unwrap().days_since_epoch() * 86_400;
        assert_eq!(at(jan1 + 3600), "2026-12-31");
        assert_eq!(at(0), "1969-12-31");
        // And a Brasília day starts at 03:00 UTC.
        let day = Date::new(2026, 11, 24).unwrap();
        assert_eq!(brasilia_day_start(day), nov24 + 3 * 3600);
        assert_eq!(at(brasilia_day_start(day)), "2026-11-24");
        assert_eq!(at(brasilia_day_start(day) - 1), "2026-11-23");
    }

    #[test]
    fn timestamps_are_iso_utc() {
        assert_eq!(iso_utc_from_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            iso_utc_from_millis(1_795_318_218_123),
            "2026-11-22T03:30:18.123Z"
        );
        assert_eq!(Date::new(2026, 12, 10).unwrap().format_br(), "10/12/2026");
    }
}

#[cfg(test)]
mod form_tests {
    use super::*;

    #[test]
    fn the_date_mask_adds_slashes_as_parts_complete() {
        for (typed, shown) in [
            ("", ""),
            ("0", "0"),
            ("02", "02"),
            ("021", "02/1"),
            ("0212", "02/12"),
            ("02122", "02/12/2"),
            ("02122026", "02/12/2026"),
            ("021220261", "02/12/2026"),
            ("02/12/2026", "02/12/2026"),
            ("02/1", "02/1"),
            ("ab02x12", "02/12"),
        ] {
            assert_eq!(mask_date_br(typed), shown, "{typed}");
        }
    }

    #[test]
    fn an_instant_reads_in_brasilia_time() {
        assert_eq!(
            format_instant_brasilia("2026-11-28T12:03:00.000Z", Lang::PtBr),
            "28/11/2026 09:03"
        );
        assert_eq!(
            format_instant_brasilia("2026-11-28T01:30:00.000Z", Lang::PtBr),
            "27/11/2026 22:30"
        );
        assert_eq!(format_instant_brasilia("nonsense", Lang::En), "nonsense");
    }
}
