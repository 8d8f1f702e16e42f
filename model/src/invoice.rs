//! Invoices: the creation request and its rules, and both response forms.
//! Long because the request's rules read together (which fields apply to
//! which invoice type, and how they constrain one another); the wire types
//! of the responses follow them.

use serde::{Deserialize, Serialize};

use crate::br;
use crate::charges::{self, ChargeTerms, Discount, Fine, Interest, TermsContext};
use crate::customer::{max_chars, present, CustomerDetail, CustomerRef};
use crate::date::Date;
use crate::enums::*;
use crate::errors::{Errors, Msg, Violations, MAX_PERIOD_DAYS, MIN_PERIOD_DAYS};
use crate::money::{self, MoneyError, MAX_CENTS, MIN_PRICE_CENTS};
use crate::pix_automatico::{self, NewPixAutomatico, PixAutomaticoDetail, PixAutomaticoRequest};
use crate::plan::MAX_INSTALLMENTS;
use crate::Lang;

/// Here, beside the invoice it reads, so that `charges` names no module that uses it.
impl TermsContext {
    /// The context of a checked invoice: its smallest installment (the
    /// plan gives the leftover cents to the first ones, so the smallest is
    /// price ÷ count rounded down; unknown when the payer sets the price),
    /// its first due date, and whether the customer's document is a CPF.
    pub fn for_invoice(invoice: &NewInvoice, customer_document: Option<&str>) -> Self {
        let amount_cents = (!invoice.price_by_customer)
            .then(|| invoice.price_cents / i64::from(invoice.installment_count.max(1)));
        TermsContext {
            amount_cents,
            due_date: Some(invoice.due_date),
            payer_is_cpf: charges::document_is_cpf(customer_document),
        }
    }
}

pub const DESCRIPTION_MAX: usize = 350;
pub const EXTERNAL_ID_MAX: usize = 100;
pub const END_SUBSCRIPTION_MAX: usize = 100;
pub const MAX_NOTIFICATIONS: usize = 20;
pub const MAX_WEBHOOKS: usize = 20;
pub const MAX_END_INSTALLMENT: i64 = 1000;

/// `POST /invoices/applications/invoices` body. Enums are strings and every
/// field is optional here, so that each problem becomes a keyed field error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "An invoice to create for an already registered customer.")
)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceRequest {
    /// An already registered customer of the caller's application.
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, format = "uuid"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
    /// The caller's identifier, for reconciliation; in every webhook payload.
    #[cfg_attr(
        feature = "openapi",
        schema(
            value_type = String,
            required = true,
            max_length = 100,
            pattern = r"\S",
            example = "pedido-1"
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    /// YYYY-MM-DD, not before today in Brasília (UTC−3).
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = String, required = true, format = "date", example = "2027-01-31")
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_date: Option<String>,
    /// At least one, without repeats.
    #[cfg_attr(
        feature = "openapi",
        schema(schema_with = payment_types_schema, required = true)
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_types: Option<Vec<String>>,
    /// 1 for SINGLE, RECURRING and SUBSCRIPTION; 2 to 120 for INSTALLMENT.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = i64, required = true, minimum = 1, maximum = 120)
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub installment_count: Option<i64>,
    /// Reais, at most two decimals (the wire form; `check` converts it to cents).
    /// Required unless `priceByCustomer`; each installment is at least R$ 5,00.
    #[cfg_attr(
        feature = "openapi",
        schema(
            minimum = 5,
            maximum = 99999999.99,
            multiple_of = 0.01,
            example = 100.0
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<f64>,
    /// Shown to the payer.
    #[cfg_attr(feature = "openapi", schema(max_length = 350))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Default SINGLE.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<InvoiceType>))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_type: Option<String>,
    /// Required for and only allowed with RECURRING and SUBSCRIPTION.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Frequency>))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frequency: Option<String>,
    /// Last due date of a RECURRING invoice or SUBSCRIPTION; after dueDate.
    #[cfg_attr(feature = "openapi", schema(format = "date"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    /// Number of the last charge of a RECURRING invoice.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_installment: Option<i64>,
    /// SUBSCRIPTION only; an ISO date ends it.
    #[cfg_attr(feature = "openapi", schema(max_length = 100))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_subscription: Option<String>,
    #[cfg_attr(feature = "openapi", schema(max_items = 20))]
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_objects"
    )]
    pub notifications: Option<Vec<NotificationRequest>>,
    /// They take priority over the application's webhooks.
    #[cfg_attr(feature = "openapi", schema(max_items = 20))]
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_objects"
    )]
    pub webhooks: Option<Vec<WebhookRequest>>,
    /// http(s) URL the payer is sent to after paying.
    #[cfg_attr(feature = "openapi", schema(format = "uri"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_to: Option<String>,
    /// SINGLE only: the payer sets the amount and `price` is ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_by_customer: Option<bool>,
    /// Multa: charged once when paid after the due date (moved to the next
    /// business day when it falls on a weekend or bank holiday). A
    /// PERCENTAGE of each installment (at most 2 when the customer's
    /// document is a CPF, 20 otherwise) or a FIXED amount in reais.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_object"
    )]
    pub fine: Option<Fine>,
    /// Juros de mora: percent per month (at most 10), charged per calendar
    /// day late (a thirtieth of it a day) on each installment.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_object"
    )]
    pub interest: Option<Interest>,
    /// Desconto for paying on or before `untilDate` (not after `dueDate`):
    /// a PERCENTAGE (below 100) or a FIXED amount below the smallest installment.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_object"
    )]
    pub discount: Option<Discount>,
    /// Pix Automático (RECURRING and SUBSCRIPTION accepting PIX): the payer authorizes the
    /// recurrence once in their bank app, and their bank pays each cycle on its due date.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_object"
    )]
    pub pix_automatico: Option<PixAutomaticoRequest>,
}

