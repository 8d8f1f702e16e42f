//! Charges of RECURRING and SUBSCRIPTION invoices. Charge n+1 is created when
//! the period it bills starts, that is on the due date of charge n, until
//! `endDate`, `endInstallment` or an `endSubscription` date ends it. A pass
//! catches up every charge missed while paylink was down; the rows are
//! `store::charges`'s.

use paylink_model::plan::PeriodicEnd;
use paylink_model::{periodic_due, Date, Frequency};

use crate::store::charges::{self as rows, Periodic};
use crate::store::{is_unique_violation, Db, DbError};

/// The charges after charge `last` that are due by `today` (number, due date): charge
/// `last` is due on periodic_due(first, last - 1), and once that day comes the next period
/// starts, unless `ends` stops it.
pub fn due_charges(
    first: Date,
    freq: Frequency,
    ends: &PeriodicEnd,
    mut last: u32,
    today: Date,
) -> Vec<(u32, Date)> {
    let mut due = Vec::new();
    while let (Some(last_due), Some(next_due)) = (
        periodic_due(first, freq, last.saturating_sub(1)),
        periodic_due(first, freq, last),
    ) {
        let next = last + 1;
        if today < last_due || !ends.allows(next, next_due) {
            break;
        }
        due.push((next, next_due));
        last = next;
    }
    due
}

/// The charges of `inv` due by `today`; none when its stored terms do not read.
fn due_of(inv: &Periodic, today: Date) -> Vec<(u32, Date)> {
    let (Some(first), Some(freq)) = (
        Date::parse_iso(&inv.due_date),
        inv.frequency.as_deref().and_then(Frequency::parse),
    ) else {
        return Vec::new();
    };
    // The end of the invoice (model::plan::PeriodicEnd, also Pix Automático's dataFinal).
    let ends = PeriodicEnd::new(
        inv.end_date.as_deref().and_then(Date::parse_iso),
        inv.end_installment.map(|n| n as u32),
        inv.end_subscription.as_deref(),
    );
    due_charges(
        first,
        freq,
        &ends,
        inv.last_number.unwrap_or(0) as u32,
        today,
    )
}

/// Creates every charge that is due by `today`. Returns how many it created.
pub async fn run_once(db: &Db, today: Date) -> Result<usize, DbError> {
    let mut created = 0;
    for inv in rows::periodic_invoices(db).await? {
        for (number, due) in due_of(&inv, today) {
            match rows::create_charge(db, &inv, number, due).await {
                Ok(()) => created += 1,
                // Another server (or pass) created it first: fine, move on.
                Err(e) if is_unique_violation(&e) => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(created)
}
