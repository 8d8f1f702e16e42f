//! The invoice form's state: what the merchant typed ([`InvoiceFields`],
//! its terms in `terms`' [`TermFields`]), the request built from it, the model's verdict on it, the
//! field each API path shows on, and the installment plan the preview draws.

use leptos::prelude::*;
use paylink_model::charges::{validate_terms, TermsContext};
use paylink_model::errors::Msg;
use paylink_model::money::parse_brl;
use paylink_model::{
    installment_plan, CheckOptions, Date, Errors, Frequency, InvoiceRequest, InvoiceType, Lang,
    PixAutomaticoRequest, PlannedInstallment, MAX_INSTALLMENTS,
};
use paylink_ui::customer::text;
use paylink_ui::form::{flag_signal, text_signal, Form};

use crate::components::editors::{trimmed, whole, NotificationRow, WebhookRow};
use crate::input::brasilia_today;

pub use super::terms::TermFields;
use super::terms::{iso_date, payment_types, typed_price, TERM_FIELDS};

/// What the person typed in the invoice form.
#[derive(Clone, Copy)]
pub struct InvoiceFields {
    pub customer_id: RwSignal<String>,
    pub external_id: RwSignal<String>,
    pub due_date: RwSignal<String>,
    pub pix: RwSignal<bool>,
    pub boleto: RwSignal<bool>,
    /// Wire name (`SINGLE`…).
    pub invoice_type: RwSignal<String>,
    pub installment_count: RwSignal<String>,
    pub frequency: RwSignal<String>,
    pub end_date: RwSignal<String>,
    pub end_installment: RwSignal<String>,
    pub end_subscription: RwSignal<String>,
    /// pt-BR currency text (`1.234,56`).
    pub price: RwSignal<String>,
    pub price_by_customer: RwSignal<bool>,
    /// RECURRING and SUBSCRIPTION: charge through Pix Automático, and whether a failed cycle is
    /// tried again.
    pub pix_automatico: RwSignal<bool>,
    pub pix_automatico_retries: RwSignal<bool>,
    pub description: RwSignal<String>,
    pub redirect_to: RwSignal<String>,
    pub notifications: RwSignal<Vec<NotificationRow>>,
    pub webhooks: RwSignal<Vec<WebhookRow>>,
    /// The id of the customer created in this session when its document is
    /// a CPF: while `customerId` is that id, the fine is capped at 2 % (CDC
    /// art. 52 §1) here already; for other ids the server knows the document.
    pub cpf_customer: RwSignal<Option<String>>,
    /// Fine, interest and discount: `PERCENTAGE`/`FIXED` and the numbers as
    /// typed (`2`, `2,5`, `1.000,00`); a term is sent when its value is filled in.
    pub terms: TermFields,
}

/// A short random id for `externalId` (`PL-` and 6 base-36 characters).
pub fn random_external_id() -> String {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut n = (js_sys::Math::random() * 2_176_782_336.0) as u64; // 36^6
    let mut id = String::from("PL-");
    for _ in 0..6 {
        id.push(DIGITS[(n % 36) as usize] as char);
        n /= 36;
    }
    id
}

/// A CPF's shape (11 digits): all `charges::document_is_cpf` looks at.
const CPF_SHAPE: &str = "00000000000";

/// Today in Brasília + `days`, as a date field keeps it (ISO; it shows it
/// in the form's language).
fn days_from_today(days: i64) -> String {
    brasilia_today()
        .and_then(|d| d.add_days(days))
        .map(|d| d.to_string())
        .unwrap_or_default()
}

/// `notifications[3].period` → `(3, "period")` for `list` = `notifications`.
fn row_of<'a>(path: &'a str, list: &str) -> Option<(usize, &'a str)> {
    let rest = path.strip_prefix(list)?.strip_prefix('[')?;
    let (idx, tail) = rest.split_once(']')?;
    Some((idx.parse().ok()?, tail.strip_prefix('.')?))
}

impl Default for InvoiceFields {
    fn default() -> Self {
        Self::new()
    }
}