/// `paymentTypes` of the request: the derive has no `uniqueItems`.
#[cfg(feature = "openapi")]
pub(crate) fn payment_types_schema() -> utoipa::openapi::Array {
    utoipa::openapi::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name("PaymentType"))
        .min_items(Some(1))
        .unique_items(true)
        .description(Some("At least one, without repeats."))
        .build()
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NotificationRequest {
    #[cfg_attr(feature = "openapi", schema(value_type = NotificationType, required = true))]
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = Channel, required = true))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// Days before/after the event; only for SEND_INVOICE_REMINDER and INVOICE_RESEND (default 5).
    #[cfg_attr(feature = "openapi", schema(minimum = 5, maximum = 365))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct WebhookRequest {
    #[cfg_attr(feature = "openapi", schema(value_type = InvoiceHookType, required = true))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_type: Option<String>,
    /// HTTPS, on a public host, without credentials.
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, format = "uri"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// An invoice request that passed every rule, typed and normalised.
#[derive(Clone, Debug, PartialEq)]
pub struct NewInvoice {
    pub customer_id: String,
    pub external_id: String,
    pub due_date: Date,
    pub payment_types: Vec<PaymentType>,
    pub installment_count: u32,
    /// 0 when `price_by_customer` (the payer sets the amount).
    pub price_cents: i64,
    pub description: Option<String>,
    pub invoice_type: InvoiceType,
    pub frequency: Option<Frequency>,
    pub end_date: Option<Date>,
    pub end_installment: Option<u32>,
    pub end_subscription: Option<String>,
    pub notifications: Vec<NewNotification>,
    pub webhooks: Vec<NewWebhook>,
    pub redirect_to: Option<String>,
    pub price_by_customer: bool,
    /// Fine, interest and discount as checked without the customer (a
    /// CPF's 2 % cap on the fine needs its document: see
    /// [`NewInvoice::check_terms_for_payer`]).
    pub terms: ChargeTerms,
    /// Pix Automático as asked, checked against the request alone (the server's setup and the
    /// customer are checked by [`NewInvoice::check_pix_automatico`]).
    pub pix_automatico: Option<NewPixAutomatico>,
}

impl NewInvoice {
    /// The terms of `req` checked again once the customer is known: the
    /// fine of a payer whose document is a CPF is capped at 2 %
    /// (Código de Defesa do Consumidor, art. 52 §1).
    pub fn check_terms_for_payer(
        &self,
        req: &InvoiceRequest,
        customer_document: Option<&str>,
    ) -> Result<ChargeTerms, Violations> {
        charges::check_terms(
            req.fine.as_ref(),
            req.interest.as_ref(),
            req.discount.as_ref(),
            TermsContext::for_invoice(self, customer_document),
        )
    }
}

