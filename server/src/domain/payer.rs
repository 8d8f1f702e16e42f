//! The payer page's data: built by the proxy from the invoice detail (so it
//! works with a remote upstream too), stripped of the merchant's private
//! data, with a PIX BR Code (and QR) and a boleto for each open installment.

use paylink_model::boleto::{self, BoletoConfig};
use paylink_model::charges;
use paylink_model::date::brasilia_day;
use paylink_model::installment_due;
use paylink_model::pix::{br_code, PixCharge};
use paylink_model::{
    Address, BoletoCode, Date, Installment, InstallmentStatus, InvoiceDetail, Lang, PayerAmountDue,
    PayerInstallment, PayerView, PaymentType, PixChargeState, PixCode,
};

use std::collections::HashMap;
use std::sync::Arc;

use super::boleto_pdf::BoletoPdf;

/// Who receives the money: from `serve`'s options (sandbox defaults otherwise).
#[derive(Clone, Debug)]
pub struct PayerConfig {
    pub merchant_name: String,
    pub merchant_city: String,
    pub pix_key: String,
    pub boleto: BoletoConfig,
    /// The merchant's CNPJ or CPF (digits), printed as the boleto's beneficiário.
    pub merchant_document: Option<String>,
    /// Agência/Código do Beneficiário as the bank prints it (`1234-5 / 12345-6`);
    /// without it the boleto shows the agreement (convênio).
    pub boleto_beneficiary_code: Option<String>,
    pub sandbox: bool,
    /// PIX codes come from the bank's API Pix (its charges), not the static BR Code of `pix_key`.
    pub pix_api: bool,
    /// What the merchant offers (`serve --payment-types`): an invoice or a link asking for a
    /// type not offered is refused on `paymentTypes`.
    pub offers_pix: bool,
    pub offers_boleto: bool,
    /// The payer pages' clock: what is due today, Pix at night, a charges link's expiry.
    pub clock: super::Clock,
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
            merchant_document: None,
            boleto_beneficiary_code: None,
            pix_api: false,
            sandbox: false,
            offers_pix: true,
            offers_boleto: true,
            clock: super::Clock::System,
        }
    }
}

/// The merchant as `serve` was configured: whether its PIX goes through a bank's API Pix
/// (`--pix-api-url`) and its document (`--merchant-document`, bare), which must be a CNPJ to
/// receive through Pix Automático.
#[derive(Clone, Debug, Default)]
pub struct MerchantSetup {
    pub api_pix: bool,
    pub document: Option<Arc<str>>,
    /// The one payment type the merchant does not offer, if any (`serve --payment-types`).
    pub not_offered: Option<paylink_model::PaymentType>,
}

impl MerchantSetup {
    /// The model's context for an invoice whose customer has `payer_document`.
    pub fn pix_automatico<'a>(
        &'a self,
        payer_document: Option<&'a str>,
    ) -> paylink_model::pix_automatico::Context<'a> {
        paylink_model::pix_automatico::Context {
            api_pix: self.api_pix,
            merchant_document: self.document.as_deref(),
            payer_document,
        }
    }
}

impl PayerConfig {
    /// What the invoicing API needs of this configuration to judge a Pix Automático request.
    pub fn merchant_setup(&self) -> MerchantSetup {
        MerchantSetup {
            api_pix: self.pix_api,
            document: self.merchant_document.as_deref().map(Arc::from),
            not_offered: match (self.offers_pix, self.offers_boleto) {
                (true, false) => Some(paylink_model::PaymentType::Boleto),
                (false, true) => Some(paylink_model::PaymentType::Pix),
                _ => None,
            },
        }
    }
}

/// A QR code of `text` as SVG (drawn here, so the widget ships no QR encoder).
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}

/// Each installment's boleto nosso número (its 10-digit complement) and
/// static PIX code's txid, by installment id.
#[derive(Clone, Debug)]
pub enum OurNumbers {
    /// paylink's own service: the numbers its database gave the installments
    /// (unique, allocated when they were written), and their random txids.
    Stored {
        numbers: HashMap<String, u64>,
        txids: HashMap<String, String>,
    },
    /// A remote upstream's invoice, which paylink does not number or register:
    /// derived from the installment id, as paylink did before it stored them;
    /// its static codes carry no txid (`***`), as paylink keeps none for it.
    Derived,
}