impl InvoiceFields {
    /// Empty fields but the defaults (the due date a week from today).
    pub fn new() -> Self {
        let s = || text_signal("");
        InvoiceFields {
            customer_id: s(),
            external_id: text_signal(&random_external_id()),
            due_date: text_signal(&days_from_today(7)),
            pix: flag_signal(true),
            boleto: flag_signal(true),
            invoice_type: text_signal(InvoiceType::Single.as_str()),
            installment_count: text_signal("2"),
            frequency: text_signal(Frequency::Monthly.as_str()),
            end_date: s(),
            end_installment: s(),
            end_subscription: s(),
            price: s(),
            price_by_customer: flag_signal(false),
            pix_automatico: flag_signal(false),
            pix_automatico_retries: flag_signal(false),
            description: s(),
            redirect_to: s(),
            notifications: RwSignal::new(Vec::new()),
            webhooks: RwSignal::new(Vec::new()),
            cpf_customer: RwSignal::new(None),
            terms: TermFields::new(),
        }
    }

    /// The selected invoice type (tracked).
    pub fn kind(&self) -> InvoiceType {
        self.invoice_type
            .with(|t| InvoiceType::parse(t))
            .unwrap_or(InvoiceType::Single)
    }

    fn kind_untracked(&self) -> InvoiceType {
        untrack(|| self.kind())
    }

    /// Whether the payer sets the amount (only offered for SINGLE; tracked).
    pub fn by_customer(&self) -> bool {
        self.kind() == InvoiceType::Single && self.price_by_customer.get()
    }

    /// The request to send (only the fields that apply to the selected type)
    /// and the fields whose text could not be read as a number.
    pub fn build(&self, lang: Lang) -> (InvoiceRequest, Errors) {
        let t = self.kind_untracked();
        let mut bad = Errors::new();
        let mut int = |path: String, s: RwSignal<String>| match s.with_untracked(|v| whole(v)) {
            Ok(n) => n,
            Err(()) => {
                bad.insert(path, vec![Msg::WrongType("a whole number").render(lang)]);
                None
            }
        };
        let installment_count = match t {
            InvoiceType::Installment => int("installmentCount".into(), self.installment_count),
            _ => Some(1),
        };
        let end_installment = match t {
            InvoiceType::Recurring => int("endInstallment".into(), self.end_installment),
            _ => None,
        };
        let by_customer = untrack(|| self.by_customer());
        let price = typed_price(&mut bad, lang, self.price, by_customer);
        let payment_types = payment_types(self.pix, self.boleto);
        let notifications: Vec<_> = self.notifications.with_untracked(|rows| {
            rows.iter()
                .enumerate()
                .map(|(i, r)| {
                    let (req, not_a_number) = r.request();
                    if not_a_number {
                        bad.insert(
                            format!("notifications[{i}].period"),
                            vec![Msg::WrongType("a whole number").render(lang)],
                        );
                    }
                    req
                })
                .collect()
        });
        let webhooks: Vec<_> = self
            .webhooks
            .with_untracked(|rows| rows.iter().map(WebhookRow::request).collect());
        let periodic = t.is_periodic();
        let due_date = iso_date(&mut bad, lang, "dueDate", self.due_date);
        let end_date = if t == InvoiceType::Recurring {
            iso_date(&mut bad, lang, "endDate", self.end_date)
        } else {
            None
        };
        let (fine, interest, discount) = self.terms.build(lang, &mut bad);
        let req = InvoiceRequest {
            customer_id: text(self.customer_id),
            external_id: text(self.external_id),
            due_date,
            payment_types: Some(payment_types),
            installment_count,
            price,
            description: self.description.with_untracked(|v| trimmed(v)),
            invoice_type: Some(t.as_str().to_string()),
            frequency: if periodic { text(self.frequency) } else { None },
            end_date,
            end_installment,
            end_subscription: if t == InvoiceType::Subscription {
                text(self.end_subscription)
            } else {
                None
            },
            notifications: (!notifications.is_empty()).then_some(notifications),
            webhooks: (!webhooks.is_empty()).then_some(webhooks),
            redirect_to: text(self.redirect_to),
            price_by_customer: by_customer.then_some(true),
            fine,
            interest,
            discount,
            pix_automatico: (periodic && self.pix_automatico.get_untracked()).then(|| {
                PixAutomaticoRequest {
                    retries: Some(self.pix_automatico_retries.get_untracked()),
                }
            }),
        };
        (req, bad)
    }

