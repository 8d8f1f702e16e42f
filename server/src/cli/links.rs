//! `paylink link ...`: create, list, enable and disable payment links, each
//! of one application (named with `--application`, or the only one).

use crate::cli::common::DbArg;
use paylink_model::{money, Lang};

use super::link_flags::{flag_errors, LinkSpec};
use crate::domain::links::*;
use crate::store::links::{list, set_active};

// ---- CLI ----

#[derive(clap::Subcommand)]
pub enum LinkCommand {
    /// Create a payment link and print its slug and URL.
    Create(Box<CreateArgs>),
    /// One line per link: slug, price, payment types, invoice type, due days, state, URL, name,
    /// application.
    List {
        #[command(flatten)]
        db: DbArg,
        /// Base of the printed URLs (`{public-url}/l/{slug}`).
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        public_url: String,
    },
    /// Turn a link off: its page and creations answer 404 (its invoices stay).
    Disable {
        slug: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Turn a disabled link on again.
    Enable {
        slug: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Give a link without an owner (made before links had one, on a
    /// database with several applications) the application it belongs to.
    Adopt {
        slug: String,
        /// The application (its name or id).
        #[arg(long, value_name = "NAME_OR_ID")]
        application: String,
        #[command(flatten)]
        db: DbArg,
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
    /// Fine (multa) once paid after the due date: `2%` of the installment (at most 2 %,
    /// as a payer may be a consumer) or an amount in reais (`0,50`).
    #[arg(long)]
    fine: Option<String>,
    /// Late interest (juros de mora), percent a month (at most 10), per calendar day late.
    #[arg(long)]
    interest: Option<String>,
    /// Discount for paying early: `5%` or an amount in reais, until the due date.
    #[arg(long)]
    discount: Option<String>,
    /// The discount ends this many days before the due date (at most --due-in-days).
    #[arg(long, default_value_t = 0, requires = "discount")]
    discount_days_before_due: u32,
    /// The application the link belongs to (its name or id): its payers'
    /// customers and invoices are that application's, its webhooks fire.
    /// May be left out when the database has exactly one application.
    #[arg(long, value_name = "NAME_OR_ID")]
    application: Option<String>,
    #[command(flatten)]
    db: DbArg,
    /// Base of the printed URL (`{public-url}/l/{slug}`).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    public_url: String,
}

pub async fn cli(command: LinkCommand) -> Result<(), crate::cli::common::Failure> {
    use crate::cli::common::Failure;
    match command {
        LinkCommand::Create(a) => {
            let new = LinkSpec {
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
                fine: a.fine.as_deref(),
                interest: a.interest.as_deref(),
                discount: a.discount.as_deref(),
                discount_days_before_due: a.discount_days_before_due,
            }
            .check()
            .map_err(|e| Failure::Usage(e.to_string()))?;
            let db = crate::cli::common::open(&a.db).await?;
            let owner = owner(&db, a.application.as_deref()).await?;
            // The API's creation: a generated slug gets -2, -3, ... when taken; a chosen one must be free.
            let link = create(&db, &new, Some(&owner.id), |_| None)
                .await
                .map_err(|e| Failure::Runtime(format!("cannot store the link: {e}")))?
                .map_err(|v| Failure::Usage(flag_errors(&v)))?;
            println!("slug: {}", link.slug);
            println!("application: {}", owner.name);
            println!("{}", link.url(&a.public_url));
            Ok(())
        }
        LinkCommand::Disable { slug, db } => toggle(&slug, &db, false).await,
        LinkCommand::Enable { slug, db } => toggle(&slug, &db, true).await,
        LinkCommand::Adopt {
            slug,
            application,
            db,
        } => {
            let db = crate::cli::common::open(&db).await?;
            let owner = owner(&db, Some(&application)).await?;
            let adopted = crate::store::links::adopt(&db, &slug, &owner.id)
                .await
                .map_err(|e| e.to_string())?;
            if !adopted {
                return Err(Failure::Usage(format!(
                    "no link with slug {slug:?} without an owner (`paylink link list` shows each link's)"
                )));
            }
            println!("link {slug} belongs to {}", owner.name);
            Ok(())
        }
        LinkCommand::List { db, public_url } => {
            let db = crate::cli::common::open(&db).await?;
            let apps = crate::store::applications::list(&db)
                .await
                .map_err(|e| e.to_string())?;
            for l in list(&db).await.map_err(|e| e.to_string())? {
                let owner = match &l.application_id {
                    Some(id) => apps
                        .iter()
                        .find(|a| &a.id == id)
                        .map_or(id.as_str(), |a| a.name.as_str()),
                    None => "(no owner)",
                };
                let price = match l.price_cents {
                    Some(c) => money::format_brl(c, Lang::PtBr),
                    None => "payer's amount".into(),
                };
                let types: Vec<&str> = l.payment_types.iter().map(|t| t.as_str()).collect();
                println!(
                    "{}\t{price}\t{}\t{} up to {}x\tdue in {} days\t{}\t{}\t{}\t{owner}",
                    l.slug,
                    types.join(","),
                    l.invoice_type,
                    l.max_installments,
                    l.due_in_days,
                    if l.active { "active" } else { "inactive" },
                    l.url(&public_url),
                    l.name,
                );
                let terms = terms_text(&l.terms);
                if !terms.is_empty() {
                    println!("\t{terms}");
                }
            }
            Ok(())
        }
    }
}

/// The application a new link belongs to: the one `named` (by name, else
/// by id), or the database's only one; a usage error saying which exist
/// otherwise.
async fn owner(
    db: &crate::store::Db,
    named: Option<&str>,
) -> Result<crate::store::Application, crate::cli::common::Failure> {
    use crate::cli::common::Failure;
    use crate::store::applications;
    let runtime = |e: crate::store::DbError| Failure::Runtime(e.to_string());
    let all = applications::list(db).await.map_err(runtime)?;
    let names = || {
        all.iter()
            .map(|a| format!("{} ({})", a.name, a.id))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match named.map(str::trim) {
        Some(n) => all
            .iter()
            .find(|a| a.name == n)
            .or_else(|| all.iter().find(|a| a.id.eq_ignore_ascii_case(n)))
            .cloned()
            .ok_or_else(|| {
                Failure::Usage(format!(
                    "--application {n:?}: no application has that name or id (there are: {})",
                    names()
                ))
            }),
        None => match all.as_slice() {
            [only] => Ok(only.clone()),
            [] => Err(Failure::Usage(
                "a link belongs to an application, and there is none yet: create one with \
                 `paylink token create --name NAME`"
                    .into(),
            )),
            _ => Err(Failure::Usage(format!(
                "this database has {} applications; name the link's with --application \
                 NAME_OR_ID (one of: {})",
                all.len(),
                names()
            ))),
        },
    }
}

async fn toggle(slug: &str, db: &str, active: bool) -> Result<(), crate::cli::common::Failure> {
    let db = crate::cli::common::open(db).await?;
    if !set_active(&db, slug, active)
        .await
        .map_err(|e| e.to_string())?
    {
        return Err(crate::cli::common::Failure::Usage(format!(
            "no link with slug {slug:?}"
        )));
    }
    println!(
        "link {slug} {}",
        if active { "enabled" } else { "disabled" }
    );
    Ok(())
}
