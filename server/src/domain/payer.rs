//! The payer page's data: built by the proxy from the invoice detail (so it
//! works with a remote upstream too), stripped of the merchant's private
//! data, with a PIX BR Code (and QR) and a boleto for each open installment.

use paylink_model::boleto::{self, BoletoConfig};
use paylink_model::pix::{br_code, PixCharge};
use paylink_model::{
    BoletoCode, Date, InstallmentStatus, InvoiceDetail, PayerInstallment, PayerView, PaymentType,
    PixCode,
};

/// Who receives the money: from `serve`'s options (sandbox defaults otherwise).
#[derive(Clone, Debug)]
pub struct PayerConfig {
    pub merchant_name: String,
    pub merchant_city: String,
    pub pix_key: String,
    pub boleto: BoletoConfig,
    pub sandbox: bool,
}

impl Default for PayerConfig {
    fn default() -> Self {
        PayerConfig {
            merchant_name: "Loja Exemplo".into(),
            merchant_city: "Sao Paulo".into(),
            pix_key: "pix@paylink.example".into(),
            boleto: BoletoConfig {
                bank_code: "001".into(),
                agreement: "1234567".into(),
                wallet: "17".into(),
            },
            sandbox: false,
        }
    }
}

/// A QR code of `text` as SVG (drawn here, so the widget ships no QR encoder).
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}

/// A stable 10-digit boleto "nosso número" for an installment id.
fn our_number(installment_id: &str) -> u64 {
    let hex: String = installment_id
        .chars()
        .filter(char::is_ascii_hexdigit)
        .take(12)
        .collect();
    u64::from_str_radix(&hex, 16).unwrap_or(0) % 10_000_000_000
}

pub fn payer_view(d: &InvoiceDetail, cfg: &PayerConfig) -> PayerView {
    let accepts = |t| d.payment_types.iter().any(|p| p.payment_type_accepted == t);
    let next_open = d
        .installments
        .iter()
        .find(|i| i.status == InstallmentStatus::WaitingPayment)
        .map(|i| i.installment);
    let installments = d
        .installments
        .iter()
        .map(|i| {
            let open = i.status == InstallmentStatus::WaitingPayment && i.price > 0;
            let pix = (open && accepts(PaymentType::Pix)).then(|| {
                // txid: the invoice id's hex and the installment number, 25 characters at most.
                let txid = format!(
                    "{}{:03}",
                    d.id.replace('-', "").get(..22).unwrap_or(""),
                    i.installment % 1000
                );
                let payload = br_code(&PixCharge {
                    key: &cfg.pix_key,
                    amount_cents: Some(i.price),
                    merchant_name: &cfg.merchant_name,
                    merchant_city: &cfg.merchant_city,
                    txid: Some(&txid),
                });
                PixCode {
                    qr_svg: qr_svg(&payload).unwrap_or_default(),
                    payload,
                }
            });
            let boleto = if open && accepts(PaymentType::Boleto) {
                Date::parse_iso_prefix(&i.due_date)
                    .and_then(|due| {
                        boleto::barcode(&cfg.boleto, i.price, due, our_number(&i.id)).ok()
                    })
                    .and_then(|barcode| {
                        let line = boleto::linha_digitavel(&barcode)?;
                        Some(BoletoCode {
                            line: boleto::format_linha(&line),
                            barcode_svg: boleto::itf_svg(&barcode)?,
                            barcode,
                        })
                    })
            } else {
                None
            };
            PayerInstallment {
                installment: i.installment,
                price: i.price,
                price_paid: i.price_paid,
                due_date: i.due_date.clone(),
                status: i.status,
                pix,
                boleto,
            }
        })
        .collect();
    PayerView {
        id: d.id.clone(),
        merchant_name: cfg.merchant_name.clone(),
        description: d.description.clone(),
        price: d.price,
        price_by_customer: d.price_by_customer,
        customer_name: d.customer.full_name.clone(),
        installments,
        payment_types: d
            .payment_types
            .iter()
            .map(|p| p.payment_type_accepted)
            .collect(),
        redirect_to: d.redirect_to.clone(),
        url: d.url.clone(),
        next_open,
        sandbox: cfg.sandbox,
    }
}
