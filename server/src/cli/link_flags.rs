//! `paylink link create`'s flags as the API's link request: each value read as a merchant
//! types it (`300,00`, `2%`), then the API's own rules (`paylink_model::link_spec`, through
//! `LinkRequest::check`), every broken rule said naming its flag.

use paylink_model::charges;
use paylink_model::link_spec::{LinkDiscount, LinkRequest, NewLink};
use paylink_model::{money, Lang, Violations};

use crate::domain::links::parse_price;

/// A flag's value that does not read as one, or rules the link breaks: the lines name the
/// flags (`--fine: …`), in English, as the CLI says them.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct LinkFlagsError(String);

impl From<String> for LinkFlagsError {
    fn from(message: String) -> Self {
        LinkFlagsError(message)
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
    /// The API's request for what the flags say; a value no flag's syntax
    /// reads (`--price abc`, `--fine dois`) is refused here, naming its flag.
    pub fn request(&self) -> Result<LinkRequest, LinkFlagsError> {
        let value = |flag: &str, input: &str| {
            parse_term_value(input).ok_or_else(|| {
                format!("{flag} {input:?} must be a percentage like 2% or an amount like 5,00")
            })
        };
        let price = match self.price {
            None => None,
            Some(p) => Some(money::cents_to_reais(parse_price(p).ok_or_else(|| {
                format!(
                    "{} {p:?} is not an amount like 300.00 or 300,00",
                    flag_of("price")
                )
            })?)),
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
            // Always a percentage a month: `1`, `1,5` or `1%`.
            Some(i) => Some(charges::Interest {
                value: Some(value("--interest", i.trim().trim_end_matches('%'))?.1),
            }),
        };
        let discount = match self.discount {
            None if self.discount_days_before_due > 0 => {
                return Err(LinkFlagsError(
                    "--discount-days-before-due applies only with --discount".into(),
                ))
            }
            None => None,
            Some(d) => {
                let (kind, v) = value("--discount", d)?;
                Some(LinkDiscount {
                    kind: Some(kind.into()),
                    value: Some(v),
                    days_before_due: Some(i64::from(self.discount_days_before_due)),
                })
            }
        };
        Ok(LinkRequest {
            name: Some(self.name.into()),
            description: Some(self.description.into()),
            price,
            price_by_customer: self.price_by_customer.then_some(true),
            payment_types: Some(
                self.payment_types
                    .split(',')
                    .map(|t| t.trim().to_ascii_uppercase())
                    .collect(),
            ),
            invoice_type: Some(self.invoice_type.trim().to_ascii_uppercase()),
            max_installments: self.max_installments.map(i64::from),
            due_in_days: Some(i64::from(self.due_in_days)),
            redirect_to: self.redirect_to.map(str::to_string),
            slug: self.slug.map(str::to_string),
            fine,
            interest,
            discount,
        })
    }

    /// The link by the API's rules (`LinkRequest::check`), or every broken
    /// rule as a line naming its flag.
    pub fn check(&self) -> Result<NewLink, LinkFlagsError> {
        let req = self.request()?;
        if self.price.is_none() && !self.price_by_customer {
            return Err(LinkFlagsError(
                "give either --price or --price-by-customer".into(),
            ));
        }
        req.check().map_err(|v| LinkFlagsError(flag_errors(&v)))
    }
}

/// Broken rules as the CLI says them: `--flag: message`, one a line, in English.
pub fn flag_errors(v: &Violations) -> String {
    v.0.iter()
        .map(|(path, msg)| format!("{}: {}", flag_of(path), msg.render(Lang::En)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `link create` flag of an API field path.
pub fn flag_of(path: &str) -> &'static str {
    match path.split(['.', '[']).next().unwrap_or(path) {
        "name" => "--name",
        "description" => "--description",
        "price" => "--price",
        "priceByCustomer" => "--price-by-customer",
        "paymentTypes" => "--payment-types",
        "invoiceType" => "--invoice-type",
        "maxInstallments" => "--max-installments",
        "dueInDays" => "--due-in-days",
        "redirectTo" => "--redirect-to",
        "slug" => "--slug",
        "fine" => "--fine",
        "interest" => "--interest",
        "discount" if path == "discount.daysBeforeDue" => "--discount-days-before-due",
        "discount" => "--discount",
        _ => "--name",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::links::{stored, LinkTerms};
    use paylink_model::charges::Value;
    use paylink_model::Date;

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
    fn creation_rules_name_the_flag() {
        let link = spec().check().unwrap();
        assert_eq!(link.slug, None);
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
                "--price",
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
                "--max-installments",
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
            let err = s.check().expect_err(flag).to_string();
            assert!(err.contains(flag), "{flag}: {err}");
        }
    }

    #[test]
    fn terms_follow_the_models_rules_and_name_the_flag() {
        let new = LinkSpec {
            fine: Some("2%"),
            interest: Some("1,5"),
            discount: Some("R$ 10,00"),
            discount_days_before_due: 1,
            ..spec()
        }
        .check()
        .unwrap();
        let link = stored(&new, "curso-de-rust".into(), None);
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
            crate::domain::links::terms_text(&link.terms),
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
            let err = s.check().expect_err(flag).to_string();
            assert!(err.starts_with(flag), "{flag}: {err}");
        }
    }
}