impl OurNumbers {
    /// The installments of `d` with paylink's own service (`db`), or a remote
    /// upstream's (`None`).
    pub async fn of(
        d: &InvoiceDetail,
        db: Option<&crate::store::Db>,
    ) -> Result<OurNumbers, crate::store::DbError> {
        match db {
            Some(db) => {
                let id = d.id.to_ascii_lowercase();
                Ok(OurNumbers::Stored {
                    numbers: crate::store::boletos::our_numbers(db, &id)
                        .await?
                        .into_iter()
                        .collect(),
                    txids: crate::store::invoices::static_pix_txids(db, &id)
                        .await?
                        .into_iter()
                        .collect(),
                })
            }
            None => Ok(OurNumbers::Derived),
        }
    }

    fn get(&self, installment_id: &str) -> Option<u64> {
        match self {
            OurNumbers::Stored { numbers, .. } => {
                numbers.get(&installment_id.to_ascii_lowercase()).copied()
            }
            OurNumbers::Derived => {
                let hex: String = installment_id
                    .chars()
                    .filter(char::is_ascii_hexdigit)
                    .take(12)
                    .collect();
                Some(u64::from_str_radix(&hex, 16).unwrap_or(0) % 10_000_000_000)
            }
        }
    }

    /// The txid of installment `installment_id`'s static PIX code, if it has one.
    fn txid(&self, installment_id: &str) -> Option<&str> {
        match self {
            OurNumbers::Stored { txids, .. } => txids
                .get(&installment_id.to_ascii_lowercase())
                .map(String::as_str),
            OurNumbers::Derived => None,
        }
    }
}

/// The nosso número as the boleto prints it and a remessa registers it:
/// Banco do Brasil's 7-digit agreement (convênio) + the 10-digit complement.
pub fn boleto_our_number(cfg: &BoletoConfig, our_number: u64) -> String {
    format!("{}{:010}", cfg.agreement, our_number)
}

/// The 44-digit barcode of an installment's boleto: the same on the payer
/// page and on the printed boleto. `None` without a nosso número.
fn installment_barcode(i: &Installment, cfg: &PayerConfig, numbers: &OurNumbers) -> Option<String> {
    let due = Date::parse_iso_prefix(&i.due_date)?;
    boleto::barcode(&cfg.boleto, i.price, due, numbers.get(&i.id)?).ok()
}

/// The terms of the next open installment (discount, fine, interest), one
/// sentence each in `lang`, as the payer page states them beside the
/// amounts; empty when the invoice has none or nothing is open.
pub fn next_open_terms(d: &InvoiceDetail, next_open: Option<u32>, lang: Lang) -> Vec<String> {
    let Some(i) = next_open.and_then(|n| d.installments.iter().find(|i| i.installment == n)) else {
        return Vec::new();
    };
    let Some(due) = Date::parse_iso_prefix(&i.due_date) else {
        return Vec::new();
    };
    let terms = installment_due::installment_terms(d, i, &installment_due::detail_terms(d));
    charges::instructions(i.price, due, &terms, lang)
}

/// What open installment `i` of `d` costs when paid on `today` (fine, interest, discount), as
/// its payer page says; `None` when it is not open.
pub fn amount_due_on(d: &InvoiceDetail, i: &Installment, today: Date) -> Option<i64> {
    installment_due::amount_due(d, i, &installment_due::detail_terms(d), today).map(|a| a.total)
}

