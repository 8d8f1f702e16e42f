//! A local bank for tests and demos (`paylink-bank-sim`): the part of BACEN's API Pix
//! (`server/pix-api/openapi.yaml`, release 2.9.0) paylink uses, kept in memory. OAuth2 client
//! credentials (`POST /oauth/token`), `PUT/GET/PATCH /cobv/{txid}`, `PUT /cob/{txid}`,
//! `PUT /webhook/{chave}`, `GET /pix/{e2eid}`, `GET /pix?inicio&fim` and
//! `PUT /pix/{e2eid}/devolucao/{id}`, and Pix Automático's `/locrec`, `/rec`, `/cobr`,
//! `/webhookrec` and `/webhookcobr` (`rec.rs`, with the payer's bank's side), over HTTPS with mutual TLS (`tls.rs`), errors as the
//! document's `application/problem+json` bodies. Tests drive the faults directly ([`Bank::pay`],
//! [`Bank::down_for`], [`Bank::set_slow`], [`Bank::set_callbacks`], [`Bank::lose_answers`],
//! [`Bank::set_refuse_repeated_puts`], [`Bank::refuse_document`]); a demo reaches the same
//! through `POST /sim/pay/{txid}`, `POST /sim/down/{seconds}` and `paylink-bank-sim`'s options.
//! A devolução the bank makes on its own ([`Bank::devolve`], `POST /sim/devolucao/{e2eid}`: a
//! payer's MED claim, or the merchant refunding from the bank's app) is reported as the document
//! says: in the Pix's `devolucoes` (`GET /pix/{e2eid}`, `GET /pix`) and in the Pix callback.
//! Every request is recorded with its body, so a test can validate each one against the document.
//!
//! Its own crate, using nothing of paylink's but the model: a bank is not part of paylink, its
//! errors are the bank's (problem+json), not paylink's envelope, and the production server
//! carries none of its TLS server or certificate making.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State as AxState};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::Router;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

mod api;
pub mod cli;
mod problem;
mod rec;
pub mod tls;

use problem::Problem;
pub use tls::Pki;

/// How long an access token lasts.
pub const TOKEN_TTL: Duration = Duration::from_secs(300);

/// One request the bank received, as it came.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub body: Option<Value>,
}

/// What happens to the callbacks of the payments that follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callbacks {
    Deliver,
    /// The first attempt is dropped; the bank tries again a second later.
    FailFirstTime,
    /// Never sent: only reconciliation (`GET /pix`) can find the payment.
    Lose,
}

#[derive(Default)]
struct State {
    tokens: HashMap<String, Instant>,
    charges: HashMap<String, Value>,
    /// How many `PUT`s each txid received: a retried charge is the same charge.
    puts: HashMap<String, u32>,
    webhooks: HashMap<String, String>,
    pix: Vec<Value>,
    requests: Vec<Recorded>,
    down_until: Option<Instant>,
    slow: Duration,
    callbacks: Option<Callbacks>,
    next_loc: u64,
    /// How many of the next charge `PUT`s are carried out with their answer held back.
    lose_answers: u32,
    /// A `PUT` of a txid that already has a charge is refused (400) instead of answered again.
    refuse_repeated_puts: bool,
    /// Payer documents (CPF or CNPJ) whose charges are refused for good.
    refused_documents: Vec<String>,
    /// Pix Automático: locations, recurrences, recurring charges and their webhooks.
    rec: rec::Recs,
    /// The most Pix a page of `GET /pix` holds, whatever `paginacao.itensPorPagina` asks (a
    /// bank's own cap; 1000 unless set).
    page_cap: Option<usize>,
}

/// The merchant (usuário recebedor) as the bank's answers name it.
const RECEIVER_CNPJ: &str = "12345678000195";
const RECEIVER_NAME: &str = "Loja Exemplo Ltda";

/// How long a lost answer is held: longer than any client waits (paylink gives up after 15 s).
const LOST_ANSWER_HOLD: Duration = Duration::from_secs(60);

/// A running bank. Dropping it does not stop it; [`Bank::stop`] does.
#[derive(Clone)]
pub struct Bank {
    state: Arc<Mutex<State>>,
    client_id: Arc<str>,
    client_secret: Arc<str>,
    url: Arc<str>,
    stop: CancellationToken,
    callback_client: reqwest::Client,
}

