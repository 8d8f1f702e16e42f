//! Payment links: what a link fixes, what a payer chooses on its page
//! ([`LinkChoice`]), and the rules between them: [`PaymentLink::check_choice`]
//! (the payer's own choices alone, what the link's page checks as the payer
//! types) and [`PaymentLink::bind`] (a whole invoice request against the link,
//! which the server runs on every submission before the invoice's own rules).

use serde::{Deserialize, Serialize};

use crate::customer::present;
use crate::date::Date;
use crate::enums::{InvoiceType, PaymentType};
use crate::errors::{Msg, Violations};
use crate::invoice::{price_field, InvoiceRequest};
use crate::money;

/// `GET /api/links/{slug}`: a link as its public page shows it. `due_date` is
/// the due date of an invoice created through it today.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentLink {
    pub slug: String,
    pub name: String,
    pub description: String,
    /// Cents inside, reais on the wire; `None` when the payer states the amount.
    #[serde(with = "reais_opt")]
    pub price: Option<i64>,
    pub price_by_customer: bool,
    pub payment_types: Vec<PaymentType>,
    pub invoice_type: InvoiceType,
    /// 1 unless `invoice_type` is INSTALLMENT.
    pub max_installments: u32,
    /// `YYYY-MM-DD`.
    pub due_date: String,
    pub redirect_to: Option<String>,
    /// The merchant's fine, interest and discount for invoices created
    /// through the link (the discount's `untilDate` follows `due_date`);
    /// null when none. The payer cannot change them.
    #[serde(default)]
    pub fine: Option<crate::charges::Fine>,
    #[serde(default)]
    pub interest: Option<crate::charges::Interest>,
    #[serde(default)]
    pub discount: Option<crate::charges::Discount>,
}

/// What a payer sends through a link's page: the customer made through it
/// and the payer's own choices, nothing the link fixes (the server fills that
/// in from the link). The same fields, by the same names, as an
/// [`InvoiceRequest`], which `POST /api/links/{slug}/invoices` reads.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkChoice {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
    /// `None`: every type the link offers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_types: Option<Vec<String>>,
    /// `None`: one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub installment_count: Option<i64>,
    /// Reais, only when the link lets the payer state the amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<f64>,
}

impl LinkChoice {
    /// The invoice request these choices are, before the link fills in the rest.
    pub fn into_request(self) -> InvoiceRequest {
        InvoiceRequest {
            customer_id: self.customer_id,
            payment_types: self.payment_types,
            installment_count: self.installment_count,
            price: self.price,
            ..InvoiceRequest::default()
        }
    }
}