impl NewInvoice {
    /// The Pix Automático rules of the server's setup and of the customer (API Pix configured,
    /// a company merchant, a payer with a CPF or CNPJ), when the invoice asks for it.
    /// Refused on `paymentTypes` when it asks for the one type the merchant does not offer
    /// (`not_offered`, from the server's settings).
    pub fn check_offered(&self, not_offered: Option<PaymentType>) -> Result<(), Violations> {
        check_offered(&self.payment_types, not_offered)
    }

    pub fn check_pix_automatico(&self, ctx: pix_automatico::Context<'_>) -> Result<(), Violations> {
        match self.pix_automatico {
            Some(_) => pix_automatico::check_context(ctx),
            None => Ok(()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewNotification {
    pub kind: NotificationType,
    pub channel: Channel,
    pub period: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWebhook {
    pub hook_type: HookType,
    pub url: String,
}

/// `types` (an invoice's or a payment link's) refused on `paymentTypes` when they ask for
/// the one type the merchant does not offer (`not_offered`, from the server's settings).
pub fn check_offered(
    types: &[PaymentType],
    not_offered: Option<PaymentType>,
) -> Result<(), Violations> {
    match not_offered {
        Some(t) if types.contains(&t) => {
            let mut v = Violations::default();
            v.add("paymentTypes", Msg::PaymentTypeNotOffered);
            Err(v)
        }
        _ => Ok(()),
    }
}

/// Server settings that change a rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// Accept `http://` webhook URLs and loopback/private hosts (local tests only).
    pub allow_insecure_webhooks: bool,
    /// Today in Brasília: a `dueDate` (or `discount.untilDate`) before it is
    /// refused. `None` skips that rule (pure checks, property tests).
    pub today: Option<Date>,
}

/// A required or optional enum given as text.
fn enum_field<T: Copy>(
    v: &mut Violations,
    path: &str,
    value: &Option<String>,
    required: bool,
    parse: fn(&str) -> Option<T>,
    names: &'static [&'static str],
) -> Option<T> {
    match value.as_deref().map(str::trim) {
        None | Some("") => {
            if required {
                v.add(path, Msg::Required);
            }
            None
        }
        Some(s) => parse(s).or_else(|| {
            v.add(path, Msg::OneOf(names));
            None
        }),
    }
}

fn date_field(v: &mut Violations, path: &str, value: &Option<String>) -> Option<Date> {
    let s = present(value)?;
    Date::parse_iso(s).or_else(|| {
        v.add(path, Msg::IsoDate);
        None
    })
}

fn int_in(v: &mut Violations, path: &str, n: i64, min: i64, max: i64) -> Option<u32> {
    if (min..=max).contains(&n) {
        Some(n as u32)
    } else {
        v.add(path, Msg::IntRange(min, max));
        None
    }
}

/// The price rule: required unless priceByCustomer, R$ 5,00 to the boleto
/// maximum, at most two decimals.
pub(crate) fn price_field(v: &mut Violations, price: Option<f64>) -> Option<i64> {
    let Some(reais) = price else {
        v.add("price", Msg::Required);
        return None;
    };
    match money::reais_to_cents(reais) {
        Ok(c) if c < MIN_PRICE_CENTS => v.add("price", Msg::MinPrice),
        Ok(c) if c > MAX_CENTS => v.add("price", Msg::MaxPrice),
        Ok(c) => return Some(c),
        Err(MoneyError::TooManyDecimals) => v.add("price", Msg::TooManyDecimals),
        Err(MoneyError::Negative) => v.add("price", Msg::MinPrice),
        Err(MoneyError::TooLarge) => v.add("price", Msg::MaxPrice),
        Err(MoneyError::NotANumber) => v.add("price", Msg::WrongType("a number")),
    }
    None
}

const PERIODIC: &str = "invoiceType = RECURRING | SUBSCRIPTION";

impl InvoiceRequest {
    /// [`InvoiceRequest::check_with`] with the production defaults.
    pub fn check(&self) -> Result<NewInvoice, Violations> {
        self.check_with(CheckOptions::default())
    }

    pub fn check_with(&self, opts: CheckOptions) -> Result<NewInvoice, Violations> {
        let mut v = Violations::default();

        let customer_id = match present(&self.customer_id) {
            None => {
                v.add("customerId", Msg::Required);
                None
            }
            Some(s) if !br::uuid_is_valid(s) => {
                v.add("customerId", Msg::Uuid);
                None
            }
            Some(s) => Some(s.to_ascii_lowercase()),
        };

        let external_id = match present(&self.external_id) {
            None => {
                v.add("externalId", Msg::Required);
                None
            }
            Some(s) => max_chars(&mut v, "externalId", s, EXTERNAL_ID_MAX).then(|| s.to_string()),
        };

        let mut due_date = date_field(&mut v, "dueDate", &self.due_date);
        if present(&self.due_date).is_none() {
            v.add("dueDate", Msg::Required);
        }
        if let (Some(due), Some(today)) = (due_date, opts.today) {
            if let Err(past) = crate::date_input::check_not_past("dueDate", due, today) {
                v.0.extend(past.0);
                due_date = None;
            }
        }

        let mut payment_types = Vec::new();
        match &self.payment_types {
            None => v.add("paymentTypes", Msg::Required),
            Some(list) if list.is_empty() => v.add("paymentTypes", Msg::AtLeastOne),
            Some(list) => {
                for (i, raw) in list.iter().enumerate() {
                    let path = format!("paymentTypes[{i}]");
                    match PaymentType::parse(raw.trim()) {
                        None => v.add(path, Msg::OneOf(PaymentType::NAMES)),
                        Some(t) if payment_types.contains(&t) => v.add(path, Msg::Duplicate),
                        Some(t) => payment_types.push(t),
                    }
                }
            }
        }

        let invoice_type = enum_field(
            &mut v,
            "invoiceType",
            &self.invoice_type,
            false,
            InvoiceType::parse,
            InvoiceType::NAMES,
        );
        let type_ok = invoice_type.is_some() || present(&self.invoice_type).is_none();
        let invoice_type = invoice_type.unwrap_or(InvoiceType::Single);
        let price_by_customer = self.price_by_customer.unwrap_or(false);

        if price_by_customer && type_ok && invoice_type != InvoiceType::Single {
            v.add("priceByCustomer", Msg::OnlyWhen("invoiceType = SINGLE"));
        }
        let price_cents = if price_by_customer {
            Some(0)
        } else {
            price_field(&mut v, self.price)
        };

        let installment_count = match self.installment_count {
            None => {
                v.add("installmentCount", Msg::Required);
                None
            }
            // An unknown invoiceType is already an error: only the outer bounds apply.
            Some(n) if !type_ok => {
                int_in(&mut v, "installmentCount", n, 1, MAX_INSTALLMENTS as i64)
            }
            Some(n) if invoice_type == InvoiceType::Installment => {
                int_in(&mut v, "installmentCount", n, 2, MAX_INSTALLMENTS as i64)
            }
            // SINGLE, and each charge of RECURRING / SUBSCRIPTION, is one installment.
            Some(n) => int_in(&mut v, "installmentCount", n, 1, 1),
        };
        // The plan's last due date must be a date (`installment_plan` has no
        // answer past 9999-12-31).
        if let (Some(due), Some(count)) = (due_date, installment_count) {
            if due.add_months(count.saturating_sub(1)).is_none() {
                v.add("dueDate", Msg::PlanPastCalendar);
            }
        }
        if let (Some(count), Some(cents)) = (installment_count, price_cents) {
            if count > 1
                && !price_by_customer
                && cents / (count as i64) < MIN_PRICE_CENTS
                && !v.has("price")
            {
                v.add("installmentCount", Msg::InstallmentBelowMin);
            }
        }

        let description = present(&self.description).and_then(|s| {
            max_chars(&mut v, "description", s, DESCRIPTION_MAX).then(|| s.to_string())
        });

        // Fields of periodic invoices.
        let periodic = invoice_type.is_periodic();
        let frequency = enum_field(
            &mut v,
            "frequency",
            &self.frequency,
            periodic && type_ok,
            Frequency::parse,
            Frequency::NAMES,
        );
        let end_date = date_field(&mut v, "endDate", &self.end_date);
        let end_installment = self
            .end_installment
            .and_then(|n| int_in(&mut v, "endInstallment", n, 1, MAX_END_INSTALLMENT));
        let end_subscription = present(&self.end_subscription).and_then(|s| {
            max_chars(&mut v, "endSubscription", s, END_SUBSCRIPTION_MAX).then(|| s.to_string())
        });
        if type_ok && !periodic {
            if present(&self.frequency).is_some() && !v.has("frequency") {
                v.add("frequency", Msg::OnlyWhen(PERIODIC));
            }
            if present(&self.end_date).is_some() && !v.has("endDate") {
                v.add("endDate", Msg::OnlyWhen(PERIODIC));
            }
        }
        if type_ok
            && invoice_type != InvoiceType::Recurring
            && self.end_installment.is_some()
            && !v.has("endInstallment")
        {
            v.add("endInstallment", Msg::OnlyWhen("invoiceType = RECURRING"));
        }
        if type_ok && invoice_type != InvoiceType::Subscription && end_subscription.is_some() {
            v.add(
                "endSubscription",
                Msg::OnlyWhen("invoiceType = SUBSCRIPTION"),
            );
        }
        if invoice_type == InvoiceType::Recurring
            && type_ok
            && present(&self.end_date).is_none()
            && self.end_installment.is_none()
        {
            v.add("endDate", Msg::RecurringNeedsEnd);
        }
        if let (Some(due), Some(end)) = (due_date, end_date) {
            if end <= due && periodic {
                v.add("endDate", Msg::EndDateAfterDue);
            }
        }

        let mut notifications = Vec::new();
        let list = self.notifications.as_deref().unwrap_or_default();
        if list.len() > MAX_NOTIFICATIONS {
            v.add("notifications", Msg::IntRange(0, MAX_NOTIFICATIONS as i64));
        }
        for (i, n) in list.iter().enumerate() {
            let p = |f: &str| format!("notifications[{i}].{f}");
            let kind = enum_field(
                &mut v,
                &p("type"),
                &n.kind,
                true,
                NotificationType::parse,
                NotificationType::NAMES,
            );
            let channel = enum_field(
                &mut v,
                &p("channel"),
                &n.channel,
                true,
                Channel::parse,
                Channel::NAMES,
            );
            let period = match (kind, n.period) {
                (Some(k), Some(_)) if !k.takes_period() => {
                    v.add(
                        p("period"),
                        Msg::OnlyWhen("type = SEND_INVOICE_REMINDER | INVOICE_RESEND"),
                    );
                    None
                }
                (_, Some(d)) if d < MIN_PERIOD_DAYS => {
                    v.add(p("period"), Msg::PeriodMin);
                    None
                }
                (_, Some(d)) => int_in(&mut v, &p("period"), d, MIN_PERIOD_DAYS, MAX_PERIOD_DAYS),
                // A reminder or resend with no period waits the minimum.
                (Some(k), None) if k.takes_period() => Some(MIN_PERIOD_DAYS as u32),
                _ => None,
            };
            if let (Some(kind), Some(channel)) = (kind, channel) {
                notifications.push(NewNotification {
                    kind,
                    channel,
                    period,
                });
            }
        }

        let mut webhooks = Vec::new();
        let list = self.webhooks.as_deref().unwrap_or_default();
        if list.len() > MAX_WEBHOOKS {
            v.add("webhooks", Msg::IntRange(0, MAX_WEBHOOKS as i64));
        }
        for (i, w) in list.iter().enumerate() {
            let hook_type = enum_field(
                &mut v,
                &format!("webhooks[{i}].hookType"),
                &w.hook_type,
                true,
                |t| InvoiceHookType::parse(t).map(HookType::from),
                InvoiceHookType::NAMES,
            );
            let url = match present(&w.url) {
                None => {
                    v.add(format!("webhooks[{i}].url"), Msg::Required);
                    None
                }
                Some(u) => {
                    match crate::outbound::check_webhook_url(u, opts.allow_insecure_webhooks) {
                        Ok(()) => Some(u.to_string()),
                        Err(msg) => {
                            v.add(format!("webhooks[{i}].url"), msg);
                            None
                        }
                    }
                }
            };
            if let (Some(hook_type), Some(url)) = (hook_type, url) {
                webhooks.push(NewWebhook { hook_type, url });
            }
        }

        let redirect_to = present(&self.redirect_to).and_then(|u| {
            if br::parse_http_url(u).is_some() {
                Some(u.to_string())
            } else {
                v.add("redirectTo", Msg::Url);
                None
            }
        });

        // Fine, interest and discount, against the smallest installment and
        // the first due date (the customer's document is checked later).
        let terms = charges::check_terms_into(
            &mut v,
            self.fine.as_ref(),
            self.interest.as_ref(),
            self.discount.as_ref(),
            TermsContext {
                amount_cents: price_cents
                    .zip(installment_count)
                    .filter(|_| !price_by_customer)
                    .map(|(c, n)| c / i64::from(n.max(1))),
                due_date,
                payer_is_cpf: false,
            },
        );
        if let (Some(d), Some(today)) = (terms.discount, opts.today) {
            if d.until < today {
                v.add("discount.untilDate", Msg::DateInPast);
            }
        }

        let pix_automatico = pix_automatico::check_request(
            &mut v,
            self.pix_automatico.as_ref(),
            type_ok.then_some(invoice_type),
            frequency,
            &payment_types,
            price_by_customer,
        );

        if !v.is_empty() {
            return Err(v);
        }
        // Every `None` above added a violation, so these are all present.
        let (
            Some(customer_id),
            Some(external_id),
            Some(due_date),
            Some(installment_count),
            Some(price_cents),
        ) = (
            customer_id,
            external_id,
            due_date,
            installment_count,
            price_cents,
        )
        else {
            return Err(v);
        };
        Ok(NewInvoice {
            customer_id,
            external_id,
            due_date,
            payment_types,
            installment_count,
            price_cents,
            description,
            invoice_type,
            frequency: if periodic { frequency } else { None },
            end_date,
            end_installment,
            end_subscription,
            notifications,
            webhooks,
            redirect_to,
            price_by_customer,
            terms,
            pix_automatico,
        })
    }

    /// Every broken rule, keyed by API field path, in `lang`.
    pub fn validate(&self, lang: Lang) -> Errors {
        self.check()
            .err()
            .map(|v| v.render(lang))
            .unwrap_or_default()
    }
}

// ---- Responses ----

/// Installment in the creation form (`status`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct InstallmentCreated {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    pub installment: u32,
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub price: i64,
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub price_paid: i64,
    pub status: InstallmentStatus,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub due_date: String,
}

/// Installment in the detail form (`_status`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Installment {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub invoice_id: String,
    pub installment: u32,
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub price: i64,
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub price_paid: i64,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub due_date: String,
    #[serde(rename = "_status")]
    pub status: InstallmentStatus,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub updated_at: Option<String>,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub deleted_at: Option<String>,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub last_view_at: Option<String>,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub paid_at: Option<String>,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub payment_received_at: Option<String>,
    pub views_count: u32,
    /// paylink's own field, beside the documented ones: the state of this installment's PIX
    /// charge at the bank when the merchant's PIX goes through a bank's API Pix; absent
    /// otherwise (and from other invoicing services).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pix_charge: Option<PixCharge>,
    /// paylink's own field: what the bank returned of this installment's Pix (each devolução
    /// with status `DEVOLVIDO`); absent when nothing was. All of it returned makes the
    /// installment `REVERSED`; a part leaves it as it was.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>))]
    #[serde(default, skip_serializing_if = "is_zero", with = "crate::money::reais")]
    pub price_returned: i64,
    /// paylink's own field: each devolução of this installment's Pix the bank reports, whoever
    /// asked for it (`paylink pix refund`, the merchant in the bank's app, the payer's bank
    /// through MED), oldest first; absent when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devolucoes: Vec<Devolucao>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

crate::enums::wire_enum!(
    /// Why a Pix was returned, as the bank reports it (API Pix `DevolucaoNatureza`):
    /// `ORIGINAL` the receiver refunded it (paylink's `pix refund`, or the bank's app);
    /// `MED_OPERACIONAL`, `MED_FRAUDE` and `MED_PIX_AUTOMATICO` the payer disputed it and the
    /// Mecanismo Especial de Devolução returned it (an operational failure, a suspected fraud,
    /// a Pix Automático charge); `RETIRADA` a Pix Saque or Troco.
    DevolucaoNatureza {
        Original = "ORIGINAL",
        Retirada = "RETIRADA",
        MedOperacional = "MED_OPERACIONAL",
        MedFraude = "MED_FRAUDE",
        MedPixAutomatico = "MED_PIX_AUTOMATICO",
    }
);

impl DevolucaoNatureza {
    /// Why the money went back, in words for the merchant and the payer: the MED ones are
    /// the payer's dispute, the others the receiver's own refund.
    pub fn reason(self, lang: Lang) -> &'static str {
        match (self.is_med(), lang) {
            (true, Lang::PtBr) => "Devolvido por contestação (MED)",
            (true, Lang::En) => "Returned after a dispute (MED)",
            (false, Lang::PtBr) => "Devolvido pelo recebedor",
            (false, Lang::En) => "Returned by the receiver",
        }
    }

    /// Returned through MED, at the payer's bank's request.
    pub fn is_med(self) -> bool {
        matches!(
            self,
            DevolucaoNatureza::MedOperacional
                | DevolucaoNatureza::MedFraude
                | DevolucaoNatureza::MedPixAutomatico
        )
    }
}

impl DevolucaoStatus {
    /// Where it stands, in words (the amount and reason go beside it).
    pub fn label(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (DevolucaoStatus::EmProcessamento, Lang::PtBr) => "em processamento",
            (DevolucaoStatus::EmProcessamento, Lang::En) => "in progress",
            (DevolucaoStatus::Devolvido, Lang::PtBr) => "devolvido",
            (DevolucaoStatus::Devolvido, Lang::En) => "returned",
            (DevolucaoStatus::NaoRealizado, Lang::PtBr) => "não realizado",
            (DevolucaoStatus::NaoRealizado, Lang::En) => "not carried out",
        }
    }
}

