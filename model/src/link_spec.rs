//! A merchant's payment links: the creation request (`POST
//! /invoices/applications/payment-links`, the widget's links screen and
//! `paylink link create` alike) and its rules keyed by API field path, the
//! slug rules, the merchant's view of a link (with what it has brought in),
//! and the two snippets that put a link on a merchant's page. The payer's
//! side of a link (its public page, `bind`) is [`crate::link`].

use serde::{Deserialize, Serialize};

use crate::charges::{self, Fine, Interest, TermsContext, Value};
use crate::customer::{max_chars, present};
use crate::enums::{InvoiceType, PaymentType};
use crate::errors::{Msg, Violations};
use crate::invoice::{price_field, DESCRIPTION_MAX};
use crate::link::MAX_DUE_IN_DAYS;
use crate::money::{self, MIN_PRICE_CENTS};
use crate::plan::MAX_INSTALLMENTS;

/// The longest slug.
pub const SLUG_MAX: usize = 64;
/// The longest name.
pub const NAME_MAX: usize = 100;
/// The due date of a link's invoice when the request names none: today + 3 days.
pub const DEFAULT_DUE_IN_DAYS: u32 = 3;
/// The invoice types a link makes: one charge, or installments the payer picks.
pub const LINK_INVOICE_TYPES: &[&str] = &["SINGLE", "INSTALLMENT"];

/// `a-z`, `0-9` and single inner hyphens: safe in a URL path as it is.
pub fn slug_is_valid(s: &str) -> bool {
    (1..=SLUG_MAX).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--")
}

/// A slug from a name: accents dropped, lower case, words joined by hyphens.
pub fn slugify(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        let c = match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c => c,
        };
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut slug: String = out.trim_end_matches('-').chars().take(48).collect();
    while slug.ends_with('-') {
        slug.pop();
    }
    if slug.is_empty() {
        "link".into()
    } else {
        slug
    }
}

/// A link's fine, interest and discount, checked (integers only). The
/// discount's last day is its invoice's due date minus `discount_days_before_due`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkTerms {
    pub fine: Option<Value>,
    /// Hundredths of a percent per month.
    pub interest_monthly_bp: Option<i64>,
    pub discount: Option<Value>,
    pub discount_days_before_due: u32,
}

/// A link's discount on the wire: like an invoice's, but its last day is
/// counted back from each invoice's due date.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LinkDiscount {
    /// `PERCENTAGE` of the amount or a `FIXED` amount in reais.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = crate::charges::ValueType, required = true)
    )]
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Percent (less than 100) or reais (less than the smallest installment).
    #[cfg_attr(
        feature = "openapi",
        schema(
            value_type = f64,
            required = true,
            exclusive_minimum = 0,
            multiple_of = 0.01,
            example = 5.0
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// The discount ends this many days before each invoice's due date
    /// (0 to `dueInDays`; default 0: until the due date).
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 365))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_before_due: Option<i64>,
}

