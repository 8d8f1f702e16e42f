//! Payment links: a merchant creates one with `paylink link create`; its
//! public page (`/l/{slug}`) lets a payer register and create an invoice on
//! the link's terms only. The proxy holds the token, so it is the proxy that
//! compares every request with the link (`paylink_model::link`) and refuses
//! what the link does not allow, whatever the browser sends.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use paylink_model::{
    money, Date, InvoiceRequest, InvoiceType, Lang, Msg, PaymentLink, PaymentType,
};
use sqlx::Row;

use crate::db::{now_iso, Db, DbError, DbRow};
use crate::error::{AppError, OrInternal, Reason};
use crate::extract::{is_json, lang_of, parse_json};
use crate::ratelimit::RateLimiter;

pub const SLUG_MAX: usize = 64;
pub const NAME_MAX: usize = 100;
pub const MAX_DUE_IN_DAYS: u32 = 365;

/// A stored link.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub slug: String,
    pub name: String,
    pub description: String,
    /// `None` when the payer states the amount.
    pub price_cents: Option<i64>,
    pub payment_types: Vec<PaymentType>,
    pub invoice_type: InvoiceType,
    pub max_installments: u32,
    pub due_in_days: u32,
    pub redirect_to: Option<String>,
    pub active: bool,
    pub created_at: String,
}

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

// ---- Storage ----

fn from_row(r: &DbRow) -> Link {
    let types: String = r.get("payment_types");
    Link {
        slug: r.get("slug"),
        name: r.get("name"),
        description: r.get("description"),
        price_cents: r.get("price_cents"),
        payment_types: types
            .split(',')
            .filter_map(|t| PaymentType::parse(t.trim()))
            .collect(),
        invoice_type: InvoiceType::parse(&r.get::<String, _>("invoice_type"))
            .unwrap_or(InvoiceType::Single),
        max_installments: r.get::<i64, _>("max_installments").clamp(1, 120) as u32,
        due_in_days: r
            .get::<i64, _>("due_in_days")
            .clamp(0, MAX_DUE_IN_DAYS as i64) as u32,
        redirect_to: r.get("redirect_to"),
        active: r.get::<i64, _>("active") != 0,
        created_at: r.get("created_at"),
    }
}

const COLUMNS: &str =
    "slug, name, description, price_cents, price_by_customer, payment_types, invoice_type, \
                       max_installments, due_in_days, redirect_to, active, created_at";

pub async fn insert(db: &Db, l: &Link) -> Result<(), DbError> {
    let types: Vec<&str> = l.payment_types.iter().map(|t| t.as_str()).collect();
    let _w = db.lock_writes().await;
    sqlx::query(&format!(
        "INSERT INTO payment_links ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
    ))
    .bind(&l.slug)
    .bind(&l.name)
    .bind(&l.description)
    .bind(l.price_cents)
    .bind(l.price_cents.is_none() as i64)
    .bind(types.join(","))
    .bind(l.invoice_type.as_str())
    .bind(l.max_installments as i64)
    .bind(l.due_in_days as i64)
    .bind(&l.redirect_to)
    .bind(l.active as i64)
    .bind(&l.created_at)
    .execute(&db.pool)
    .await
    .map(|_| ())
}

/// Turns a link on or off; false when there is no such link.
pub async fn set_active(db: &Db, slug: &str, active: bool) -> Result<bool, DbError> {
    let _w = db.lock_writes().await;
    let done = sqlx::query("UPDATE payment_links SET active = $1 WHERE slug = $2")
        .bind(active as i64)
        .bind(slug)
        .execute(&db.pool)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn find(db: &Db, slug: &str) -> Result<Option<Link>, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM payment_links WHERE slug = $1"
    ))
    .bind(slug)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.as_ref().map(from_row))
}

pub async fn list(db: &Db) -> Result<Vec<Link>, DbError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM payment_links ORDER BY created_at, slug"
    ))
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.iter().map(from_row).collect())
}

