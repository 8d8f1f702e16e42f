//! What the actions panel of an invoice offers in its state (`Offer`), which confirm step is
//! open (`Step`), and the payment step's fields read as a request and checked by the model's
//! rules, against the installment as the API checks it.

use paylink_model::actions::ManualPaymentRequest;
use paylink_model::installment_due::{check_manual_payment, PaymentRefused};
use paylink_model::money::{cents_to_reais, parse_price_input};
use paylink_model::Violations;
use paylink_model::{Date, Errors, InstallmentStatus, InvoiceDetail, Lang};
use paylink_text as text;

use crate::input::brasilia_today;

/// What the panel offers for an invoice in its current state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Offer {
    /// Something still waits for payment (a paid or cancelled charge is not
    /// cancelled again).
    pub cancel: bool,
    /// Something waits and the invoice has a notification channel to send on.
    pub resend: bool,
    /// The waiting installments: (number, amount in cents).
    pub pay: Vec<(u32, i64)>,
    /// The invoice itself: a payment step checks its amount and day against it, as the API
    /// will (no more than is due that day, not before the invoice was made).
    pub invoice: Option<std::sync::Arc<InvoiceDetail>>,
}

impl Offer {
    pub fn of(inv: &InvoiceDetail) -> Offer {
        let pay: Vec<(u32, i64)> = inv
            .installments
            .iter()
            .filter(|i| i.status == InstallmentStatus::WaitingPayment)
            .map(|i| (i.installment, i.price))
            .collect();
        let channels = [
            &inv.notification_before_due_date,
            &inv.notification_after_due_date,
            &inv.notification_after_payment,
            &inv.notification_send_types,
        ]
        .iter()
        .any(|n| !n.is_empty());
        Offer {
            cancel: !pay.is_empty(),
            resend: !pay.is_empty() && channels,
            pay,
            invoice: Some(std::sync::Arc::new(inv.clone())),
        }
    }

    pub fn is_empty(&self) -> bool {
        !self.cancel && !self.resend && self.pay.is_empty()
    }

    /// Whether step `s` can be open on an invoice offering `self`.
    pub fn allows(&self, s: Step) -> bool {
        match s {
            Step::Closed => true,
            Step::Cancel => self.cancel,
            Step::Resend => self.resend,
            Step::Pay(n) => self.pay.iter().any(|(m, _)| *m == n),
        }
    }
}

/// Which confirm step is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Closed,
    Cancel,
    Resend,
    Pay(u32),
}

impl Step {
    /// The id of the button that opens this step (the focus goes back there).
    pub fn opener(self) -> String {
        match self {
            Step::Closed => String::new(),
            Step::Cancel => "act-cancel".into(),
            Step::Resend => "act-resend".into(),
            Step::Pay(n) => format!("act-pay-{n}"),
        }
    }
}

/// The payment step's fields as the request, or the messages keyed by API
/// field path (`amount`, `paidOn`): the amount as typed in a pt-BR form
/// (`1.000,00`), the date as the language writes it, then the model's rules
/// (`ManualPaymentRequest::check`: positive, 2 decimals, not after `today`).
pub fn payment_request(
    amount: &str,
    paid_on: &str,
    lang: Lang,
    today: Date,
) -> Result<ManualPaymentRequest, Errors> {
    read_payment(amount, paid_on, lang, |req| req.check(today).map(drop))
}

/// [`payment_request`] for installment `n` of `invoice`, checked as the API checks it
/// ([`check_manual_payment`]): also no more than the installment cost on the day it was
/// received, and not before the invoice was made.
pub fn installment_payment_request(
    invoice: &InvoiceDetail,
    n: u32,
    amount: &str,
    paid_on: &str,
    lang: Lang,
    today: Date,
) -> Result<ManualPaymentRequest, Errors> {
    read_payment(amount, paid_on, lang, |req| {
        match check_manual_payment(invoice, n, req, today) {
            Ok(_) => Ok(()),
            Err(PaymentRefused::Invalid(v)) => Err(v),
            // The offer lists only the invoice's own installments; the API answers otherwise.
            Err(PaymentRefused::NoInstallment) => req.check(today).map(drop),
        }
    })
}

/// The fields read as the language writes them, then `check`ed by the model's rules; an
/// unreadable text gets its own message rather than the model's "required".
fn read_payment(
    amount: &str,
    paid_on: &str,
    lang: Lang,
    check: impl FnOnce(&ManualPaymentRequest) -> Result<(), Violations>,
) -> Result<ManualPaymentRequest, Errors> {
    let mut bad = Errors::new();
    let amount = amount.trim();
    let amount = if amount.is_empty() {
        None
    } else {
        match parse_price_input(amount) {
            Some(cents) => Some(cents_to_reais(cents)),
            None => {
                bad.insert(
                    "amount".into(),
                    vec![text::PRICE_FORMAT.t(lang).to_string()],
                );
                None
            }
        }
    };
    let paid_on = paid_on.trim();
    let paid_on = if paid_on.is_empty() {
        None
    } else {
        match Date::parse_for(lang, paid_on) {
            Ok(d) => Some(d.to_string()),
            Err(msg) => {
                bad.insert("paidOn".into(), vec![msg.render(lang)]);
                None
            }
        }
    };
    let req = ManualPaymentRequest { amount, paid_on };
    let mut errors = match check(&req) {
        Ok(()) => Errors::new(),
        Err(v) => v.render(lang),
    };
    errors.extend(bad);
    if errors.is_empty() {
        Ok(req)
    } else {
        Err(errors)
    }
}

/// The open payment step's request: checked against its installment when the offer carries
/// the invoice.
pub(super) fn step_request(
    offer: Option<Offer>,
    step: Step,
    amount: &str,
    paid_on: &str,
    l: Lang,
) -> Result<ManualPaymentRequest, Errors> {
    match (offer.and_then(|o| o.invoice), step) {
        (Some(inv), Step::Pay(n)) => {
            installment_payment_request(&inv, n, amount, paid_on, l, today())
        }
        _ => payment_request(amount, paid_on, l, today()),
    }
}

pub(super) fn today() -> Date {
    brasilia_today()
        .or_else(|| Date::new(1970, 1, 1))
        .expect("a valid date")
}
