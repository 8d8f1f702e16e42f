//! The receipt (comprovante) of a paid installment: what it says and how, once, for the payer
//! page, the PDF, the e-mail and the verification page `/r/{code}` alike. The payer's CPF or
//! CNPJ is masked as banks print it on a Pix comprovante (`***.982.247-**`); the time is
//! Brasília's, or the day alone when only the day is known (a boleto's liquidação, a payment the
//! merchant recorded by hand); the verification code is read back in one canonical form.

use paylink_text as text;
use serde::{Deserialize, Serialize};

use crate::date::{brasilia_day, format_instant_brasilia, MIDNIGHT_UTC_TIME};
use crate::money::format_brl;
use crate::{Lang, PaymentType};

/// The payer's document as a bank's comprovante shows it: a CPF keeps its 4th to 9th digits
/// (`***.982.247-**`), a CNPJ its 3rd to 12th characters (`**.345.678/0001-**`; letters allowed,
/// the new CNPJ). Anything else is not shown at all (`None`): a masked value must not reveal
/// more than these do.
pub fn mask_payer_document(document: &str) -> Option<String> {
    let chars: Vec<char> = document
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let s = |from: usize, to: usize| chars[from..to].iter().collect::<String>();
    match chars.len() {
        11 if chars.iter().all(char::is_ascii_digit) => {
            Some(format!("***.{}.{}-**", s(3, 6), s(6, 9)))
        }
        14 => Some(format!("**.{}.{}/{}-**", s(2, 5), s(5, 8), s(8, 12))),
        _ => None,
    }
}

/// Crockford's base 32 (no I, L, O, U): what a verification code is written in.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// 16 characters of 5 bits: 80 random bits.
const CODE_CHARS: usize = 16;

/// A verification code from 10 random bytes (the caller's generator): 16 characters in groups
/// of four, `7KQ2-M9XD-4RTA-0BZC`.
pub fn code_from_random(random: [u8; 10]) -> String {
    let mut bits: u128 = 0;
    for b in random {
        bits = bits << 8 | u128::from(b);
    }
    let chars: Vec<char> = (0..CODE_CHARS)
        .rev()
        .map(|i| ALPHABET[((bits >> (i * 5)) & 31) as usize] as char)
        .collect();
    group(&chars)
}

fn group(chars: &[char]) -> String {
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// A verification code as someone typed or copied it, in its canonical form: case, spaces and
/// hyphens do not matter, and O, I and L read as 0, 1 and 1 (Crockford). `None` when it cannot
/// be one, so a forged code is refused before anything is looked up.
pub fn parse_code(input: &str) -> Option<String> {
    let chars: Vec<char> = input
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect();
    if chars.len() != CODE_CHARS || !chars.iter().all(|c| ALPHABET.contains(&(*c as u8))) {
        return None;
    }
    Some(group(&chars))
}

/// One receipt, as the payer page's view carries it (amounts in reais on the wire).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    /// The code `/r/{code}` checks.
    pub code: String,
    pub merchant_name: String,
    /// The merchant's CNPJ or CPF, in full and formatted: who received the money.
    pub merchant_document: Option<String>,
    pub payer_name: String,
    /// Masked ([`mask_payer_document`]); absent when the customer has none.
    pub payer_document: Option<String>,
    #[serde(with = "crate::money::reais")]
    pub amount: i64,
    /// When the payer paid (RFC 3339), or the day (midnight UTC) when only the day is known.
    pub paid_at: String,
    /// How: PIX or BOLETO; absent for a payment the merchant recorded by hand.
    pub method: Option<PaymentType>,
    /// The Pix's endToEndId, or the boleto's nosso número: what the payer's bank shows too.
    pub reference: Option<String>,
    pub installment: u32,
    /// How many the invoice has; absent for a recurring charge, which has no end to count.
    pub installment_count: Option<u32>,
    /// The payment was returned to the payer since (the installment is REVERSED): the receipt
    /// says so, and is no proof of payment any more.
    #[serde(default)]
    pub reversed: bool,
}

/// What the caller knows of a paid installment, before the receipt's rules apply.
pub struct ReceiptParts<'a> {
    pub code: String,
    pub merchant_name: &'a str,
    pub merchant_document: Option<&'a str>,
    pub payer_name: &'a str,
    /// As stored (digits, or formatted): masked here.
    pub payer_document: Option<&'a str>,
    pub amount_cents: i64,
    pub paid_at: &'a str,
    pub method: Option<PaymentType>,
    pub reference: Option<String>,
    pub installment: u32,
    pub installment_count: Option<u32>,
    pub reversed: bool,
}