impl Bank {
    /// Serves the bank on `listener` with `pki`'s server certificate, for one client.
    pub fn start(
        listener: tokio::net::TcpListener,
        pki: &Pki,
        client_id: &str,
        client_secret: &str,
    ) -> Result<Bank, String> {
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let bank = Bank {
            state: Arc::default(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            url: format!("https://{addr}").into(),
            stop: CancellationToken::new(),
            callback_client: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .map_err(|e| e.to_string())?,
        };
        let config = pki.server_config()?;
        tokio::spawn(tls::serve(
            listener,
            config,
            bank.router(),
            bank.stop.clone(),
        ));
        Ok(bank)
    }

    /// `https://127.0.0.1:PORT`: the API Pix's base URL.
    pub fn url(&self) -> String {
        self.url.to_string()
    }

    pub fn token_url(&self) -> String {
        format!("{}/oauth/token", self.url)
    }

    pub fn stop(&self) {
        self.stop.cancel();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Every request so far, oldest first.
    pub fn requests(&self) -> Vec<Recorded> {
        self.lock().requests.clone()
    }

    /// The charge of `txid` as `GET /cobv/{txid}` shows it.
    pub fn charge(&self, txid: &str) -> Option<Value> {
        self.lock().charges.get(txid).cloned()
    }

    /// The time of charge `txid` runs out, as if its `expiracao` seconds had passed since it was
    /// made (a `cob`), or its days of validity after the due date (a `cobv`): it can no longer
    /// be paid.
    pub fn expire(&self, txid: &str) {
        if let Some(c) = self.lock().charges.get_mut(txid) {
            let cal = &mut c["calendario"];
            if cal["dataDeVencimento"].is_string() {
                let days = cal["validadeAposVencimento"].as_i64().unwrap_or(0);
                let today = paylink_model::date::brasilia_date(now_ms() / 1000);
                let due = today.and_then(|t| t.add_days(-days - 1));
                cal["dataDeVencimento"] = json!(due.map(|d| d.to_string()));
            } else {
                let seconds = cal["expiracao"].as_i64().unwrap_or(0);
                let made = now_ms() - (seconds + 1) * 1000;
                cal["criacao"] = json!(paylink_model::date::iso_utc_from_millis(made));
            }
        }
    }

    /// How many `PUT`s `txid` received.
    pub fn puts(&self, txid: &str) -> u32 {
        self.lock().puts.get(txid).copied().unwrap_or(0)
    }

    /// The webhook URL registered for `chave`.
    pub fn webhook(&self, chave: &str) -> Option<String> {
        self.lock().webhooks.get(chave).cloned()
    }

    /// Every API answer is 503 (ServicoIndisponivel) for `d` from now.
    pub fn down_for(&self, d: Duration) {
        self.lock().down_until = Some(Instant::now() + d);
    }

    /// Each answer waits `d` first.
    pub fn set_slow(&self, d: Duration) {
        self.lock().slow = d;
    }

    /// A page of `GET /pix` holds at most `n` Pix from now on, as a bank caps its pages.
    pub fn set_page_cap(&self, n: usize) {
        self.lock().page_cap = Some(n.max(1));
    }

    pub fn set_callbacks(&self, c: Callbacks) {
        self.lock().callbacks = Some(c);
    }

    /// The next `n` creations (charge and recurring charge `PUT`s, `POST /rec`) are made, but
    /// their answer never reaches the client (held past its timeout): a retry is then the only way paylink learns of it.
    pub fn lose_answers(&self, n: u32) {
        self.lock().lose_answers = n;
    }

    /// As some banks do, a `PUT` of a txid that already has a charge is refused with a 400
    /// `CobVOperacaoInvalida` (`CobOperacaoInvalida` for `/cob`) naming the txid, instead of
    /// answered with the charge already there.
    pub fn set_refuse_repeated_puts(&self, on: bool) {
        self.lock().refuse_repeated_puts = on;
    }

    /// Charges whose payer has this CPF or CNPJ are refused (400, a violation on
    /// `cobv.devedor`), as a bank refuses a document the Receita Federal has cancelled.
    pub fn refuse_document(&self, document: &str) {
        self.lock().refused_documents.push(document.to_string());
    }

    /// Whether this answer is one to lose (counting it).
    fn take_lost_answer(&self) -> bool {
        let mut s = self.lock();
        let lose = s.lose_answers > 0;
        s.lose_answers = s.lose_answers.saturating_sub(1);
        lose
    }

    /// How many charges the bank holds (each txid once, however often it was sent).
    pub fn charge_count(&self) -> usize {
        self.lock().charges.len()
    }

    /// A payer pays the active charge `txid` (`valor` in reais; default its original value):
    /// the Pix is recorded, the charge CONCLUIDA, and the callback posted to the webhook of
    /// its key + `/pix`. Returns the Pix.
    pub async fn pay(&self, txid: &str, valor: Option<&str>) -> Result<Value, String> {
        let (pix, hook, mode) = {
            let mut s = self.lock();
            let charge = s
                .charges
                .get_mut(txid)
                .ok_or_else(|| format!("no charge {txid}"))?;
            if charge["status"] != "ATIVA" {
                return Err(format!("charge {txid} is {}", charge["status"]));
            }
            if expired(charge) {
                return Err(format!("charge {txid} expired"));
            }
            let chave = charge["chave"].as_str().unwrap_or_default().to_string();
            let now = now_iso();
            let pix = json!({
                "endToEndId": end_to_end_id(&now),
                "txid": txid,
                "valor": valor.map_or_else(|| charge["valor"]["original"].clone(), |v| json!(v)),
                "chave": chave,
                "horario": now,
                "infoPagador": "bank-sim",
            });
            charge["status"] = json!("CONCLUIDA");
            charge["pix"] = json!([&pix]);
            s.pix.push(pix.clone());
            let hook = s.webhooks.get(&chave).cloned();
            (pix, hook, s.callbacks.unwrap_or(Callbacks::Deliver))
        };
        if let Some(url) = hook {
            let url = format!("{}/pix", url.trim_end_matches('/'));
            self.post_callback_as(url, json!({ "pix": [&pix] }), mode);
        }
        Ok(pix)
    }

    /// The Pix `e2eid` as `GET /pix/{e2eid}` shows it.
    pub fn pix(&self, e2eid: &str) -> Option<Value> {
        self.lock()
            .pix
            .iter()
            .find(|p| p["endToEndId"] == e2eid)
            .cloned()
    }

    /// The bank returns part or all of Pix `e2eid` on its own: `valor` in reais (default what is
    /// left of it), `natureza` as the document's `DevolucaoNatureza` (`MED_FRAUDE`, ...),
    /// `status` `EM_PROCESSAMENTO`, `DEVOLVIDO` or `NAO_REALIZADO`, under devolução `id` (default
    /// a new one). The same id again changes that devolução's status (it is settled, say), not
    /// its amount. The Pix, its `devolucoes` included, is posted to the callback. Returns the
    /// devolução.
    pub async fn devolve(&self, e2eid: &str, d: Devolve<'_>) -> Result<Value, String> {
        self.devolve_as(e2eid, d).await.map_err(|e| e.to_string())
    }

    /// Pix `e2eid` was received `days` ago: its `horario` (and its charge's copy) moved back,
    /// as a Pix of weeks ago is when the payer disputes it (MED 2.0 allows 80 days). `false`
    /// when there is no such Pix.
    pub fn age(&self, e2eid: &str, days: i64) -> bool {
        use paylink_model::date::{iso_utc_from_millis, millis_from_rfc3339};
        let mut s = self.lock();
        let Some(pix) = s.pix.iter_mut().find(|p| p["endToEndId"] == e2eid) else {
            return false;
        };
        let Some(ms) = pix["horario"].as_str().and_then(millis_from_rfc3339) else {
            return false;
        };
        let then = json!(iso_utc_from_millis(ms - days * 86_400_000));
        pix["horario"] = then.clone();
        for charge in s.charges.values_mut() {
            for p in charge["pix"].as_array_mut().into_iter().flatten() {
                if p["endToEndId"] == e2eid {
                    p["horario"] = then.clone();
                }
            }
        }
        true
    }

    pub(crate) async fn devolve_as(
        &self,
        e2eid: &str,
        d: Devolve<'_>,
    ) -> Result<Value, DevolveError> {
        let (devolucao, pix, hook) = {
            let mut s = self.lock();
            let devolucao = devolve_in(&mut s, e2eid, &d)?;
            let pix = s
                .pix
                .iter()
                .find(|p| p["endToEndId"] == e2eid)
                .cloned()
                .unwrap_or_default();
            let chave = pix["chave"].as_str().unwrap_or_default();
            let hook = s.webhooks.get(chave).cloned();
            (devolucao, pix, hook)
        };
        if let Some(url) = hook {
            let url = format!("{}/pix", url.trim_end_matches('/'));
            self.post_callback(url, json!({ "pix": [&pix] }));
        }
        Ok(devolucao)
    }

    /// Posts a callback as the bank's callback mode says (delivered, dropped once, or lost).
    fn post_callback(&self, url: String, body: Value) {
        let mode = self.lock().callbacks.unwrap_or(Callbacks::Deliver);
        self.post_callback_as(url, body, mode);
    }

    fn post_callback_as(&self, url: String, body: Value, mode: Callbacks) {
        let client = self.callback_client.clone();
        tokio::spawn(async move {
            match mode {
                Callbacks::Lose => tracing::info!(%url, "bank-sim: callback lost on purpose"),
                Callbacks::FailFirstTime => {
                    tracing::info!(%url, "bank-sim: first callback attempt fails on purpose");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    callback(&client, &url, &body).await;
                }
                Callbacks::Deliver => callback(&client, &url, &body).await,
            }
        });
    }

    fn router(&self) -> Router {
        Router::new()
            .route("/oauth/token", post(api::token))
            .route(
                "/cobv/{txid}",
                put(api::put_cobv)
                    .get(api::get_charge)
                    .patch(api::patch_cobv),
            )
            .route(
                "/cob/{txid}",
                put(api::put_cob)
                    .get(api::get_charge)
                    .patch(api::patch_cobv),
            )
            .route("/webhook/{chave}", put(api::put_webhook))
            .route("/pix/{e2eid}", get(api::get_pix))
            .route("/pix", get(api::list_pix))
            .route("/pix/{e2eid}/devolucao/{id}", put(api::put_refund))
            .route("/locrec", post(rec::post_locrec))
            .route("/locrec/{id}", get(rec::get_locrec))
            .route("/rec", post(rec::post_rec))
            .route("/rec/{id_rec}", get(rec::get_rec).patch(rec::patch_rec))
            .route(
                "/cobr/{txid}",
                put(rec::put_cobr).get(rec::get_cobr).patch(rec::patch_cobr),
            )
            .route("/cobr/{txid}/retentativa/{data}", post(rec::post_retry))
            .route(
                "/webhookrec",
                put(rec::put_webhookrec)
                    .get(rec::get_webhookrec)
                    .delete(rec::delete_webhookrec),
            )
            .route(
                "/webhookcobr",
                put(rec::put_webhookcobr)
                    .get(rec::get_webhookcobr)
                    .delete(rec::delete_webhookcobr),
            )
            .route("/sim/rec/{id_rec}/{action}", post(rec::sim_rec))
            .route("/sim/cobr/{txid}/{action}", post(rec::sim_cobr))
            .route("/sim/pay/{txid}", post(api::sim_pay))
            .route("/sim/devolucao/{e2eid}", post(api::sim_devolucao))
            .route("/sim/down/{seconds}", post(api::sim_down))
            .fallback(|| async { Problem::not_found() })
            .layer(axum::middleware::from_fn_with_state(self.clone(), gate))
            .with_state(self.clone())
    }
}

/// What [`Bank::devolve`] returns of a Pix.
#[derive(Clone, Copy, Debug, Default)]
pub struct Devolve<'a> {
    /// The devolução's id at the bank (default a new one).
    pub id: Option<&'a str>,
    /// In reais, `\d{1,10}\.\d{2}` (default what is left of the Pix).
    pub valor: Option<&'a str>,
    /// Default `ORIGINAL`.
    pub natureza: Option<&'a str>,
    /// Default `DEVOLVIDO`.
    pub status: Option<&'a str>,
}

/// Why a devolução was not made, in the bank's words (`PixDevolucaoInvalida`).
#[derive(Debug, PartialEq)]
pub(crate) enum DevolveError {
    NoPix,
    BadId,
    BadValor,
    BadNatureza,
    BadStatus,
    OverBalance,
}

impl std::fmt::Display for DevolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DevolveError::NoPix => "Pix não encontrado.",
            DevolveError::BadId => "O id da devolução não respeita o schema.",
            DevolveError::BadValor => "O valor da devolução não respeita o schema.",
            DevolveError::BadNatureza => "A natureza da devolução não respeita o schema.",
            DevolveError::BadStatus => "O status da devolução não respeita o schema.",
            DevolveError::OverBalance => "O valor da devolução é maior que o saldo do Pix.",
        })
    }
}

