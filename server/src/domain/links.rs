//! Payment links' terms and creation rules: what a link is, how its slug and
//! price are read, and what `paylink link create` accepts. The comparison of a
//! payer's request with the link is `paylink_model::link`.

pub use crate::store::links::{Link, LinkTerms};
use paylink_model::charges::{self, ChargeTerms, DiscountTerm, TermsContext, Value};
pub use paylink_model::link::MAX_DUE_IN_DAYS;
use paylink_model::{money, Date, InvoiceType, Lang, PaymentLink, PaymentType};

use crate::store::now_iso;

pub const SLUG_MAX: usize = 64;
pub const NAME_MAX: usize = 100;

impl Link {
    /// The link as its page shows it on `today` (the due date depends on the day).
    pub fn public(&self, today: Date) -> PaymentLink {
        let due = paylink_model::link::link_due_date(today, self.due_in_days).unwrap_or(today);
        let (fine, interest, discount) = ChargeTerms {
            fine: self.terms.fine,
            interest_monthly_bp: self.terms.interest_monthly_bp,
            discount: self.terms.discount.map(|value| DiscountTerm {
                value,
                until: due
                    .add_days(-i64::from(self.terms.discount_days_before_due))
                    .unwrap_or(due)
                    .max(today),
            }),
        }
        .to_wire();
        PaymentLink {
            fine,
            interest,
            discount,
            slug: self.slug.clone(),
            name: self.name.clone(),
            description: self.description.clone(),
            price: self.price_cents,
            price_by_customer: self.price_cents.is_none(),
            payment_types: self.payment_types.clone(),
            invoice_type: self.invoice_type,
            max_installments: self.max_installments,
            due_date: due.to_string(),
            redirect_to: self.redirect_to.clone(),
        }
    }

    /// The link's fine, interest and discount as the page states them on
    /// `today`, one sentence each (`charges::instructions`), for the first
    /// installment at the link's price and its largest number of
    /// installments (what the form starts with); none when the payer states
    /// the amount, which the sentences depend on.
    pub fn terms_text(&self, today: Date, lang: Lang) -> Vec<String> {
        let link = self.public(today);
        let (Some(price), Some(due)) = (link.price, Date::parse_iso(&link.due_date)) else {
            return Vec::new();
        };
        let terms = charges::check_terms(
            link.fine.as_ref(),
            link.interest.as_ref(),
            link.discount.as_ref(),
            TermsContext::default(),
        )
        .unwrap_or_default();
        let count = match link.invoice_type {
            InvoiceType::Installment => link.max_installments.max(1),
            _ => 1,
        };
        let first = paylink_model::installment_plan(price, count, due)
            .first()
            .map_or(price, |i| i.price_cents);
        charges::instructions(first, due, &terms, lang)
    }

    pub fn url(&self, public_url: &str) -> String {
        format!("{}/l/{}", public_url.trim_end_matches('/'), self.slug)
    }
}

// ---- Creation rules (the CLI) ----

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

/// An amount as a merchant types it: `300.00`, `300,00`, `1.234,56`, `R$ 300`.
pub fn parse_price(input: &str) -> Option<i64> {
    let s = input.trim();
    // A lone dot followed by one or two digits is a decimal point (`300.00`);
    // otherwise dots are thousands separators, as pt-BR writes them.
    let decimal_dot = !s.contains(',')
        && s.rsplit_once('.')
            .is_some_and(|(int, frac)| !int.contains('.') && (1..=2).contains(&frac.len()));
    if decimal_dot {
        money::parse_brl(&s.replacen('.', ",", 1))
    } else {
        money::parse_brl(s)
    }
}

