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
