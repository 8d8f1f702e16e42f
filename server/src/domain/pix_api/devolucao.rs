//! The devoluções of a Pix as the bank reports them (`devolucoes` of its `GET /pix/{e2eid}` and
//! `GET /pix`, the document's `Devolucao`): read from the bank's own record only, never from what
//! a callback claims, and kept once each (`store::pix_payments::keep_devolucao`), whoever asked
//! for them: `paylink pix refund`, the merchant in the bank's app, the payer's bank through MED.

use paylink_model::{DevolucaoNatureza, DevolucaoStatus};
use serde_json::Value;

use super::cents_of;
use crate::store::pix_payments::{self, Kept, Reported};
use crate::store::{Db, DbError};

/// An instant of the bank's, in UTC as paylink writes them (banks may send an offset).
fn instant(v: &Value) -> Option<String> {
    v.as_str()
        .and_then(paylink_model::date::millis_from_rfc3339)
        .map(paylink_model::date::iso_utc_from_millis)
}

/// One `Devolucao` of the bank's; `None` when it lacks what the document requires (an id, an
/// amount, a known status). A missing `natureza` is `ORIGINAL`, as the document says.
pub fn reported(v: &Value) -> Option<Reported> {
    let id = v["id"].as_str().filter(|id| {
        (1..=35).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
    })?;
    let natureza = match v["natureza"].as_str() {
        None => DevolucaoNatureza::Original,
        Some(n) => DevolucaoNatureza::parse(n)?,
    };
    Some(Reported {
        id: id.to_string(),
        rtr_id: v["rtrId"].as_str().map(str::to_string),
        cents: v["valor"].as_str().and_then(cents_of).filter(|c| *c > 0)?,
        natureza,
        status: DevolucaoStatus::parse(v["status"].as_str()?)?,
        requested_at: instant(&v["horario"]["solicitacao"]),
        settled_at: instant(&v["horario"]["liquidacao"]),
    })
}

/// Keeps each devolução of `pix` (the bank's record of it) and says so in the log; how many
/// changed something.
pub async fn keep_all(db: &Db, pix: &Value) -> Result<usize, DbError> {
    let (Some(e2eid), Some(list)) = (pix["endToEndId"].as_str(), pix["devolucoes"].as_array())
    else {
        return Ok(0);
    };
    let mut changed = 0;
    for v in list {
        let Some(d) = reported(v) else {
            tracing::warn!(%e2eid, devolucao = %v, "a devolução the bank reports is unreadable; ignored");
            continue;
        };
        if keep(db, e2eid, &d).await?.is_some_and(|k| k.changed) {
            changed += 1;
        }
    }
    Ok(changed)
}

/// Keeps one devolução of Pix `e2eid`; `None` when paylink never received that Pix.
pub async fn keep(
    db: &Db,
    e2eid: &str,
    d: &Reported,
) -> Result<Option<pix_payments::KeptDevolucao>, DbError> {
    let kept = match pix_payments::keep_devolucao(db, e2eid, d).await? {
        Kept::UnknownPix => {
            tracing::warn!(%e2eid, id = %d.id, "a devolução of a Pix paylink did not receive; nothing kept");
            return Ok(None);
        }
        Kept::Kept(k) => k,
    };
    if kept.changed {
        tracing::info!(%e2eid, id = %d.id, natureza = %d.natureza, status = %d.status,
            returned_cents = kept.returned_cents, paid_cents = kept.paid_cents, "PIX devolução kept");
    }
    if let Some(r) = &kept.reversed {
        tracing::info!(%e2eid, installment = %r.id, "PIX returned in full: the installment is REVERSED");
    }
    Ok(Some(kept))
}