    /// The model's verdict on the current values (plus unreadable numbers
    /// and dates), with the server's rule that a due date is not before
    /// today in Brasília.
    pub fn check(&self, lang: Lang) -> Errors {
        let (req, bad) = self.build(lang);
        let opts = CheckOptions {
            today: brasilia_today(),
            ..CheckOptions::default()
        };
        let mut errors = match req.check_with(opts) {
            Ok(new) if self.payer_is_cpf() => new
                .check_terms_for_payer(&req, Some(CPF_SHAPE))
                .err()
                .map(|v| v.render(lang))
                .unwrap_or_default(),
            Ok(_) => Errors::new(),
            Err(v) => v.render(lang),
        };
        // The consumer's cap on a percentage fine needs no amount: shown
        // while other fields still have errors too.
        if self.payer_is_cpf() && !errors.contains_key("fine.value") {
            let cap = TermsContext {
                payer_is_cpf: true,
                ..TermsContext::default()
            };
            if let Some(m) =
                validate_terms(req.fine.as_ref(), None, None, cap, lang).remove("fine.value")
            {
                errors.insert("fine.value".into(), m);
            }
        }
        errors.extend(bad);
        errors
    }

    /// Whether `customerId` is the customer created here with a CPF.
    fn payer_is_cpf(&self) -> bool {
        let id = text(self.customer_id);
        self.cpf_customer
            .with_untracked(|c| c.is_some() && c.as_deref() == id.as_deref())
    }

    /// The visible field that shows the error of API path `path`.
    pub fn field_of(&self, path: &str) -> Option<String> {
        let t = self.kind_untracked();
        let shown = match path {
            "customerId" | "externalId" | "dueDate" | "paymentTypes" | "invoiceType"
            | "description" | "redirectTo" => true,
            "price" => !untrack(|| self.by_customer()),
            "priceByCustomer" => t == InvoiceType::Single,
            "installmentCount" => t == InvoiceType::Installment,
            "frequency" | "pixAutomatico" => t.is_periodic(),
            "pixAutomatico.retries" => return t.is_periodic().then(|| "pixAutomatico".to_string()),
            "endDate" | "endInstallment" => t == InvoiceType::Recurring,
            "endSubscription" => t == InvoiceType::Subscription,
            _ if TERM_FIELDS.contains(&path) => true,
            _ => {
                if path.starts_with("paymentTypes[") {
                    return Some("paymentTypes".to_string());
                }
                if let Some((i, f)) = row_of(path, "notifications") {
                    self.notifications.with_untracked(|rows| {
                        rows.get(i).is_some_and(|r| match f {
                            "type" | "channel" => true,
                            "period" => r.takes_period(),
                            _ => false,
                        })
                    })
                } else if let Some((i, f)) = row_of(path, "webhooks") {
                    matches!(f, "hookType" | "url")
                        && self.webhooks.with_untracked(|rows| i < rows.len())
                } else {
                    false
                }
            }
        };
        shown.then(|| path.to_string())
    }

    /// The installments the server will create for the current values
    /// (tracked; empty until amount, count and due date are valid).
    pub fn plan(&self, lang: Lang) -> Vec<PlannedInstallment> {
        let t = self.kind();
        if self.by_customer() {
            return Vec::new();
        }
        let Some(cents) = self.price.with(|p| parse_brl(p)) else {
            return Vec::new();
        };
        let count = if t == InvoiceType::Installment {
            match self.installment_count.with(|c| c.trim().parse::<u32>()) {
                Ok(n) if (1..=MAX_INSTALLMENTS).contains(&n) => n,
                _ => return Vec::new(),
            }
        } else {
            1
        };
        match self.due_date.with(|d| Date::parse_for(lang, d)) {
            Ok(due) => installment_plan(cents, count, due),
            Err(_) => Vec::new(),
        }
    }

    pub fn form(self, lang: RwSignal<Lang>) -> Form {
        Form::new(
            "invoice-form",
            lang,
            move |l| self.check(l),
            move |p| self.field_of(p),
        )
    }
}
