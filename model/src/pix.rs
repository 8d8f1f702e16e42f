//! PIX "BR Code" payloads (EMV QRCPS-MPM, as specified by the Banco Central
//! do Brasil): the text behind a PIX QR code and its "copia e cola".

/// What a static or per-charge PIX QR code carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PixCharge<'a> {
    /// The receiver's PIX key (e-mail, phone, CPF/CNPJ or random key).
    pub key: &'a str,
    /// Amount in cents; `None` lets the payer type it.
    pub amount_cents: Option<i64>,
    /// Up to 25 characters; trimmed and stripped of accents by [`br_code`].
    pub merchant_name: &'a str,
    /// Up to 15 characters.
    pub merchant_city: &'a str,
    /// Transaction id: up to 25 letters and digits; `***` when absent.
    pub txid: Option<&'a str>,
}

/// One EMV TLV field: two-digit id, two-digit length, value.
fn tlv(out: &mut String, id: &str, value: &str) {
    out.push_str(id);
    out.push_str(&format!("{:02}", value.len()));
    out.push_str(value);
}

/// EMV fields are ASCII: drop accents (`São Paulo` → `Sao Paulo`) and
/// anything else outside printable ASCII, then cut to `max` characters.
pub fn emv_text(s: &str, max: usize) -> String {
    s.trim()
        .chars()
        .filter_map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => Some('a'),
            'Á' | 'À' | 'Â' | 'Ã' | 'Ä' => Some('A'),
            'é' | 'ê' | 'è' | 'ë' => Some('e'),
            'É' | 'Ê' | 'È' | 'Ë' => Some('E'),
            'í' | 'ì' | 'î' | 'ï' => Some('i'),
            'Í' | 'Ì' | 'Î' | 'Ï' => Some('I'),
            'ó' | 'ô' | 'õ' | 'ò' | 'ö' => Some('o'),
            'Ó' | 'Ô' | 'Õ' | 'Ò' | 'Ö' => Some('O'),
            'ú' | 'ù' | 'û' | 'ü' => Some('u'),
            'Ú' | 'Ù' | 'Û' | 'Ü' => Some('U'),
            'ç' => Some('c'),
            'Ç' => Some('C'),
            'ñ' => Some('n'),
            'Ñ' => Some('N'),
            c if c.is_ascii() && !c.is_ascii_control() => Some(c),
            _ => None,
        })
        .take(max)
        .collect()
}

/// CRC16-CCITT (polynomial 0x1021, initial 0xFFFF), as field 63 requires.
pub fn crc16_ccitt(data: &[u8]) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for &byte in data {
        crc ^= (byte as u16) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// The BR Code payload for `charge`.
pub fn br_code(charge: &PixCharge<'_>) -> String {
    let mut account = String::new();
    tlv(&mut account, "00", "br.gov.bcb.pix");
    tlv(&mut account, "01", charge.key.trim());

    let txid: String = charge
        .txid
        .map(|t| {
            t.chars()
                .filter(char::is_ascii_alphanumeric)
                .take(25)
                .collect()
        })
        .filter(|t: &String| !t.is_empty())
        .unwrap_or_else(|| "***".to_string());
    let mut additional = String::new();
    tlv(&mut additional, "05", &txid);

    let mut out = String::new();
    tlv(&mut out, "00", "01");
    tlv(&mut out, "26", &account);
    tlv(&mut out, "52", "0000");
    tlv(&mut out, "53", "986");
    if let Some(cents) = charge.amount_cents {
        tlv(
            &mut out,
            "54",
            &format!("{}.{:02}", cents / 100, cents % 100),
        );
    }
    tlv(&mut out, "58", "BR");
    tlv(&mut out, "59", &emv_text(charge.merchant_name, 25));
    tlv(&mut out, "60", &emv_text(charge.merchant_city, 15));
    tlv(&mut out, "62", &additional);
    out.push_str("6304");
    let crc = crc16_ccitt(out.as_bytes());
    out.push_str(&format!("{crc:04X}"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_matches_the_ccitt_false_check_value() {
        // The standard check value of CRC-16/CCITT-FALSE.
        assert_eq!(crc16_ccitt(b"123456789"), 0x29B1);
    }

    #[test]
    fn reproduces_the_central_bank_manual_example() {
        // Manual de Padrões para Iniciação do Pix, static QR example.
        let code = br_code(&PixCharge {
            key: "123e4567-e12b-12d1-a456-426655440000",
            amount_cents: None,
            merchant_name: "Fulano de Tal",
            merchant_city: "BRASILIA",
            txid: None,
        });
        assert_eq!(
            code,
            "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
        );
    }

    #[test]
    fn carries_amount_and_ascii_names() {
        let code = br_code(&PixCharge {
            key: "pix@loja.example.com",
            amount_cents: Some(3334),
            merchant_name: "Loja São João Comércio de Instrumentos",
            merchant_city: "São Paulo",
            txid: Some("inv-7f3a_1"),
        });
        assert!(code.contains("540533.34"), "{code}");
        assert!(code.contains("5925Loja Sao Joao Comercio de"), "{code}");
        assert!(code.contains("6009Sao Paulo"), "{code}");
        assert!(code.contains("0508inv7f3a1"), "{code}");
        let (body, crc) = code.split_at(code.len() - 4);
        assert_eq!(format!("{:04X}", crc16_ccitt(body.as_bytes())), crc);
    }
}
