//! PIX charges at the bank (`serve --pix-api-url`): each PIX installment becomes a charge
//! through the `pix_charges` outbox; a charge that stops being payable while its installment
//! waits is made again; the charges of deleted invoices and of installments paid another way are
//! removed. A call the bank could not answer (down, slow, a 5xx) is tried again with growing
//! pauses, forever: the charge is never lost, and never made twice, since each retry is a `PUT`
//! of the same txid. Some banks refuse a `PUT` of a txid they already hold (a retry whose first
//! `PUT` arrived, its answer lost): every refused creation is followed by a `GET` of the txid,
//! and a charge found there is taken as created when it is the one paylink asked for, or fails
//! as a conflict when it is not. A call the bank refused is recorded as failed with the bank's
//! reasons (the same body would be refused again), which the merchant's invoice detail shows.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use paylink_model::{PixCharge, PixChargeState};

use crate::bank::{BankError, PixClient};
use crate::domain::pix_api::{self, charge, rec};
use crate::store::{pix_charges, Db, DbError};

/// Why a call did not make (or remove) its charge.
#[derive(Debug, thiserror::Error)]
enum Failed {
    #[error(transparent)]
    Bank(#[from] BankError),
    /// The bank holds another charge under this txid: what differs.
    #[error("the bank holds another charge under this txid: {}", .0.join("; "))]
    Conflict(Vec<String>),
}

impl Failed {
    fn retryable(&self) -> bool {
        matches!(self, Failed::Bank(e) if e.retryable())
    }

    /// What the merchant's detail shows of a failure that will not be retried.
    fn refusal(&self) -> PixCharge {
        match self {
            Failed::Bank(e) => PixCharge {
                state: PixChargeState::Refused,
                reasons: e.reasons(),
            },
            Failed::Conflict(d) => PixCharge {
                state: PixChargeState::Conflict,
                reasons: d.clone(),
            },
        }
    }
}

/// Pause before retry n: 2 s, 5 s, 15 s, 1 min, 5 min, 15 min, then every hour.
pub const RETRY_SCHEDULE: [u64; 7] = [2, 5, 15, 60, 300, 900, 3600];
/// The pause after a pass that found nothing due.
const IDLE: Duration = Duration::from_secs(1);

#[derive(Clone)]
pub struct PixCharges {
    db: Db,
    bank: PixClient,
    /// The merchant's account each cycle of a Pix Automático recurrence is credited to
    /// (`serve --pix-account`); without it no recurring charge is sent.
    account: Option<rec::Recebedor>,
}

impl PixCharges {
    pub fn new(db: Db, bank: PixClient) -> PixCharges {
        PixCharges {
            db,
            bank,
            account: None,
        }
    }

    /// The same worker, sending each later cycle of an authorized Pix Automático recurrence as a
    /// recurring charge (`PUT /cobr/{txid}`, 10 to 2 days before its due date) to `account`.
    pub fn with_account(mut self, account: rec::Recebedor) -> PixCharges {
        self.account = Some(account);
        self
    }

    pub async fn run(self, shutdown: CancellationToken) {
        super::poll("pix-charges", shutdown, IDLE, || self.pass()).await;
    }

    /// One pass: takes up new installments and deletions, then makes the calls that are due.
    #[tracing::instrument(name = "pass", skip_all, fields(queue = "bank_calls"))]
    pub async fn pass(&self) -> Result<usize, DbError> {
        let cycles = self.account.as_ref().map(|_| pix_charges::Cycles {
            today: crate::domain::today(),
        });
        pix_charges::enqueue(&self.db, cycles).await?;
        let claim = pix_charges::claim_due(&self.db).await?;
        Ok(crate::store::outbox::run_claimed(claim, |id, lease| {
            let me = self.clone();
            async move {
                match me.process(&id, &lease).await {
                    Ok(true) => {}
                    // Another worker holds the row now (this one's lease ran out), or it was
                    // turned into another operation meanwhile: the next call records.
                    Ok(false) => tracing::warn!(installment = %id, lease = lease.as_str(), "PIX charge not recorded: its lease was lost, or the row was turned into another operation meanwhile"),
                    Err(e) => {
                        tracing::warn!(installment = %id, error = %e, "PIX charge failed to record");
                    }
                }
            }
        })
        .await)
    }

