//! Pix Automático recurrences at the bank (`serve --pix-api-url`, issue 31): each invoice that
//! asked for it gets its recurrence through the `pix_recurrences` outbox, after its first cycle's
//! immediate charge (a `cob`, made by the charges worker): `POST /locrec` once, kept; then
//! `POST /rec` with that location, `vinculo` (the invoice's `externalId` as contract, the payer's
//! CPF or CNPJ and name), `calendario`, `valor.valorRec`, `politicaRetentativa` and
//! `ativacao.dadosJornada.txid` (Jornada 3); then `GET /rec/{idRec}?txid=` for the composite code
//! the payer page shows. A retry after a lost answer asks the location first (`GET
//! /locrec/{id}`): one that names an idRec is the recurrence made, never a second one. A deleted
//! invoice's recurrence is cancelled (`PATCH /rec/{idRec}` CANCELADA). A bank that is down or slow
//! is tried again on the charges' schedule, forever; a refusal is recorded with the bank's reasons
//! for the merchant's detail. Also registers the callbacks of recurrences and recurring charges
//! (`PUT /webhookrec`, `PUT /webhookcobr`) at start-up.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::bank::{BankError, PixClient};
use crate::domain::pix_api::rec::{closing_of, status_of, Rec, RecTerms};
use crate::store::{pix_recurrences, Db, DbError};

use super::pix::RETRY_SCHEDULE;

/// The pause after a pass that found nothing due.
const IDLE: Duration = Duration::from_secs(1);
/// How soon a recurrence waiting for its first cycle's charge looks again.
const WAIT_FOR_CHARGE: Duration = Duration::from_secs(1);

#[derive(Clone)]
pub struct PixRecurrences {
    db: Db,
    bank: PixClient,
}

/// The codes a creation read back: (`dadosQR.pixCopiaECola` with the first cycle's txid, without).
type Codes = (Option<String>, Option<String>);

/// What one call came to.
enum Step {
    /// Done: the codes (creation: the one to pay, composite when paired with the first cycle's
    /// charge, and the recurrence's own, which only authorizes), the bank's status and closing
    /// reasons.
    Done(Codes, Option<String>, Vec<String>),
    /// The first cycle's charge is not at the bank yet.
    Wait,
}

impl PixRecurrences {
    pub fn new(db: Db, bank: PixClient) -> PixRecurrences {
        PixRecurrences { db, bank }
    }

    pub async fn run(self, shutdown: CancellationToken) {
        super::poll("pix-recurrences", shutdown, IDLE, || self.pass()).await;
    }

    /// One pass: takes up deletions, then makes the calls that are due.
    #[tracing::instrument(name = "pass", skip_all, fields(queue = "pix_automatico"))]
    pub async fn pass(&self) -> Result<usize, DbError> {
        pix_recurrences::enqueue(&self.db).await?;
        let claim = pix_recurrences::claim_due(&self.db).await?;
        Ok(crate::store::outbox::run_claimed(claim, |id, lease| {
            let me = self.clone();
            async move {
                match me.process(&id, &lease).await {
                    Ok(true) => {}
                    // Another worker holds the row now (this one's lease ran out), or it was
                    // turned into another operation meanwhile: the next call records.
                    Ok(false) => tracing::warn!(invoice = %id, lease = lease.as_str(), "Pix Automático not recorded: its lease was lost, or the row was turned into another operation meanwhile"),
                    Err(e) => {
                        tracing::warn!(invoice = %id, error = %e, "Pix Automático failed to record");
                    }
                }
            }
        })
        .await)
    }