/// `POST /invoices/applications/payment-links` body. Every field is optional
/// at parse time so a missing one is reported as a field error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "A payment link to create: what every invoice made through its page is.")
)]
#[serde(rename_all = "camelCase")]
pub struct LinkRequest {
    /// Shown on the link's page; 1 to 100 characters.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = String, required = true, max_length = 100, pattern = r"\S", example = "Curso de Rust")
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Each invoice's description; 1 to 350 characters.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = String, required = true, max_length = 350, pattern = r"\S", example = "Acesso por 12 meses")
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The fixed amount in reais (at most two decimals; R$ 5,00 or more per
    /// installment). Required unless `priceByCustomer`.
    #[cfg_attr(
        feature = "openapi",
        schema(
            minimum = 5,
            maximum = 99999999.99,
            multiple_of = 0.01,
            example = 300.0
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<f64>,
    /// The payer states the amount; then `price` must be absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_by_customer: Option<bool>,
    /// The payment types the payer may choose from; default PIX and BOLETO.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::invoice::payment_types_schema))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_types: Option<Vec<String>>,
    /// SINGLE (default) or INSTALLMENT (the payer picks 1 to `maxInstallments`).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, example = "INSTALLMENT"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_type: Option<String>,
    /// INSTALLMENT only, and then required: 2 to 120.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 120))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_installments: Option<i64>,
    /// An invoice's due date is the day of its creation plus this many days: 0 to 365, default 3.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 365))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_in_days: Option<i64>,
    /// http(s) URL the payer is sent to once everything is paid (blank: none).
    #[cfg_attr(
        feature = "openapi",
        schema(max_length = 2048, example = "https://loja.example/obrigado")
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_to: Option<String>,
    /// The link's address, `/l/{slug}`: 1 to 64 of a-z, 0-9 and inner
    /// hyphens, as it is (no blanks around). Default (absent or empty): made
    /// from `name` (with `-2`, `-3`… when taken).
    #[cfg_attr(feature = "openapi", schema(max_length = 64, example = "curso-rust"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// Multa once paid after the due date: a PERCENTAGE (at most 2, since
    /// anyone, a consumer too, may pay through a link) or a FIXED amount in
    /// reais (at most 2 % of the smallest installment).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_object"
    )]
    pub fine: Option<Fine>,
    /// Juros de mora: percent a month, at most 10.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_object"
    )]
    pub interest: Option<Interest>,
    /// Desconto for paying early.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::optional_object"
    )]
    pub discount: Option<LinkDiscount>,
}

/// A link request that passed every rule. `slug` is `None` when it is to be
/// made from the name (and made unique where it is stored).
#[derive(Clone, Debug, PartialEq)]
pub struct NewLink {
    pub slug: Option<String>,
    pub name: String,
    pub description: String,
    /// `None` when the payer states the amount.
    pub price_cents: Option<i64>,
    pub payment_types: Vec<PaymentType>,
    pub invoice_type: InvoiceType,
    pub max_installments: u32,
    pub due_in_days: u32,
    pub redirect_to: Option<String>,
    pub terms: LinkTerms,
}

fn required_text(v: &mut Violations, path: &str, value: &Option<String>, max: usize) -> String {
    match present(value) {
        None => {
            v.add(path, Msg::Required);
            String::new()
        }
        Some(s) => {
            max_chars(v, path, s, max);
            s.to_string()
        }
    }
}

