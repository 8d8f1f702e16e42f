//! What the payer page shows: the invoice without the merchant's private
//! data (no e-mail, phone, webhooks or notifications; the payer's document only
//! masked, on a paid installment's receipt), with the PIX and boleto codes of
//! each open installment.

use serde::{Deserialize, Serialize};

use crate::charges::{AmountDue, Discount, Fine, Interest};
use crate::enums::{InstallmentStatus, PaymentType};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayerView {
    pub id: String,
    pub merchant_name: String,
    pub description: Option<String>,
    #[serde(with = "crate::money::reais")]
    pub price: i64,
    pub price_by_customer: bool,
    /// The payer's own name, to reassure them the charge is theirs.
    pub customer_name: String,
    pub installments: Vec<PayerInstallment>,
    pub payment_types: Vec<PaymentType>,
    pub redirect_to: Option<String>,
    pub url: String,
    /// The number of the next installment waiting for payment, if any.
    pub next_open: Option<u32>,
    /// Sandbox server: the page may offer "simulate payment".
    pub sandbox: bool,
    /// The invoice's fine, interest and discount (null when none): what
    /// the page states next to the amounts (`charges::instructions`).
    #[serde(default)]
    pub fine: Option<Fine>,
    #[serde(default)]
    pub interest: Option<Interest>,
    #[serde(default)]
    pub discount: Option<Discount>,
    /// Pix Automático: the recurrence the payer is asked to authorize, with the composite code
    /// that pays the first cycle and authorizes the rest; absent when there is none to authorize.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pix_automatico: Option<PayerPixAutomatico>,
    /// Pix Automático asked for again: the payer declined the recurrence offered (or let it
    /// expire) and the invoice still has cycles to charge, so the page offers a new one; or the
    /// new one is being made at the bank. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pix_automatico_again: Option<PixAutomaticoAgain>,
    /// Pix at night (`pix_night`): the payer is a person to pay more than R$ 1.000,00 by Pix
    /// between 20h and 6h in Brasília, which their bank may refuse; the page says so (and
    /// points to the boleto when the invoice takes it). Absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pix_at_night: bool,
}

/// Where a payer stands who may authorize Pix Automático again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PixAutomaticoAgain {
    /// The payer declined the recurrence in their bank app: a new one may be asked for.
    Declined,
    /// The recurrence was never authorized in time: a new one may be asked for.
    Expired,
    /// The new one is being made at the bank; its code comes in a moment.
    Preparing,
}

/// The recurrence a payer authorizes with its code, and the terms they agree to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayerPixAutomatico {
    /// `true`: the composite code, which pays the first cycle and authorizes the rest (Jornada
    /// 3); `false`: the recurrence's own code, which only authorizes the next cycles (Jornada 2:
    /// the first was paid another way).
    #[serde(default)]
    pub pays_first: bool,
    /// The BR Code (copia e cola).
    pub payload: String,
    /// The same payload as an SVG QR code.
    pub qr_svg: String,
    /// The contract the payer's bank shows (the invoice's `externalId`).
    pub contract: String,
    /// Each cycle's amount.
    #[serde(with = "crate::money::reais")]
    pub amount: i64,
    pub periodicity: crate::pix_automatico::Periodicidade,
    /// `YYYY-MM-DD`.
    pub first_due: String,
    /// `YYYY-MM-DD`; null: until cancelled.
    pub last_due: Option<String>,
    pub retry_policy: crate::pix_automatico::RetryPolicy,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayerInstallment {
    pub installment: u32,
    #[serde(with = "crate::money::reais")]
    pub price: i64,
    #[serde(with = "crate::money::reais")]
    pub price_paid: i64,
    pub due_date: String,
    pub status: InstallmentStatus,
    /// Only for open installments of invoices that accept PIX.
    pub pix: Option<PixCode>,
    /// Only for open installments of invoices that accept BOLETO.
    pub boleto: Option<BoletoCode>,
    /// With a bank's API Pix (`serve --pix-api-url`): the installment's charge is not at the
    /// bank yet, so `pix` is null and the page says the code is being generated.
    #[serde(default)]
    pub pix_pending: bool,
    /// With a bank's API Pix: the bank refused the installment's charge, so
    /// there will be no PIX code until the merchant acts; the page says PIX
    /// is not available (and nothing of the bank's reasons).
    #[serde(default)]
    pub pix_unavailable: bool,
    /// Pix Automático: the payer's bank pays this installment on its due date (a recurring
    /// charge the payer authorized), so the page shows no code for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pix_automatico: bool,
    /// A `REVERSED` installment whose Pix the bank returned: why (a MED dispute, or the
    /// merchant's refund), which the page says in words. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returned: Option<crate::invoice::DevolucaoNatureza>,
    /// A paid (or since reversed) installment's receipt, with paylink's own service; the page
    /// shows it and links its PDF (`/api/pay/{id}/installments/{n}/receipt.pdf`). Absent
    /// while unpaid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<crate::receipt::Receipt>,
    /// A `REVERSED` installment the payer may pay again (its last devolução was not a MED
    /// claim of fraud): the page offers it. Absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pay_again: bool,
    /// What an open installment costs if paid today (in Brasília): its
    /// price less the discount before `untilDate`, plus fine and interest
    /// after the due date. The PIX code carries `total`. Null when paid.
    #[serde(default)]
    pub amount_due: Option<PayerAmountDue>,
}

/// [`AmountDue`] on the wire: amounts in reais, dates `YYYY-MM-DD`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayerAmountDue {
    /// The day these amounts are for (today in Brasília).
    pub date: String,
    #[serde(with = "crate::money::reais")]
    pub original: i64,
    #[serde(with = "crate::money::reais")]
    pub discount: i64,
    #[serde(with = "crate::money::reais")]
    pub fine: i64,
    #[serde(with = "crate::money::reais")]
    pub interest: i64,
    /// original − discount + fine + interest.
    #[serde(with = "crate::money::reais")]
    pub total: i64,
    /// The due date moved to a business day: the last day without fine or interest.
    pub effective_due_date: String,
    /// Calendar days of interest.
    pub late_days: i64,
}

impl PayerAmountDue {
    pub fn new(date: crate::date::Date, a: &AmountDue) -> Self {
        PayerAmountDue {
            date: date.to_string(),
            original: a.original,
            discount: a.discount,
            fine: a.fine,
            interest: a.interest,
            total: a.total,
            effective_due_date: a.effective_due.to_string(),
            late_days: a.late_days,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PixCode {
    /// The BR Code ("copia e cola").
    pub payload: String,
    /// The same payload as an SVG QR code.
    pub qr_svg: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoletoCode {
    /// The 47-digit linha digitável, formatted as printed.
    pub line: String,
    /// The 44-digit barcode.
    pub barcode: String,
    /// The barcode as Interleaved 2 of 5 bars in SVG.
    pub barcode_svg: String,
}