    /// Makes one call and records it; whether the row still carried `lease` for that.
    #[tracing::instrument(name = "row", skip_all, fields(queue = "pix_automatico", id = %id))]
    async fn process(
        &self,
        id: &str,
        lease: &crate::store::outbox::Lease,
    ) -> Result<bool, DbError> {
        let w = pix_recurrences::work(&self.db, id).await?;
        let result = match w.operation.as_str() {
            "cancel" => self.cancel(id, &w).await,
            _ => self.create(id, &w).await,
        };
        let outcome = match &result {
            Ok(Step::Wait) => "wait",
            Ok(Step::Done(..)) => "ok",
            Err(e) if e.retryable() => "retry",
            Err(_) => "failed",
        };
        metrics::counter!(
            "paylink_outbox_attempts_total",
            "queue" => "pix_automatico",
            "outcome" => outcome,
        )
        .increment(1);
        match result {
            Ok(Step::Wait) => {
                pix_recurrences::record_wait(&self.db, id, lease, WAIT_FOR_CHARGE).await
            }
            Ok(Step::Done((code, authorization), status, closing)) => {
                tracing::info!(invoice = %id, operation = %w.operation, "Pix Automático done at the bank");
                let closing = (!closing.is_empty()).then_some(closing.as_slice());
                pix_recurrences::record_done(
                    &self.db,
                    id,
                    lease,
                    &w.operation,
                    code.as_deref(),
                    authorization.as_deref(),
                    status.as_deref(),
                    closing,
                )
                .await
            }
            Err(e) => {
                let attempts = w.attempts + 1;
                let pause = RETRY_SCHEDULE[(attempts as usize - 1).min(RETRY_SCHEDULE.len() - 1)];
                let next = e
                    .retryable()
                    .then(|| crate::store::iso_in(Duration::from_secs(pause)));
                tracing::warn!(invoice = %id, operation = %w.operation, attempts, retry = next.is_some(), error = %e, "Pix Automático call failed");
                let reasons = next.is_none().then(|| e.reasons());
                pix_recurrences::record_failure(
                    &self.db,
                    id,
                    lease,
                    &w.operation,
                    attempts,
                    next.as_deref(),
                    &e.to_string(),
                    reasons.as_deref(),
                )
                .await
            }
        }
    }

    async fn create(&self, id: &str, w: &pix_recurrences::Work) -> Result<Step, BankError> {
        let refused = |detail: &str| BankError::Refused {
            status: 0,
            body: serde_json::json!({ "detail": detail }),
        };
        // Jornada 3 pairs the recurrence with the first cycle's `cob`: wait for it while it is
        // being made; without one (paid first, or refused) the recurrence goes alone (Jornada 2).
        let txid = match (&w.first_charge, w.first_open) {
            (_, false) => None,
            (None, true) => return Ok(Step::Wait),
            (Some((_, _, status)), true) if status == "pending" => return Ok(Step::Wait),
            (Some((txid, Some(kind), status)), true) if status == "done" && kind == "cob" => {
                Some(txid.as_str())
            }
            _ => None,
        };
        let id_rec = match &w.id_rec {
            Some(id_rec) => id_rec.clone(),
            None => {
                let loc_id = match w.loc_id {
                    Some(loc) => loc,
                    None => {
                        let loc = self.bank.post_locrec().await?;
                        let (Some(loc_id), Some(location)) =
                            (loc["id"].as_i64(), loc["location"].as_str())
                        else {
                            return Err(refused("the bank's location has no id or location"));
                        };
                        pix_recurrences::record_location(&self.db, id, loc_id, location)
                            .await
                            .map_err(|e| BankError::Unavailable(e.to_string()))?;
                        loc_id
                    }
                };
                // A retry: the recurrence an earlier POST made (its answer lost) is on the location.
                let made = if w.attempts > 0 {
                    let loc = self.bank.get_locrec(loc_id as u64).await?;
                    loc["idRec"].as_str().map(str::to_string)
                } else {
                    None
                };
                let id_rec = match made {
                    Some(id_rec) => {
                        tracing::info!(invoice = %id, %id_rec, "Pix Automático: the recurrence an earlier call made, found on its location");
                        id_rec
                    }
                    None => {
                        let body = self.rec_body(w, loc_id as u64, txid)?;
                        let answer = self.bank.post_rec(&body).await?;
                        answer["idRec"]
                            .as_str()
                            .ok_or_else(|| refused("the bank's recurrence has no idRec"))?
                            .to_string()
                    }
                };
                pix_recurrences::record_made(&self.db, id, &id_rec, None, txid)
                    .await
                    .map_err(|e| BankError::Unavailable(e.to_string()))?;
                id_rec
            }
        };
        let code_of =
            |rec: &serde_json::Value| rec["dadosQR"]["pixCopiaECola"].as_str().map(str::to_string);
        let rec = self.bank.get_rec(&id_rec, txid).await?;
        let code = code_of(&rec);
        // Jornada 2's code, for a payer whose first cycle is paid another way.
        let authorization = match txid {
            Some(_) => code_of(&self.bank.get_rec(&id_rec, None).await?),
            None => code.clone(),
        };
        Ok(Step::Done(
            (code, authorization),
            status_of(&rec),
            closing_of(&rec),
        ))
    }