impl LinkRequest {
    /// Every rule of a link, keyed by API field path.
    pub fn check(&self) -> Result<NewLink, Violations> {
        let mut v = Violations::default();
        let name = required_text(&mut v, "name", &self.name, NAME_MAX);
        let description = required_text(&mut v, "description", &self.description, DESCRIPTION_MAX);

        let by_customer = self.price_by_customer.unwrap_or(false);
        let price_cents = match (by_customer, self.price) {
            (true, None) => None,
            (true, Some(_)) => {
                v.add("price", Msg::OnlyWhen("priceByCustomer = false"));
                None
            }
            (false, price) => price_field(&mut v, price),
        };

        let mut payment_types = Vec::new();
        match &self.payment_types {
            None => payment_types = vec![PaymentType::Pix, PaymentType::Boleto],
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

        let invoice_type = match present(&self.invoice_type) {
            None => Some(InvoiceType::Single),
            Some(s) => match InvoiceType::parse(s) {
                Some(t @ (InvoiceType::Single | InvoiceType::Installment)) => Some(t),
                _ => {
                    v.add("invoiceType", Msg::OneOf(LINK_INVOICE_TYPES));
                    None
                }
            },
        };
        let max_installments = match (invoice_type, self.max_installments) {
            (Some(InvoiceType::Installment), None) => {
                v.add("maxInstallments", Msg::Required);
                None
            }
            (Some(InvoiceType::Installment), Some(n)) => {
                if (2..=i64::from(MAX_INSTALLMENTS)).contains(&n) {
                    Some(n as u32)
                } else {
                    v.add(
                        "maxInstallments",
                        Msg::IntRange(2, i64::from(MAX_INSTALLMENTS)),
                    );
                    None
                }
            }
            (_, None | Some(1)) => Some(1),
            (Some(_), Some(_)) => {
                v.add(
                    "maxInstallments",
                    Msg::OnlyWhen("invoiceType = INSTALLMENT"),
                );
                None
            }
            (None, Some(_)) => None,
        };
        if let (Some(cents), Some(n)) = (price_cents, max_installments) {
            if cents / i64::from(n) < MIN_PRICE_CENTS {
                v.add("maxInstallments", Msg::InstallmentBelowMin);
            }
        }

        let due_in_days = match self.due_in_days {
            None => Some(DEFAULT_DUE_IN_DAYS),
            Some(d) if (0..=i64::from(MAX_DUE_IN_DAYS)).contains(&d) => Some(d as u32),
            Some(_) => {
                v.add("dueInDays", Msg::IntRange(0, i64::from(MAX_DUE_IN_DAYS)));
                None
            }
        };

        let redirect_to = present(&self.redirect_to).and_then(|u| {
            if crate::br::parse_http_url(u).is_some() {
                Some(u.to_string())
            } else {
                v.add("redirectTo", Msg::Url);
                None
            }
        });

        // Taken as it is (not trimmed): a slug is an address, and blanks are not in one.
        let slug = self
            .slug
            .as_deref()
            .filter(|s| !s.is_empty())
            .and_then(|s| {
                if slug_is_valid(s) {
                    Some(s.to_string())
                } else {
                    v.add("slug", Msg::Slug);
                    None
                }
            });

        let terms = self.check_terms(&mut v, price_cents, max_installments, due_in_days);

        if !v.is_empty() {
            return Err(v);
        }
        Ok(NewLink {
            slug,
            name,
            description,
            price_cents,
            payment_types,
            invoice_type: invoice_type.unwrap_or(InvoiceType::Single),
            max_installments: max_installments.unwrap_or(1),
            due_in_days: due_in_days.unwrap_or(DEFAULT_DUE_IN_DAYS),
            redirect_to,
            terms,
        })
    }

    /// The terms by the charges' rules, against the smallest installment a
    /// payer may choose, and as if every payer were a consumer (a CPF: a
    /// fine of at most 2 %), since anyone may pay through a link.
    fn check_terms(
        &self,
        v: &mut Violations,
        price_cents: Option<i64>,
        max_installments: Option<u32>,
        due_in_days: Option<u32>,
    ) -> LinkTerms {
        let discount = self.discount.as_ref().map(|d| charges::Discount {
            kind: d.kind.clone(),
            value: d.value,
            // The link's own days are checked below.
            until_date: Some("1970-01-01".into()),
        });
        let checked = charges::check_terms_into(
            v,
            self.fine.as_ref(),
            self.interest.as_ref(),
            discount.as_ref(),
            TermsContext {
                amount_cents: price_cents.map(|c| c / i64::from(max_installments.unwrap_or(1))),
                due_date: None,
                payer_is_cpf: true,
            },
        );
        let days = match self.discount.as_ref().and_then(|d| d.days_before_due) {
            None => 0,
            Some(n) => {
                let max = i64::from(due_in_days.unwrap_or(MAX_DUE_IN_DAYS));
                if (0..=max).contains(&n) {
                    n as u32
                } else {
                    v.add("discount.daysBeforeDue", Msg::IntRange(0, max));
                    0
                }
            }
        };
        LinkTerms {
            fine: checked.fine,
            interest_monthly_bp: checked.interest_monthly_bp,
            discount: checked.discount.map(|d| d.value),
            discount_days_before_due: days,
        }
    }
}

/// Every API field path a link request's errors are keyed by, bar the
/// indexed `paymentTypes[i]` (shown on `paymentTypes`).
pub const LINK_FIELDS: &[&str] = &[
    "name",
    "description",
    "price",
    "priceByCustomer",
    "paymentTypes",
    "invoiceType",
    "maxInstallments",
    "dueInDays",
    "redirectTo",
    "slug",
    "fine.type",
    "fine.value",
    "interest.value",
    "discount.type",
    "discount.value",
    "discount.daysBeforeDue",
];

/// A link as its merchant sees it: what it is, whether it is on, its page's
/// address, and what it has brought in so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MerchantLink {
    #[cfg_attr(feature = "openapi", schema(example = "curso-rust"))]
    pub slug: String,
    pub name: String,
    pub description: String,
    /// Reais; null when the payer states the amount.
    #[serde(with = "crate::link::reais_opt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>))]
    pub price: Option<i64>,
    pub price_by_customer: bool,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<PaymentType>))]
    pub payment_types: Vec<PaymentType>,
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "INSTALLMENT"))]
    pub invoice_type: InvoiceType,
    /// 1 unless `invoiceType` is INSTALLMENT.
    pub max_installments: u32,
    pub due_in_days: u32,
    pub redirect_to: Option<String>,
    pub fine: Option<Fine>,
    pub interest: Option<Interest>,
    pub discount: Option<LinkDiscount>,
    /// Off: its page and creations answer 404 (its invoices stay).
    pub active: bool,
    #[cfg_attr(feature = "openapi", schema(format = "date-time"))]
    pub created_at: String,
    /// The link's page: `{public-url}/l/{slug}`.
    #[cfg_attr(feature = "openapi", schema(format = "uri"))]
    pub url: String,
    /// Invoices made through the link (cancelled ones too).
    pub invoices_made: i64,
    /// Reais received on them so far (installments confirmed paid).
    #[serde(with = "crate::money::reais")]
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub amount_paid: i64,
    /// The QR code of `url` as SVG markup (`GET` of one link only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qr_svg: Option<String>,
}

