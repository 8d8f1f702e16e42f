//! Settlement of boletos with the bank through CNAB 240 files: which
//! installments a remessa registers and with what terms, and what a
//! retorno's notices do to them. The layout is `cnab240`'s; what was sent
//! and applied is the store's (`store::boletos`), one transaction per file.

use paylink_model::boleto::BoletoConfig;
use paylink_model::charges::{ChargeTerms, DiscountTerm, Value, ValueType};
use paylink_model::date::brasilia_day;
use paylink_model::Date;

use super::cnab240::{self, Amount, Beneficiary, Boleto, Payer, WriteOff};
use super::payer::boleto_our_number;
use crate::store::boletos::{self, Applied, Decided, Item, Movement, ToWriteOff, Unsent, Written};
use crate::store::{Db, DbError};

/// Why a remessa was not written or a retorno not applied (nothing of either was). The words
/// are the operator's, printed by `paylink boleto`.
#[derive(Debug, thiserror::Error)]
pub enum SettlementError {
    #[error(
        "installment {number} of invoice {invoice_id} has an unreadable due date {due_date:?}"
    )]
    UnreadableDueDate {
        number: u32,
        invoice_id: String,
        due_date: String,
    },
    #[error("too many remessas")]
    TooManyRemessas,
    #[error("boleto {}: {}: nothing was written", .0.our_number, .0.message)]
    Layout(cnab240::RemessaError),
    /// The file could not be written where the operator asked (the caller's words).
    #[error("{0}")]
    Write(String),
    #[error("line {0}: the file is not ASCII text (CNAB 240 records are): nothing was applied")]
    NotAscii(usize),
    #[error("{0}: nothing was applied")]
    Unreadable(cnab240::RetornoError),
    #[error(
        "line {0}: a liquidação of R$ 0,00 (valor pago, segment U positions 78-92): \
         nothing was applied"
    )]
    PaidNothing(usize),
    #[error("{0}: nothing was applied")]
    NotApplied(boletos::ApplyRetornoError),
    #[error(transparent)]
    Taken(#[from] boletos::OurNumberTaken),
    #[error("database error: {0}")]
    Db(#[from] DbError),
}

/// The fine, interest and discount of one installment from the invoice's
/// stored terms (the discount's date moved with the installment's due date,
/// as the payer page does).
fn terms_of(u: &Unsent, due: Date) -> ChargeTerms {
    let value = |kind: Option<&str>, v: Option<i64>| match (kind.and_then(ValueType::parse), v) {
        (Some(k), Some(v)) => Some(Value::of(k, v)),
        _ => None,
    };
    let terms = ChargeTerms {
        fine: value(u.fine_type.as_deref(), u.fine_value),
        interest_monthly_bp: u.interest_monthly_bp,
        discount: value(u.discount_type.as_deref(), u.discount_value).and_then(|value| {
            let until = Date::parse_iso_prefix(u.discount_until.as_deref()?)?;
            Some(DiscountTerm { value, until })
        }),
    };
    match Date::parse_iso_prefix(&u.first_due_date) {
        Some(first) => terms.for_due(first, due),
        None => terms,
    }
}

fn amount(v: Value) -> Amount {
    match v {
        Value::Percent(p) => Amount::Percent(p),
        Value::Cents(c) => Amount::Fixed(c),
    }
}

/// Segments P, Q and R of one installment's boleto, registered under the
/// nosso número its printed boleto carries.
pub fn boleto_of(u: &Unsent, cfg: &BoletoConfig, today: Date) -> Result<Boleto, SettlementError> {
    let due =
        Date::parse_iso_prefix(&u.due_date).ok_or_else(|| SettlementError::UnreadableDueDate {
            number: u.number,
            invoice_id: u.invoice_id.clone(),
            due_date: u.due_date.clone(),
        })?;
    let terms = terms_of(u, due);
    // Interest per day as amount_due computes it: original × rate ÷ 30, truncated.
    let interest_per_day_cents = terms
        .interest_monthly_bp
        .map(|bp| (u.price_cents as i128 * bp as i128 / (30 * 10_000)) as i64)
        .filter(|c| *c > 0);
    let street = match (u.street.as_deref(), u.street_number.as_deref()) {
        (Some(s), Some(n)) if !n.trim().is_empty() => format!("{s}, {n}"),
        (Some(s), _) => s.to_string(),
        _ => String::new(),
    };
    Ok(Boleto {
        our_number: boleto_our_number(cfg, u.our_number),
        document_number: u.external_id.clone(),
        // The field holds 25 characters: the installment id's first 25.
        company_reference: u.installment_id.chars().take(25).collect(),
        due,
        issued: brasilia_day(&u.invoice_created_at).unwrap_or(today),
        amount_cents: u.price_cents,
        payer: Payer {
            document: u.payer_document.clone().unwrap_or_default(),
            name: u.payer_name.clone(),
            street,
            district: u.district.clone().unwrap_or_default(),
            zipcode: u.zipcode.clone().unwrap_or_default(),
            city: u.city.clone().unwrap_or_default(),
            state: u.state.clone().unwrap_or_default(),
        },
        interest_per_day_cents,
        fine: terms.fine.map(amount),
        discount: terms.discount.map(|d| (amount(d.value), d.until)),
        messages: vec![format!("Pedido {}, parcela {}", u.external_id, u.number)],
    })
}

/// The pedido de baixa of a boleto that must no longer be paid.
fn write_off_of(w: &ToWriteOff) -> Result<WriteOff, SettlementError> {
    let due =
        Date::parse_iso_prefix(&w.due_date).ok_or_else(|| SettlementError::UnreadableDueDate {
            number: w.number,
            invoice_id: w.invoice_id.clone(),
            due_date: w.due_date.clone(),
        })?;
    Ok(WriteOff {
        // As registered: the stored nosso número, whatever the boleto options are now.
        our_number: w.our_number.clone(),
        document_number: w.external_id.clone(),
        company_reference: w.installment_id.chars().take(25).collect(),
        due,
        amount_cents: w.price_cents,
    })
}

/// Writes a remessa of every BOLETO installment not yet sent (created on or
/// after `since`) and of the pedidos de baixa of registered boletos whose
/// invoice was cancelled or whose installment was paid another way:
/// `write` receives the file's text before the boletos are marked, and the
/// marks are committed only if it succeeds, so a boleto is never in two
/// files and never marked without its file.
pub async fn remessa(
    db: &Db,
    beneficiary: &Beneficiary,
    cfg: &BoletoConfig,
    since: Option<Date>,
    generated: (Date, u32),
    write: impl FnOnce(&str) -> Result<(), SettlementError>,
) -> Result<Option<Written>, SettlementError> {
    let since = since.map(|d| d.to_string());
    boletos::remessa(db, since.as_deref(), |sequence, unsent, to_write_off| {
        let list = unsent
            .iter()
            .map(|u| boleto_of(u, cfg, generated.0))
            .collect::<Result<Vec<_>, _>>()?;
        let write_offs = to_write_off
            .iter()
            .map(write_off_of)
            .collect::<Result<Vec<_>, _>>()?;
        let sequence = u32::try_from(sequence).map_err(|_| SettlementError::TooManyRemessas)?;
        let content = cnab240::remessa(beneficiary, sequence, generated, &list, &write_offs)
            .map_err(SettlementError::Layout)?;
        write(&content)?;
        Ok(Decided {
            our_numbers: list.iter().map(|b| b.our_number.clone()).collect(),
            total_cents: list.iter().map(|b| b.amount_cents).sum(),
            content,
        })
    })
    .await
}

/// Applies a retorno: read whole first (a malformed line rejects the file),
/// then applied in one transaction (an unknown nosso número rejects it too).
pub async fn retorno(db: &Db, bytes: &[u8]) -> Result<Applied, SettlementError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        SettlementError::NotAscii(line)
    })?;
    let notices = cnab240::retorno(text).map_err(SettlementError::Unreadable)?;
    let items: Vec<Item> = notices
        .into_iter()
        .map(|n| Item {
            line: n.line,
            our_number: n.our_number,
            movement: n.movement,
        })
        .collect();
    for i in &items {
        if let Movement::Paid { paid_cents, .. } = i.movement {
            if paid_cents <= 0 {
                return Err(SettlementError::PaidNothing(i.line));
            }
        }
    }
    let sha256 = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(bytes))
    };
    boletos::apply_retorno(db, &sha256, &items)
        .await
        .map_err(SettlementError::NotApplied)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unsent() -> Unsent {
        Unsent {
            installment_id: "00000000-0002-4000-8000-000000000002".into(),
            our_number: 2,
            invoice_id: "inv".into(),
            number: 2,
            price_cents: 3333,
            due_date: "2027-02-28".into(),
            first_due_date: "2027-01-31".into(),
            external_id: "pedido-1".into(),
            invoice_created_at: "2027-01-10T12:00:00.000Z".into(),
            payer_name: "Maria da Silva".into(),
            payer_document: Some("52998224725".into()),
            street: Some("Av. Paulista".into()),
            street_number: Some("1000".into()),
            district: None,
            zipcode: Some("01310100".into()),
            city: Some("São Paulo".into()),
            state: Some("SP".into()),
            fine_type: Some("PERCENTAGE".into()),
            fine_value: Some(200),
            interest_monthly_bp: Some(100),
            discount_type: Some("FIXED".into()),
            discount_value: Some(500),
            discount_until: Some("2027-01-25".into()),
        }
    }

    fn cfg() -> BoletoConfig {
        BoletoConfig {
            bank_code: "001".into(),
            agreement: "1234567".into(),
            wallet: "17".into(),
        }
    }

    #[test]
    fn a_boleto_carries_the_installments_terms() {
        let today = Date::new(2027, 1, 10).unwrap();
        let b = boleto_of(&unsent(), &cfg(), today).unwrap();
        assert_eq!(b.our_number, "12345670000000002");
        assert_eq!(b.company_reference, "00000000-0002-4000-8000-0");
        assert_eq!(b.due, Date::new(2027, 2, 28).unwrap());
        assert_eq!(b.issued, today);
        assert_eq!(b.amount_cents, 3333);
        // 1 % a month of R$ 33,33 is 33 cents a month: 1 cent a day, truncated.
        assert_eq!(b.interest_per_day_cents, Some(1));
        assert_eq!(b.fine, Some(Amount::Percent(200)));
        // The discount's last day keeps its 6 days before this installment's due date.
        assert_eq!(
            b.discount,
            Some((Amount::Fixed(500), Date::new(2027, 2, 22).unwrap()))
        );
        assert_eq!(b.payer.street, "Av. Paulista, 1000");
        assert_eq!(b.payer.document, "52998224725");
    }

    #[test]
    fn no_terms_means_none_and_a_small_interest_is_left_out() {
        let mut u = unsent();
        u.fine_type = None;
        u.discount_type = None;
        u.interest_monthly_bp = Some(1);
        u.street = None;
        let b = boleto_of(&u, &cfg(), Date::new(2027, 1, 10).unwrap()).unwrap();
        assert_eq!(
            (b.fine, b.discount, b.interest_per_day_cents),
            (None, None, None)
        );
        assert_eq!(b.payer.street, "");
        u.due_date = "soon".into();
        assert!(boleto_of(&u, &cfg(), Date::new(2027, 1, 10).unwrap())
            .unwrap_err()
            .to_string()
            .contains("due date"));
    }
}