    fn rec_body(
        &self,
        w: &pix_recurrences::Work,
        loc: u64,
        txid: Option<&str>,
    ) -> Result<Rec, BankError> {
        let refused = |detail: &str| BankError::Refused {
            status: 0,
            body: serde_json::json!({ "detail": detail }),
        };
        let first_due = w
            .first_due
            .ok_or_else(|| refused("the invoice's due date does not read"))?;
        let frequency = w
            .frequency
            .as_deref()
            .and_then(paylink_model::Frequency::parse);
        let last_due = paylink_model::pix_automatico::last_due(
            first_due,
            frequency,
            &paylink_model::plan::PeriodicEnd::new(
                w.end_date,
                w.end_installment.and_then(|n| u32::try_from(n).ok()),
                w.end_subscription.as_deref(),
            ),
        );
        let document = w
            .customer_document
            .as_deref()
            .ok_or_else(|| refused("the customer has no CPF or CNPJ"))?;
        Rec::new(
            &RecTerms {
                contract: &w.external_id,
                description: w.description.as_deref(),
                customer_document: document,
                customer_name: &w.customer_name,
                first_due,
                last_due,
                periodicidade: w.periodicity,
                retry_policy: w.retry_policy,
                price_cents: w.price_cents,
            },
            loc,
            txid,
        )
        .ok_or_else(|| refused("the customer's document is neither a CPF nor a CNPJ"))
    }

    /// Cancels the recurrence at the bank. One never made has nothing to cancel (a lost answer's
    /// recurrence is looked for on its location first); one the bank no longer holds alive (the
    /// payer cancelled it meanwhile) is recorded as the bank has it.
    async fn cancel(&self, id: &str, w: &pix_recurrences::Work) -> Result<Step, BankError> {
        let id_rec = match (&w.id_rec, w.loc_id) {
            (Some(id_rec), _) => id_rec.clone(),
            (None, Some(loc)) => match self.bank.get_locrec(loc as u64).await?["idRec"].as_str() {
                Some(id_rec) => {
                    pix_recurrences::record_made(&self.db, id, id_rec, None, None)
                        .await
                        .map_err(|e| BankError::Unavailable(e.to_string()))?;
                    id_rec.to_string()
                }
                None => return Ok(Step::Done((None, None), None, Vec::new())),
            },
            (None, None) => return Ok(Step::Done((None, None), None, Vec::new())),
        };
        match self.bank.cancel_rec(&id_rec).await {
            Ok(rec) => Ok(Step::Done((None, None), status_of(&rec), closing_of(&rec))),
            Err(
                refused @ BankError::Refused {
                    status: 400..=499, ..
                },
            ) => match self.bank.get_rec(&id_rec, None).await {
                Ok(rec) if !matches!(rec["status"].as_str(), Some("CRIADA" | "APROVADA")) => {
                    Ok(Step::Done((None, None), status_of(&rec), closing_of(&rec)))
                }
                _ => Err(refused),
            },
            Err(e) => Err(e),
        }
    }
}

/// Registers `{public_url}/webhooks/pix/{token}` as the callback of recurrences (`PUT
/// /webhookrec`) and of recurring charges (`PUT /webhookcobr`), trying each again until the bank
/// answers; then waits for shutdown. The URL holds the secret token, so it is never logged.
pub async fn register_webhooks(bank: PixClient, public_url: String, stop: CancellationToken) {
    let url = format!(
        "{}/webhooks/pix/{}",
        public_url.trim_end_matches('/'),
        bank.webhook_token()
    );
    let mut attempt = 0;
    let mut rec_done = false;
    loop {
        if !rec_done {
            match bank.put_webhookrec(&url).await {
                Ok(()) => rec_done = true,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot register the recurrences' webhook at the bank");
                }
            }
        }
        if rec_done {
            match bank.put_webhookcobr(&url).await {
                Ok(()) => {
                    tracing::info!("Pix Automático webhooks registered at the bank");
                    break;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot register the recurring charges' webhook at the bank");
                }
            }
        }
        let pause = Duration::from_secs(RETRY_SCHEDULE[attempt.min(RETRY_SCHEDULE.len() - 1)]);
        attempt += 1;
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(pause) => {}
        }
    }
    stop.cancelled().await;
}
