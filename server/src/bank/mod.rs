//! The client of a bank's API Pix (BACEN, release 2.9.0): OAuth2 client credentials with the
//! token cached until shortly before it expires, mutual TLS with the merchant's certificate
//! (rustls), and the calls paylink makes with the bodies of `domain::pix_api`. Its own layer,
//! below the workers (charges through the outbox), the HTTP receiver (which confirms a callback
//! at the bank) and the CLI (refunds).

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde::Serialize;
use serde_json::Value;

use crate::domain::pix_api::{rec, Cob, CobV, CobVRemoval};

/// A token is renewed this long before the bank says it expires, so no request carries one
/// that dies on the way.
pub const TOKEN_MARGIN: Duration = Duration::from_secs(30);

/// Each call to the bank gives up after this long (the outbox tries again later).
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// How to reach the bank; `Debug` leaves the secret out.
#[derive(Clone)]
pub struct PixConfig {
    /// The API Pix's base URL, e.g. `https://pix.banco.example/api/v2`.
    pub api_url: String,
    pub token_url: String,
    pub client_id: String,
    pub client_secret: String,
    /// The merchant's certificate and its key, PEM (mutual TLS).
    pub identity: Option<(Vec<u8>, Vec<u8>)>,
    /// A root certificate to trust beside the usual ones, PEM.
    pub ca: Option<Vec<u8>>,
    /// The PIX key (chave) charges are paid to.
    pub key: String,
}

impl std::fmt::Debug for PixConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PixConfig")
            .field("api_url", &self.api_url)
            .field("token_url", &self.token_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &"***")
            .field("key", &self.key)
            .finish()
    }
}

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum BankError {
    /// Unreachable, timed out, a 5xx or a 429: try again later.
    #[error("bank unavailable: {0}")]
    Unavailable(String),
    /// The bank refused the request (its problem+json body): trying again changes nothing.
    #[error("bank refused ({status}): {}", refused_detail(body))]
    Refused { status: u16, body: Value },
}

/// A refusal's problem+json in one line: its `detail` (or OAuth `error`), then each
/// violation's field and reason.
fn refused_detail(body: &Value) -> String {
    let mut out = body["detail"]
        .as_str()
        .or(body["error"].as_str())
        .unwrap_or("")
        .to_string();
    for v in body["violacoes"].as_array().into_iter().flatten() {
        out.push_str(&format!("; {}: {}", v["propriedade"], v["razao"]));
    }
    out
}

impl BankError {
    pub fn retryable(&self) -> bool {
        matches!(self, BankError::Unavailable(_))
    }

    /// Why, in the bank's own words, for the merchant: its `detail` (or OAuth `error`), then
    /// each violation's reason with the field it names.
    pub fn reasons(&self) -> Vec<String> {
        match self {
            BankError::Unavailable(e) => vec![e.clone()],
            BankError::Refused { status, body } => {
                let mut out: Vec<String> = body["detail"]
                    .as_str()
                    .or(body["error"].as_str())
                    .map(str::to_string)
                    .into_iter()
                    .collect();
                for v in body["violacoes"].as_array().into_iter().flatten() {
                    let reason = v["razao"].as_str().unwrap_or_default();
                    out.push(match v["propriedade"].as_str() {
                        Some(p) => format!("{reason} ({p})"),
                        None => reason.to_string(),
                    });
                }
                if out.is_empty() {
                    out.push(format!("HTTP {status}"));
                }
                out
            }
        }
    }
}

#[derive(Clone)]
pub struct PixClient {
    http: reqwest::Client,
    config: Arc<PixConfig>,
    token: Arc<tokio::sync::Mutex<Option<(String, Instant)>>>,
    timeout: Duration,
}

impl std::fmt::Debug for PixClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.config.fmt(f)
    }
}

use crate::domain::error_chain as chain;

/// Why the bank's client cannot be made from `--pix-*` (each cause with its own causes).
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("--pix-cert/--pix-cert-key: {0}")]
    Identity(String),
    #[error("--pix-ca: {0}")]
    Ca(String),
    #[error("--pix-ca holds no PEM certificate")]
    NoCa,
    #[error("{0}")]
    Build(String),
}