/// Records a customer created through the link (a replayed creation records it again: no-op).
pub async fn add_customer(db: &Db, slug: &str, customer_id: &str) -> Result<(), DbError> {
    let _w = db.lock_writes().await;
    sqlx::query(
        "INSERT INTO link_customers (slug, customer_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind(slug)
    .bind(customer_id)
    .bind(now_iso())
    .execute(&db.pool)
    .await
    .map(|_| ())
}

pub async fn has_customer(db: &Db, slug: &str, customer_id: &str) -> Result<bool, DbError> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM link_customers WHERE slug = $1 AND customer_id = $2",
    )
    .bind(slug)
    .bind(customer_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0)
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
        let invoice_type = match InvoiceType::parse(&self.invoice_type.trim().to_ascii_uppercase())
        {
            Some(t @ (InvoiceType::Single | InvoiceType::Installment)) => t,
            _ => {
                return Err(format!(
                    "--invoice-type must be SINGLE or INSTALLMENT, not {:?}",
                    self.invoice_type
                ))
            }
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

// ---- CLI ----

#[derive(clap::Subcommand)]
pub enum LinkCommand {
    /// Create a payment link and print its slug and URL.
    Create(Box<CreateArgs>),
    /// One line per link: slug, price, payment types, invoice type, due days, state, name.
    List {
        #[arg(long, default_value = "./paylink.db")]
        db: String,
        /// Base of the printed URLs (`{public-url}/l/{slug}`).
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        public_url: String,
    },
    /// Turn a link off: its page and creations answer 404 (its invoices stay).
    Disable {
        slug: String,
        #[arg(long, default_value = "./paylink.db")]
        db: String,
    },
    /// Turn a disabled link on again.
    Enable {
        slug: String,
        #[arg(long, default_value = "./paylink.db")]
        db: String,
    },
}

#[derive(clap::Args)]
pub struct CreateArgs {
    #[arg(long)]
    name: String,
    #[arg(long)]
    description: String,
    /// The fixed amount in reais: 300.00 or 300,00.
    #[arg(long, required_unless_present = "price_by_customer")]
    price: Option<String>,
    /// The payer states the amount.
    #[arg(long, conflicts_with = "price")]
    price_by_customer: bool,
    /// The payment types the payer may choose from.
    #[arg(long, default_value = "PIX,BOLETO")]
    payment_types: String,
    /// SINGLE or INSTALLMENT.
    #[arg(long, default_value = "SINGLE")]
    invoice_type: String,
    /// INSTALLMENT: the most installments the payer may choose (2 to 120).
    #[arg(long)]
    max_installments: Option<u32>,
    /// The invoice's due date is the day of its creation plus this many days.
    #[arg(long, default_value_t = 3)]
    due_in_days: u32,
    /// Where the payer goes once everything is paid.
    #[arg(long)]
    redirect_to: Option<String>,
    /// The link's slug (default: made from --name).
    #[arg(long)]
    slug: Option<String>,
    #[arg(long, default_value = "./paylink.db")]
    db: String,
    /// Base of the printed URL (`{public-url}/l/{slug}`).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    public_url: String,
}

pub async fn cli(command: LinkCommand) -> Result<(), crate::cli::Failure> {
    use crate::cli::Failure;
    match command {
        LinkCommand::Create(a) => {
            let mut link = LinkSpec {
                name: &a.name,
                description: &a.description,
                price: a.price.as_deref(),
                price_by_customer: a.price_by_customer,
                payment_types: &a.payment_types,
                invoice_type: &a.invoice_type,
                max_installments: a.max_installments,
                due_in_days: a.due_in_days,
                redirect_to: a.redirect_to.as_deref(),
                slug: a.slug.as_deref(),
            }
            .check()
            .map_err(Failure::Usage)?;
            let db = crate::cli::open(&a.db).await?;
            let base = link.slug.clone();
            // A generated slug gets -2, -3, ... when taken; a chosen one must be free.
            for n in 2.. {
                match insert(&db, &link).await {
                    Ok(()) => break,
                    Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {
                        if a.slug.is_some() || n > 100 {
                            return Err(Failure::Usage(format!(
                                "a link with slug {:?} already exists",
                                link.slug
                            )));
                        }
                        link.slug = format!("{base}-{n}");
                    }
                    Err(e) => return Err(Failure::Runtime(format!("cannot store the link: {e}"))),
                }
            }
            println!("slug: {}", link.slug);
            println!("{}", link.url(&a.public_url));
            Ok(())
        }
        LinkCommand::Disable { slug, db } => toggle(&slug, &db, false).await,
        LinkCommand::Enable { slug, db } => toggle(&slug, &db, true).await,
        LinkCommand::List { db, public_url } => {
            let db = crate::cli::open(&db).await?;
            for l in list(&db).await.map_err(|e| e.to_string())? {
                let price = match l.price_cents {
                    Some(c) => money::format_brl(c, Lang::PtBr),
                    None => "payer's amount".into(),
                };
                let types: Vec<&str> = l.payment_types.iter().map(|t| t.as_str()).collect();
                println!(
                    "{}\t{price}\t{}\t{} up to {}x\tdue in {} days\t{}\t{}\t{}",
                    l.slug,
                    types.join(","),
                    l.invoice_type,
                    l.max_installments,
                    l.due_in_days,
                    if l.active { "active" } else { "inactive" },
                    l.url(&public_url),
                    l.name,
                );
            }
            Ok(())
        }
    }
}

async fn toggle(slug: &str, db: &str, active: bool) -> Result<(), crate::cli::Failure> {
    let db = crate::cli::open(db).await?;
    if !set_active(&db, slug, active)
        .await
        .map_err(|e| e.to_string())?
    {
        return Err(crate::cli::Failure::Usage(format!(
            "no link with slug {slug:?}"
        )));
    }
    println!(
        "link {slug} {}",
        if active { "enabled" } else { "disabled" }
    );
    Ok(())
}

// ---- Public routes (mounted by the proxy) ----

#[derive(Clone)]
struct LinkState {
    proxy: crate::proxy::Handle,
    db: Db,
}

pub(crate) fn router(proxy: crate::proxy::Handle, db: Db, limiter: Arc<RateLimiter>) -> Router {
    let state = LinkState { proxy, db };
    let creations = Router::new()
        .route("/api/links/{slug}/customers", post(link_customers_create))
        .route("/api/links/{slug}/invoices", post(link_invoices_create))
        .route_layer(middleware::from_fn_with_state(
            limiter,
            crate::ratelimit::limit,
        ))
        .with_state(state.clone());
    Router::new()
        .route("/api/links/{slug}", get(link_get))
        .with_state(state)
        .merge(creations)
}

/// The active link of this slug, or the 404 envelope.
async fn active_link(db: &Db, slug: &str, lang: Lang) -> Result<Link, AppError> {
    if !slug_is_valid(slug) {
        return Err(AppError::new(Reason::LinkNotFound, lang));
    }
    match find(db, slug).await.or_internal(lang)? {
        Some(l) if l.active => Ok(l),
        _ => Err(AppError::new(Reason::LinkNotFound, lang)),
    }
}

/// An over-limit or unreadable body is an envelope too, not axum's plain text.
fn body_or_envelope(body: Result<Bytes, BytesRejection>, lang: Lang) -> Result<Bytes, AppError> {
    body.map_err(|rejection| {
        if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            AppError::new(Reason::PayloadTooLarge, lang)
        } else {
            AppError::new(Reason::MalformedJson, lang)
        }
    })
}

