//! FEBRABAN CNAB 240 for boleto collection ("layout padrão 240 posições", cobrança, version
//! 10.x): the remessa that registers boletos at the bank (segments P, Q and R) and the retorno
//! the bank answers with (segments T and U). Pure text in, text out: no SQL and no I/O, so the
//! CLI (`paylink boleto remessa|retorno`) and its store decide what was sent and applied.
//!
//! Every record is 240 characters; fields are written at the positions of the FEBRABAN layout
//! (1-based, inclusive, as the layout's tables give them), numbers right-aligned with zeros,
//! text left-aligned with blanks, upper-case and without accents (the layout's character set).
//! Banks add their own use of the "uso exclusivo" fields and of a few codes (carteira, espécie);
//! this module fills FEBRABAN's common layout and leaves the banks' own fields blank: a bank whose
//! manual asks for more needs its own mapping on top of these records.

mod remessa;
mod retorno;

pub use remessa::{remessa, Amount, Beneficiary, Boleto, Payer, RemessaError, WriteOff};
pub use retorno::{retorno, Movement, Notice, RetornoError};

use paylink_model::Date;

/// One record of the file: 240 bytes, filled with blanks.
pub(crate) struct Record([u8; 240]);

impl Record {
    pub(crate) fn new() -> Record {
        Record([b' '; 240])
    }

    /// Text at positions `from..=to` (1-based), left-aligned and truncated.
    pub(crate) fn text(&mut self, from: usize, to: usize, value: &str) -> &mut Record {
        let width = to + 1 - from;
        let clean = layout_text(value);
        let bytes = clean.as_bytes();
        for i in 0..width {
            self.0[from - 1 + i] = *bytes.get(i).unwrap_or(&b' ');
        }
        self
    }

    /// A number at positions `from..=to`, right-aligned with zeros. A number too wide for its
    /// field is a bug of the caller (the checks happen before the file is written).
    pub(crate) fn num(&mut self, from: usize, to: usize, value: u64) -> &mut Record {
        let width = to + 1 - from;
        let digits = format!("{value:0width$}");
        assert_eq!(
            digits.len(),
            width,
            "{value} does not fit positions {from}-{to}"
        );
        self.0[from - 1..to].copy_from_slice(digits.as_bytes());
        self
    }

    /// Digits given as text (documents, agency, account), right-aligned with zeros.
    pub(crate) fn digits(&mut self, from: usize, to: usize, value: &str) -> &mut Record {
        let width = to + 1 - from;
        let only: String = value.chars().filter(char::is_ascii_digit).collect();
        let start = only.len().saturating_sub(width);
        let field = format!("{:0>width$}", &only[start..]);
        self.0[from - 1..to].copy_from_slice(field.as_bytes());
        self
    }

    pub(crate) fn date(&mut self, from: usize, value: Option<Date>) -> &mut Record {
        match value {
            Some(d) => {
                let s = format!("{:02}{:02}{:04}", d.day(), d.month(), d.year());
                self.text(from, from + 7, &s)
            }
            None => self.num(from, from + 7, 0),
        }
    }

    pub(crate) fn finish(&self) -> String {
        String::from_utf8(self.0.to_vec()).expect("records hold ASCII only")
    }
}

/// The layout's character set: upper-case ASCII letters, digits and a few signs; accents
/// dropped (`São João` → `SAO JOAO`), anything else a blank.
pub(crate) fn layout_text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' | 'Á' | 'À' | 'Â' | 'Ã' | 'Ä' => 'A',
            'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' => 'E',
            'í' | 'ì' | 'î' | 'ï' | 'Í' | 'Ì' | 'Î' | 'Ï' => 'I',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' | 'Ó' | 'Ò' | 'Ô' | 'Õ' | 'Ö' => 'O',
            'ú' | 'ù' | 'û' | 'ü' | 'Ú' | 'Ù' | 'Û' | 'Ü' => 'U',
            'ç' | 'Ç' => 'C',
            'ñ' | 'Ñ' => 'N',
            c if c.is_ascii_alphanumeric() => c.to_ascii_uppercase(),
            c if " .,-/&()@:;'".contains(c) => c,
            _ => ' ',
        })
        .collect()
}

/// CPF (1) or CNPJ (2), as the layout's "tipo de inscrição" codes them.
pub(crate) fn inscription_kind(document: &str) -> u64 {
    if document.chars().filter(char::is_ascii_alphanumeric).count() == 11 {
        1
    } else {
        2
    }
}

#[cfg(test)]
#[rustfmt::skip] // the expected records are written field by field, with their positions
mod tests;
