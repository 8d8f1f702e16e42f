//! `paylink pix refund`: a refund of all or part of a Pix paylink received through a bank's API
//! Pix (`PUT /pix/{e2eid}/devolucao/{id}`), within the 90 days the Pix rules allow; once the
//! whole Pix is returned its installment becomes REVERSED (`pix_api::devolucao`, as for the
//! bank's own devoluções).

use crate::cli::common::{open, DbArg, Failure};
use crate::domain::pix_api::devolucao;
use crate::domain::pix_api::reais;
use crate::store::pix_payments;

/// How long after a Pix it can be refunded (BACEN's rules for a devolução).
pub const REFUND_DAYS: i64 = 90;

#[derive(clap::Subcommand)]
pub enum PixCommand {
    /// Refund a Pix received for an installment, in full or in part.
    Refund {
        /// The Pix's endToEndId (in the payment's webhook, and in the bank's statement).
        #[arg(long)]
        e2eid: String,
        /// The amount in reais, like 10,00 or 10.00 (default: all that is left to refund).
        #[arg(long)]
        amount: Option<String>,
        /// The refund's id at the bank, 1 to 35 letters and digits (default: a new one).
        #[arg(long)]
        id: Option<String>,
        /// The PIX key (chave) the Pix was paid to.
        #[arg(long, env = "PAYLINK_PIX_KEY")]
        pix_key: String,
        #[command(flatten)]
        pix: super::serve::PixArgs,
        #[command(flatten)]
        db: DbArg,
    },
}

pub async fn cli(command: PixCommand) -> Result<(), Failure> {
    let PixCommand::Refund {
        e2eid,
        amount,
        id,
        pix_key,
        pix,
        db,
    } = command;
    let bank = super::serve::pix_client(&pix, &pix_key)?.ok_or_else(|| {
        Failure::Usage(
            "pix refund needs the bank: --pix-api-url and the other --pix-* options".into(),
        )
    })?;
    let db = open(&db).await?;
    let paid = pix_payments::recorded(&db, &e2eid)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| Failure::Usage(format!("no Pix {e2eid:?} was received through paylink")))?;
    let id = id.unwrap_or_else(|| format!("D{}", uuid::Uuid::new_v4().simple()));
    if id.is_empty() || id.len() > 35 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(Failure::Usage(
            "--id must be 1 to 35 letters and digits".into(),
        ));
    }
    // The same refund asked again (a retry after a lost answer): said, not counted twice.
    if let Some(cents) = pix_payments::refund_recorded(&db, &e2eid, &id)
        .await
        .map_err(|e| e.to_string())?
    {
        println!(
            "refund {id}: {} of Pix {e2eid} was recorded already; nothing changed",
            reais(cents)
        );
        return Ok(());
    }
    let left = paid.cents - paid.refunded_cents;
    let cents = match &amount {
        None => left,
        Some(a) => paylink_model::money::parse_price_input(a).ok_or_else(|| {
            Failure::Usage(format!(
                "--amount {a:?} is not an amount in reais, like 10,00"
            ))
        })?,
    };
    if cents <= 0 || cents > left {
        return Err(Failure::Usage(format!(
            "--amount must be more than 0,00 and at most {} (what is left of this Pix)",
            reais(left)
        )));
    }
    let paid_on = paylink_model::date::brasilia_day(&paid.paid_at);
    if let Some(day) = paid_on.filter(|d| {
        d.add_days(REFUND_DAYS)
            .is_some_and(|last| last < crate::domain::today())
    }) {
        return Err(Failure::Usage(format!(
            "this Pix was received on {}: a refund is possible within {REFUND_DAYS} days only",
            day.format_br()
        )));
    }
    let refund = bank
        .refund(&e2eid, &id, cents)
        .await
        .map_err(|e| format!("the bank did not refund: {e}"))?;
    // Kept as the bank answered (a bank may answer EM_PROCESSAMENTO: its callback and
    // reconciliation say when it is DEVOLVIDO).
    let reported = devolucao::reported(&refund).unwrap_or(pix_payments::Reported {
        id: id.clone(),
        rtr_id: None,
        cents,
        natureza: paylink_model::DevolucaoNatureza::Original,
        status: paylink_model::DevolucaoStatus::EmProcessamento,
        requested_at: None,
        settled_at: None,
    });
    let kept = devolucao::keep(&db, &e2eid, &reported)
        .await
        .map_err(|e| e.to_string())?;
    println!(
        "refund {id}: {} of Pix {e2eid} ({})",
        reais(cents),
        reported.status
    );
    if let Some(k) =
        kept.filter(|k| k.status == paylink_model::InstallmentStatus::Reversed.as_str())
    {
        println!("installment {} is now {}", k.number, k.status);
    }
    Ok(())
}