    /// Makes one call and records it; whether the row still carried `lease` for that.
    #[tracing::instrument(name = "row", skip_all, fields(queue = "bank_calls", id = %id))]
    async fn process(
        &self,
        id: &str,
        lease: &crate::store::outbox::Lease,
    ) -> Result<bool, DbError> {
        let w = pix_charges::work(&self.db, id).await?;
        let result = match w.operation.as_str() {
            "remove" => self.remove(&w).await,
            _ if !w.open => {
                // Paid (or reversed) before its charge was made: nothing to charge.
                Ok(None)
            }
            _ if w.kind.as_deref() == Some("cobr") => self.create_cycle(&w).await,
            _ => self.create(&w).await,
        };
        let outcome = match &result {
            Ok(_) => "ok",
            Err(Failed::Bank(BankError::Refused { status: 404, .. }))
                if w.operation == "remove" =>
            {
                "ok"
            }
            Err(e) if e.retryable() => "retry",
            Err(_) => "failed",
        };
        metrics::counter!(
            "paylink_outbox_attempts_total",
            "queue" => "bank_calls",
            "outcome" => outcome,
        )
        .increment(1);
        match result {
            Ok(answer) => {
                let a = answer.as_ref();
                let text = |f: &str| a.and_then(|(_, v)| v[f].as_str());
                let kind = a.map(|(k, _)| *k);
                // A recurring charge the bank does not hold alive stops now: the installment goes
                // back to the payer page (the renewal of `pix_charges::enqueue`).
                let cycle_over = matches!(kind, Some("cobr"))
                    && w.operation == "create"
                    && !matches!(text("status"), Some("ATIVA" | "CRIADA" | "CONCLUIDA"));
                let expires_at = if cycle_over {
                    Some(crate::store::now_iso())
                } else {
                    a.and_then(|(_, v)| charge::charge_expiry(v))
                };
                let answer = pix_charges::Answer {
                    kind,
                    location: text("location")
                        .or(a.and_then(|(_, v)| v["loc"]["location"].as_str())),
                    copia_e_cola: text("pixCopiaECola"),
                    bank_status: text("status"),
                    expires_at: expires_at.as_deref(),
                };
                tracing::info!(installment = %id, operation = %w.operation, "PIX charge done at the bank");
                pix_charges::record_done(&self.db, id, lease, &w.operation, &answer).await
            }
            // Removing a charge the bank never made leaves nothing to remove.
            Err(Failed::Bank(BankError::Refused { status: 404, .. }))
                if w.operation == "remove" =>
            {
                pix_charges::record_done(
                    &self.db,
                    id,
                    lease,
                    "remove",
                    &pix_charges::Answer {
                        kind: None,
                        location: None,
                        copia_e_cola: None,
                        bank_status: None,
                        expires_at: None,
                    },
                )
                .await
            }
            Err(e) => {
                let attempts = w.attempts + 1;
                let next = e
                    .retryable()
                    .then(|| crate::store::iso_in(retry_pause(attempts as usize - 1)));
                tracing::warn!(installment = %id, operation = %w.operation, attempts, retry = next.is_some(), error = %e, "PIX charge call failed");
                let refusal = next.is_none().then(|| e.refusal());
                pix_charges::record_failure(
                    &self.db,
                    id,
                    lease,
                    &w.operation,
                    attempts,
                    next.as_deref(),
                    &e.to_string(),
                    refusal.as_ref(),
                )
                .await
            }
        }
    }

