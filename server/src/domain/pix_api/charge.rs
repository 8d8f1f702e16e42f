//! Which charge an installment becomes at the bank: a `cobv` (due date, fine, interest and
//! discount, the payer's CPF or CNPJ) while it is not overdue and its customer has a document;
//! otherwise a `cob` payable now, of what it costs today. And whether a charge the bank already
//! holds under the txid is the one paylink asked for.

use paylink_model::charges::amount_due;
use paylink_model::{ChargeTerms, Date};

use super::{Cob, CobV, Devedor};

/// How many calendar days after its due date a `cobv` can still be paid (with fine and interest).
pub const DAYS_AFTER_DUE: u32 = 30;

/// How long a `cob` can be paid (seconds).
pub const COB_EXPIRATION: u32 = 86_400;

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
}

pub fn charge_for(key: &str, i: &Installment<'_>, today: Date) -> Charge {
    let devedor = i
        .customer_document
        .and_then(|d| Devedor::new(d, i.customer_name));
    let terms = i.terms.for_due(i.first_due, i.due);
    match devedor {
        Some(devedor) if i.due >= today => Charge::Due(
            CobV::new(key, i.due, DAYS_AFTER_DUE, devedor, i.price_cents)
                .with_terms(&terms)
                .with_message(i.message),
        ),
        devedor => {
            let total = amount_due(i.price_cents, i.due, today, &terms).total;
            Charge::Now(Cob::new(key, COB_EXPIRATION, devedor, total))
        }
    }
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
