//! A Pix the bank confirmed: checked against what a callback claimed and against paylink's key,
//! then applied once (`store::pix_payments`), by the callback receiver and by reconciliation
//! alike.

use crate::store::{pix_payments, Db, DbError};

/// A Pix the bank confirmed, as paylink applies it.
#[derive(Debug, PartialEq)]
pub struct ConfirmedPix {
    pub end_to_end_id: String,
    pub txid: String,
    pub cents: i64,
    pub horario: String,
}

/// Cents of an amount as the document writes them (`\d{1,10}\.\d{2}`).
pub fn cents_of(valor: &str) -> Option<i64> {
    let (i, d) = valor.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(i) && i.len() <= 10 && d.len() == 2 && digits(d)) {
        return None;
    }
    Some(i.parse::<i64>().ok()? * 100 + d.parse::<i64>().ok()?)
}

/// The bank's own record of a Pix (`GET /pix/{e2eid}` or `GET /pix`), checked: paid to `key`,
/// with a txid, an amount and a time. With `claimed` (a callback's entry), its txid and amount
/// must be the bank's too.
pub fn check_confirmed(
    claimed: &serde_json::Value,
    bank: &serde_json::Value,
    key: &str,
) -> Result<ConfirmedPix, &'static str> {
    let text = |v: &serde_json::Value, f: &str| v[f].as_str().map(str::to_string);
    let pix = ConfirmedPix {
        end_to_end_id: text(bank, "endToEndId").ok_or("no endToEndId")?,
        txid: text(bank, "txid").ok_or("no txid: not a charge of paylink's")?,
        cents: bank["valor"]
            .as_str()
            .and_then(cents_of)
            .ok_or("no readable valor")?,
        // Stored in UTC as paylink writes instants: banks may send an offset (`-03:00`).
        horario: text(bank, "horario")
            .as_deref()
            .and_then(paylink_model::date::millis_from_rfc3339)
            .map(paylink_model::date::iso_utc_from_millis)
            .ok_or("no readable horario")?,
    };
    if bank["chave"].as_str().is_some_and(|c| c != key) {
        return Err("paid to another key");
    }
    if !claimed.is_null() {
        if text(claimed, "endToEndId").as_deref() != Some(pix.end_to_end_id.as_str()) {
            return Err("another endToEndId");
        }
        if text(claimed, "txid").as_deref() != Some(pix.txid.as_str()) {
            return Err("another txid");
        }
        if claimed["valor"].as_str().and_then(cents_of) != Some(pix.cents) {
            return Err("another amount");
        }
    }
    Ok(pix)
}

/// Applies a Pix the bank confirmed, and says so in the log.
pub async fn apply(db: &Db, pix: &ConfirmedPix) -> Result<pix_payments::Applied, DbError> {
    let applied = pix_payments::apply(
        db,
        &pix_payments::Confirmed {
            end_to_end_id: &pix.end_to_end_id,
            txid: &pix.txid,
            cents: pix.cents,
            horario: &pix.horario,
        },
    )
    .await?;
    let e2eid = &pix.end_to_end_id;
    match &applied {
        pix_payments::Applied::Confirmed(i) => {
            tracing::info!(%e2eid, installment = %i.id, "PIX payment confirmed");
        }
        pix_payments::Applied::Again => {}
        pix_payments::Applied::UnknownTxid => {
            tracing::warn!(%e2eid, txid = %pix.txid, "PIX payment of an unknown txid; nothing changed");
        }
        pix_payments::Applied::NotOpen(why) => {
            tracing::warn!(%e2eid, why, "PIX payment of an installment not waiting for payment");
        }
    }
    Ok(applied)
}