crate::enums::wire_enum!(
    /// Where a devolução stands at the bank (API Pix `Devolucao.status`): being processed,
    /// returned to the payer, or not carried out (its amount stays with the merchant).
    DevolucaoStatus {
        EmProcessamento = "EM_PROCESSAMENTO",
        Devolvido = "DEVOLVIDO",
        NaoRealizado = "NAO_REALIZADO",
    }
);

/// One devolução of an installment's Pix, as the bank last reported it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Devolucao {
    /// The devolução's id at the bank.
    pub id: String,
    /// The returned Pix's endToEndId.
    pub end_to_end_id: String,
    /// The return's identification in the Pix system (`rtrId`), once the bank gives it.
    pub rtr_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub amount: i64,
    pub natureza: DevolucaoNatureza,
    pub status: DevolucaoStatus,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub requested_at: Option<String>,
    /// When the bank settled it (`horario.liquidacao`).
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub settled_at: Option<String>,
}

/// An installment's PIX charge at the bank (API Pix), as the merchant sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PixCharge {
    pub state: PixChargeState,
    /// Why the charge is not at the bank (`refused`, `conflict`): the bank's own words, or
    /// what differs between the charge the bank holds and the one paylink asked for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
}

/// `pending`: not at the bank yet (being sent, or retried while the bank does not answer);
/// `created`: the bank holds it, the payer page shows its code; `refused`: the bank refused it
/// for good; `conflict`: the bank already holds a different charge under this installment's
/// txid; `removed`: taken off the bank (the invoice was cancelled). A refused or conflicting
/// charge is never retried: the merchant cancels the invoice and creates it again, corrected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum PixChargeState {
    Pending,
    Created,
    Refused,
    Conflict,
    Removed,
}