/// `Option<i64>` cents as a JSON number in reais or `null`.
pub(crate) mod reais_opt {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(cents: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        match cents {
            Some(c) => s.serialize_f64(crate::money::cents_to_reais(*c)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        match Option::<f64>::deserialize(d)? {
            None => Ok(None),
            Some(v) => crate::money::reais_to_cents(v)
                .map(Some)
                .map_err(|e| serde::de::Error::custom(format!("invalid amount {v}: {e:?}"))),
        }
    }
}

impl PaymentLink {
    /// The `externalId` of every invoice created through the link: the slug,
    /// so the merchant's webhooks say which link an invoice came from.
    pub fn external_id(&self) -> &str {
        &self.slug
    }

    /// Compares a payer's invoice request with the link. A field the link
    /// fixes must be absent (it is filled in from the link) or equal to the
    /// link's value; the payer chooses only the customer, the payment types
    /// (a non-empty subset), the number of installments (1 to the maximum)
    /// and, with `price_by_customer`, the amount. Returns the request to send
    /// to the service, or every difference keyed by field path. Whether the
    /// customer came through this link is the server's part (it needs storage).
    pub fn bind(&self, req: &InvoiceRequest) -> Result<InvoiceRequest, Violations> {
        let mut v = Violations::default();
        let mut out = req.clone();

        // Fixed text fields: absent or equal.
        let mut fixed =
            |path: &str, given: &Option<String>, value: Option<&str>| match (present(given), value)
            {
                (None, _) => value.map(str::to_string),
                (Some(g), Some(l)) if g == l.trim() => Some(l.to_string()),
                (Some(_), _) => {
                    v.add(path, Msg::FixedByLink);
                    None
                }
            };
        out.external_id = fixed("externalId", &req.external_id, Some(self.external_id()));
        out.description = fixed("description", &req.description, Some(&self.description));
        out.due_date = fixed("dueDate", &req.due_date, Some(&self.due_date));
        out.redirect_to = fixed("redirectTo", &req.redirect_to, self.redirect_to.as_deref());
        let invoice_type = fixed(
            "invoiceType",
            &req.invoice_type,
            Some(self.invoice_type.as_str()),
        );

        // The amount: the link's, or the payer's stated as `price` (the
        // service checks it like any price).
        if req.price_by_customer == Some(true) {
            v.add("priceByCustomer", Msg::FixedByLink);
        }
        out.price_by_customer = None;
        if let Some(cents) = self.price {
            match req.price {
                None => out.price = Some(money::cents_to_reais(cents)),
                Some(p) if money::reais_to_cents(p) == Ok(cents) => {}
                Some(_) => v.add("price", Msg::FixedByLink),
            }
        }
        self.choice_rules(
            &mut v,
            req.payment_types.as_deref(),
            req.installment_count,
            req.price,
        );
        if req.payment_types.is_none() {
            out.payment_types = Some(
                self.payment_types
                    .iter()
                    .map(|t| t.as_str().into())
                    .collect(),
            );
        }
        let count = req.installment_count.unwrap_or(1);
        out.installment_count = Some(count);
        // The service's INSTALLMENT has 2 or more; paying at once is a SINGLE invoice.
        out.invoice_type = if count == 1 {
            Some(InvoiceType::Single.as_str().into())
        } else {
            invoice_type
        };

        for (path, given) in [
            ("frequency", present(&req.frequency).is_some()),
            ("endDate", present(&req.end_date).is_some()),
            ("endInstallment", req.end_installment.is_some()),
            ("endSubscription", present(&req.end_subscription).is_some()),
            (
                "notifications",
                req.notifications.as_ref().is_some_and(|n| !n.is_empty()),
            ),
            (
                "webhooks",
                req.webhooks.as_ref().is_some_and(|w| !w.is_empty()),
            ),
            // The merchant's terms (the link's), never the payer's: a
            // payer could otherwise grant themselves a discount.
            ("fine", req.fine.is_some()),
            ("interest", req.interest.is_some()),
            ("discount", req.discount.is_some()),
        ] {
            if given {
                v.add(path, Msg::NotAllowedByLink);
            }
        }
        out.notifications = None;
        out.webhooks = None;
        out.fine = self.fine.clone();
        out.interest = self.interest.clone();
        out.discount = self.discount.clone();

        if v.is_empty() {
            Ok(out)
        } else {
            Err(v)
        }
    }
}

impl PaymentLink {
    /// The payer's own choices alone, as the link's page checks them while
    /// the payer types: the payment types (a non-empty subset of the link's),
    /// the number of installments (1 to the maximum) and, when the payer
    /// states it, the amount (the invoice's price rule). The server runs
    /// [`PaymentLink::bind`] and the invoice's rules on top of these.
    pub fn check_choice(&self, c: &LinkChoice) -> Violations {
        let mut v = Violations::default();
        self.choice_rules(
            &mut v,
            c.payment_types.as_deref(),
            c.installment_count,
            c.price,
        );
        if self.price.is_none() && c.price.is_some() {
            price_field(&mut v, c.price);
        }
        v
    }

    /// The rules of the payer's choices that [`PaymentLink::bind`] and
    /// [`PaymentLink::check_choice`] share.
    fn choice_rules(
        &self,
        v: &mut Violations,
        payment_types: Option<&[String]>,
        installment_count: Option<i64>,
        price: Option<f64>,
    ) {
        if self.price.is_none() && price.is_none() {
            v.add("price", Msg::Required);
        }
        match payment_types {
            None => {}
            Some([]) => v.add("paymentTypes", Msg::AtLeastOne),
            Some(list) => {
                for (i, raw) in list.iter().enumerate() {
                    match PaymentType::parse(raw.trim()) {
                        Some(t) if self.payment_types.contains(&t) => {}
                        _ => v.add(format!("paymentTypes[{i}]"), Msg::NotAllowedByLink),
                    }
                }
            }
        }
        let count = installment_count.unwrap_or(1);
        if !(1..=self.max_installments as i64).contains(&count) {
            v.add(
                "installmentCount",
                Msg::IntRange(1, self.max_installments as i64),
            );
        }
    }
}

/// The longest `due_in_days` a link may have.
pub const MAX_DUE_IN_DAYS: u32 = 365;

/// The due date of an invoice created through a link on `today`.
pub fn link_due_date(today: Date, due_in_days: u32) -> Option<Date> {
    today.add_days(due_in_days as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invoice::{NotificationRequest, WebhookRequest};

    fn link() -> PaymentLink {
        PaymentLink {
            slug: "curso-rust".into(),
            name: "Curso de Rust".into(),
            description: "Acesso por 12 meses".into(),
            price: Some(30000),
            price_by_customer: false,
            payment_types: vec![PaymentType::Pix, PaymentType::Boleto],
            invoice_type: InvoiceType::Installment,
            max_installments: 3,
            due_date: "2027-01-04".into(),
            redirect_to: Some("https://loja.example/obrigado".into()),
            fine: None,
            interest: None,
            discount: None,
        }
    }

    /// What the link's widget sends: the link's values plus the payer's choices.
    fn honest() -> InvoiceRequest {
        InvoiceRequest {
            customer_id: Some("6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11".into()),
            due_date: Some("2027-01-04".into()),
            payment_types: Some(vec!["PIX".into()]),
            installment_count: Some(3),
            price: Some(300.0),
            description: Some("Acesso por 12 meses".into()),
            invoice_type: Some("INSTALLMENT".into()),
            redirect_to: Some("https://loja.example/obrigado".into()),
            ..Default::default()
        }
    }

    #[test]
    fn an_honest_request_passes_and_gets_the_links_external_id() {
        let out = link().bind(&honest()).unwrap();
        assert_eq!(out.external_id.as_deref(), Some("curso-rust"));
        assert_eq!(out.installment_count, Some(3));
        assert_eq!(out.invoice_type.as_deref(), Some("INSTALLMENT"));
        assert_eq!(out.payment_types, Some(vec!["PIX".to_string()]));
        // And the service accepts what the link produced.
        assert!(out.check().is_ok(), "{:?}", out.check());
    }

    #[test]
    fn absent_fixed_fields_are_filled_from_the_link() {
        let req = InvoiceRequest {
            customer_id: honest().customer_id,
            installment_count: Some(2),
            ..Default::default()
        };
        let out = link().bind(&req).unwrap();
        assert_eq!(out.price, Some(300.0));
        assert_eq!(out.description.as_deref(), Some("Acesso por 12 meses"));
        assert_eq!(out.due_date.as_deref(), Some("2027-01-04"));
        assert_eq!(
            out.payment_types,
            Some(vec!["PIX".to_string(), "BOLETO".to_string()])
        );
        assert!(out.check().is_ok());
    }

    #[test]
    fn one_installment_of_an_installment_link_is_a_single_invoice() {
        let req = InvoiceRequest {
            installment_count: Some(1),
            ..honest()
        };
        let out = link().bind(&req).unwrap();
        assert_eq!(out.invoice_type.as_deref(), Some("SINGLE"));
        assert!(out.check().is_ok(), "{:?}", out.check());
    }

    #[test]
    fn every_tampered_field_is_refused_on_its_path() {
        let notif = NotificationRequest {
            kind: Some("INVOICE_GENERATED".into()),
            channel: Some("Email".into()),
            period: None,
        };
        let hook = WebhookRequest {
            hook_type: Some("PAYMENT_CONFIRMED".into()),
            url: Some("https://evil.example/h".into()),
        };
        let cases: Vec<(&str, InvoiceRequest, Msg)> = vec![
            (
                "price",
                InvoiceRequest {
                    price: Some(5.0),
                    ..honest()
                },
                Msg::FixedByLink,
            ),
            (
                "description",
                InvoiceRequest {
                    description: Some("Grátis".into()),
                    ..honest()
                },
                Msg::FixedByLink,
            ),
            (
                "priceByCustomer",
                InvoiceRequest {
                    price_by_customer: Some(true),
                    ..honest()
                },
                Msg::FixedByLink,
            ),
            (
                "paymentTypes[1]",
                InvoiceRequest {
                    payment_types: Some(vec!["PIX".into(), "CARD".into()]),
                    ..honest()
                },
                Msg::NotAllowedByLink,
            ),
            (
                "paymentTypes",
                InvoiceRequest {
                    payment_types: Some(vec![]),
                    ..honest()
                },
                Msg::AtLeastOne,
            ),
            (
                "installmentCount",
                InvoiceRequest {
                    installment_count: Some(4),
                    ..honest()
                },
                Msg::IntRange(1, 3),
            ),
            (
                "dueDate",
                InvoiceRequest {
                    due_date: Some("2030-01-01".into()),
                    ..honest()
                },
                Msg::FixedByLink,
            ),
            (
                "invoiceType",
                InvoiceRequest {
                    invoice_type: Some("SINGLE".into()),
                    ..honest()
                },
                Msg::FixedByLink,
            ),
            (
                "redirectTo",
                InvoiceRequest {
                    redirect_to: Some("https://evil.example".into()),
                    ..honest()
                },
                Msg::FixedByLink,
            ),
            (
                "externalId",
                InvoiceRequest {
                    external_id: Some("order-123".into()),
                    ..honest()
                },
                Msg::FixedByLink,
            ),
            (
                "notifications",
                InvoiceRequest {
                    notifications: Some(vec![notif]),
                    ..honest()
                },
                Msg::NotAllowedByLink,
            ),
            (
                "webhooks",
                InvoiceRequest {
                    webhooks: Some(vec![hook]),
                    ..honest()
                },
                Msg::NotAllowedByLink,
            ),
            (
                "frequency",
                InvoiceRequest {
                    frequency: Some("MONTHLY".into()),
                    ..honest()
                },
                Msg::NotAllowedByLink,
            ),
            (
                "discount",
                InvoiceRequest {
                    discount: Some(crate::charges::Discount {
                        kind: Some("PERCENTAGE".into()),
                        value: Some(99.0),
                        until_date: Some("2027-01-04".into()),
                    }),
                    ..honest()
                },
                Msg::NotAllowedByLink,
            ),
            (
                "fine",
                InvoiceRequest {
                    fine: Some(crate::charges::Fine::default()),
                    ..honest()
                },
                Msg::NotAllowedByLink,
            ),
            (
                "interest",
                InvoiceRequest {
                    interest: Some(crate::charges::Interest::default()),
                    ..honest()
                },
                Msg::NotAllowedByLink,
            ),
        ];
        for (path, req, msg) in cases {
            let v = link().bind(&req).expect_err(path);
            assert_eq!(v.0, vec![(path.to_string(), msg)], "{path}");
        }
    }

    #[test]
    fn the_links_terms_go_into_the_invoice() {
        let l = PaymentLink {
            fine: Some(crate::charges::Fine {
                kind: Some("PERCENTAGE".into()),
                value: Some(2.0),
            }),
            interest: Some(crate::charges::Interest { value: Some(1.0) }),
            discount: Some(crate::charges::Discount {
                kind: Some("FIXED".into()),
                value: Some(10.0),
                until_date: Some("2027-01-03".into()),
            }),
            ..link()
        };
        let out = l.bind(&honest()).unwrap();
        assert_eq!(out.fine, l.fine);
        assert_eq!(out.interest, l.interest);
        assert_eq!(out.discount, l.discount);
        // Sent again as the link has them, they are the link's: still refused from the payer.
        let v = l
            .bind(&InvoiceRequest {
                fine: l.fine.clone(),
                ..honest()
            })
            .unwrap_err();
        assert!(v.has("fine"));
    }

    #[test]
    fn price_by_customer_takes_the_payers_amount() {
        let l = PaymentLink {
            price: None,
            price_by_customer: true,
            invoice_type: InvoiceType::Single,
            max_installments: 1,
            ..link()
        };
        let req = InvoiceRequest {
            price: Some(42.5),
            installment_count: Some(1),
            invoice_type: Some("SINGLE".into()),
            ..honest()
        };
        let out = l.bind(&req).unwrap();
        assert_eq!(out.price, Some(42.5));
        assert_eq!(out.price_by_customer, None);
        let v = l.bind(&InvoiceRequest { price: None, ..req }).unwrap_err();
        assert!(v.has("price"));
    }

    #[test]
    fn a_choice_is_checked_on_the_payers_fields_only() {
        let open = PaymentLink {
            price: None,
            price_by_customer: true,
            ..link()
        };
        let good = LinkChoice {
            payment_types: Some(vec!["PIX".into()]),
            installment_count: Some(3),
            price: Some(6.0),
            ..LinkChoice::default()
        };
        assert!(open.check_choice(&good).is_empty());
        // Each installment of R$ 2,00 is the invoice's rule, not the payer's choice:
        // the server's check (bind, then the invoice) refuses it.
        let bound = open.bind(&good.clone().into_request()).unwrap();
        assert!(bound.check().unwrap_err().has("installmentCount"));
        let cases: Vec<(&str, LinkChoice, Msg)> = vec![
            (
                "price",
                LinkChoice {
                    price: Some(1.0),
                    ..good.clone()
                },
                Msg::MinPrice,
            ),
            (
                "price",
                LinkChoice {
                    price: None,
                    ..good.clone()
                },
                Msg::Required,
            ),
            (
                "paymentTypes",
                LinkChoice {
                    payment_types: Some(vec![]),
                    ..good.clone()
                },
                Msg::AtLeastOne,
            ),
            (
                "paymentTypes[0]",
                LinkChoice {
                    payment_types: Some(vec!["CARD".into()]),
                    ..good.clone()
                },
                Msg::NotAllowedByLink,
            ),
            (
                "installmentCount",
                LinkChoice {
                    installment_count: Some(4),
                    ..good.clone()
                },
                Msg::IntRange(1, 3),
            ),
        ];
        for (path, c, msg) in cases {
            assert_eq!(
                open.check_choice(&c).0,
                vec![(path.to_string(), msg)],
                "{path}"
            );
        }
        // A fixed price is the link's: the payer's choice carries none.
        let fixed = LinkChoice {
            price: None,
            ..good
        };
        assert!(link().check_choice(&fixed).is_empty());
    }

    #[test]
    fn a_choice_on_the_wire_carries_only_the_payers_fields() {
        let c = LinkChoice {
            customer_id: Some("6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11".into()),
            payment_types: Some(vec!["PIX".into()]),
            installment_count: Some(2),
            price: None,
        };
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "customerId": "6b1f3a0e-3c1d-4c7e-9a51-2b8f5d0e7c11",
                "paymentTypes": ["PIX"],
                "installmentCount": 2
            })
        );
        // The server reads it as the invoice request it is.
        let req: InvoiceRequest = serde_json::from_value(json).unwrap();
        assert_eq!(req, c.into_request());
    }

    #[test]
    fn the_wire_form_has_reais_and_null() {
        let json = serde_json::to_value(link()).unwrap();
        assert_eq!(json["price"], 300.0);
        assert_eq!(json["priceByCustomer"], false);
        assert_eq!(json["paymentTypes"], serde_json::json!(["PIX", "BOLETO"]));
        assert_eq!(json["maxInstallments"], 3);
        let open = PaymentLink {
            price: None,
            ..link()
        };
        let json = serde_json::to_value(&open).unwrap();
        assert!(json["price"].is_null());
        assert_eq!(serde_json::from_value::<PaymentLink>(json).unwrap(), open);
    }

    #[test]
    fn due_date_counts_days_from_today() {
        let today = Date::new(2026, 12, 30).unwrap();
        assert_eq!(
            link_due_date(today, 3),
            Some(Date::new(2027, 1, 2).unwrap())
        );
    }
}