const NATUREZAS: [&str; 5] = [
    "ORIGINAL",
    "RETIRADA",
    "MED_OPERACIONAL",
    "MED_FRAUDE",
    "MED_PIX_AUTOMATICO",
];
const DEVOLUCAO_STATUS: [&str; 3] = ["EM_PROCESSAMENTO", "DEVOLVIDO", "NAO_REALIZADO"];

/// Cents of `\d{1,10}\.\d{2}`.
fn cents_of(v: &str) -> Option<i64> {
    let (i, d) = v.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(i) && i.len() <= 10 && d.len() == 2 && digits(d)) {
        return None;
    }
    Some(i.parse::<i64>().ok()? * 100 + d.parse::<i64>().ok()?)
}

/// Adds devolução `d` to Pix `e2eid` (or, its id known, sets its status), within what is left of
/// the Pix (devoluções not carried out, `NAO_REALIZADO`, give their amount back).
fn devolve_in(s: &mut State, e2eid: &str, d: &Devolve<'_>) -> Result<Value, DevolveError> {
    let natureza = d.natureza.unwrap_or("ORIGINAL");
    if !NATUREZAS.contains(&natureza) {
        return Err(DevolveError::BadNatureza);
    }
    let status = d.status.unwrap_or("DEVOLVIDO");
    if !DEVOLUCAO_STATUS.contains(&status) {
        return Err(DevolveError::BadStatus);
    }
    let now = now_iso();
    let id = d.id.map_or_else(
        || format!("D{}", &uuid::Uuid::new_v4().simple().to_string()[..30]),
        str::to_string,
    );
    if id.is_empty() || id.len() > 35 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(DevolveError::BadId);
    }
    let pix = s
        .pix
        .iter_mut()
        .find(|p| p["endToEndId"] == e2eid)
        .ok_or(DevolveError::NoPix)?;
    let mut all = pix["devolucoes"].as_array().cloned().unwrap_or_default();
    if let Some(same) = all.iter_mut().find(|r| r["id"] == id.as_str()) {
        if d.status.is_some() && same["status"] != status {
            same["status"] = json!(status);
            same["horario"]["liquidacao"] = json!(now);
        }
        let same = same.clone();
        pix["devolucoes"] = json!(all);
        return Ok(same);
    }
    let owed = |v: &Value| v.as_str().and_then(cents_of).unwrap_or(0);
    let returned: i64 = all
        .iter()
        .filter(|r| r["status"] != "NAO_REALIZADO")
        .map(|r| owed(&r["valor"]))
        .sum();
    let left = owed(&pix["valor"]) - returned;
    let cents = match d.valor {
        None => left,
        Some(v) => cents_of(v)
            .filter(|c| *c > 0)
            .ok_or(DevolveError::BadValor)?,
    };
    if cents <= 0 || cents > left {
        return Err(DevolveError::OverBalance);
    }
    let mut horario = json!({ "solicitacao": now });
    if status != "EM_PROCESSAMENTO" {
        horario["liquidacao"] = json!(now);
    }
    let devolucao = json!({
        "id": id,
        "rtrId": format!("D{}", &end_to_end_id(&now)[1..]),
        "valor": format!("{}.{:02}", cents / 100, cents % 100),
        "natureza": natureza,
        "horario": horario,
        "status": status,
    });
    all.push(devolucao.clone());
    pix["devolucoes"] = json!(all);
    Ok(devolucao)
}

