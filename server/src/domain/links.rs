//! Payment links' terms and creation rules: what a link is, how its slug and
//! price are read, and what `paylink link create` accepts. The comparison of a
//! payer's request with the link is `paylink_model::link`.

pub use crate::store::links::{Link, MAX_DUE_IN_DAYS};
use paylink_model::{money, Date, InvoiceType, Lang, PaymentLink, PaymentType};

use crate::store::now_iso;

pub const SLUG_MAX: usize = 64;
pub const NAME_MAX: usize = 100;

impl Link {
    /// The link as its page shows it on `today` (the due date depends on the day).
    pub fn public(&self, today: Date) -> PaymentLink {
        let due = paylink_model::link::link_due_date(today, self.due_in_days).unwrap_or(today);
        PaymentLink {
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
        Ok(Link {
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
}