/// The payer page's data on `today` (in Brasília): the amounts due and the
/// PIX codes follow [`charges::amount_due`] on that day; the boletos carry `numbers`.
pub fn payer_view(
    d: &InvoiceDetail,
    cfg: &PayerConfig,
    numbers: &OurNumbers,
    today: Date,
) -> PayerView {
    let terms = installment_due::detail_terms(d);
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
            let due_today = installment_due::amount_due(d, i, &terms, today);
            let pix = (open && accepts(PaymentType::Pix)).then(|| {
                // The installment's own random txid, never derived from the invoice id: a
                // receipt or a bank statement shows it.
                let payload = br_code(&PixCharge {
                    key: &cfg.pix_key,
                    // The amount due today: discounted before untilDate, with fine and interest after the due date.
                    amount_cents: Some(due_today.map_or(i.price, |a| a.total)),
                    merchant_name: &cfg.merchant_name,
                    merchant_city: &cfg.merchant_city,
                    txid: numbers.txid(&i.id),
                });
                PixCode {
                    qr_svg: qr_svg(&payload).unwrap_or_default(),
                    payload,
                }
            });
            let boleto = (open && accepts(PaymentType::Boleto))
                .then(|| installment_barcode(i, cfg, numbers))
                .flatten()
                .and_then(|barcode| {
                    let line = boleto::linha_digitavel(&barcode)?;
                    Some(BoletoCode {
                        line: boleto::format_linha(&line),
                        barcode_svg: boleto::itf_svg(&barcode)?,
                        barcode,
                    })
                });
            PayerInstallment {
                installment: i.installment,
                price: i.price,
                price_paid: i.price_paid,
                due_date: i.due_date.clone(),
                status: i.status,
                pix,
                boleto,
                pix_pending: false,
                pix_unavailable: false,
                pix_automatico: false,
                // The last devolução that came back, of a payment returned in full.
                returned: (i.status == paylink_model::InstallmentStatus::Reversed)
                    .then(|| {
                        i.devolucoes
                            .iter()
                            .rev()
                            .find(|d| d.status == paylink_model::DevolucaoStatus::Devolvido)
                            .map(|d| d.natureza)
                    })
                    .flatten(),
                pay_again: paylink_model::reversal::pay_again_offered(i.status, &i.devolucoes),
                amount_due: due_today.map(|a| PayerAmountDue::new(today, &a)),
                receipt: None,
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
        fine: d.fine.clone(),
        interest: d.interest.clone(),
        discount: d.discount.clone(),
        pix_automatico: None,
        pix_automatico_again: None,
        pix_at_night: false,
    }
}

/// Pix at night (`paylink_model::pix_night`): whether the payer of `d` is to pay more than
/// the night limit by Pix for `view`'s next open installment at `now_ms`.
pub fn with_pix_at_night(view: &mut PayerView, d: &InvoiceDetail, now_ms: i64) {
    let due = view
        .next_open
        .and_then(|n| view.installments.iter().find(|i| i.installment == n))
        .map(|i| {
            i.amount_due
                .as_ref()
                .map_or(i.price - i.price_paid, |a| a.total)
        });
    view.pix_at_night = view.payment_types.contains(&PaymentType::Pix)
        && due.is_some_and(|cents| {
            paylink_model::pix_night::night_limit_applies(
                now_ms.div_euclid(1000),
                d.customer.document.as_deref(),
                cents,
            )
        });
}

/// Why an installment has no printable boleto.
#[derive(Debug, PartialEq, Eq)]
pub enum BoletoRefusal {
    /// No installment with that number.
    NotFound,
    /// Paid, cancelled, free, or the invoice does not accept BOLETO.
    NotOpenBoleto,
}

pub fn bank_name(code: &str) -> String {
    match code {
        "001" => "Banco do Brasil".into(),
        _ => format!("Banco {code}"),
    }
}

