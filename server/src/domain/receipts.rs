//! Each paid installment's receipt (comprovante), made from the invoice's detail, the merchant
//! as `serve` was configured and what its payment left (`store::receipts`): for the payer page,
//! its PDF (`receipt_pdf`), the payment-confirmed e-mail and the verification page `/r/{code}`.
//! Paylink's own service only: a remote upstream's payments are not paylink's to vouch for.
//! A reversed installment keeps its receipt, which says that the payment was returned.

use paylink_model::receipt::{Receipt, ReceiptParts};
use paylink_model::{InstallmentStatus, InvoiceDetail, InvoiceType, Lang, PayerView};

use super::payer::PayerConfig;
use super::receipt_pdf::ReceiptPdf;
use crate::store::{Db, DbError};

/// The receipt of installment `n` of `d`, when it was paid (it is CONFIRMED, or REVERSED since).
pub async fn of(
    db: &Db,
    d: &InvoiceDetail,
    n: u32,
    cfg: &PayerConfig,
) -> Result<Option<Receipt>, DbError> {
    let Some(i) = d.installments.iter().find(|i| i.installment == n) else {
        return Ok(None);
    };
    if !matches!(
        i.status,
        InstallmentStatus::Confirmed | InstallmentStatus::Reversed
    ) {
        return Ok(None);
    }
    let issued = crate::store::receipts::of_installment(db, &i.id.to_ascii_lowercase()).await?;
    let paid_at = i
        .paid_at
        .as_deref()
        .or(i.payment_received_at.as_deref())
        .or(i.updated_at.as_deref())
        .unwrap_or(&i.created_at);
    let count = matches!(
        d.invoice_type,
        InvoiceType::Single | InvoiceType::Installment
    )
    .then_some(d.installment_count);
    Ok(Some(Receipt::new(ReceiptParts {
        code: issued.code,
        merchant_name: &cfg.merchant_name,
        merchant_document: cfg.merchant_document.as_deref(),
        payer_name: &d.customer.full_name,
        payer_document: d.customer.document.as_deref(),
        amount_cents: i.price_paid,
        paid_at,
        method: issued.method,
        reference: issued.reference,
        installment: i.installment,
        installment_count: count,
        reversed: i.status == InstallmentStatus::Reversed,
    })))
}

/// The payer page's view with each paid installment's receipt.
pub async fn with_receipts(
    view: &mut PayerView,
    d: &InvoiceDetail,
    db: &Db,
    cfg: &PayerConfig,
) -> Result<(), DbError> {
    for shown in &mut view.installments {
        shown.receipt = of(db, d, shown.installment, cfg).await?;
    }
    Ok(())
}

/// Where receipt `code` is checked, under paylink's public URL.
pub fn verify_url(public_url: &str, code: &str) -> String {
    format!("{}/r/{code}", public_url.trim_end_matches('/'))
}

/// The receipt's PDF file name: `comprovante-{externalId}-{n}.pdf` (`receipt-…` in English).
pub fn file_name(d: &InvoiceDetail, n: u32, l: Lang) -> String {
    let word = paylink_text::RECEIPT_FILE.t(l);
    format!(
        "{word}-{}-{n}.pdf",
        super::payer::file_name_part(&d.external_id, &d.id)
    )
}

/// The receipt as a PDF in `lang`. Tens of milliseconds of CPU (the font subsets): off the
/// async threads, as the boleto is.
pub async fn pdf(receipt: Receipt, lang: Lang, public_url: &str) -> Result<Vec<u8>, PdfError> {
    let input = ReceiptPdf {
        verify_url: verify_url(public_url, &receipt.code),
        receipt,
        lang,
    };
    tokio::task::spawn_blocking(move || super::receipt_pdf::render(&input))
        .await
        .map_err(|e| PdfError::Task(e.to_string()))?
        .map_err(PdfError::Render)
}

/// Why a receipt's PDF was not made (never the input: a build or runtime fault).
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("receipt PDF: {0}")]
    Render(super::boleto_pdf::BoletoPdfError),
    #[error("receipt PDF task: {0}")]
    Task(String),
}