/// What `link create` was given, before the rules.
pub struct LinkSpec<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub price: Option<&'a str>,
    pub price_by_customer: bool,
    pub payment_types: &'a str,
    pub invoice_type: &'a str,
    pub max_installments: Option<u32>,
    pub due_in_days: u32,
    pub redirect_to: Option<&'a str>,
    pub slug: Option<&'a str>,
    /// `2%` (of each installment) or an amount in reais (`5,00`).
    pub fine: Option<&'a str>,
    /// Percent a month: `1` or `1,5`.
    pub interest: Option<&'a str>,
    /// `5%` or an amount in reais, until the due date minus `discount_days_before_due`.
    pub discount: Option<&'a str>,
    pub discount_days_before_due: u32,
}

/// `2%` / `2,5 %` (a percentage) or `5,00` / `5.00` / `R$ 5` (reais), as a
/// value the model's rules take; `None` when it reads as neither.
fn parse_term_value(input: &str) -> Option<(&'static str, f64)> {
    let s = input.trim();
    match s.strip_suffix('%') {
        Some(p) => Some(("PERCENTAGE", parse_price(p.trim())? as f64 / 100.0)),
        None => Some(("FIXED", parse_price(s)? as f64 / 100.0)),
    }
}

impl LinkSpec<'_> {
    /// The terms by the model's rules, against the smallest installment a
    /// payer may choose, and as if every payer were a consumer (a CPF: a
    /// fine of at most 2 %), since anyone may pay through a link.
    fn check_terms(
        &self,
        price_cents: Option<i64>,
        max_installments: u32,
    ) -> Result<LinkTerms, String> {
        let value = |flag: &str, input: &str| {
            parse_term_value(input).ok_or_else(|| {
                format!("{flag} {input:?} must be a percentage like 2% or an amount like 5,00")
            })
        };
        let fine = match self.fine {
            None => None,
            Some(f) => {
                let (kind, v) = value("--fine", f)?;
                Some(charges::Fine {
                    kind: Some(kind.into()),
                    value: Some(v),
                })
            }
        };
        let interest = match self.interest {
            None => None,
            Some(i) => {
                // Always a percentage a month: `1`, `1,5` or `1%`.
                let (_, v) = value("--interest", i.trim().trim_end_matches('%'))?;
                Some(charges::Interest { value: Some(v) })
            }
        };
        let discount = match self.discount {
            None => None,
            Some(d) => {
                let (kind, v) = value("--discount", d)?;
                Some(charges::Discount {
                    kind: Some(kind.into()),
                    value: Some(v),
                    // Checked below against the link's own days.
                    until_date: Some("1970-01-01".into()),
                })
            }
        };
        if self.discount.is_none() && self.discount_days_before_due > 0 {
            return Err("--discount-days-before-due applies only with --discount".into());
        }
        if self.discount_days_before_due > self.due_in_days {
            return Err("--discount-days-before-due cannot be more than --due-in-days".into());
        }
        let terms = charges::check_terms(
            fine.as_ref(),
            interest.as_ref(),
            discount.as_ref(),
            TermsContext {
                amount_cents: price_cents.map(|c| c / i64::from(max_installments.max(1))),
                due_date: None,
                payer_is_cpf: true,
            },
        )
        .map_err(|v| {
            let (path, msgs) = v.render(Lang::En).into_iter().next().unwrap_or_default();
            let flag = path.split('.').next().unwrap_or_default();
            format!("--{flag}: {}", msgs.join(" "))
        })?;
        Ok(LinkTerms {
            fine: terms.fine,
            interest_monthly_bp: terms.interest_monthly_bp,
            discount: terms.discount.map(|d| d.value),
            discount_days_before_due: self.discount_days_before_due,
        })
    }
}

/// A request bound to the link as a page showed it yesterday (opened
/// before midnight) may carry dates that are now past: the due date of a
/// link due the same day, or a discount's last day. They move to `today`,
/// in the payer's favour, instead of refusing what the payer cannot change.
pub fn not_before_today(req: &mut paylink_model::InvoiceRequest, today: Date) {
    let past = |d: &Option<String>| {
        d.as_deref()
            .and_then(Date::parse_iso)
            .is_some_and(|d| d < today)
    };
    if past(&req.due_date) {
        req.due_date = Some(today.to_string());
    }
    if let Some(discount) = req.discount.as_mut() {
        if past(&discount.until_date) {
            discount.until_date = Some(today.to_string());
        }
    }
}