/// `GET /invoices/applications/payment-links`: every link of the
/// application, newest first (a merchant has a handful; no pages).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LinkList {
    pub data: Vec<MerchantLink>,
}

/// `PATCH /invoices/applications/payment-links/{slug}`: turns a link on or off.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LinkStateRequest {
    /// false: the link's page and creations answer 404 until it is on again.
    #[cfg_attr(feature = "openapi", schema(value_type = bool, required = true))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}

impl LinkStateRequest {
    pub fn check(&self) -> Result<bool, Violations> {
        self.active.ok_or_else(|| {
            let mut v = Violations::default();
            v.add("active", Msg::Required);
            v
        })
    }
}

impl LinkTerms {
    /// The terms on the wire, as a request states them.
    pub fn to_wire(&self) -> (Option<Fine>, Option<Interest>, Option<LinkDiscount>) {
        let fine = self.fine.map(|f| Fine {
            kind: Some(f.kind().name().into()),
            value: Some(f.wire()),
        });
        let interest = self.interest_monthly_bp.map(|bp| Interest {
            value: Some(money::cents_to_reais(bp)),
        });
        let discount = self.discount.map(|d| LinkDiscount {
            kind: Some(d.kind().name().into()),
            value: Some(d.wire()),
            days_before_due: Some(i64::from(self.discount_days_before_due)),
        });
        (fine, interest, discount)
    }
}

/// The origin of a link's URL (`https://pay.example/l/x` → `https://pay.example`),
/// where embed.js and mount.js are.
fn origin_of(url: &str) -> &str {
    url.find("/l/").map_or(url, |i| &url[..i])
}

/// The `<script>` that frames the link's page on a merchant's page (embed.js).
pub fn iframe_snippet(url: &str, slug: &str) -> String {
    format!(
        "<script src=\"{}/embed.js\" data-paylink-link=\"{slug}\" async></script>",
        origin_of(url)
    )
}