/// Payment type in the creation form (`type`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PaymentTypeCreated {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub invoice_id: String,
    #[serde(rename = "type")]
    pub kind: PaymentType,
}

/// Payment type in the detail form (`paymentTypeAccepted`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PaymentTypeDetail {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub invoice_id: String,
    pub payment_type_accepted: PaymentType,
}

/// A configured notification, as listed in the four detail arrays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NotificationConfig {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    #[serde(rename = "type")]
    pub kind: NotificationType,
    pub channel: Channel,
    pub period: Option<u32>,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    /// What this notification has scheduled: when each send is (or was) due
    /// and its delivery state. Absent from older servers, hence the default.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    #[serde(default)]
    pub sends: Vec<NotificationSend>,
}

/// One scheduled send of a configured notification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NotificationSend {
    /// The installment it is about (its number), if any.
    pub installment: Option<u32>,
    /// ISO 8601 UTC date-time the rule makes it due at.
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub due_at: String,
    /// `pending`, `sent`, `failed` or `skipped` (a payer without an e-mail or phone for
    /// the channel, or a charge no longer open).
    pub status: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub sent_at: Option<String>,
    /// The channel it goes by (its notification's). Absent from older servers.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    #[serde(default)]
    pub channel: Option<Channel>,
    /// To whom, masked (`m***a@example.com`, `(11) 9****-4321`); null when the payer has
    /// no e-mail or phone for the channel.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    #[serde(default)]
    pub to: Option<String>,
    /// The provider's id of the message (WhatsApp's `wamid.…`, Twilio's `SM…`), once taken.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    #[serde(default)]
    pub provider_id: Option<String>,
    /// What the provider's status callbacks last said of it; null before any.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    #[serde(default)]
    pub provider_status: Option<crate::ProviderStatus>,
    /// When the provider said so.
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    #[serde(default)]
    pub provider_status_at: Option<String>,
    /// Why the last attempt failed or the send was skipped, or the provider's error.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    #[serde(default)]
    pub last_error: Option<String>,
}

