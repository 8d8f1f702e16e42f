//! The installment plan: one pure function shared by the widget's preview and
//! the server's result, so both always show the same cents and dates.

use crate::date::Date;

pub const MAX_INSTALLMENTS: u32 = 120;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedInstallment {
    /// 1-based sequence number.
    pub number: u32,
    pub price_cents: i64,
    pub due_date: Date,
}

/// Splits `price_cents` into `count` installments that sum to it exactly:
/// the leftover cents of the division go one each to the first installments
/// (R$ 100,00 in 3 = 33,34 + 33,33 + 33,33). Installment `n` is due `n - 1`
/// months after `first_due`, counted from `first_due` itself and clamped to
/// the month's end (Jan 31 → Feb 28 → Mar 31). An empty plan for `count` 0 or
/// a date past year 9999.
pub fn installment_plan(price_cents: i64, count: u32, first_due: Date) -> Vec<PlannedInstallment> {
    if count == 0 || price_cents < 0 {
        return Vec::new();
    }
    let base = price_cents / count as i64;
    let extra = price_cents % count as i64;
    let mut plan = Vec::with_capacity(count as usize);
    for i in 0..count {
        let Some(due_date) = first_due.add_months(i) else {
            return Vec::new();
        };
        plan.push(PlannedInstallment {
            number: i + 1,
            price_cents: base + i64::from((i as i64) < extra),
            due_date,
        });
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        Date::parse_iso(s).unwrap()
    }

    #[test]
    fn splits_leftover_cents_onto_the_first_installments() {
        let plan = installment_plan(10000, 3, d("2026-01-31"));
        let cents: Vec<i64> = plan.iter().map(|p| p.price_cents).collect();
        assert_eq!(cents, [3334, 3333, 3333]);
        let dates: Vec<String> = plan.iter().map(|p| p.due_date.to_string()).collect();
        assert_eq!(dates, ["2026-01-31", "2026-02-28", "2026-03-31"]);
        assert_eq!(plan.iter().map(|p| p.number).collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn single_installment_is_the_whole_price() {
        let plan = installment_plan(12345, 1, d("2026-12-10"));
        assert_eq!(
            plan,
            [PlannedInstallment {
                number: 1,
                price_cents: 12345,
                due_date: d("2026-12-10")
            }]
        );
    }

    #[test]
    fn zero_count_is_an_empty_plan() {
        assert!(installment_plan(1000, 0, d("2026-12-10")).is_empty());
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn sums_exact_and_dates_increase(
                price in 0i64..=crate::money::MAX_CENTS,
                count in 1u32..=MAX_INSTALLMENTS,
                days in 0i64..(365 * 200),
            ) {
                let first = Date::from_days_since_epoch(days).unwrap();
                let plan = installment_plan(price, count, first);
                prop_assert_eq!(plan.len(), count as usize);
                prop_assert_eq!(plan.iter().map(|p| p.price_cents).sum::<i64>(), price);
                prop_assert_eq!(plan[0].due_date, first);
                for w in plan.windows(2) {
                    prop_assert!(w[0].due_date < w[1].due_date);
                    // Never more than one cent apart, earlier ones never smaller.
                    prop_assert!(w[0].price_cents - w[1].price_cents <= 1);
                    prop_assert!(w[0].price_cents >= w[1].price_cents);
                    prop_assert_eq!(w[1].number, w[0].number + 1);
                }
                for (i, p) in plan.iter().enumerate() {
                    // Month i after the first, on the same day or the month's last day.
                    let months = (p.due_date.year() - first.year()) * 12 + p.due_date.month() as i32 - first.month() as i32;
                    prop_assert_eq!(months, i as i32);
                    prop_assert!(p.due_date.day() == first.day()
                        || p.due_date.day() == crate::date::days_in_month(p.due_date.year(), p.due_date.month()));
                }
            }
        }
    }
}

/// Due date of charge `index` (0-based) of a RECURRING or SUBSCRIPTION
/// invoice: WEEKLY every 7 days, FORTWEEKLY every 14, MONTHLY, BIMONTHLY,
/// QUARTERLY, SEMESTER and YEARLY every 1, 2, 3, 6 and 12 months, counted
/// from the first due date and clamped to the month's end (like the plan).
pub fn periodic_due(first: Date, frequency: crate::Frequency, index: u32) -> Option<Date> {
    use crate::Frequency::*;
    match frequency {
        Weekly => first.add_days(7 * index as i64),
        Fortweekly => first.add_days(14 * index as i64),
        Monthly => first.add_months(index),
        Bimonthly => first.add_months(2 * index),
        Quarterly => first.add_months(3 * index),
        Semester => first.add_months(6 * index),
        Yearly => first.add_months(12 * index),
    }
}

#[cfg(test)]
mod periodic_tests {
    use super::*;
    use crate::Frequency;

    #[test]
    fn every_frequency_steps_from_the_first_due_date() {
        let first = Date::parse_iso("2026-01-31").unwrap();
        let due = |f, i| periodic_due(first, f, i).unwrap().to_string();
        assert_eq!(due(Frequency::Weekly, 1), "2026-02-07");
        assert_eq!(due(Frequency::Fortweekly, 2), "2026-02-28");
        assert_eq!(due(Frequency::Monthly, 1), "2026-02-28");
        assert_eq!(due(Frequency::Monthly, 2), "2026-03-31");
        assert_eq!(due(Frequency::Bimonthly, 2), "2026-05-31");
        assert_eq!(due(Frequency::Quarterly, 1), "2026-04-30");
        assert_eq!(due(Frequency::Semester, 1), "2026-07-31");
        assert_eq!(due(Frequency::Yearly, 1), "2027-01-31");
        assert_eq!(due(Frequency::Monthly, 0), "2026-01-31");
    }
}

/// What ends a RECURRING or SUBSCRIPTION invoice: the number of its last charge
/// (`endInstallment`) and/or the date after which no charge is due (`endDate`, else an
/// `endSubscription` that is an ISO date). The scheduler creates charge `n` only while
/// [`PeriodicEnd::allows`] it, and Pix Automático's `dataFinal` is [`PeriodicEnd::last_due`]:
/// one rule for both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeriodicEnd {
    pub installment: Option<u32>,
    pub date: Option<Date>,
}