impl PixClient {
    pub fn new(config: PixConfig) -> Result<PixClient, ClientError> {
        let mut builder = reqwest::Client::builder()
            .use_rustls_tls()
            .timeout(TIMEOUT)
            .connect_timeout(Duration::from_secs(5));
        if let Some((cert, key)) = &config.identity {
            let mut pem = cert.clone();
            pem.push(b'\n');
            pem.extend_from_slice(key);
            let identity =
                reqwest::Identity::from_pem(&pem).map_err(|e| ClientError::Identity(chain(&e)))?;
            builder = builder.identity(identity);
        }
        if let Some(ca) = &config.ca {
            let certs = reqwest::Certificate::from_pem_bundle(ca)
                .map_err(|e| ClientError::Ca(chain(&e)))?;
            if certs.is_empty() {
                return Err(ClientError::NoCa);
            }
            for c in certs {
                builder = builder.add_root_certificate(c);
            }
        }
        let http = builder.build().map_err(|e| ClientError::Build(chain(&e)))?;
        Ok(PixClient {
            http,
            config: Arc::new(config),
            token: Arc::default(),
            timeout: TIMEOUT,
        })
    }

    /// The same client, giving up on each API call after `timeout` instead of [`TIMEOUT`]
    /// (tests lose an answer without waiting 15 s for it).
    pub fn with_timeout(mut self, timeout: Duration) -> PixClient {
        self.timeout = timeout;
        self
    }

    pub fn key(&self) -> &str {
        &self.config.key
    }

    /// A cached access token, or a new one (client credentials, the client in HTTP Basic),
    /// whose request is counted as the operation `token`.
    async fn access_token(&self, renew: bool) -> Result<String, BankError> {
        let mut cached = self.token.lock().await;
        if let Some((token, until)) = cached.as_ref() {
            if !renew && Instant::now() < *until {
                return Ok(token.clone());
            }
        }
        let result = self.new_token(&mut cached).await;
        metrics::counter!(
            "paylink_bank_requests_total",
            "operation" => "token",
            "outcome" => outcome(&result),
        )
        .increment(1);
        result
    }

    async fn new_token(&self, cached: &mut Option<(String, Instant)>) -> Result<String, BankError> {
        let res = self
            .http
            .post(&self.config.token_url)
            .basic_auth(&self.config.client_id, Some(&self.config.client_secret))
            .form(&[("grant_type", "client_credentials")])
            .send()
            .await
            .map_err(|e| BankError::Unavailable(chain(&e)))?;
        let status = res.status();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        if !status.is_success() {
            return Err(error_of(status, body));
        }
        let token = body["access_token"]
            .as_str()
            .ok_or_else(|| BankError::Unavailable("the token answer has no access_token".into()))?
            .to_string();
        let lasts = Duration::from_secs(body["expires_in"].as_u64().unwrap_or(60));
        *cached = Some((
            token.clone(),
            Instant::now() + lasts.saturating_sub(TOKEN_MARGIN),
        ));
        Ok(token)
    }

