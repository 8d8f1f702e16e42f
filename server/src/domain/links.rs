//! Payment links: what a stored link is (its page's terms, its merchant's
//! view) and storing a new one under a free slug (the request's rules are
//! `paylink_model::link_spec`; `paylink link create`'s flags become that
//! request in `cli::link_flags`). The comparison of a payer's request with the
//! link is `paylink_model::link`.

pub use crate::store::links::{Link, LinkStats, LinkTerms};
use paylink_model::charges::{self, ChargeTerms, DiscountTerm, TermsContext, Value};
pub use paylink_model::link::MAX_DUE_IN_DAYS;
pub use paylink_model::link_spec::{slug_is_valid, slugify, NAME_MAX, SLUG_MAX};
use paylink_model::link_spec::{MerchantLink, NewLink};
use paylink_model::{money, Date, InvoiceType, Lang, Msg, PaymentLink, Violations};

use crate::store::{now_iso, Db, DbError, Idem};

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

// ---- Creation (the API and the CLI) ----

/// An amount as a merchant types it: `300.00`, `300,00`, `1.234,56`, `R$ 300`.
pub fn parse_price(input: &str) -> Option<i64> {
    money::parse_price_input(input)
}

/// The link to store for `new`, under `slug`.
pub(crate) fn stored(new: &NewLink, slug: String, application_id: Option<&str>) -> Link {
    Link {
        terms: new.terms,
        slug,
        name: new.name.clone(),
        description: new.description.clone(),
        price_cents: new.price_cents,
        payment_types: new.payment_types.clone(),
        invoice_type: new.invoice_type,
        max_installments: new.max_installments,
        due_in_days: new.due_in_days,
        redirect_to: new.redirect_to.clone(),
        active: true,
        created_at: now_iso(),
        application_id: application_id.map(str::to_string),
    }
}

/// Stores a checked link (the API's, of `application_id`; the CLI's, of
/// none). A slug made from the name gets `-2`, `-3`… when taken; a chosen
/// one that is taken is refused on `slug`. `answer` is the idempotency
/// record of the request for the link about to be stored (`None`: the
/// request had no key), kept in the same transaction.
pub async fn create(
    db: &Db,
    new: &NewLink,
    application_id: Option<&str>,
    answer: impl Fn(&Link) -> Option<Idem>,
) -> Result<Result<Link, Violations>, DbError> {
    let base = new.slug.clone().unwrap_or_else(|| slugify(&new.name));
    // Twice: a link made meanwhile with the slug picked takes the next one.
    for _ in 0..2 {
        let slug = if new.slug.is_some() {
            base.clone()
        } else {
            let taken = crate::store::links::slugs_like(db, &base).await?;
            let Some(free) = std::iter::once(base.clone())
                .chain((2..=10_000).map(|n| format!("{base}-{n}")))
                .find(|s| !taken.contains(s))
            else {
                break;
            };
            free
        };
        let link = stored(new, slug, application_id);
        let idem = answer(&link);
        let claim = application_id.zip(idem.as_ref());
        match crate::store::links::insert(db, &link, claim).await {
            Ok(()) => return Ok(Ok(link)),
            Err(e) if crate::store::is_unique_violation(&e) && new.slug.is_none() => continue,
            Err(e) if crate::store::is_unique_violation(&e) => break,
            Err(e) => return Err(e),
        }
    }
    let mut v = Violations::default();
    v.add("slug", Msg::SlugTaken);
    Ok(Err(v))
}

/// A stored link as its merchant sees it, with what it brought in.
pub fn merchant_view(link: &Link, stats: LinkStats, public_url: &str) -> MerchantLink {
    let (fine, interest, discount) = link.terms.to_wire();
    MerchantLink {
        slug: link.slug.clone(),
        name: link.name.clone(),
        description: link.description.clone(),
        price: link.price_cents,
        price_by_customer: link.price_cents.is_none(),
        payment_types: link.payment_types.clone(),
        invoice_type: link.invoice_type,
        max_installments: link.max_installments,
        due_in_days: link.due_in_days,
        redirect_to: link.redirect_to.clone(),
        fine,
        interest,
        discount,
        active: link.active,
        created_at: link.created_at.clone(),
        url: link.url(public_url),
        invoices_made: stats.invoices_made,
        amount_paid: stats.amount_paid_cents,
        qr_svg: None,
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

#[cfg(test)]
mod tests {
    use super::*;

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