/// The element and module script that mount the link's form in a
/// merchant's own DOM (`mount()` of mount.js), in `locale` (`pt-BR`, `en`).
pub fn mount_snippet(url: &str, slug: &str, locale: &str) -> String {
    format!(
        "<div id=\"checkout\"></div>\n<script type=\"module\">\n  import {{ mount }} from \"{}/mount.js\";\n  mount(document.getElementById(\"checkout\"), {{ link: \"{slug}\", locale: \"{locale}\" }});\n</script>",
        origin_of(url)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req() -> LinkRequest {
        LinkRequest {
            name: Some("Curso de Rust".into()),
            description: Some("Acesso por 12 meses".into()),
            price: Some(300.0),
            invoice_type: Some("INSTALLMENT".into()),
            max_installments: Some(3),
            ..Default::default()
        }
    }

    fn paths(r: LinkRequest) -> Vec<String> {
        r.check()
            .err()
            .map(|v| v.0.into_iter().map(|(p, _)| p).collect())
            .unwrap_or_default()
    }

    #[test]
    fn slugs_come_from_names() {
        assert_eq!(slugify("Curso de Rust"), "curso-de-rust");
        assert_eq!(slugify("  Ação — Promoção 2x!  "), "acao-promocao-2x");
        assert_eq!(slugify("???"), "link");
        assert!(slug_is_valid(&slugify(&"Muito longo ".repeat(20))));
        assert!(!slug_is_valid("Curso"));
        assert!(!slug_is_valid("a--b"));
        assert!(!slug_is_valid("-a"));
        assert!(!slug_is_valid("../x"));
    }

    #[test]
    fn a_good_request_gets_defaults() {
        let link = LinkRequest {
            invoice_type: None,
            max_installments: None,
            ..req()
        }
        .check()
        .unwrap();
        assert_eq!(link.slug, None);
        assert_eq!(link.price_cents, Some(30000));
        assert_eq!(
            link.payment_types,
            vec![PaymentType::Pix, PaymentType::Boleto]
        );
        assert_eq!(link.invoice_type, InvoiceType::Single);
        assert_eq!(link.max_installments, 1);
        assert_eq!(link.due_in_days, DEFAULT_DUE_IN_DAYS);
    }

    #[test]
    fn every_rule_is_keyed_by_its_path() {
        let cases: Vec<(&str, LinkRequest)> = vec![
            (
                "name",
                LinkRequest {
                    name: Some(" ".into()),
                    ..req()
                },
            ),
            (
                "name",
                LinkRequest {
                    name: Some("x".repeat(101)),
                    ..req()
                },
            ),
            (
                "description",
                LinkRequest {
                    description: None,
                    ..req()
                },
            ),
            (
                "price",
                LinkRequest {
                    price: None,
                    ..req()
                },
            ),
            (
                "price",
                LinkRequest {
                    price: Some(4.99),
                    ..req()
                },
            ),
            (
                "price",
                LinkRequest {
                    price: Some(10.001),
                    ..req()
                },
            ),
            (
                "price",
                LinkRequest {
                    price_by_customer: Some(true),
                    ..req()
                },
            ),
            (
                "paymentTypes",
                LinkRequest {
                    payment_types: Some(vec![]),
                    ..req()
                },
            ),
            (
                "paymentTypes[1]",
                LinkRequest {
                    payment_types: Some(vec!["PIX".into(), "CARD".into()]),
                    ..req()
                },
            ),
            (
                "paymentTypes[1]",
                LinkRequest {
                    payment_types: Some(vec!["PIX".into(), "PIX".into()]),
                    ..req()
                },
            ),
            (
                "invoiceType",
                LinkRequest {
                    invoice_type: Some("RECURRING".into()),
                    ..req()
                },
            ),
            (
                "maxInstallments",
                LinkRequest {
                    max_installments: None,
                    ..req()
                },
            ),
            (
                "maxInstallments",
                LinkRequest {
                    max_installments: Some(121),
                    ..req()
                },
            ),
            (
                "maxInstallments",
                LinkRequest {
                    invoice_type: Some("SINGLE".into()),
                    ..req()
                },
            ),
            (
                "maxInstallments",
                LinkRequest {
                    price: Some(10.0),
                    ..req()
                },
            ),
            (
                "dueInDays",
                LinkRequest {
                    due_in_days: Some(400),
                    ..req()
                },
            ),
            (
                "dueInDays",
                LinkRequest {
                    due_in_days: Some(-1),
                    ..req()
                },
            ),
            (
                "redirectTo",
                LinkRequest {
                    redirect_to: Some("javascript:alert(1)".into()),
                    ..req()
                },
            ),
            (
                "slug",
                LinkRequest {
                    slug: Some("Não".into()),
                    ..req()
                },
            ),
            // Anyone may pay through a link: the consumer's 2 % cap applies.
            (
                "fine.value",
                LinkRequest {
                    fine: Some(Fine {
                        kind: Some("PERCENTAGE".into()),
                        value: Some(2.5),
                    }),
                    ..req()
                },
            ),
            // 2 % of the smallest installment (R$ 100,00) is R$ 2,00.
            (
                "fine.value",
                LinkRequest {
                    fine: Some(Fine {
                        kind: Some("FIXED".into()),
                        value: Some(2.01),
                    }),
                    ..req()
                },
            ),
            (
                "fine.type",
                LinkRequest {
                    fine: Some(Fine {
                        kind: Some("X".into()),
                        value: Some(1.0),
                    }),
                    ..req()
                },
            ),
            (
                "interest.value",
                LinkRequest {
                    interest: Some(Interest { value: Some(10.5) }),
                    ..req()
                },
            ),
            (
                "discount.value",
                LinkRequest {
                    discount: Some(LinkDiscount {
                        kind: Some("FIXED".into()),
                        value: Some(100.0),
                        days_before_due: None,
                    }),
                    ..req()
                },
            ),
            (
                "discount.value",
                LinkRequest {
                    discount: Some(LinkDiscount {
                        kind: Some("PERCENTAGE".into()),
                        value: Some(100.0),
                        days_before_due: None,
                    }),
                    ..req()
                },
            ),
            (
                "discount.daysBeforeDue",
                LinkRequest {
                    discount: Some(LinkDiscount {
                        kind: Some("PERCENTAGE".into()),
                        value: Some(5.0),
                        days_before_due: Some(4),
                    }),
                    ..req()
                },
            ),
        ];
        for (path, r) in cases {
            assert_eq!(paths(r), vec![path.to_string()], "{path}");
        }
    }

    #[test]
    fn terms_are_checked_and_go_back_to_the_wire() {
        let link = LinkRequest {
            fine: Some(Fine {
                kind: Some("PERCENTAGE".into()),
                value: Some(2.0),
            }),
            interest: Some(Interest { value: Some(1.5) }),
            discount: Some(LinkDiscount {
                kind: Some("FIXED".into()),
                value: Some(10.0),
                days_before_due: Some(1),
            }),
            ..req()
        }
        .check()
        .unwrap();
        assert_eq!(
            link.terms,
            LinkTerms {
                fine: Some(Value::Percent(200)),
                interest_monthly_bp: Some(150),
                discount: Some(Value::Cents(1000)),
                discount_days_before_due: 1,
            }
        );
        let (fine, interest, discount) = link.terms.to_wire();
        assert_eq!(fine.unwrap().value, Some(2.0));
        assert_eq!(interest.unwrap().value, Some(1.5));
        let d = discount.unwrap();
        assert_eq!(
            (d.kind.as_deref(), d.value, d.days_before_due),
            (Some("FIXED"), Some(10.0), Some(1))
        );
    }

    #[test]
    fn a_payer_stated_amount_takes_no_price() {
        let link = LinkRequest {
            price: None,
            price_by_customer: Some(true),
            invoice_type: None,
            max_installments: None,
            ..req()
        }
        .check()
        .unwrap();
        assert_eq!(link.price_cents, None);
    }

    #[test]
    fn snippets_name_the_links_origin() {
        let url = "https://pay.loja.example/l/curso-rust";
        assert_eq!(
            iframe_snippet(url, "curso-rust"),
            r#"<script src="https://pay.loja.example/embed.js" data-paylink-link="curso-rust" async></script>"#
        );
        let m = mount_snippet(url, "curso-rust", "pt-BR");
        assert!(
            m.contains(r#"import { mount } from "https://pay.loja.example/mount.js";"#),
            "{m}"
        );
        assert!(m.contains(r#"mount(document.getElementById("checkout"), { link: "curso-rust", locale: "pt-BR" });"#), "{m}");
    }
}