    /// One call with a token, counted in `paylink_bank_requests_total` under its method and
    /// first path segment (`put_cobv`, `get_pix`: never an id) and its outcome.
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<&(dyn erased::Body + Sync)>,
    ) -> Result<(StatusCode, Value), BankError> {
        let segment = path
            .trim_start_matches('/')
            .split(['/', '?'])
            .next()
            .unwrap_or("");
        let operation = format!("{}_{segment}", method.as_str().to_ascii_lowercase());
        let result = self.exchange(method, path, body).await;
        metrics::counter!(
            "paylink_bank_requests_total",
            "operation" => operation,
            "outcome" => outcome(&result),
        )
        .increment(1);
        result
    }

    /// [`Self::call`]'s exchange; a 401/403 renews the token once (the bank may have revoked it).
    async fn exchange(
        &self,
        method: Method,
        path: &str,
        body: Option<&(dyn erased::Body + Sync)>,
    ) -> Result<(StatusCode, Value), BankError> {
        let url = format!("{}{path}", self.config.api_url.trim_end_matches('/'));
        for renew in [false, true] {
            let token = self.access_token(renew).await?;
            let mut req = self
                .http
                .request(method.clone(), &url)
                .bearer_auth(token)
                .timeout(self.timeout);
            if let Some(b) = body {
                req = req.json(&b.to_value());
            }
            let res = req
                .send()
                .await
                .map_err(|e| BankError::Unavailable(chain(&e)))?;
            let status = res.status();
            if !renew && matches!(status.as_u16(), 401 | 403) {
                continue;
            }
            let text = res.text().await.unwrap_or_default();
            let value = serde_json::from_str(&text).unwrap_or(Value::Null);
            if status.is_success() {
                return Ok((status, value));
            }
            return Err(error_of(status, value));
        }
        unreachable!("the loop returns on its second turn")
    }

    /// `PUT /cobv/{txid}`: the charge as the bank keeps it (`location`, `pixCopiaECola`, `status`).
    pub async fn put_cobv(&self, txid: &str, body: &CobV) -> Result<Value, BankError> {
        Ok(self
            .call(Method::PUT, &format!("/cobv/{txid}"), Some(body))
            .await?
            .1)
    }

    pub async fn put_cob(&self, txid: &str, body: &Cob) -> Result<Value, BankError> {
        Ok(self
            .call(Method::PUT, &format!("/cob/{txid}"), Some(body))
            .await?
            .1)
    }

    pub async fn get_cobv(&self, txid: &str) -> Result<Value, BankError> {
        self.get_charge(false, txid).await
    }

    /// `GET /cobv/{txid}` (or `/cob/{txid}` for an immediate charge): the charge as the bank keeps it.
    pub async fn get_charge(&self, immediate: bool, txid: &str) -> Result<Value, BankError> {
        let kind = if immediate { "cob" } else { "cobv" };
        Ok(self
            .call(Method::GET, &format!("/{kind}/{txid}"), None)
            .await?
            .1)
    }

    /// `PATCH /cobv/{txid}` (or `/cob/{txid}` for an immediate charge) removing the charge.
    pub async fn remove(
        &self,
        immediate: bool,
        txid: &str,
        body: &CobVRemoval,
    ) -> Result<Value, BankError> {
        let kind = if immediate { "cob" } else { "cobv" };
        Ok(self
            .call(Method::PATCH, &format!("/{kind}/{txid}"), Some(body))
            .await?
            .1)
    }

    /// The secret path segment of paylink's callback URL: derived from the client secret (HMAC),
    /// so it survives restarts, differs per merchant, and is unknown to whoever lacks the secret.
    pub fn webhook_token(&self) -> String {
        use hmac::{Hmac, Mac};
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(self.config.client_secret.as_bytes())
            .expect("HMAC takes any key");
        mac.update(b"paylink API Pix webhook");
        hex::encode(&mac.finalize().into_bytes()[..16])
    }

    /// `PUT /webhook/{chave}`: the bank posts each Pix to `url` + `/pix`.
    pub async fn put_webhook(&self, url: &str) -> Result<(), BankError> {
        let body = WebhookSolicitado { webhook_url: url };
        self.call(
            Method::PUT,
            &format!("/webhook/{}", path_segment(&self.config.key)),
            Some(&body),
        )
        .await
        .map(|_| ())
    }

    /// `PUT /webhookrec`: the bank posts each change of a recurrence to `url` + `/rec`.
    pub async fn put_webhookrec(&self, url: &str) -> Result<(), BankError> {
        let body = WebhookSolicitado { webhook_url: url };
        self.call(Method::PUT, "/webhookrec", Some(&body))
            .await
            .map(|_| ())
    }

    /// `PUT /webhookcobr`: the bank posts each change of a recurring charge to `url` + `/cobr`.
    pub async fn put_webhookcobr(&self, url: &str) -> Result<(), BankError> {
        let body = WebhookSolicitado { webhook_url: url };
        self.call(Method::PUT, "/webhookcobr", Some(&body))
            .await
            .map(|_| ())
    }

    /// `POST /locrec`: a new location for a recurrence (`id`, `location`).
    pub async fn post_locrec(&self) -> Result<Value, BankError> {
        Ok(self
            .call(Method::POST, "/locrec", Some(&rec::LOCREC))
            .await?
            .1)
    }

    /// `GET /locrec/{id}`: the location, with the `idRec` of the recurrence made with it.
    pub async fn get_locrec(&self, id: u64) -> Result<Value, BankError> {
        Ok(self
            .call(Method::GET, &format!("/locrec/{id}"), None)
            .await?
            .1)
    }

    /// `POST /rec`: the recurrence as the bank made it (`idRec`, `status`, `loc`).
    pub async fn post_rec(&self, body: &rec::Rec) -> Result<Value, BankError> {
        Ok(self.call(Method::POST, "/rec", Some(body)).await?.1)
    }

    /// `GET /rec/{idRec}` (with `?txid=` of the first cycle's charge: its `dadosQR`).
    pub async fn get_rec(&self, id_rec: &str, txid: Option<&str>) -> Result<Value, BankError> {
        let query = txid.map_or(String::new(), |t| format!("?txid={}", path_segment(t)));
        Ok(self
            .call(
                Method::GET,
                &format!("/rec/{}{query}", path_segment(id_rec)),
                None,
            )
            .await?
            .1)
    }

    /// `PATCH /rec/{idRec}` cancelling the recurrence.
    pub async fn cancel_rec(&self, id_rec: &str) -> Result<Value, BankError> {
        Ok(self
            .call(
                Method::PATCH,
                &format!("/rec/{}", path_segment(id_rec)),
                Some(&rec::REC_CANCEL),
            )
            .await?
            .1)
    }

    /// `PUT /cobr/{txid}`: one cycle of a recurrence.
    pub async fn put_cobr(&self, txid: &str, body: &rec::CobR) -> Result<Value, BankError> {
        Ok(self
            .call(
                Method::PUT,
                &format!("/cobr/{}", path_segment(txid)),
                Some(body),
            )
            .await?
            .1)
    }

    /// `PATCH /cobr/{txid}` cancelling a recurring charge nobody should pay any more.
    pub async fn cancel_cobr(&self, txid: &str) -> Result<Value, BankError> {
        Ok(self
            .call(
                Method::PATCH,
                &format!("/cobr/{}", path_segment(txid)),
                Some(&rec::COBR_CANCEL),
            )
            .await?
            .1)
    }

    /// `POST /cobr/{txid}/retentativa/{data}`: another attempt after a failed one.
    pub async fn retry_cobr(
        &self,
        txid: &str,
        date: paylink_model::Date,
    ) -> Result<Value, BankError> {
        Ok(self
            .call(
                Method::POST,
                &format!("/cobr/{}/retentativa/{date}", path_segment(txid)),
                None,
            )
            .await?
            .1)
    }

    /// `GET /cobr/{txid}`: the recurring charge with its attempts (`tentativas`).
    pub async fn get_cobr(&self, txid: &str) -> Result<Value, BankError> {
        Ok(self
            .call(Method::GET, &format!("/cobr/{}", path_segment(txid)), None)
            .await?
            .1)
    }

    /// `GET /pix/{e2eid}`: the Pix as the bank has it, `None` when it has none.
    pub async fn get_pix(&self, e2eid: &str) -> Result<Option<Value>, BankError> {
        match self
            .call(Method::GET, &format!("/pix/{}", path_segment(e2eid)), None)
            .await
        {
            Ok((_, v)) => Ok(Some(v)),
            Err(BankError::Refused { status: 404, .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `GET /pix?inicio&fim` (RFC 3339): the Pix received in that window, every page of it
    /// (`parametros.paginacao.quantidadeDePaginas`; at most [`MAX_PAGES`] of 1000).
    pub async fn list_pix(&self, inicio: &str, fim: &str) -> Result<Vec<Value>, BankError> {
        let mut all = Vec::new();
        for page in 0..MAX_PAGES {
            let query = format!(
                "/pix?inicio={inicio}&fim={fim}&paginacao.paginaAtual={page}&paginacao.itensPorPagina=1000"
            );
            let (_, v) = self.call(Method::GET, &query, None).await?;
            all.extend(v["pix"].as_array().cloned().unwrap_or_default());
            let pages = v["parametros"]["paginacao"]["quantidadeDePaginas"]
                .as_u64()
                .unwrap_or(1);
            if page + 1 >= pages {
                break;
            }
        }
        Ok(all)
    }

    /// `PUT /pix/{e2eid}/devolucao/{id}` of `cents`.
    pub async fn refund(&self, e2eid: &str, id: &str, cents: i64) -> Result<Value, BankError> {
        let body = DevolucaoSolicitada {
            valor: crate::domain::pix_api::reais(cents),
        };
        Ok(self
            .call(
                Method::PUT,
                &format!(
                    "/pix/{}/devolucao/{}",
                    path_segment(e2eid),
                    path_segment(id)
                ),
                Some(&body),
            )
            .await?
            .1)
    }
}

/// The most pages of Pix one listing reads (a million Pix): a bank that reports more is
/// read that far, and the next pass reads again.
pub const MAX_PAGES: u64 = 1000;

/// `WebhookSolicitado`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookSolicitado<'a> {
    pub webhook_url: &'a str,
}

/// `DevolucaoSolicitada` (natureza defaults to ORIGINAL: a refund of the payment itself).
#[derive(Serialize)]
pub struct DevolucaoSolicitada {
    pub valor: String,
}

/// A path segment with everything but letters, digits and `-._~@` percent-encoded.
fn path_segment(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'@' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A call's outcome label: `ok`, `refused` (the bank said no: a 4xx) or `unavailable`
/// (unreachable, timed out, a 5xx or a 429).
fn outcome<T>(result: &Result<T, BankError>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(BankError::Refused { .. }) => "refused",
        Err(BankError::Unavailable(_)) => "unavailable",
    }
}

fn error_of(status: StatusCode, body: Value) -> BankError {
    if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
        BankError::Unavailable(format!(
            "{status}: {}",
            body["detail"].as_str().unwrap_or("")
        ))
    } else {
        BankError::Refused {
            status: status.as_u16(),
            body,
        }
    }
}

/// A body of any of the request types, as JSON (keeps `call` one non-generic function).
mod erased {
    pub trait Body {
        fn to_value(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Body for T {
        fn to_value(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
        }
    }
}
