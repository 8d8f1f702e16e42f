//! Which charge an installment becomes at the bank: a `cobv` (due date, fine, interest and
//! discount, the payer's CPF or CNPJ) while it is not overdue and its customer has a document;
//! otherwise (or for the first cycle of a Pix Automático recurrence) a `cob` payable now, of what
//! it costs today, until that amount stops holding (the
//! charges worker then makes a new one). And whether a charge the bank already holds under the
//! txid is the one paylink asked for.

use paylink_model::charges::{amount_due, amount_holds_until};
use paylink_model::date::{brasilia_date, brasilia_day_start};
use paylink_model::{ChargeTerms, Date};

use super::{Cob, CobV, Devedor};

/// How many calendar days after its due date a `cobv` can still be paid (with fine and interest).
pub const DAYS_AFTER_DUE: u32 = 30;

/// The longest a `cob` is made to last (days): one whose amount nothing changes is made again
/// after a year.
pub const COB_HORIZON_DAYS: i64 = 366;

#[derive(Debug, PartialEq)]
pub enum Charge {
    Due(CobV),
    Now(Cob),
}

/// What paylink knows of an installment, as the charge needs it.
pub struct Installment<'a> {
    pub price_cents: i64,
    pub due: Date,
    /// The invoice's first due date (the discount lasts as long before each one).
    pub first_due: Date,
    pub terms: &'a ChargeTerms,
    pub customer_document: Option<&'a str>,
    pub customer_name: &'a str,
    /// What the payer's app shows beside the charge.
    pub message: &'a str,
    /// A charge payable now whatever its due date: the first cycle of a Pix Automático
    /// recurrence, whose composite code (Jornada 3) pairs the recurrence with a `cob`.
    pub immediate: bool,
}

/// The charge for installment `i` made at Unix time `now` (seconds). A `cob` carries one
/// amount: it lasts until the end (in Brasília) of the last day that amount holds, so a payer
/// never pays yesterday's amount of a charge whose discount ended or whose interest grew.
pub fn charge_for(key: &str, i: &Installment<'_>, now: i64) -> Charge {
    let today = brasilia_date(now).unwrap_or(i.due);
    let devedor = i
        .customer_document
        .and_then(|d| Devedor::new(d, i.customer_name));
    let terms = i.terms.for_due(i.first_due, i.due);
    match devedor {
        Some(devedor) if i.due >= today && !i.immediate => Charge::Due(
            CobV::new(key, i.due, DAYS_AFTER_DUE, devedor, i.price_cents)
                .with_terms(&terms)
                .with_message(i.message),
        ),
        devedor => {
            let total = amount_due(i.price_cents, i.due, today, &terms).total;
            let last = amount_holds_until(i.price_cents, i.due, today, &terms, COB_HORIZON_DAYS)
                .unwrap_or_else(|| today.add_days(COB_HORIZON_DAYS - 1).unwrap_or(today));
            let ends = last.add_days(1).map_or(now, brasilia_day_start);
            let seconds = u32::try_from(ends - now).unwrap_or(1).max(1);
            Charge::Now(Cob::new(key, seconds, devedor, total))
        }
    }
}

/// When a charge stops being payable, as the bank answered it (RFC 3339): a `cob` its
/// `calendario.criacao` plus `expiracao` seconds; a `cobv` at the end (in Brasília) of its
/// `dataDeVencimento` plus `validadeAposVencimento` days. `None` for an answer without them.
pub fn charge_expiry(answer: &serde_json::Value) -> Option<String> {
    use paylink_model::date::{iso_utc_from_millis, millis_from_rfc3339};
    let calendario = &answer["calendario"];
    let millis = match calendario["dataDeVencimento"].as_str() {
        Some(due) => {
            let days = calendario["validadeAposVencimento"].as_i64()?;
            let last = Date::parse_iso(due)?.add_days(days + 1)?;
            brasilia_day_start(last) * 1000
        }
        None => {
            let made = millis_from_rfc3339(calendario["criacao"].as_str()?)?;
            made + calendario["expiracao"].as_i64()? * 1000
        }
    };
    Some(iso_utc_from_millis(millis))
}

/// What differs between the charge paylink asked for (`sent`, its request body) and the one the
/// bank holds under the same txid (`found`, as `GET /cobv|/cob/{txid}` answers it), each as
/// `field: bank's ≠ paylink's`. Only what the payer pays and who owes it count (the amount, the
/// due date, the payer's document, the key): a bank fills in or rewrites the rest (its
/// `calendario.criacao`, `recebedor`, a message it trimmed). Empty: the bank's charge is paylink's.
pub fn differences(sent: &serde_json::Value, found: &serde_json::Value) -> Vec<String> {
    use serde_json::Value;
    let text = |v: &Value, path: &[&str]| {
        path.iter()
            .fold(v, |v, k| &v[*k])
            .as_str()
            .map(str::to_string)
    };
    let mut out = Vec::new();
    let mut compare = |path: &[&str], same: &dyn Fn(&str, &str) -> bool| {
        let (ours, theirs) = (text(sent, path), text(found, path));
        let Some(ours) = ours else { return };
        if !theirs.as_deref().is_some_and(|t| same(t, &ours)) {
            out.push(format!(
                "{}: {} ≠ {ours}",
                path.join("."),
                theirs.as_deref().unwrap_or("—")
            ));
        }
    };
    let exact = |a: &str, b: &str| a == b;
    // In cents when both read as the document writes amounts; otherwise as written.
    let amount = |a: &str, b: &str| match (super::cents_of(a), super::cents_of(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    };
    compare(&["valor", "original"], &amount);
    compare(&["calendario", "dataDeVencimento"], &exact);
    compare(&["devedor", "cpf"], &exact);
    compare(&["devedor", "cnpj"], &exact);
    compare(&["chave"], &exact);
    out
}