/// What the printed boleto of installment `n` shows: only what a boleto
/// carries (the payer's name, document and address, never e-mail or phone).
/// `today` is the data de processamento.
pub fn boleto_pdf_input(
    d: &InvoiceDetail,
    n: u32,
    cfg: &PayerConfig,
    numbers: &OurNumbers,
    address: Option<Address>,
    today: Date,
) -> Result<BoletoPdf, BoletoRefusal> {
    let i = d
        .installments
        .iter()
        .find(|i| i.installment == n)
        .ok_or(BoletoRefusal::NotFound)?;
    let accepts = d
        .payment_types
        .iter()
        .any(|p| p.payment_type_accepted == PaymentType::Boleto);
    if i.status != InstallmentStatus::WaitingPayment || i.price <= 0 || !accepts {
        return Err(BoletoRefusal::NotOpenBoleto);
    }
    let due = Date::parse_iso_prefix(&i.due_date).ok_or(BoletoRefusal::NotOpenBoleto)?;
    let our_number = numbers.get(&i.id).ok_or(BoletoRefusal::NotOpenBoleto)?;
    let barcode = installment_barcode(i, cfg, numbers).ok_or(BoletoRefusal::NotOpenBoleto)?;
    let mut instructions = Vec::new();
    if cfg.sandbox {
        instructions.push("BOLETO DE TESTE (sandbox): não pague este documento.".to_string());
    }
    if d.installment_count > 1 {
        instructions.push(format!("Parcela {n} de {}.", d.installment_count));
    }
    if let Some(desc) = d.description.as_deref().filter(|s| !s.trim().is_empty()) {
        instructions.push(format!("Referente a: {desc}"));
    }
    // Fine, interest and discount: stated as instructions (the cashier's
    // rule at any date), and their amounts on the day it is printed.
    let terms = installment_due::installment_terms(d, i, &installment_due::detail_terms(d));
    instructions.extend(charges::instructions(i.price, due, &terms, Lang::PtBr));
    let a = charges::amount_due(i.price, due, today, &terms);
    let fine_interest = a.fine + a.interest;
    Ok(BoletoPdf {
        bank_name: bank_name(&cfg.boleto.bank_code),
        beneficiary_name: cfg.merchant_name.clone(),
        beneficiary_document: cfg.merchant_document.clone(),
        beneficiary_code: cfg
            .boleto_beneficiary_code
            .clone()
            .unwrap_or_else(|| cfg.boleto.agreement.clone()),
        // Banco do Brasil, 7-digit agreement: convênio + the 10-digit complement.
        our_number: boleto_our_number(&cfg.boleto, our_number),
        document_number: d.external_id.clone(),
        document_date: brasilia_day(&d.created_at).unwrap_or(today),
        processing_date: today,
        due_date: due,
        amount_cents: i.price,
        discount_cents: (a.discount > 0).then_some(a.discount),
        fine_interest_cents: (fine_interest > 0).then_some(fine_interest),
        charged_cents: (a.total != a.original).then_some(a.total),
        wallet: cfg.boleto.wallet.clone(),
        document_kind: "RC".into(),
        payer_name: d.customer.full_name.clone(),
        payer_document: d.customer.document.clone(),
        payer_address: address,
        instructions,
        barcode,
        pix: None,
    })
}

/// The part of the boleto's file name that says which invoice it is: the
/// externalId's letters, digits, `-` and `_` (at most 40), or the invoice id.
pub fn file_name_part(external_id: &str, invoice_id: &str) -> String {
    let safe: String = external_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(40)
        .collect();
    if safe.is_empty() {
        invoice_id.chars().take(8).collect()
    } else {
        safe
    }
}

/// With a bank's API Pix each open PIX installment shows its charge at the bank (the dynamic BR
/// Code, `pixCopiaECola`, and its QR) once the charges worker made it, and `pixPending`
/// (the code is being generated) until then, or `pixUnavailable` when the bank refused it (a code
/// that will not come unless the merchant acts): never the static code, which the bank would not
/// match to the installment.
pub async fn with_bank_codes(
    view: &mut PayerView,
    d: &InvoiceDetail,
    db: &crate::store::Db,
) -> Result<(), crate::store::DbError> {
    for (shown, i) in view.installments.iter_mut().zip(&d.installments) {
        if shown.pix.is_none() {
            continue;
        }
        match crate::store::pix_charges::bank_code(db, &i.id.to_ascii_lowercase()).await? {
            Some(code) => {
                shown.pix = Some(PixCode {
                    qr_svg: qr_svg(&code.copia_e_cola).unwrap_or_default(),
                    payload: code.copia_e_cola,
                });
            }
            None if crate::store::pix_charges::is_cycle(db, &i.id.to_ascii_lowercase()).await? => {
                // The payer's bank pays it: no code to pay it again by hand, nor a boleto,
                // until the cycle ends unpaid.
                shown.pix = None;
                shown.boleto = None;
                shown.pix_automatico = true;
            }
            None => {
                shown.pix = None;
                let refused = i.pix_charge.as_ref().is_some_and(|c| {
                    matches!(c.state, PixChargeState::Refused | PixChargeState::Conflict)
                });
                shown.pix_unavailable = refused;
                shown.pix_pending = !refused;
            }
        }
    }
    Ok(())
}