impl Receipt {
    pub fn new(p: ReceiptParts<'_>) -> Receipt {
        Receipt {
            code: p.code,
            merchant_name: p.merchant_name.to_string(),
            merchant_document: p
                .merchant_document
                .filter(|d| !d.trim().is_empty())
                .map(crate::br::mask_document),
            payer_name: p.payer_name.to_string(),
            payer_document: p.payer_document.and_then(mask_payer_document),
            amount: p.amount_cents,
            paid_at: p.paid_at.to_string(),
            method: p.method,
            reference: p.reference.filter(|r| !r.is_empty()),
            installment: p.installment,
            installment_count: p.installment_count,
            reversed: p.reversed,
        }
    }

    pub fn title(l: Lang) -> &'static str {
        text::RECEIPT_TITLE.t(l)
    }

    /// When it was paid: the day and time in Brasília, or the day alone when only the day is
    /// known (stored at midnight UTC).
    pub fn when(&self, l: Lang) -> String {
        let day_only =
            self.paid_at.len() == 10 || self.paid_at.get(10..) == Some(MIDNIGHT_UTC_TIME);
        if day_only {
            return brasilia_day(&self.paid_at)
                .map_or_else(|| self.paid_at.clone(), |d| d.format_for(l));
        }
        let at = format_instant_brasilia(&self.paid_at, l);
        text::at_brasilia_time(l, &at)
    }

    pub fn method_text(&self, l: Lang) -> &'static str {
        match self.method {
            Some(PaymentType::Pix) => "Pix",
            Some(PaymentType::Boleto) => "Boleto",
            None => text::RECEIPT_BY_MERCHANT.t(l),
        }
    }

    fn reference_label(&self, l: Lang) -> &'static str {
        match self.method {
            Some(PaymentType::Pix) => text::RECEIPT_END_TO_END_ID.t(l),
            _ => text::RECEIPT_NOSSO_NUMERO.t(l),
        }
    }

    /// What a reversed receipt says first.
    pub fn reversed_note(l: Lang) -> &'static str {
        text::RECEIPT_REVERSED.t(l)
    }

    pub fn code_label(l: Lang) -> &'static str {
        text::RECEIPT_CODE.t(l)
    }

    /// The receipt's lines, label and value, in the order every rendering shows them; a line
    /// whose value is unknown is left out.
    pub fn lines(&self, l: Lang) -> Vec<(&'static str, String)> {
        let mut out = vec![(text::RECEIPT_PAID_TO.t(l), self.merchant_name.clone())];
        if let Some(d) = &self.merchant_document {
            out.push((text::RECEIPT_MERCHANT_DOCUMENT.t(l), d.clone()));
        }
        out.push((text::RECEIPT_PAYER.t(l), self.payer_name.clone()));
        if let Some(d) = &self.payer_document {
            out.push((text::RECEIPT_PAYER_DOCUMENT.t(l), d.clone()));
        }
        out.push((text::AMOUNT_PAID.t(l), format_brl(self.amount, l)));
        out.push((text::RECEIPT_PAID_ON.t(l), self.when(l)));
        out.push((text::RECEIPT_METHOD.t(l), self.method_text(l).to_string()));
        if let Some(r) = &self.reference {
            out.push((self.reference_label(l), r.clone()));
        }
        out.push((
            text::INSTALLMENT.t(l),
            match self.installment_count {
                Some(n) => text::number_of(l, self.installment, n),
                None => self.installment.to_string(),
            },
        ));
        out.push((Self::code_label(l), self.code.clone()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(paid_at: &str, method: Option<PaymentType>) -> ReceiptParts<'_> {
        ReceiptParts {
            code: "7KQ2-M9XD-4RTA-0BZC".into(),
            merchant_name: "Loja Exemplo Ltda",
            merchant_document: Some("12345678000195"),
            payer_name: "Maria da Silva",
            payer_document: Some("529.982.247-25"),
            amount_cents: 100_000,
            paid_at,
            method,
            reference: Some("E12345678202612011503abcdefghijk".into()),
            installment: 1,
            installment_count: Some(3),
            reversed: false,
        }
    }

    #[test]
    fn a_document_is_masked_as_banks_do() {
        assert_eq!(
            mask_payer_document("52998224725").as_deref(),
            Some("***.982.247-**")
        );
        assert_eq!(
            mask_payer_document("529.982.247-25").as_deref(),
            Some("***.982.247-**")
        );
        assert_eq!(
            mask_payer_document("12.345.678/0001-95").as_deref(),
            Some("**.345.678/0001-**")
        );
        // The new alphanumeric CNPJ keeps the same positions.
        assert_eq!(
            mask_payer_document("12ABC34501DE35").as_deref(),
            Some("**.ABC.345/01DE-**")
        );
        for bad in ["", "123", "5299822472", "529982247250", "abcdefghijk"] {
            assert_eq!(mask_payer_document(bad), None, "{bad}");
        }
    }

    #[test]
    fn codes_are_16_crockford_characters_and_read_back_however_typed() {
        let code = code_from_random([0xff; 10]);
        assert_eq!(code, "ZZZZ-ZZZZ-ZZZZ-ZZZZ");
        assert_eq!(code_from_random([0; 10]), "0000-0000-0000-0000");
        let c = code_from_random([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        assert_eq!(c.len(), 19);
        assert_eq!(parse_code(&c).as_deref(), Some(c.as_str()));
        assert_eq!(
            parse_code(&c.to_lowercase().replace('-', " ")).as_deref(),
            Some(c.as_str())
        );
        assert_eq!(
            parse_code("7kq2m9xd4rtaobzc").as_deref(),
            Some("7KQ2-M9XD-4RTA-0BZC")
        );
        for forged in [
            "",
            "forged",
            "7KQ2-M9XD-4RTA-0BZ",
            "7KQ2-M9XD-4RTA-0BZCC",
            "7KQ2-M9XD-4RTA-0BZU",
            "../../etc",
        ] {
            assert_eq!(parse_code(forged), None, "{forged}");
        }
    }

    #[test]
    fn a_pix_receipt_says_when_in_brasilia_and_names_the_end_to_end_id() {
        let r = Receipt::new(parts("2026-12-01T18:03:00.000Z", Some(PaymentType::Pix)));
        let lines = r.lines(Lang::PtBr);
        let get = |label: &str| {
            lines
                .iter()
                .find(|(l, _)| *l == label)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("Pagador"), Some("Maria da Silva"));
        assert_eq!(get("CPF/CNPJ do pagador"), Some("***.982.247-**"));
        assert_eq!(get("CPF/CNPJ do recebedor"), Some("12.345.678/0001-95"));
        assert_eq!(get("Valor pago"), Some("R$ 1.000,00"));
        assert_eq!(
            get("Data do pagamento"),
            Some("01/12/2026 15:03 (horário de Brasília)")
        );
        assert_eq!(get("Forma de pagamento"), Some("Pix"));
        assert_eq!(
            get("ID da transação (endToEndId)"),
            Some("E12345678202612011503abcdefghijk")
        );
        assert_eq!(get("Parcela"), Some("1 de 3"));
        assert_eq!(get("Código de verificação"), Some("7KQ2-M9XD-4RTA-0BZC"));
        let en = r.lines(Lang::En);
        assert!(
            en.contains(&("Amount paid", "R$ 1,000.00".into())),
            "{en:?}"
        );
        assert!(
            en.contains(&("Paid on", "2026-12-01 15:03 (Brasília time)".into())),
            "{en:?}"
        );
    }

    #[test]
    fn a_boleto_or_a_payment_by_hand_shows_its_day_alone() {
        let r = Receipt::new(parts("2027-01-29T00:00:00.000Z", Some(PaymentType::Boleto)));
        let lines = r.lines(Lang::PtBr);
        assert!(
            lines.contains(&("Data do pagamento", "29/01/2027".into())),
            "{lines:?}"
        );
        assert!(lines.contains(&("Nosso número", "E12345678202612011503abcdefghijk".into())));
        let mut by_hand = parts("2027-01-29T00:00:00.000Z", None);
        by_hand.reference = None;
        by_hand.payer_document = Some("12");
        by_hand.installment_count = None;
        let r = Receipt::new(by_hand);
        let lines = r.lines(Lang::En);
        assert!(lines.contains(&("Method", "Recorded by the merchant".into())));
        assert!(lines.contains(&("Installment", "1".into())), "{lines:?}");
        assert!(
            !lines
                .iter()
                .any(|(l, _)| l.contains("reference") || l.contains("Payer's")),
            "{lines:?}"
        );
    }
}