impl PeriodicEnd {
    pub fn new(
        end_date: Option<Date>,
        end_installment: Option<u32>,
        end_subscription: Option<&str>,
    ) -> PeriodicEnd {
        PeriodicEnd {
            installment: end_installment,
            date: end_date.or_else(|| end_subscription.and_then(|s| Date::parse_iso(s.trim()))),
        }
    }

    /// Whether charge `number` (1-based), due on `due`, is within the end. The first charge
    /// always is (it is the invoice's own).
    pub fn allows(&self, number: u32, due: Date) -> bool {
        number <= 1
            || (self.installment.is_none_or(|n| number <= n) && self.date.is_none_or(|d| due <= d))
    }

    /// The due date of the last charge this end allows, `None` when nothing ends the invoice
    /// (or `endInstallment` is 0, which the request rules refuse).
    pub fn last_due(&self, first: Date, frequency: crate::Frequency) -> Option<Date> {
        if self.installment == Some(0) {
            return None;
        }
        let by_number = self
            .installment
            .and_then(|n| periodic_due(first, frequency, n - 1));
        let by_date = self.date.map(|end| {
            if end <= first {
                return first;
            }
            // Dates grow with the index and are at least 7 days apart: the last index due on or
            // before `end` is below this bound, found by bisection.
            let (mut lo, mut hi) = (
                0u32,
                (end.days_since_epoch() - first.days_since_epoch()) as u32 / 7 + 1,
            );
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                match periodic_due(first, frequency, mid) {
                    Some(d) if d <= end => lo = mid,
                    _ => hi = mid - 1,
                }
            }
            periodic_due(first, frequency, lo).unwrap_or(first)
        });
        match (by_number, by_date) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod end_props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The last due date is one the end allows, and the charge after it is not: Pix
        /// Automático's dataFinal and the scheduler never disagree.
        #[test]
        fn the_last_due_is_the_last_charge_the_end_allows(
            f in 0usize..7,
            first in 0i64..(365 * 100),
            end_in in proptest::option::of(0i64..(365 * 20)),
            n in proptest::option::of(1u32..200),
        ) {
            let freq = crate::Frequency::ALL[f];
            let first = Date::from_days_since_epoch(first).unwrap();
            let end = PeriodicEnd {
                installment: n,
                date: end_in.map(|d| first.add_days(d - 30).unwrap()),
            };
            let last = end.last_due(first, freq);
            prop_assert_eq!(last.is_none(), n.is_none() && end_in.is_none());
            if let Some(last) = last {
                let i = (0..).find(|&i| periodic_due(first, freq, i).unwrap() == last).unwrap();
                prop_assert!(end.allows(i + 1, last));
                let next = periodic_due(first, freq, i + 1).unwrap();
                prop_assert!(!end.allows(i + 2, next));
            }
        }
    }
}
