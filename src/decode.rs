//! Reads the service's JSON answers (already parsed by the browser) into the
//! model's response types, field by field with `js_sys::Reflect`.
//!
//! Why not `serde_wasm_bindgen::from_value`: serde's derived deserializers
//! for these types, plus the float formatting serde's error messages pull
//! in, cost about 22 KB brotli of the 120 KB budget (measured); this reader
//! costs a few. Requests still go out through serde (`Serialize` is cheap).
//!
//! Same strictness as the derived `Deserialize`: a missing or mistyped
//! non-optional field fails the whole answer (`None`); `null` or a missing
//! key is `None` for optional ones; amounts go through
//! `money::reais_to_cents` and enums through the model's `parse`.

use js_sys::{Array, Object, Reflect};
use paylink_model::money::reais_to_cents;
use paylink_model::*;
use wasm_bindgen::{JsCast, JsValue};

/// A JSON object of an answer.
pub struct Obj(JsValue);

impl Obj {
    pub fn new(value: JsValue) -> Option<Obj> {
        value.is_object().then_some(Obj(value))
    }

    fn get(&self, key: &str) -> JsValue {
        Reflect::get(&self.0, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    }

    fn str(&self, key: &str) -> Option<String> {
        self.get(key).as_string()
    }

    /// `Some(None)` for null/missing, `None` for a wrong type.
    fn opt_str(&self, key: &str) -> Option<Option<String>> {
        let v = self.get(key);
        if v.is_null() || v.is_undefined() {
            Some(None)
        } else {
            v.as_string().map(Some)
        }
    }

    fn uint(&self, key: &str) -> Option<u32> {
        as_uint(&self.get(key))
    }

    fn opt_uint(&self, key: &str) -> Option<Option<u32>> {
        let v = self.get(key);
        if v.is_null() || v.is_undefined() {
            Some(None)
        } else {
            as_uint(&v).map(Some)
        }
    }

    fn cents(&self, key: &str) -> Option<i64> {
        reais_to_cents(self.get(key).as_f64()?).ok()
    }

    fn bool(&self, key: &str) -> Option<bool> {
        self.get(key).as_bool()
    }

    fn parse<T>(&self, key: &str, parse: fn(&str) -> Option<T>) -> Option<T> {
        parse(&self.str(key)?)
    }

    fn opt_parse<T>(&self, key: &str, parse: fn(&str) -> Option<T>) -> Option<Option<T>> {
        match self.opt_str(key)? {
            None => Some(None),
            Some(s) => parse(&s).map(Some),
        }
    }

    fn obj(&self, key: &str) -> Option<Obj> {
        Obj::new(self.get(key))
    }

    fn list<T>(&self, key: &str, item: fn(Obj) -> Option<T>) -> Option<Vec<T>> {
        let v = self.get(key);
        if !Array::is_array(&v) {
            return None;
        }
        Array::from(&v)
            .iter()
            .map(|x| Obj::new(x).and_then(item))
            .collect()
    }
}

fn as_uint(v: &JsValue) -> Option<u32> {
    let n = v.as_f64()?;
    (n >= 0.0 && n <= u32::MAX as f64 && n as u32 as f64 == n).then_some(n as u32)
}

pub fn error_envelope(o: Obj) -> Option<ErrorEnvelope> {
    let code = o.uint("code")?;
    let errors = match o.obj("errors") {
        None => None,
        Some(e) => {
            let mut map = Errors::new();
            for key in Object::keys(e.0.unchecked_ref::<Object>()).iter() {
                let key = key.as_string()?;
                let msgs = e.get(&key);
                let msgs: Option<Vec<String>> = if Array::is_array(&msgs) {
                    Array::from(&msgs).iter().map(|m| m.as_string()).collect()
                } else {
                    msgs.as_string().map(|m| vec![m])
                };
                map.insert(key, msgs?);
            }
            Some(map)
        }
    };
    Some(ErrorEnvelope {
        code: u16::try_from(code).ok()?,
        message: o.str("message")?,
        errors,
    })
}

/// The created customer: the widget needs its id and name only, so the
/// rest of the `Customer` answer is not decoded (each decoded field costs wasm).
pub fn customer_ref(o: Obj) -> Option<CustomerRef> {
    Some(CustomerRef {
        id: o.str("id")?,
        full_name: o.str("fullName")?,
    })
}

fn customer_detail(o: Obj) -> Option<CustomerDetail> {
    Some(CustomerDetail {
        id: o.str("id")?,
        full_name: o.str("fullName")?,
        document: o.opt_str("document")?,
        business: o.opt_str("business")?,
        email: o.opt_str("email")?,
        user_id: o.str("userId")?,
        application_id: o.str("applicationId")?,
        phone: o.opt_str("phone")?,
        address_id: o.opt_str("addressId")?,
        observations: o.opt_str("observations")?,
        created_at: o.str("createdAt")?,
        deleted_at: o.opt_str("deletedAt")?,
    })
}

/// The id of a created invoice (the widget then shows its detail, fetched anew).
pub fn created_id(o: Obj) -> Option<String> {
    o.str("id")
}

pub fn created(o: Obj) -> Option<crate::api::Created> {
    Some(crate::api::Created {
        id: o.str("id")?,
        url: o.str("url")?,
        external_id: o.opt_str("externalId")?.unwrap_or_default(),
    })
}

/// `GET /api/links/{slug}`.
pub fn link_view(o: Obj) -> Option<PaymentLink> {
    let types = o.get("paymentTypes");
    let payment_types = Array::is_array(&types)
        .then(|| {
            Array::from(&types)
                .iter()
                .map(|t| PaymentType::parse(&t.as_string()?))
                .collect::<Option<Vec<_>>>()
        })
        .flatten()?;
    let price_by_customer = o.bool("priceByCustomer")?;
    Some(PaymentLink {
        slug: o.str("slug")?,
        name: o.str("name")?,
        description: o.opt_str("description")?.unwrap_or_default(),
        price: if price_by_customer {
            None
        } else {
            Some(o.cents("price")?)
        },
        price_by_customer,
        payment_types,
        invoice_type: o.parse("invoiceType", InvoiceType::parse)?,
        max_installments: o.uint("maxInstallments")?,
        due_date: o.str("dueDate")?,
        redirect_to: o.opt_str("redirectTo")?,
    })
}

fn installment(o: Obj) -> Option<Installment> {
    Some(Installment {
        id: o.str("id")?,
        invoice_id: o.str("invoiceId")?,
        installment: o.uint("installment")?,
        price: o.cents("price")?,
        price_paid: o.cents("pricePaid")?,
        due_date: o.str("dueDate")?,
        status: o.parse("_status", InstallmentStatus::parse)?,
        created_at: o.str("createdAt")?,
        updated_at: o.opt_str("updatedAt")?,
        deleted_at: o.opt_str("deletedAt")?,
        last_view_at: o.opt_str("lastViewAt")?,
        paid_at: o.opt_str("paidAt")?,
        payment_received_at: o.opt_str("paymentReceivedAt")?,
        views_count: o.uint("viewsCount")?,
    })
}

fn notification(o: Obj) -> Option<NotificationConfig> {
    Some(NotificationConfig {
        id: o.str("id")?,
        kind: o.parse("type", NotificationType::parse)?,
        channel: o.parse("channel", Channel::parse)?,
        period: o.opt_uint("period")?,
        created_at: o.str("createdAt")?,
        // Absent from older servers (`#[serde(default)]` in the model).
        sends: if o.get("sends").is_undefined() {
            Vec::new()
        } else {
            o.list("sends", |s| {
                Some(NotificationSend {
                    installment: s.opt_uint("installment")?,
                    due_at: s.str("dueAt")?,
                    status: s.str("status")?,
                    sent_at: s.opt_str("sentAt")?,
                })
            })?
        },
    })
}

fn webhook(o: Obj) -> Option<WebhookConfig> {
    Some(WebhookConfig {
        id: o.str("id")?,
        hook_type: o.parse("hookType", HookType::parse)?,
        url: o.str("url")?,
        created_at: o.str("createdAt")?,
    })
}

pub fn invoice_detail(o: Obj) -> Option<InvoiceDetail> {
    Some(InvoiceDetail {
        id: o.str("id")?,
        external_id: o.str("externalId")?,
        description: o.opt_str("description")?,
        invoice_type: o.parse("invoiceType", InvoiceType::parse)?,
        price: o.cents("price")?,
        price_by_customer: o.bool("priceByCustomer")?,
        due_date: o.str("dueDate")?,
        end_date: o.opt_str("endDate")?,
        end_installment: o.opt_uint("endInstallment")?,
        end_subscription: o.opt_str("endSubscription")?,
        frequency: o.opt_parse("frequency", Frequency::parse)?,
        installment_count: o.uint("installmentCount")?,
        customer: customer_detail(o.obj("customer")?)?,
        redirect_to: o.opt_str("redirectTo")?,
        installments: o.list("installments", installment)?,
        items: o.list("items", |_| Some(Item {}))?,
        notification_before_due_date: o.list("notificationBeforeDueDate", notification)?,
        notification_after_due_date: o.list("notificationAfterDueDate", notification)?,
        notification_after_payment: o.list("notificationAfterPayment", notification)?,
        notification_send_types: o.list("notificationSendTypes", notification)?,
        webhooks: o.list("webhooks", webhook)?,
        payment_types: o.list("paymentTypes", |p| {
            Some(PaymentTypeDetail {
                invoice_id: p.str("invoiceId")?,
                payment_type_accepted: p.parse("paymentTypeAccepted", PaymentType::parse)?,
            })
        })?,
        created_at: o.str("createdAt")?,
        url: o.str("url")?,
    })
}

fn payer_installment(o: Obj) -> Option<PayerInstallment> {
    Some(PayerInstallment {
        installment: o.uint("installment")?,
        price: o.cents("price")?,
        price_paid: o.cents("pricePaid")?,
        due_date: o.str("dueDate")?,
        status: o.parse("status", InstallmentStatus::parse)?,
        pix: match o.obj("pix") {
            None => None,
            Some(p) => Some(PixCode {
                payload: p.str("payload")?,
                qr_svg: p.str("qrSvg")?,
            }),
        },
        boleto: match o.obj("boleto") {
            None => None,
            Some(b) => Some(BoletoCode {
                line: b.str("line")?,
                barcode: b.str("barcode")?,
                barcode_svg: b.str("barcodeSvg")?,
            }),
        },
    })
}

/// `GET /api/pay/{id}`: the payer page's view (no private data).
pub fn payer_view(o: Obj) -> Option<PayerView> {
    let types = o.get("paymentTypes");
    if !Array::is_array(&types) {
        return None;
    }
    Some(PayerView {
        id: o.str("id")?,
        merchant_name: o.str("merchantName")?,
        description: o.opt_str("description")?,
        price: o.cents("price")?,
        price_by_customer: o.bool("priceByCustomer")?,
        customer_name: o.str("customerName")?,
        installments: o.list("installments", payer_installment)?,
        payment_types: Array::from(&types)
            .iter()
            .map(|t| PaymentType::parse(&t.as_string()?))
            .collect::<Option<_>>()?,
        redirect_to: o.opt_str("redirectTo")?,
        url: o.str("url")?,
        next_open: o.opt_uint("nextOpen")?,
        sandbox: o.bool("sandbox").unwrap_or(false),
    })
}
