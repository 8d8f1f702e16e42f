//! The local bank's Pix Automático (issue 31) through paylink's client of the API Pix, over
//! HTTPS with mutual TLS: every body paylink's client sends and every answer and callback the bank
//! gives validated against BACEN's document (`server/pix-api/openapi.yaml`, errata corrected as
//! `settlement_pix::validator` does, plus this release's Pix Automático ones: `RecBase.required`
//! lists `idRec` and `retentativa`, which the bank assigns, and `PayloadLocationRecGerada`'s
//! location is `format: uri` without a scheme); the payer's bank's side (approve, reject, cancel,
//! pay the composite code, pay or fail a cycle) and its callbacks; and bad requests refused with
//! the document's problem+json.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::Uri;
use axum::Router;
use paylink_banksim::Bank;
use paylink_model::pix_automatico::{Periodicidade, RetryPolicy};
use paylink_server::bank::{BankError, PixClient};
use paylink_server::domain::pix_api::rec::{CobR, Rec, RecTerms, Recebedor};
use paylink_server::domain::pix_api::{Cob, Devedor};
use serde_json::{json, Value};

use crate::helpers::today;
use crate::settlement_pix::{config, start_bank};

/// `schema`'s errors in `body`, the Pix Automático errata corrected too.
pub fn rec_schema_errors(schema: &str, body: &Value) -> Vec<String> {
    let text = include_str!("../../pix-api/openapi.yaml");
    let doc: Value = serde_yaml::from_str(text).unwrap();
    let mut components = doc["components"].clone();
    let schemas = components["schemas"].as_object_mut().unwrap();
    for person in ["PessoaFisica", "PessoaFisicaRecorrencia", "CPF"] {
        schemas[person]["properties"]["cpf"]["pattern"] = json!("^\\d{11}$");
    }
    // `PixAutomatico.valor` is a string that must also match one of five object schemas
    // (`anyOf` of `PixValorOriginal`, ...): no value can. The string and its pattern stay.
    schemas["PixAutomatico"]["properties"]["valor"]
        .as_object_mut()
        .unwrap()
        .remove("anyOf");
    let required = schemas["RecBase"]["required"].as_array_mut().unwrap();
    required.retain(|r| r != "idRec" && r != "retentativa");
    schemas["PayloadLocationRecGerada"]["properties"]["location"]
        .as_object_mut()
        .unwrap()
        .remove("format");
    // Like `DadosRecebedor`'s, `DadosPagadorRec`'s required field belongs inside `pagador`.
    for top in ["DadosRecebedor", "DadosPagadorRec"] {
        schemas[top].as_object_mut().unwrap().remove("required");
    }
    // `RecNotification.required` spells `atualizacao"` with a stray quote.
    schemas["RecNotification"]["required"] = json!(["idRec", "status", "atualizacao"]);
    // The ends' `oneOf` alternatives require nothing, so every end matches both: each requires
    // its own key.
    let ends = [
        ("RecEncerramento", "/properties/encerramento/oneOf"),
        ("CobRAtualizacao", "/properties/encerramento/oneOf"),
    ];
    for (schema, path) in ends {
        for alt in schemas[schema]
            .pointer_mut(path)
            .unwrap()
            .as_array_mut()
            .unwrap()
        {
            let key = alt["properties"]
                .as_object()
                .unwrap()
                .keys()
                .next()
                .unwrap()
                .clone();
            alt["required"] = json!([key]);
        }
    }
    let root = json!({"$ref": format!("#/components/schemas/{schema}"), "components": components});
    let v = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(true)
        .build(&root)
        .unwrap();
    v.iter_errors(body)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

fn assert_valid(schema: &str, body: &Value) {
    assert_eq!(
        rec_schema_errors(schema, body),
        Vec::<String>::new(),
        "{schema}: {body:#}"
    );
}

/// An HTTP server that records every POST (path and JSON body): the merchant's callback URL.
#[derive(Clone, Default)]
pub struct Callbacks {
    pub url: String,
    got: Arc<Mutex<Vec<(String, Value)>>>,
}

impl Callbacks {
    pub async fn start() -> Callbacks {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let c = Callbacks {
            url: format!("http://{}/hooks", listener.local_addr().unwrap()),
            ..Default::default()
        };
        let app = Router::new()
            .fallback(
                |State(c): State<Callbacks>, uri: Uri, body: String| async move {
                    let v = serde_json::from_str(&body).unwrap_or(Value::Null);
                    c.got.lock().unwrap().push((uri.path().to_string(), v));
                },
            )
            .with_state(c.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        c
    }

    /// Waits for a callback posted to `path` and returns its body.
    pub async fn wait(&self, path: &str, n: usize) -> Value {
        for _ in 0..200 {
            let got: Vec<Value> = self
                .got
                .lock()
                .unwrap()
                .iter()
                .filter(|(p, _)| p == path)
                .map(|(_, v)| v.clone())
                .collect();
            if got.len() >= n {
                return got[n - 1].clone();
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("no callback #{n} on {path}: {:?}", self.got.lock().unwrap());
    }
}

fn terms<'a>(retries: bool) -> RecTerms<'a> {
    RecTerms {
        contract: "assinatura-7",
        description: Some("Plano mensal"),
        customer_document: "52998224725",
        customer_name: "Maria da Silva",
        first_due: today(),
        last_due: today().add_months(11),
        periodicidade: Periodicidade::Mensal,
        retry_policy: RetryPolicy::from_retries(retries),
        price_cents: 4990,
    }
}

const COB_TXID: &str = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
const COBR_TXID: &str = "f0e1d2c3b4a5968778695a4b3c2d1e0f";

/// A bank with paylink's webhooks registered at `hooks`, a first cycle's `cob` and a recurrence
/// of `retries` tied to it; returns the client and the recurrence's id.
async fn recurrence(
    bank: &Bank,
    pki: &paylink_banksim::Pki,
    hooks: &Callbacks,
    retries: bool,
) -> (PixClient, String) {
    let client = PixClient::new(config(bank, pki)).unwrap();
    client.put_webhookrec(&hooks.url).await.unwrap();
    client.put_webhookcobr(&hooks.url).await.unwrap();
    client.put_webhook(&hooks.url).await.unwrap();
    let cob = Cob::new(
        client.key(),
        3600,
        Devedor::new("52998224725", "Maria da Silva"),
        4990,
    );
    client.put_cob(COB_TXID, &cob).await.unwrap();
    let loc = client.post_locrec().await.unwrap();
    assert_valid("PayloadLocationRecGerada", &loc);
    let rec = Rec::new(&terms(retries), loc["id"].as_u64().unwrap(), Some(COB_TXID)).unwrap();
    let made = client.post_rec(&rec).await.unwrap();
    assert_valid("RecGerada", &made);
    assert_eq!(made["status"], "CRIADA");
    (client, made["idRec"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn a_recurrence_is_authorized_by_paying_its_composite_code() {
    let (bank, pki) = start_bank().await;
    let hooks = Callbacks::start().await;
    let (client, id_rec) = recurrence(&bank, &pki, &hooks, true).await;
    assert!(id_rec.starts_with("RR") && id_rec.len() == 29, "{id_rec}");

    // The composite code: the immediate charge's location and the recurrence's (Jornada 3).
    let rec = client.get_rec(&id_rec, Some(COB_TXID)).await.unwrap();
    assert_valid("RecCompleta", &rec);
    assert_eq!(rec["dadosQR"]["jornada"], "JORNADA_3");
    let code = rec["dadosQR"]["pixCopiaECola"].as_str().unwrap();
    let cob = bank.charge(COB_TXID).unwrap();
    assert!(code.contains(cob["loc"]["location"].as_str().unwrap()));
    assert!(code.contains(rec["loc"]["location"].as_str().unwrap()));
    assert_eq!(
        client.get_rec(&id_rec, None).await.unwrap()["dadosQR"]["jornada"],
        "JORNADA_2"
    );
    // The location names the recurrence made with it, and a second recurrence on it is refused:
    // a lost answer is found through the location, never made twice.
    let loc_id = rec["loc"]["id"].as_u64().unwrap();
    assert_eq!(client.get_locrec(loc_id).await.unwrap()["idRec"], id_rec);
    let again = Rec::new(&terms(true), loc_id, Some(COB_TXID)).unwrap();
    match client.post_rec(&again).await {
        Err(BankError::Refused { status: 400, body }) => {
            assert_valid("Problema", &body);
            assert_eq!(body["violacoes"][0]["propriedade"], "rec.loc");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(bank.recs().len(), 1);

    let pix = bank.pay_composite(&id_rec).await.unwrap();
    assert_eq!(pix["txid"], COB_TXID);
    let note = hooks.wait("/hooks/rec", 1).await;
    let recs = note["recs"].as_array().unwrap();
    assert_valid("RecNotification", &recs[0]);
    assert_eq!(recs[0]["status"], "APROVADA");
    assert_eq!(recs[0]["ativacao"]["tipoJornada"], "JORNADA_3");
    assert_eq!(
        hooks.wait("/hooks/pix", 1).await["pix"][0]["txid"],
        COB_TXID
    );
    let rec = client.get_rec(&id_rec, None).await.unwrap();
    assert_eq!(rec["status"], "APROVADA");
    // Paid once: a second payment of the code is refused.
    assert!(bank.pay_composite(&id_rec).await.is_err());

    for r in bank.requests() {
        let schema = match (r.method.as_str(), r.path.as_str()) {
            ("POST", "/rec") => "RecSolicitada",
            ("PUT", "/webhookrec") => "WebhookRecSolicitado",
            ("PUT", "/webhookcobr") => "WebhookCobRSolicitado",
            ("POST", "/locrec") => "PayloadLocationRecSolicitada",
            _ => continue,
        };
        assert_valid(schema, r.body.as_ref().unwrap());
    }
}

#[tokio::test]
async fn a_cycle_fails_is_retried_and_is_paid() {
    let (bank, pki) = start_bank().await;
    let hooks = Callbacks::start().await;
    let (client, id_rec) = recurrence(&bank, &pki, &hooks, true).await;
    let account = Recebedor {
        conta: "123456".into(),
        tipo_conta: "CORRENTE",
        agencia: Some("0001".into()),
    };
    let due = today().add_days(5).unwrap();
    let cobr = CobR::new(&id_rec, due, 4990, account.clone());
    // Not before the payer authorized it.
    match client.put_cobr(COBR_TXID, &cobr).await {
        Err(BankError::Refused { status: 400, body }) => assert_valid("Problema", &body),
        other => panic!("{other:?}"),
    }
    bank.approve_rec(&id_rec).unwrap();
    let made = client.put_cobr(COBR_TXID, &cobr).await.unwrap();
    assert_valid("CobRGerada", &made);
    assert_eq!(made["status"], "ATIVA");
    assert_eq!(made["tentativas"][0]["status"], "AGENDADA");
    // A retried PUT is the same charge.
    client.put_cobr(COBR_TXID, &cobr).await.unwrap();
    assert_eq!(
        bank.puts(COBR_TXID),
        3,
        "the refused one, the one made, the retry"
    );
    assert_eq!(
        bank.cobr(COBR_TXID).unwrap()["atualizacao"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    bank.fail_cycle(COBR_TXID).unwrap();
    let note = hooks.wait("/hooks/cobr", 1).await;
    assert_valid("CobRNotification", &note["cobsr"][0]);
    let failed = client.get_cobr(COBR_TXID).await.unwrap();
    assert_valid("CobRCompleta", &failed);
    assert_eq!(failed["status"], "ATIVA", "PERMITE_3R_7D keeps it open");
    assert_eq!(failed["tentativas"][0]["status"], "REJEITADA");

    // A retry date within 7 days after the due date; another after them is refused.
    let http = reqwest_for(&bank, &pki).await;
    let retry = |date: String| {
        let http = http.clone();
        let url = format!("{}/cobr/{COBR_TXID}/retentativa/{date}", bank.url());
        async move { http.post(url).send().await.unwrap() }
    };
    assert_eq!(
        retry(due.add_days(8).unwrap().to_string()).await.status(),
        400
    );
    let res = retry(due.add_days(1).unwrap().to_string()).await;
    assert_eq!(res.status(), 201);
    // That retry fails too: the next one is on a new day, never one already tried.
    bank.fail_cycle(COBR_TXID).unwrap();
    hooks.wait("/hooks/cobr", 2).await;
    for day in [0, 1] {
        let res = retry(due.add_days(day).unwrap().to_string()).await;
        assert_eq!(res.status(), 400, "day +{day}");
    }
    let res = retry(due.add_days(2).unwrap().to_string()).await;
    assert_eq!(res.status(), 201);
    bank.pay_cycle(COBR_TXID).unwrap();
    let note = hooks.wait("/hooks/cobr", 3).await;
    assert_valid("CobRNotification", &note["cobsr"][0]);
    let paid = client.get_cobr(COBR_TXID).await.unwrap();
    assert_valid("CobRCompleta", &paid);
    assert_eq!(paid["status"], "CONCLUIDA");
    let last = &paid["tentativas"][2];
    assert_eq!(
        paid["tentativas"][1]["dataLiquidacao"],
        due.add_days(1).unwrap().to_string()
    );
    assert_eq!(last["dataLiquidacao"], due.add_days(2).unwrap().to_string());
    assert_eq!(
        (last["tipo"].as_str(), last["status"].as_str()),
        (Some("RIFL"), Some("PAGA"))
    );
    assert_eq!(paid["pix"][0]["endToEndId"], last["endToEndId"]);
    assert_eq!(paid["pix"][0]["valor"], "49.90");
    let pix = client
        .get_pix(paid["pix"][0]["endToEndId"].as_str().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(pix["txid"], COBR_TXID);
    for r in bank
        .requests()
        .iter()
        .filter(|r| r.method == "PUT" && r.path.starts_with("/cobr/"))
    {
        assert_valid("CobRSolicitada", r.body.as_ref().unwrap());
    }
}

/// A plain mutual-TLS client of `bank`, for the paths paylink's client does not call yet.
async fn reqwest_for(bank: &Bank, pki: &paylink_banksim::Pki) -> reqwest::Client {
    let mut pem = pki.client_cert.clone().into_bytes();
    pem.push(b'\n');
    pem.extend_from_slice(pki.client_key.as_bytes());
    let token: Value = reqwest::Client::builder()
        .use_rustls_tls()
        .identity(reqwest::Identity::from_pem(&pem).unwrap())
        .add_root_certificate(reqwest::Certificate::from_pem(pki.ca_cert.as_bytes()).unwrap())
        .build()
        .unwrap()
        .post(bank.token_url())
        .basic_auth("paylink", Some(crate::settlement_pix::SECRET))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        "authorization",
        format!("Bearer {}", token["access_token"].as_str().unwrap())
            .parse()
            .unwrap(),
    );
    reqwest::Client::builder()
        .use_rustls_tls()
        .identity(reqwest::Identity::from_pem(&pem).unwrap())
        .add_root_certificate(reqwest::Certificate::from_pem(pki.ca_cert.as_bytes()).unwrap())
        .default_headers(headers)
        .build()
        .unwrap()
}

#[tokio::test]
async fn the_payer_declines_or_cancels_and_the_merchant_cancels() {
    let (bank, pki) = start_bank().await;
    let hooks = Callbacks::start().await;
    let (client, declined) = recurrence(&bank, &pki, &hooks, false).await;
    assert!(declined.starts_with("RN"), "{declined}");
    bank.reject_rec(&declined).unwrap();
    let note = hooks.wait("/hooks/rec", 1).await;
    assert_valid("RecNotification", &note["recs"][0]);
    let rec = client.get_rec(&declined, None).await.unwrap();
    assert_eq!(rec["status"], "REJEITADA");
    assert_eq!(rec["encerramento"]["rejeicao"]["codigo"], "AP14");
    assert!(bank.approve_rec(&declined).is_err());

    // Another recurrence: approved, then cancelled by the payer in their bank app.
    let loc = client.post_locrec().await.unwrap();
    let made = client
        .post_rec(&Rec::new(&terms(false), loc["id"].as_u64().unwrap(), None).unwrap())
        .await
        .unwrap();
    let by_payer = made["idRec"].as_str().unwrap();
    bank.approve_rec(by_payer).unwrap();
    bank.cancel_rec_by_payer(by_payer).unwrap();
    let rec = client.get_rec(by_payer, None).await.unwrap();
    assert_valid("RecCompleta", &rec);
    assert_eq!(
        rec["encerramento"]["cancelamento"]["solicitante"],
        "USUARIO_PAGADOR"
    );

    // A third, cancelled by the merchant; an ended one cannot be cancelled again.
    let loc = client.post_locrec().await.unwrap();
    let made = client
        .post_rec(&Rec::new(&terms(false), loc["id"].as_u64().unwrap(), None).unwrap())
        .await
        .unwrap();
    let by_merchant = made["idRec"].as_str().unwrap();
    let cancelled = client.cancel_rec(by_merchant).await.unwrap();
    assert_valid("RecGerada", &cancelled);
    assert_eq!(cancelled["status"], "CANCELADA");
    assert!(matches!(
        client.cancel_rec(by_merchant).await,
        Err(BankError::Refused { status: 400, .. })
    ));
    assert!(matches!(
        client.get_rec("RN9999999920260101zzzzzzzzzzz", None).await,
        Err(BankError::Refused { status: 404, .. })
    ));
}

#[tokio::test]
async fn bad_recurrences_are_refused_with_the_documents_problem() {
    let (bank, pki) = start_bank().await;
    let client = PixClient::new(config(&bank, &pki)).unwrap();
    let loc = client.post_locrec().await.unwrap()["id"].as_u64().unwrap();
    let good = Rec::new(&terms(true), loc, None).unwrap();
    let cases: Vec<(&str, Rec, &str)> = vec![
        (
            "an unknown location",
            Rec {
                loc: 999,
                ..good.clone()
            },
            "rec.loc",
        ),
        (
            "an amount that is not reais",
            Rec {
                valor: paylink_server::domain::pix_api::rec::ValorRec {
                    valor_rec: "49.9".into(),
                },
                ..good.clone()
            },
            "rec.valor.valorRec",
        ),
        (
            "no periodicity of the document",
            {
                let mut r = good.clone();
                r.calendario.periodicidade = "BIMESTRAL";
                r
            },
            "rec.calendario.periodicidade",
        ),
        (
            "an end before the start",
            {
                let mut r = good.clone();
                r.calendario.data_final = Some("2000-01-01".into());
                r
            },
            "rec.calendario.dataFinal",
        ),
    ];
    for (why, rec, field) in cases {
        match client.post_rec(&rec).await {
            Err(BankError::Refused { status: 400, body }) => {
                assert_valid("Problema", &body);
                let fields: Vec<&str> = body["violacoes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|v| v["propriedade"].as_str())
                    .collect();
                assert!(fields.contains(&field), "{why}: {body}");
            }
            other => panic!("{why}: {other:?}"),
        }
    }
    assert!(bank.recs().is_empty());
    // The good one is made on the same location afterwards.
    client.post_rec(&good).await.unwrap();
}
