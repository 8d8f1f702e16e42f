//! The receipt (comprovante) as a PDF: one A4 page with the receipt's lines as the model writes
//! them (`paylink_model::receipt`), a reversal said first when there was one, and where to check
//! it (`/r/{code}`). A pure function of [`ReceiptPdf`]; it draws with the boleto's page and
//! fonts and writes the file the same way (`boleto_pdf::{Page, write_pdf}`).

use paylink_model::receipt::Receipt;
use paylink_model::Lang;

use super::boleto_pdf::{write_pdf, BoletoPdfError, Face, Page};

/// Everything printed on the receipt.
#[derive(Clone, Debug, PartialEq)]
pub struct ReceiptPdf {
    pub receipt: Receipt,
    pub lang: Lang,
    /// The verification page of its code (`{public URL}/r/{code}`).
    pub verify_url: String,
}

const X0: f32 = 20.0;
const W: f32 = 170.0;

/// Draws the receipt and returns the PDF file.
pub fn render(r: &ReceiptPdf) -> Result<Vec<u8>, BoletoPdfError> {
    let l = r.lang;
    let mut p = Page::new()?;
    let title = Receipt::title(l);
    p.text(Face::Bold, 18.0, X0, 30.0, title, W);
    p.hline(X0, 34.0, W, 0.6);
    let mut y = 44.0;
    if r.receipt.reversed {
        p.text(Face::Bold, 10.0, X0, y, Receipt::reversed_note(l), W);
        y += 10.0;
    }
    for (label, value) in r.receipt.lines(l) {
        p.text(Face::Regular, 8.0, X0, y, label, W);
        p.text(Face::Bold, 12.0, X0, y + 6.0, &value, W);
        p.hline(X0, y + 9.0, W, 0.2);
        y += 15.0;
    }
    let check = paylink_text::RECEIPT_CHECK_AT.t(l);
    p.text(Face::Regular, 9.0, X0, y + 6.0, check, W);
    p.text(Face::Bold, 9.0, X0, y + 11.0, &r.verify_url, W);
    write_pdf(&p, &format!("{title} {}", r.receipt.code), l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use paylink_model::receipt::ReceiptParts;
    use paylink_model::PaymentType;

    #[test]
    fn a_receipt_renders_as_a_small_pdf_and_a_reversed_one_too() {
        let receipt = Receipt::new(ReceiptParts {
            code: "7KQ2-M9XD-4RTA-0BZC".into(),
            merchant_name: "Loja Exemplo Ltda",
            merchant_document: Some("12345678000195"),
            payer_name: "Maria da Silva 🎸",
            payer_document: Some("52998224725"),
            amount_cents: 100_000,
            paid_at: "2026-12-01T18:03:00.000Z",
            method: Some(PaymentType::Pix),
            reference: Some("E12345678202612011503abcdefghijk".into()),
            installment: 1,
            installment_count: Some(1),
            reversed: false,
        });
        let mut r = ReceiptPdf {
            receipt,
            lang: Lang::PtBr,
            verify_url: "https://pay.example/r/7KQ2-M9XD-4RTA-0BZC".into(),
        };
        let pdf = render(&r).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(pdf.len() < 80_000, "{} bytes", pdf.len());
        r.receipt.reversed = true;
        r.lang = Lang::En;
        let reversed = render(&r).unwrap();
        assert!(reversed.len() > 1_000 && reversed != pdf);
    }
}