async fn link_get(
    State(s): State<LinkState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
) -> Result<Response, AppError> {
    let lang = lang_of(&headers);
    let link = active_link(&s.db, &slug, lang).await?;
    let mut res = Json(link.public(crate::scheduler::today())).into_response();
    // The due date changes with the day.
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}

async fn link_customers_create(
    State(s): State<LinkState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, AppError> {
    let lang = lang_of(&headers);
    let body = body_or_envelope(body, lang)?;
    let link = active_link(&s.db, &slug, lang).await?;
    let res = crate::proxy::forward(
        s.proxy,
        Method::POST,
        "/invoices/applications/customers".into(),
        headers,
        body,
    )
    .await;
    if !res.status().is_success() {
        return Ok(res);
    }
    let (parts, body) = res.into_parts();
    let bytes = axum::body::to_bytes(body, crate::BODY_LIMIT)
        .await
        .map_err(|_| AppError::new(Reason::UpstreamUnreachable, lang))?;
    let id = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|v| v["id"].as_str().map(str::to_ascii_lowercase))
        .filter(|id| paylink_model::br::uuid_is_valid(id))
        .ok_or_else(|| AppError::internal("upstream customer without an id", lang))?;
    // If this fails the payer retries; with the same Idempotency-Key the
    // service answers with the same customer, recorded then.
    add_customer(&s.db, &link.slug, &id)
        .await
        .or_internal(lang)?;
    Ok(Response::from_parts(parts, Body::from(bytes)))
}

async fn link_invoices_create(
    State(s): State<LinkState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, AppError> {
    let lang = lang_of(&headers);
    let body = body_or_envelope(body, lang)?;
    let link = active_link(&s.db, &slug, lang).await?;
    if !is_json(&headers) {
        return Err(AppError::new(Reason::UnsupportedMediaType, lang));
    }
    let req: InvoiceRequest = parse_json(&body, lang)?;
    let today = crate::scheduler::today();
    let mut bound = link.public(today).bind(&req);
    // A page opened before midnight still shows yesterday's due date.
    if bound.as_ref().is_err_and(|v| v.has("dueDate")) {
        if let Some(yesterday) = today.add_days(-1) {
            let earlier = link.public(yesterday);
            if req.due_date.as_deref().map(str::trim) == Some(earlier.due_date.as_str()) {
                bound = earlier.bind(&req);
            }
        }
    }
    let mut violations = bound.as_ref().err().cloned().unwrap_or_default();
    match req.customer_id.as_deref().map(str::trim) {
        None | Some("") => violations.add("customerId", Msg::Required),
        Some(id) if !paylink_model::br::uuid_is_valid(id) => {
            violations.add("customerId", Msg::Uuid)
        }
        Some(id) => {
            if !has_customer(&s.db, &link.slug, &id.to_ascii_lowercase())
                .await
                .or_internal(lang)?
            {
                violations.add("customerId", Msg::CustomerNotFromLink);
            }
        }
    }
    let bound = match bound {
        Ok(b) if violations.is_empty() => b,
        _ => return Err(AppError::validation(&violations, lang)),
    };
    let body = serde_json::to_vec(&bound).or_internal(lang)?;
    Ok(crate::proxy::forward(
        s.proxy,
        Method::POST,
        "/invoices/applications/invoices".into(),
        headers,
        Bytes::from(body),
    )
    .await)
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
        let cases: Vec<(&str, LinkSpec)> = vec![
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