async fn callback(client: &reqwest::Client, url: &str, body: &Value) {
    match client.post(url).json(body).send().await {
        Ok(r) => tracing::info!(%url, status = %r.status(), "bank-sim: callback sent"),
        Err(e) => tracing::warn!(%url, error = %e, "bank-sim: callback failed"),
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn now_iso() -> String {
    paylink_model::date::iso_utc_from_millis(now_ms())
}

/// A charge a payer's PSP refuses to pay for its time: a `cob` whose `expiracao` seconds since
/// `criacao` have passed (the document's "tempo de vida da cobrança"), a `cobv` whose
/// `validadeAposVencimento` days after `dataDeVencimento` have passed (in Brasília).
fn expired(charge: &Value) -> bool {
    use paylink_model::date::{brasilia_date, millis_from_rfc3339};
    let c = &charge["calendario"];
    if let Some(due) = c["dataDeVencimento"].as_str() {
        let days = c["validadeAposVencimento"].as_i64().unwrap_or(30);
        let last = paylink_model::Date::parse_iso(due).and_then(|d| d.add_days(days));
        return matches!((last, brasilia_date(now_ms() / 1000)), (Some(l), Some(t)) if t > l);
    }
    match (
        c["criacao"].as_str().and_then(millis_from_rfc3339),
        c["expiracao"].as_i64(),
    ) {
        (Some(made), Some(seconds)) => now_ms() >= made + seconds * 1000,
        _ => false,
    }
}

/// `E` + the bank's ISPB (8 digits) + `yyyyMMddHHmm` + 11 letters and digits: 32 in all.
fn end_to_end_id(now: &str) -> String {
    let stamp: String = now.chars().filter(char::is_ascii_digit).take(12).collect();
    let random: String = uuid::Uuid::new_v4().simple().to_string()[..11].to_string();
    format!("E99999999{stamp}{random}")
}

/// Records each request, then answers 503 while down, waits while slow, and asks for a valid
/// access token everywhere but the token endpoint and the simulator's own controls.
async fn gate(AxState(bank): AxState<Bank>, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, 1 << 20)
        .await
        .unwrap_or_default();
    let path = parts.uri.path();
    let (down, slow) = {
        let mut s = bank.lock();
        s.requests.push(Recorded {
            method: parts.method.to_string(),
            path: parts
                .uri
                .path_and_query()
                .map_or(path, |p| p.as_str())
                .to_string(),
            body: serde_json::from_slice(&bytes).ok(),
        });
        let down = s.down_until.is_some_and(|t| Instant::now() < t);
        (down, s.slow)
    };
    if !slow.is_zero() {
        tokio::time::sleep(slow).await;
    }
    let control = path.starts_with("/sim/");
    if down && !control {
        return Problem::unavailable().into_response();
    }
    if path != "/oauth/token" && !control {
        let bearer = parts
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        let valid = bearer.is_some_and(|t| {
            bank.lock()
                .tokens
                .get(t)
                .is_some_and(|until| Instant::now() < *until)
        });
        if !valid {
            return Problem::denied().into_response();
        }
    }
    // The creations whose answer may be lost: charges, recurring charges, recurrences.
    let charge_put = ((parts.method == axum::http::Method::PUT
        && (path.starts_with("/cobv/")
            || path.starts_with("/cob/")
            || path.starts_with("/cobr/")))
        || (parts.method == axum::http::Method::POST && path == "/rec"))
        .then(|| path.to_string());
    let res = next
        .run(Request::from_parts(parts, axum::body::Body::from(bytes)))
        .await;
    if let Some(path) = charge_put.filter(|_| res.status().is_success() && bank.take_lost_answer())
    {
        tracing::info!(%path, "bank-sim: charge made, its answer held back on purpose");
        tokio::select! {
            _ = tokio::time::sleep(LOST_ANSWER_HOLD) => {}
            _ = bank.stop.cancelled() => {}
        }
    }
    res
}