    async fn create(
        &self,
        w: &pix_charges::Work,
    ) -> Result<Option<(&'static str, serde_json::Value)>, Failed> {
        let now = crate::domain::now_ms().div_euclid(1000);
        let (Some(due), Some(first_due)) = (w.due, w.first_due) else {
            return Err(BankError::Refused {
                status: 0,
                body: serde_json::json!({"detail": "the installment's due date does not read"}),
            }
            .into());
        };
        let message = format!("{} - parcela {} de {}", w.external_id, w.number, w.count);
        let installment = charge::Installment {
            price_cents: w.price_cents,
            due,
            first_due,
            terms: &w.terms,
            customer_document: w.customer_document.as_deref(),
            customer_name: &w.customer_name,
            message: &message,
            immediate: w.immediate,
        };
        // What was sent, to compare with a charge the bank already holds under the txid.
        let (kind, sent, answer) = match charge::charge_for(self.bank.key(), &installment, now) {
            charge::Charge::Due(cobv) => (
                "cobv",
                serde_json::to_value(&cobv).unwrap_or_default(),
                self.bank.put_cobv(&w.txid, &cobv).await,
            ),
            charge::Charge::Now(cob) => (
                "cob",
                serde_json::to_value(&cob).unwrap_or_default(),
                self.bank.put_cob(&w.txid, &cob).await,
            ),
        };
        match answer {
            Ok(v) => Ok(Some((kind, v))),
            Err(refused @ BankError::Refused { .. }) => {
                let found = self.held(kind == "cob", &w.txid, &sent, refused).await?;
                tracing::info!(txid = %w.txid, "PIX charge: the bank refused the PUT but holds this very charge");
                Ok(Some((kind, found)))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// After a refused `PUT`: the charge the bank holds under `txid`, when it is the one paylink
    /// asked for (`sent`). A bank that holds none leaves its refusal standing; one that holds
    /// another charge is a conflict; a bank that cannot answer now is asked again later. A `cob`
    /// for another amount that has expired is paylink's own of an earlier day (a retry after
    /// midnight whose first `PUT` arrived): it is taken as made, and, expired, made again for
    /// today's amount under the next txid.
    async fn held(
        &self,
        immediate: bool,
        txid: &str,
        sent: &serde_json::Value,
        refused: BankError,
    ) -> Result<serde_json::Value, Failed> {
        match self.bank.get_charge(immediate, txid).await {
            Ok(found) => {
                let mut d = charge::differences(sent, &found);
                let now = paylink_model::date::iso_utc_from_millis(crate::domain::now_ms());
                if immediate && charge::charge_expiry(&found).is_some_and(|e| e <= now) {
                    d.retain(|x| !x.starts_with("valor.original"));
                }
                if d.is_empty() {
                    Ok(found)
                } else {
                    Err(Failed::Conflict(d))
                }
            }
            Err(BankError::Refused { .. }) => Err(refused.into()),
            Err(e) => Err(e.into()),
        }
    }

    /// Removes the charge. A bank that refuses because the charge is no longer active (a payer
    /// paid it meanwhile, or it was removed) leaves nothing to remove: the charge as the bank
    /// holds it is recorded.
    /// A later cycle of an authorized recurrence: `PUT /cobr/{txid}` with its due date, amount and
    /// the merchant's account (a retry is the same txid: the same charge).
    async fn create_cycle(
        &self,
        w: &pix_charges::Work,
    ) -> Result<Option<(&'static str, serde_json::Value)>, Failed> {
        let refused = |detail: &str| {
            Failed::Bank(BankError::Refused {
                status: 0,
                body: serde_json::json!({ "detail": detail }),
            })
        };
        let (Some(id_rec), Some(due), Some(account)) = (&w.id_rec, w.due, &self.account) else {
            return Err(refused(
                "no recurrence, due date or account for this recurring charge",
            ));
        };
        let mut body = rec::CobR::new(id_rec, due, w.price_cents, account.clone());
        body.info_adicional = Some(
            format!("{} - parcela {}", w.external_id, w.number)
                .chars()
                .take(140)
                .collect(),
        );
        let keep = |cobr: serde_json::Value| async move {
            rec::keep_cycle(&self.db, &w.txid, &cobr, None)
                .await
                .map_err(|e| BankError::Unavailable(e.to_string()))?;
            Ok::<_, Failed>(Some(("cobr", cobr)))
        };
        match self.bank.put_cobr(&w.txid, &body).await {
            Ok(made) => keep(made).await,
            // A retry whose first PUT arrived, refused as a repeat: the charge is there.
            Err(refused @ BankError::Refused { .. }) => match self.bank.get_cobr(&w.txid).await {
                Ok(found)
                    if found["idRec"] == id_rec.as_str()
                        && found["calendario"]["dataDeVencimento"] == due.to_string() =>
                {
                    keep(found).await
                }
                Err(e @ BankError::Unavailable(_)) => Err(e.into()),
                // Refused for good (the recurrence is no longer authorized at the bank, ...):
                // the cycle is not charged automatically, and goes back to the payer page.
                _ => {
                    tracing::warn!(txid = %w.txid, reasons = ?refused.reasons(), "recurring charge refused; the installment goes back to the payer page");
                    crate::store::pix_cycles::record(
                        &self.db,
                        &w.txid,
                        &due.to_string(),
                        "RECUSADA",
                        &[],
                        &refused.reasons(),
                    )
                    .await
                    .map_err(|e| BankError::Unavailable(e.to_string()))?;
                    // The recurrence as the bank holds it now (a payer's cancellation whose
                    // callback was lost): later cycles follow it.
                    if let Ok(rec) = self.bank.get_rec(id_rec, None).await {
                        if let Some(status) = rec["status"].as_str() {
                            let closing = rec::closing_of(&rec);
                            crate::store::pix_recurrences::apply_bank_state(
                                &self.db, id_rec, status, &closing,
                            )
                            .await
                            .map_err(|e| BankError::Unavailable(e.to_string()))?;
                        }
                    }
                    Ok(Some(("cobr", serde_json::json!({ "status": "RECUSADA" }))))
                }
            },
            Err(e) => Err(e.into()),
        }
    }

    async fn remove(
        &self,
        w: &pix_charges::Work,
    ) -> Result<Option<(&'static str, serde_json::Value)>, Failed> {
        if w.kind.as_deref() == Some("cobr") {
            let answer = match self.bank.cancel_cobr(&w.txid).await {
                Ok(v) => v,
                Err(
                    refused @ BankError::Refused {
                        status: 400..=499, ..
                    },
                ) => match self.bank.get_cobr(&w.txid).await {
                    Ok(found) if found["status"] != "ATIVA" => found,
                    _ => return Err(refused.into()),
                },
                Err(e) => return Err(e.into()),
            };
            rec::keep_cycle(&self.db, &w.txid, &answer, None)
                .await
                .map_err(|e| BankError::Unavailable(e.to_string()))?;
            return Ok(Some(("cobr", answer)));
        }
        let immediate = w.kind.as_deref() == Some("cob");
        let kind = if immediate { "cob" } else { "cobv" };
        match self
            .bank
            .remove(immediate, &w.txid, &pix_api::REMOVAL)
            .await
        {
            Ok(v) => Ok(Some((kind, v))),
            Err(
                refused @ BankError::Refused {
                    status: 400..=499, ..
                },
            ) => match self.bank.get_charge(immediate, &w.txid).await {
                Ok(found) if found["status"] != "ATIVA" => {
                    tracing::info!(txid = %w.txid, status = %found["status"], "PIX charge: nothing to remove, the bank no longer holds it active");
                    Ok(Some((kind, found)))
                }
                _ => Err(refused.into()),
            },
            Err(e) => Err(e.into()),
        }
    }
}

/// The pause before retry `n` (0-based): the schedule's last step repeats forever.
fn retry_pause(n: usize) -> Duration {
    Duration::from_secs(RETRY_SCHEDULE[n.min(RETRY_SCHEDULE.len() - 1)])
}

/// Registers `{public_url}/webhooks/pix/{token}` for the key at the bank, trying again until the
/// bank answers; then waits for shutdown (a worker that returns is started again). The URL holds
/// the secret token, so it is never logged.
pub async fn register_webhook(bank: PixClient, public_url: String, stop: CancellationToken) {
    let url = format!(
        "{}/webhooks/pix/{}",
        public_url.trim_end_matches('/'),
        bank.webhook_token()
    );
    let mut attempt = 0;
    loop {
        match bank.put_webhook(&url).await {
            Ok(()) => {
                tracing::info!(key = %bank.key(), "PIX webhook registered at the bank");
                break;
            }
            Err(e) => tracing::warn!(error = %e, "cannot register the PIX webhook at the bank"),
        }
        let pause = retry_pause(attempt);
        attempt += 1;
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(pause) => {}
        }
    }
    stop.cancelled().await;
}

/// How far back reconciliation asks the bank for Pix received, on each pass.
pub const RECONCILE_WINDOW: Duration = Duration::from_secs(6 * 3600);

/// How far back a devolução sweep reads: a payer may dispute a Pix (MED 2.0) up to 80 days
/// after paying it, and a Pix's devoluções are known only from the Pix read back.
pub const DEVOLUCAO_WINDOW: Duration = Duration::from_secs(90 * 86_400);

/// Asks the bank every `every` for the Pix of the last hours and applies those a lost callback
/// missed (each endToEndId once), and the devoluções of each (each once); every `sweep` (and on
/// the first pass), the Pix of the last [`DEVOLUCAO_WINDOW`] instead, for the devoluções of
/// older Pix whose callback was lost.
pub async fn reconcile(
    db: Db,
    bank: PixClient,
    every: Duration,
    sweep: Duration,
    stop: CancellationToken,
) {
    let mut last_sweep: Option<std::time::Instant> = None;
    super::poll("pix-reconcile", stop, every, || {
        let window = if last_sweep.is_none_or(|t| t.elapsed() >= sweep) {
            last_sweep = Some(std::time::Instant::now());
            DEVOLUCAO_WINDOW
        } else {
            RECONCILE_WINDOW
        };
        let (db, bank) = (db.clone(), bank.clone());
        async move { reconcile_once(&db, &bank, window).await }
    })
    .await;
}

/// One pass over the Pix received in the last `window`; returns how many installments it
/// confirmed.
pub async fn reconcile_once(db: &Db, bank: &PixClient, window: Duration) -> Result<usize, DbError> {
    let now = crate::domain::now_ms();
    let iso = paylink_model::date::iso_utc_from_millis;
    let inicio = iso(now - window.as_millis() as i64);
    let list = match bank.list_pix(&inicio, &iso(now + 60_000)).await {
        Ok(list) => list,
        Err(e) => {
            tracing::warn!(error = %e, "PIX reconciliation: cannot list the bank's Pix");
            return Ok(0);
        }
    };
    let mut confirmed = 0;
    for p in &list {
        let Ok(pix) = pix_api::check_confirmed(&serde_json::Value::Null, p, bank.key()) else {
            continue;
        };
        if let crate::store::pix_payments::Applied::Confirmed(_) = pix_api::apply(db, &pix).await? {
            tracing::info!(e2eid = %pix.end_to_end_id, "PIX reconciliation found a payment a callback missed");
            confirmed += 1;
        }
        if pix_api::devolucao::keep_all(db, p).await? > 0 {
            tracing::info!(e2eid = %pix.end_to_end_id, "PIX reconciliation found a devolução a callback missed");
        }
    }
    Ok(confirmed)
}