/// A configured webhook of the invoice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct WebhookConfig {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    #[cfg_attr(feature = "openapi", schema(value_type = InvoiceHookType))]
    pub hook_type: HookType,
    #[cfg_attr(feature = "openapi", schema(format = "uri"))]
    pub url: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
}

/// `items` of the detail form: empty in the spec, element shape not shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Item {}

/// The invoice as returned by creation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct InvoiceCreated {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    pub description: Option<String>,
    pub invoice_type: InvoiceType,
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub price: i64,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub due_date: String,
    pub installment_count: u32,
    pub customer: CustomerRef,
    pub installments: Vec<InstallmentCreated>,
    pub payment_types: Vec<PaymentTypeCreated>,
    #[cfg_attr(feature = "openapi", schema(format = "uri"))]
    pub url: String,
    pub external_id: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    pub price_by_customer: bool,
    /// The invoice's fine as stored; null when none.
    #[serde(default)]
    pub fine: Option<Fine>,
    /// The invoice's late interest; null when none.
    #[serde(default)]
    pub interest: Option<Interest>,
    /// The invoice's early-payment discount; null when none.
    #[serde(default)]
    pub discount: Option<Discount>,
}

/// The invoice as returned by the detail operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct InvoiceDetail {
    #[cfg_attr(feature = "openapi", schema(format = "uuid"))]
    pub id: String,
    pub external_id: String,
    pub description: Option<String>,
    pub invoice_type: InvoiceType,
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    #[serde(with = "crate::money::reais")]
    pub price: i64,
    pub price_by_customer: bool,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub due_date: String,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub end_date: Option<String>,
    pub end_installment: Option<u32>,
    pub end_subscription: Option<String>,
    pub frequency: Option<Frequency>,
    pub installment_count: u32,
    pub customer: CustomerDetail,
    #[cfg_attr(feature = "openapi", schema(format = "uri"))]
    pub redirect_to: Option<String>,
    pub installments: Vec<Installment>,
    pub items: Vec<Item>,
    pub notification_before_due_date: Vec<NotificationConfig>,
    pub notification_after_due_date: Vec<NotificationConfig>,
    pub notification_after_payment: Vec<NotificationConfig>,
    pub notification_send_types: Vec<NotificationConfig>,
    pub webhooks: Vec<WebhookConfig>,
    pub payment_types: Vec<PaymentTypeDetail>,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    #[cfg_attr(feature = "openapi", schema(format = "uri"))]
    pub url: String,
    /// The invoice's fine as stored; null when none.
    #[serde(default)]
    pub fine: Option<Fine>,
    /// The invoice's late interest; null when none.
    #[serde(default)]
    pub interest: Option<Interest>,
    /// The invoice's early-payment discount; null when none.
    #[serde(default)]
    pub discount: Option<Discount>,
    /// paylink's own field: the invoice's Pix Automático recurrence at the bank; null when
    /// the invoice did not ask for it (and from other invoicing services).
    #[serde(default)]
    pub pix_automatico: Option<PixAutomaticoDetail>,
}

/// The error envelope of every failed request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorEnvelope {
    /// The HTTP status.
    pub code: u16,
    /// What went wrong, in pt-BR (English with `Accept-Language: en`).
    pub message: String,
    /// On validation failures (422): API field path (`fullName`, `address.zipcode`,
    /// `notifications[0].period`) → its messages.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Option<std::collections::BTreeMap<String, Vec<String>>>)
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errors: Option<Errors>,
}