/// A link's terms as `link list` shows them (`multa 2%, juros 1% a.m., desconto R$ 5,00 até 1 dia antes`).
pub fn terms_text(t: &LinkTerms) -> String {
    let v = |v: Value| match v {
        Value::Percent(bp) => format!("{}%", money::format_brl_input(bp)),
        Value::Cents(c) => money::format_brl(c, Lang::PtBr),
    };
    let mut parts = Vec::new();
    if let Some(f) = t.fine {
        parts.push(format!("fine {}", v(f)));
    }
    if let Some(bp) = t.interest_monthly_bp {
        parts.push(format!("interest {}% a month", money::format_brl_input(bp)));
    }
    if let Some(d) = t.discount {
        parts.push(format!(
            "discount {} until {} days before due",
            v(d),
            t.discount_days_before_due
        ));
    }
    parts.join(", ")
}

impl LinkSpec<'_> {
    /// The link to store (its slug still to be made unique when generated),
    /// or the first broken rule as a sentence naming the flag.
    pub fn check(&self) -> Result<Link, String> {
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > NAME_MAX {
            return Err(format!("--name must have 1 to {NAME_MAX} characters"));
        }
        let description = self.description.trim();
        if description.is_empty()
            || description.chars().count() > paylink_model::invoice::DESCRIPTION_MAX
        {
            return Err(format!(
                "--description must have 1 to {} characters",
                paylink_model::invoice::DESCRIPTION_MAX
            ));
        }
        let price_cents = match (self.price, self.price_by_customer) {
            (Some(_), true) | (None, false) => {
                return Err("give either --price or --price-by-customer".into())
            }
            (None, true) => None,
            (Some(p), false) => {
                let cents = parse_price(p).ok_or_else(|| {
                    format!("--price {p:?} is not an amount like 300.00 or 300,00")
                })?;
                if !(money::MIN_PRICE_CENTS..=money::MAX_CENTS).contains(&cents) {
                    return Err(format!(
                        "--price must be between {} and {}",
                        money::format_brl(money::MIN_PRICE_CENTS, Lang::PtBr),
                        money::format_brl(money::MAX_CENTS, Lang::PtBr)
                    ));
                }
                Some(cents)
            }
        };
        let mut payment_types = Vec::new();
        for t in self.payment_types.split(',').map(str::trim) {
            match PaymentType::parse(&t.to_ascii_uppercase()) {
                Some(t) if !payment_types.contains(&t) => payment_types.push(t),
                Some(_) => return Err(format!("--payment-types repeats {t}")),
                None => {
                    return Err(format!(
                        "--payment-types must be a comma-separated list of {}, not {:?}",
                        PaymentType::NAMES.join(", "),
                        self.payment_types
                    ))
                }
            }
        }
        let Some(invoice_type @ (InvoiceType::Single | InvoiceType::Installment)) =
            InvoiceType::parse(&self.invoice_type.trim().to_ascii_uppercase())
        else {
            return Err(format!(
                "--invoice-type must be SINGLE or INSTALLMENT, not {:?}",
                self.invoice_type
            ));
        };
        let max_installments = match (invoice_type, self.max_installments) {
            (InvoiceType::Installment, Some(n))
                if (2..=paylink_model::MAX_INSTALLMENTS).contains(&n) =>
            {
                n
            }
            (InvoiceType::Installment, _) => {
                return Err(format!(
                    "--max-installments must be 2 to {} for --invoice-type INSTALLMENT",
                    paylink_model::MAX_INSTALLMENTS
                ))
            }
            (_, None | Some(1)) => 1,
            (_, Some(_)) => {
                return Err("--max-installments applies only to --invoice-type INSTALLMENT".into())
            }
        };
        if let Some(cents) = price_cents {
            if cents / (max_installments as i64) < money::MIN_PRICE_CENTS {
                return Err(format!(
                    "--price {} in {max_installments} installments is less than R$ 5,00 each",
                    money::format_brl(cents, Lang::PtBr)
                ));
            }
        }
        if self.due_in_days > MAX_DUE_IN_DAYS {
            return Err(format!("--due-in-days must be 0 to {MAX_DUE_IN_DAYS}"));
        }
        let redirect_to = match self.redirect_to.map(str::trim).filter(|s| !s.is_empty()) {
            None => None,
            Some(u) if paylink_model::br::parse_http_url(u).is_some() => Some(u.to_string()),
            Some(u) => return Err(format!("--redirect-to {u:?} is not an http(s) URL")),
        };
        let slug = match self.slug {
            Some(s) if slug_is_valid(s) => s.to_string(),
            Some(s) => {
                return Err(format!(
                    "--slug {s:?} must be 1 to {SLUG_MAX} of a-z, 0-9 and inner hyphens"
                ))
            }
            None => slugify(name),
        };
        let terms = self.check_terms(price_cents, max_installments)?;
        Ok(Link {
            terms,
            slug,
            name: name.to_string(),
            description: description.to_string(),
            price_cents,
            payment_types,
            invoice_type,
            max_installments,
            due_in_days: self.due_in_days,
            redirect_to,
            active: true,
            created_at: now_iso(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> LinkSpec<'static> {
        LinkSpec {
            name: "Curso de Rust",
            description: "Acesso por 12 meses",
            price: Some("300.00"),
            price_by_customer: false,
            payment_types: "PIX,BOLETO",
            invoice_type: "INSTALLMENT",
            max_installments: Some(3),
            due_in_days: 3,
            redirect_to: None,
            slug: None,
            fine: None,
            interest: None,
            discount: None,
            discount_days_before_due: 0,
        }
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
    fn prices_accept_dot_and_comma_decimals() {
        assert_eq!(parse_price("300.00"), Some(30000));
        assert_eq!(parse_price("300,00"), Some(30000));
        assert_eq!(parse_price("1.234,56"), Some(123456));
        assert_eq!(parse_price("1.234"), Some(123400));
        assert_eq!(parse_price("R$ 300"), Some(30000));
        assert_eq!(parse_price("12.5"), Some(1250));
        assert_eq!(parse_price("3OO"), None);
        assert_eq!(parse_price("1.2.3"), None);
    }

    #[test]
    fn creation_rules_name_the_flag() {
        let link = spec().check().unwrap();
        assert_eq!(link.slug, "curso-de-rust");
        assert_eq!(link.price_cents, Some(30000));
        let cases: Vec<(&str, LinkSpec<'_>)> = vec![
            (
                "--name",
                LinkSpec {
                    name: " ",
                    ..spec()
                },
            ),
            (
                "--description",
                LinkSpec {
                    description: "",
                    ..spec()
                },
            ),
            (
                "--price",
                LinkSpec {
                    price: Some("abc"),
                    ..spec()
                },
            ),
            (
                "--price",
                LinkSpec {
                    price: Some("4,99"),
                    ..spec()
                },
            ),
            (
                "--price-by-customer",
                LinkSpec {
                    price_by_customer: true,
                    ..spec()
                },
            ),
            (
                "--payment-types",
                LinkSpec {
                    payment_types: "PIX,CARD",
                    ..spec()
                },
            ),
            (
                "--payment-types",
                LinkSpec {
                    payment_types: "PIX,pix",
                    ..spec()
                },
            ),
            (
                "--invoice-type",
                LinkSpec {
                    invoice_type: "RECURRING",
                    ..spec()
                },
            ),
            (
                "--max-installments",
                LinkSpec {
                    max_installments: None,
                    ..spec()
                },
            ),
            (
                "--max-installments",
                LinkSpec {
                    max_installments: Some(121),
                    ..spec()
                },
            ),
            (
                "--max-installments",
                LinkSpec {
                    invoice_type: "SINGLE",
                    ..spec()
                },
            ),
            (
                "--price",
                LinkSpec {
                    price: Some("10,00"),
                    ..spec()
                },
            ),
            (
                "--due-in-days",
                LinkSpec {
                    due_in_days: 400,
                    ..spec()
                },
            ),
            (
                "--redirect-to",
                LinkSpec {
                    redirect_to: Some("javascript:alert(1)"),
                    ..spec()
                },
            ),
            (
                "--slug",
                LinkSpec {
                    slug: Some("Não"),
                    ..spec()
                },
            ),
        ];
        for (flag, s) in cases {
            let err = s.check().expect_err(flag);
            assert!(err.contains(flag), "{flag}: {err}");
        }
    }

    #[test]
    fn terms_follow_the_models_rules_and_name_the_flag() {
        let link = LinkSpec {
            fine: Some("2%"),
            interest: Some("1,5"),
            discount: Some("R$ 10,00"),
            discount_days_before_due: 1,
            ..spec()
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
        let today = Date::new(2026, 12, 1).unwrap();
        let page = link.public(today);
        assert_eq!(page.due_date, "2026-12-04");
        assert_eq!(
            page.discount.unwrap().until_date.as_deref(),
            Some("2026-12-03")
        );
        assert_eq!(page.fine.unwrap().value, Some(2.0));
        assert_eq!(page.interest.unwrap().value, Some(1.5));
        assert_eq!(
            terms_text(&link.terms),
            "fine 2,00%, interest 1,50% a month, discount R$ 10,00 until 1 days before due"
        );
        for (flag, s) in [
            // Anyone may pay through a link: the consumer's 2 % cap applies.
            (
                "--fine",
                LinkSpec {
                    fine: Some("2,5%"),
                    ..spec()
                },
            ),
            (
                "--fine",
                LinkSpec {
                    fine: Some("dois"),
                    ..spec()
                },
            ),
            (
                "--fine",
                LinkSpec {
                    fine: Some("0%"),
                    ..spec()
                },
            ),
            // 2 % of the smallest installment (R$ 100,00) is R$ 2,00.
            (
                "--fine",
                LinkSpec {
                    fine: Some("2,01"),
                    ..spec()
                },
            ),
            (
                "--interest",
                LinkSpec {
                    interest: Some("10,5"),
                    ..spec()
                },
            ),
            (
                "--discount",
                LinkSpec {
                    discount: Some("100%"),
                    ..spec()
                },
            ),
            (
                "--discount",
                LinkSpec {
                    discount: Some("100,00"),
                    ..spec()
                },
            ),
            (
                "--discount-days-before-due",
                LinkSpec {
                    discount: Some("5%"),
                    discount_days_before_due: 4,
                    ..spec()
                },
            ),
            (
                "--discount-days-before-due",
                LinkSpec {
                    discount_days_before_due: 1,
                    ..spec()
                },
            ),
        ] {
            let err = s.check().expect_err(flag);
            assert!(err.starts_with(flag), "{flag}: {err}");
        }
    }

    #[test]
    fn a_request_from_yesterdays_page_never_carries_a_past_date() {
        let today = Date::new(2026, 12, 1).unwrap();
        let mut req = paylink_model::InvoiceRequest {
            due_date: Some("2026-11-30".into()),
            discount: Some(charges::Discount {
                kind: Some("FIXED".into()),
                value: Some(1.0),
                until_date: Some("2026-11-30".into()),
            }),
            ..Default::default()
        };
        not_before_today(&mut req, today);
        assert_eq!(req.due_date.as_deref(), Some("2026-12-01"));
        assert_eq!(
            req.discount.unwrap().until_date.as_deref(),
            Some("2026-12-01")
        );
        let mut later = paylink_model::InvoiceRequest {
            due_date: Some("2026-12-04".into()),
            ..Default::default()
        };
        not_before_today(&mut later, today);
        assert_eq!(later.due_date.as_deref(), Some("2026-12-04"));
    }
}