/// The recurrence a payer is asked to authorize, while the bank holds it waiting: with the
/// composite code (Jornada 3) while the first cycle, which it pays, is the next one open; with the
/// recurrence's own code (Jornada 2, authorization only) once the first cycle was paid another
/// way. The terms are the invoice's, as the recurrence was made of them.
pub async fn with_pix_automatico(
    view: &mut PayerView,
    d: &InvoiceDetail,
    db: &crate::store::Db,
) -> Result<(), crate::store::DbError> {
    let Some(rec) = &d.pix_automatico else {
        return Ok(());
    };
    let first_open = d
        .installments
        .first()
        .is_some_and(|i| i.installment == 1 && i.status == InstallmentStatus::WaitingPayment);
    let Some((composite, own)) = crate::store::pix_recurrences::payer_code(db, &d.id).await? else {
        view.pix_automatico_again = again(d, db).await?;
        return Ok(());
    };
    let (pays_first, payload) = match (composite, own) {
        (Some(c), _) if first_open && view.next_open == Some(1) => (true, c),
        (_, Some(own)) if !first_open => (false, own),
        _ => return Ok(()),
    };
    let first = Date::parse_iso_prefix(&d.due_date);
    let last = first.and_then(|first| {
        paylink_model::pix_automatico::last_due(
            first,
            d.frequency,
            &paylink_model::plan::PeriodicEnd::new(
                d.end_date.as_deref().and_then(Date::parse_iso_prefix),
                d.end_installment,
                d.end_subscription.as_deref(),
            ),
        )
    });
    view.pix_automatico = Some(paylink_model::PayerPixAutomatico {
        pays_first,
        qr_svg: qr_svg(&payload).unwrap_or_default(),
        payload,
        contract: d.external_id.clone(),
        amount: d.price,
        periodicity: rec.periodicity,
        first_due: first.map_or_else(|| d.due_date.clone(), |f| f.to_string()),
        last_due: last.map(|l| l.to_string()),
        retry_policy: rec.retry_policy,
    });
    Ok(())
}

/// Whether the payer may ask for a new recurrence (they declined the one offered, or let it
/// expire, and the invoice still has a cycle to charge: one waiting, or more to come before its
/// end), or a new one is being made.
async fn again(
    d: &InvoiceDetail,
    db: &crate::store::Db,
) -> Result<Option<paylink_model::PixAutomaticoAgain>, crate::store::DbError> {
    use paylink_model::PixAutomaticoAgain::*;
    let Some(state) = crate::store::pix_recurrences::again(db, &d.id).await? else {
        return Ok(None);
    };
    if state == crate::store::pix_recurrences::Again::Preparing {
        return Ok(Some(Preparing));
    }
    let waiting = d
        .installments
        .iter()
        .any(|i| i.status == InstallmentStatus::WaitingPayment);
    let last_made = d
        .installments
        .iter()
        .filter_map(|i| Date::parse_iso_prefix(&i.due_date))
        .max();
    let end = Date::parse_iso_prefix(&d.due_date).and_then(|first| {
        paylink_model::pix_automatico::last_due(
            first,
            d.frequency,
            &paylink_model::plan::PeriodicEnd::new(
                d.end_date.as_deref().and_then(Date::parse_iso_prefix),
                d.end_installment,
                d.end_subscription.as_deref(),
            ),
        )
    });
    let more = match (end, last_made) {
        (Some(end), Some(last)) => last < end,
        _ => true,
    };
    if !(waiting || more) {
        return Ok(None);
    }
    Ok(Some(match state {
        crate::store::pix_recurrences::Again::Expired => Expired,
        _ => Declined,
    }))
}

/// The bank's PIX code (copia e cola) for installment `n`, when the invoice takes PIX and the
/// charge is active at the bank: what a hybrid boleto prints beside its barcode.
pub async fn bank_pix_for_boleto(
    d: &InvoiceDetail,
    n: u32,
    db: &crate::store::Db,
) -> Result<Option<String>, crate::store::DbError> {
    let takes_pix = d
        .payment_types
        .iter()
        .any(|p| p.payment_type_accepted == PaymentType::Pix);
    let Some(i) = d.installments.iter().find(|i| i.installment == n) else {
        return Ok(None);
    };
    if !takes_pix {
        return Ok(None);
    }
    let code = crate::store::pix_charges::bank_code(db, &i.id.to_ascii_lowercase()).await?;
    Ok(code.map(|c| c.copia_e_cola))
}
