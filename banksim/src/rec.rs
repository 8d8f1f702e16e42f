//! The local bank's Pix Automático (API Pix 2.9.0): locations of recurrences (`/locrec`),
//! recurrences (`POST /rec`, `GET /rec/{idRec}` with `?txid=` for the composite code, `PATCH`),
//! recurring charges (`PUT/GET/PATCH /cobr/{txid}`, `POST /cobr/{txid}/retentativa/{data}`) and
//! their webhooks (`/webhookrec`, `/webhookcobr`), as the document's schemas write them; and the
//! payer's bank's side, which tests and demos drive ([`Bank::approve_rec`], [`Bank::reject_rec`],
//! [`Bank::cancel_rec_by_payer`], [`Bank::pay_composite`], [`Bank::pay_cycle`],
//! [`Bank::fail_cycle`], and `POST /sim/rec/{idRec}/{action}`, `/sim/cobr/{txid}/{action}`),
//! each posting the document's callback (`{"recs": [...]}` to the webhookrec URL + `/rec`,
//! `{"cobsr": [...]}` to the webhookcobr URL + `/cobr`).

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Path, Query, State as AxState};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::problem::Problem;
use super::{end_to_end_id, now_iso, Bank, RECEIVER_CNPJ, RECEIVER_NAME};

/// The receiving PSP's ISPB in the ids it makes (`RR` + ISPB + date + sequence).
const ISPB: &str = "99999999";

const PERIODICIDADES: [&str; 5] = ["SEMANAL", "MENSAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"];
const POLITICAS: [&str; 2] = ["NAO_PERMITE", "PERMITE_3R_7D"];

/// What the bank keeps of Pix Automático.
#[derive(Default)]
pub(super) struct Recs {
    /// `/locrec` locations by id (`PayloadLocationRecCompleta`).
    locs: HashMap<u64, Value>,
    next_loc: u64,
    /// Recurrences by idRec (`RecCompleta` without `dadosQR`).
    recs: HashMap<String, Value>,
    next_rec: u64,
    /// Recurring charges by txid (`CobRCompleta`).
    cobrs: HashMap<String, Value>,
    pub(super) webhook_rec: Option<(String, String)>,
    pub(super) webhook_cobr: Option<(String, String)>,
}

fn invalid(kind: &str, violations: &[(&str, &str)]) -> Problem {
    Problem::invalid(
        kind,
        "A requisição não respeita o _schema_ ou está semanticamente errada.",
        violations,
    )
}

fn json_object(body: &Bytes, kind: &str) -> Result<Value, Problem> {
    serde_json::from_slice::<Value>(body)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| invalid(kind, &[("body", "O corpo não é um objeto JSON.")]))
}

fn is_amount(v: &Value) -> bool {
    v.as_str().is_some_and(|s| {
        s.split_once('.').is_some_and(|(i, d)| {
            (1..=10).contains(&i.len())
                && d.len() == 2
                && i.bytes().chain(d.bytes()).all(|b| b.is_ascii_digit())
        })
    })
}

fn is_date(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|d| paylink_model::Date::parse_iso(d).is_some())
}

fn text_within(v: &Value, max: usize) -> bool {
    v.as_str()
        .is_some_and(|s| !s.trim().is_empty() && s.chars().count() <= max)
}

/// `vinculo.devedor`: a CPF (11 digits) or a CNPJ (14 letters or digits), and a name.
fn devedor_ok(d: &Value) -> bool {
    let cpf = d["cpf"]
        .as_str()
        .is_some_and(|c| c.len() == 11 && c.bytes().all(|b| b.is_ascii_digit()));
    let cnpj = d["cnpj"].as_str().is_some_and(|c| {
        c.len() == 14
            && c.bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
    });
    (cpf != cnpj) && text_within(&d["nome"], 140)
}

/// `RecSolicitada`'s rules a bank would refuse a recurrence without (the tests check the whole
/// schema from the recorded requests). The document's `RecBase.required` lists `idRec` and
/// `retentativa`, which the bank assigns: not asked of the client here (errata).
fn check_rec(body: &Value) -> Vec<(&'static str, &'static str)> {
    let mut bad = Vec::new();
    let v = &body["vinculo"];
    if !text_within(&v["contrato"], 35) {
        bad.push(("rec.vinculo.contrato", "Obrigatório, até 35 caracteres."));
    }
    if !v["objeto"].is_null() && !text_within(&v["objeto"], 35) {
        bad.push(("rec.vinculo.objeto", "Até 35 caracteres."));
    }
    if !devedor_ok(&v["devedor"]) {
        bad.push(("rec.vinculo.devedor", "CPF ou CNPJ e nome (até 140)."));
    }
    let c = &body["calendario"];
    if !is_date(&c["dataInicial"]) {
        bad.push(("rec.calendario.dataInicial", "Data YYYY-MM-DD obrigatória."));
    }
    let final_ok = c["dataFinal"].is_null()
        || (is_date(&c["dataFinal"]) && c["dataFinal"].as_str() >= c["dataInicial"].as_str());
    if !final_ok {
        bad.push((
            "rec.calendario.dataFinal",
            "Data YYYY-MM-DD não anterior a dataInicial.",
        ));
    }
    if !c["periodicidade"]
        .as_str()
        .is_some_and(|p| PERIODICIDADES.contains(&p))
    {
        bad.push(("rec.calendario.periodicidade", "Valor não permitido."));
    }
    if !body["valor"]["valorRec"].is_null() && !is_amount(&body["valor"]["valorRec"]) {
        bad.push(("rec.valor.valorRec", "\\d{1,10}\\.\\d{2}"));
    }
    if !body["politicaRetentativa"]
        .as_str()
        .is_some_and(|p| POLITICAS.contains(&p))
    {
        bad.push(("rec.politicaRetentativa", "NAO_PERMITE ou PERMITE_3R_7D."));
    }
    if !body["loc"].is_u64() {
        bad.push(("rec.loc", "O id de uma location criada em /locrec."));
    }
    let txid = &body["ativacao"]["dadosJornada"]["txid"];
    if !txid.is_null() && !txid.as_str().is_some_and(super::api::txid_ok) {
        bad.push(("rec.ativacao.dadosJornada.txid", "[a-zA-Z0-9]{26,35}"));
    }
    bad
}

/// `RR`/`RN` + ISPB + `yyyyMMdd` + 11 letters and digits: 29 characters.
fn id_rec(retries: bool, seq: u64) -> String {
    let day: String = now_iso()
        .chars()
        .filter(char::is_ascii_digit)
        .take(8)
        .collect();
    format!("R{}{ISPB}{day}{seq:011}", if retries { 'R' } else { 'N' })
}

/// A BR Code TLV field.
fn tlv(out: &mut String, id: &str, value: &str) {
    out.push_str(&format!("{id}{:02}{value}", value.len()));
}

/// The composite code of a recurrence's location and, for Jornadas 3 and 4, the charge's: the
/// charge's dynamic location in field 26 (when any) and the recurrence's in field 80.
fn composite_code(charge_location: Option<&str>, rec_location: &str) -> String {
    let mut out = String::new();
    tlv(&mut out, "00", "01");
    tlv(&mut out, "01", "12");
    if let Some(loc) = charge_location {
        let mut account = String::new();
        tlv(&mut account, "00", "br.gov.bcb.pix");
        tlv(&mut account, "25", loc);
        tlv(&mut out, "26", &account);
    }
    tlv(&mut out, "52", "0000");
    tlv(&mut out, "53", "986");
    tlv(&mut out, "58", "BR");
    tlv(&mut out, "59", "LOJA EXEMPLO");
    tlv(&mut out, "60", "SAO PAULO");
    let mut additional = String::new();
    tlv(&mut additional, "05", "***");
    tlv(&mut out, "62", &additional);
    let mut rec = String::new();
    tlv(&mut rec, "00", "br.gov.bcb.pix");
    tlv(&mut rec, "25", rec_location);
    tlv(&mut out, "80", &rec);
    out.push_str("6304");
    let crc = paylink_model::pix::crc16_ccitt(out.as_bytes());
    out.push_str(&format!("{crc:04X}"));
    out
}

fn push_update(v: &mut Value, status: &str) {
    let mut list = v["atualizacao"].as_array().cloned().unwrap_or_default();
    list.push(json!({"status": status, "data": now_iso()}));
    v["atualizacao"] = json!(list);
    v["status"] = json!(status);
}

/// `RecNotification` of a recurrence: what the callback carries.
fn rec_notification(rec: &Value) -> Value {
    let mut n = json!({
        "idRec": rec["idRec"],
        "status": rec["status"],
        "atualizacao": rec["atualizacao"],
        "ativacao": rec["ativacao"],
    });
    if !rec["encerramento"].is_null() {
        n["encerramento"] = rec["encerramento"].clone();
    }
    n
}

/// `CobRNotification` of a recurring charge.
fn cobr_notification(cobr: &Value) -> Value {
    let mut n = json!({
        "idRec": cobr["idRec"],
        "txid": cobr["txid"],
        "status": cobr["status"],
        "atualizacao": cobr["atualizacao"],
        "tentativas": cobr["tentativas"],
    });
    if cobr["pix"].is_array() {
        n["pix"] = cobr["pix"].clone();
    }
    n
}

// ---- The receiving PSP's API ----

pub(super) async fn post_locrec(AxState(bank): AxState<Bank>, body: Bytes) -> Response {
    // The path lists no body (errata: `PayloadLocationRecBody` is defined but not referenced);
    // `{"tipo": "rec"}` or nothing is taken.
    if !body.is_empty() {
        let tipo = serde_json::from_slice::<Value>(&body)
            .ok()
            .map(|b| b["tipo"].clone());
        if !matches!(tipo, Some(Value::Null) | Some(Value::String(_)))
            || tipo
                .as_ref()
                .and_then(Value::as_str)
                .is_some_and(|t| t != "rec")
        {
            return invalid("PayloadLocationRecOperacaoInvalida", &[("tipo", "rec")])
                .into_response();
        }
    }
    let mut s = bank.lock();
    s.rec.next_loc += 1;
    let id = s.rec.next_loc;
    let loc = json!({
        "id": id,
        "location": format!(
            "{}/qr/v2/rec/{}",
            bank.url.trim_start_matches("https://"),
            uuid::Uuid::new_v4().simple()
        ),
        "tipo": "rec",
        "criacao": now_iso(),
    });
    s.rec.locs.insert(id, loc.clone());
    let location = loc["location"].as_str().unwrap_or_default().to_string();
    (StatusCode::CREATED, [("location", location)], Json(loc)).into_response()
}

pub(super) async fn get_locrec(
    AxState(bank): AxState<Bank>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Problem> {
    let id: u64 = id.parse().map_err(|_| Problem::not_found())?;
    bank.lock()
        .rec
        .locs
        .get(&id)
        .cloned()
        .map(Json)
        .ok_or_else(Problem::not_found)
}

pub(super) async fn post_rec(
    AxState(bank): AxState<Bank>,
    body: Bytes,
) -> Result<Response, Problem> {
    let req = json_object(&body, "RecOperacaoInvalida")?;
    let bad = check_rec(&req);
    if !bad.is_empty() {
        return Err(invalid("RecOperacaoInvalida", &bad));
    }
    let mut s = bank.lock();
    let loc_id = req["loc"].as_u64().unwrap_or_default();
    let Some(loc) = s.rec.locs.get(&loc_id).cloned() else {
        return Err(invalid(
            "RecOperacaoInvalida",
            &[("rec.loc", "Location inexistente.")],
        ));
    };
    if loc["idRec"].is_string() {
        return Err(invalid(
            "RecOperacaoInvalida",
            &[(
                "rec.loc",
                "A location já está vinculada a outra recorrência.",
            )],
        ));
    }
    s.rec.next_rec += 1;
    let retries = req["politicaRetentativa"] == "PERMITE_3R_7D";
    let id = id_rec(retries, s.rec.next_rec);
    let mut loc = loc;
    loc["idRec"] = json!(id);
    s.rec.locs.insert(loc_id, loc.clone());
    let mut rec = req;
    let obj = rec.as_object_mut().expect("checked an object");
    obj.insert("idRec".into(), json!(id));
    obj.insert("loc".into(), loc);
    obj.insert(
        "recebedor".into(),
        json!({"cnpj": RECEIVER_CNPJ, "nome": RECEIVER_NAME}),
    );
    let txid = obj
        .get("ativacao")
        .map_or(Value::Null, |a| a["dadosJornada"]["txid"].clone());
    let mut ativacao = json!({"tipoJornada": "AGUARDANDO_DEFINICAO"});
    if txid.is_string() {
        ativacao["dadosJornada"] = json!({"txid": txid});
    }
    obj.insert("ativacao".into(), ativacao);
    push_update(&mut rec, "CRIADA");
    s.rec.recs.insert(id, rec.clone());
    Ok((StatusCode::CREATED, Json(rec)).into_response())
}

/// `GET /rec/{idRec}`: the recurrence, with `dadosQR` when its location (and, with `?txid=`,
/// the charge's) is there: Jornada 2 without a txid, 3 with a `cob`'s, 4 with a `cobv`'s.
pub(super) async fn get_rec(
    AxState(bank): AxState<Bank>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, Problem> {
    let s = bank.lock();
    let mut rec = s
        .rec
        .recs
        .get(&id)
        .cloned()
        .ok_or_else(Problem::not_found)?;
    let Some(rec_location) = rec["loc"]["location"].as_str().map(str::to_string) else {
        return Ok(Json(rec));
    };
    let qr = match q.get("txid") {
        None => Some(("JORNADA_2", None)),
        Some(txid) => s.charges.get(txid).and_then(|c| {
            let location = c["loc"]["location"].as_str()?.to_string();
            let jornada = if c["calendario"]["dataDeVencimento"].is_string() {
                "JORNADA_4"
            } else {
                "JORNADA_3"
            };
            Some((jornada, Some(location)))
        }),
    };
    if let Some((jornada, charge_location)) = qr {
        rec["dadosQR"] = json!({
            "jornada": jornada,
            "pixCopiaECola": composite_code(charge_location.as_deref(), &rec_location),
        });
    }
    Ok(Json(rec))
}

/// `PATCH /rec/{idRec}` (`RecRevisada`): the receiver cancels (`status: CANCELADA`) a
/// recurrence not yet ended, or changes its location or the Jornada 3 txid.
pub(super) async fn patch_rec(
    AxState(bank): AxState<Bank>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, Problem> {
    let req = json_object(&body, "RecOperacaoInvalida")?;
    let mut s = bank.lock();
    let rec = s.rec.recs.get_mut(&id).ok_or_else(Problem::not_found)?;
    if !matches!(rec["status"].as_str(), Some("CRIADA" | "APROVADA")) {
        return Err(Problem::invalid(
            "RecOperacaoInvalida",
            "A recorrência não está mais ativa e não pode ser revisada.",
            &[],
        ));
    }
    match req["status"].as_str() {
        None => {}
        Some("CANCELADA") => {
            rec["encerramento"] = json!({"cancelamento": {
                "solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR",
                "descricao": "Cancelada pelo usuário recebedor."
            }});
            push_update(rec, "CANCELADA");
        }
        Some(_) => {
            return Err(invalid(
                "RecOperacaoInvalida",
                &[("rec.status", "Só CANCELADA é aceito.")],
            ))
        }
    }
    let txid = &req["ativacao"]["dadosJornada"]["txid"];
    if let Some(t) = txid.as_str() {
        rec["ativacao"]["dadosJornada"] = json!({"txid": t});
    }
    Ok(Json(rec.clone()))
}

/// `CobRSolicitada`'s rules a bank would refuse a recurring charge without.
fn check_cobr(body: &Value) -> Vec<(&'static str, &'static str)> {
    let mut bad = Vec::new();
    if !body["idRec"]
        .as_str()
        .is_some_and(|i| i.len() == 29 && i.chars().all(|c| c.is_ascii_alphanumeric()))
    {
        bad.push(("cobr.idRec", "[a-zA-Z0-9]{29}"));
    }
    if !is_date(&body["calendario"]["dataDeVencimento"]) {
        bad.push(("cobr.calendario.dataDeVencimento", "Data YYYY-MM-DD."));
    }
    if !is_amount(&body["valor"]["original"]) {
        bad.push(("cobr.valor.original", "\\d{1,10}\\.\\d{2}"));
    }
    if !body["ajusteDiaUtil"].is_boolean() {
        bad.push(("cobr.ajusteDiaUtil", "Obrigatório: true ou false."));
    }
    let r = &body["recebedor"];
    if !(text_within(&r["conta"], 20)
        && matches!(
            r["tipoConta"].as_str(),
            Some("CORRENTE" | "POUPANCA" | "PAGAMENTO")
        ))
    {
        bad.push(("cobr.recebedor", "conta e tipoConta obrigatórios."));
    }
    bad
}

pub(super) async fn put_cobr(
    AxState(bank): AxState<Bank>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, Problem> {
    if !super::api::txid_ok(&txid) {
        return Err(invalid(
            "CobROperacaoInvalida",
            &[("txid", "[a-zA-Z0-9]{26,35}")],
        ));
    }
    let req = json_object(&body, "CobROperacaoInvalida")?;
    let bad = check_cobr(&req);
    if !bad.is_empty() {
        return Err(invalid("CobROperacaoInvalida", &bad));
    }
    let mut s = bank.lock();
    *s.puts.entry(txid.clone()).or_default() += 1;
    if let Some(existing) = s.rec.cobrs.get(&txid) {
        return Ok((StatusCode::CREATED, Json(existing.clone())).into_response());
    }
    let id = req["idRec"].as_str().unwrap_or_default().to_string();
    let Some(rec) = s.rec.recs.get(&id) else {
        return Err(invalid(
            "CobROperacaoInvalida",
            &[("cobr.idRec", "Recorrência inexistente.")],
        ));
    };
    if rec["status"] != "APROVADA" {
        return Err(invalid(
            "CobROperacaoInvalida",
            &[("cobr.idRec", "A recorrência não está aprovada.")],
        ));
    }
    let (politica, devedor) = (
        rec["politicaRetentativa"].clone(),
        rec["vinculo"]["devedor"].clone(),
    );
    let mut cobr = req;
    let obj = cobr.as_object_mut().expect("checked an object");
    obj.insert("txid".into(), json!(txid));
    obj.insert("politicaRetentativa".into(), politica);
    obj.insert("devedor".into(), devedor);
    let mut recebedor = obj["recebedor"].clone();
    recebedor["cnpj"] = json!(RECEIVER_CNPJ);
    recebedor["nome"] = json!(RECEIVER_NAME);
    obj.insert("recebedor".into(), recebedor);
    let day = now_iso()[..10].to_string();
    cobr["calendario"]["criacao"] = json!(day);
    push_update(&mut cobr, "CRIADA");
    push_update(&mut cobr, "ATIVA");
    let due = cobr["calendario"]["dataDeVencimento"].clone();
    cobr["tentativas"] = json!([attempt(&due, "AGND")]);
    s.rec.cobrs.insert(txid, cobr.clone());
    Ok((StatusCode::CREATED, Json(cobr)).into_response())
}

/// A scheduled attempt to settle a recurring charge on `date`.
fn attempt(date: &Value, tipo: &str) -> Value {
    let now = now_iso();
    json!({
        "dataLiquidacao": date, "tipo": tipo, "status": "AGENDADA",
        "endToEndId": end_to_end_id(&now),
        "atualizacao": [{"status": "SOLICITADA", "data": now}, {"status": "AGENDADA", "data": now}],
    })
}

pub(super) async fn get_cobr(
    AxState(bank): AxState<Bank>,
    Path(txid): Path<String>,
) -> Result<Json<Value>, Problem> {
    bank.lock()
        .rec
        .cobrs
        .get(&txid)
        .cloned()
        .map(Json)
        .ok_or_else(Problem::not_found)
}

/// `PATCH /cobr/{txid}` (`CobRRevisada`): only `{"status": "CANCELADA"}` of an active charge.
pub(super) async fn patch_cobr(
    AxState(bank): AxState<Bank>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, Problem> {
    let req = json_object(&body, "CobROperacaoInvalida")?;
    let mut s = bank.lock();
    let cobr = s.rec.cobrs.get_mut(&txid).ok_or_else(Problem::not_found)?;
    if req["status"] != "CANCELADA" {
        return Err(invalid(
            "CobROperacaoInvalida",
            &[("cobr.status", "Só CANCELADA é aceito.")],
        ));
    }
    if cobr["status"] != "ATIVA" {
        return Err(Problem::invalid(
            "CobROperacaoInvalida",
            "Cobrança não encontra-se mais com o status ATIVA.",
            &[],
        ));
    }
    cobr["encerramento"] = json!({"cancelamento": {
        "solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR", "descricao": "Cancelada pelo usuário recebedor."
    }});
    push_update(cobr, "CANCELADA");
    if let Some(last) = cobr["tentativas"].as_array_mut().and_then(|t| t.last_mut()) {
        if last["status"] == "AGENDADA" {
            last["status"] = json!("CANCELADA");
        }
    }
    Ok(Json(cobr.clone()))
}

/// `POST /cobr/{txid}/retentativa/{data}`: another attempt after a failed one, when the
/// recurrence allows it (`PERMITE_3R_7D`): at most 3, within 7 days after the due date, each on
/// a day after every attempt already made.
pub(super) async fn post_retry(
    AxState(bank): AxState<Bank>,
    Path((txid, data)): Path<(String, String)>,
) -> Result<(StatusCode, Json<Value>), Problem> {
    let refuse = |why: &str| {
        Problem::invalid(
            "CobRTentativaInvalida",
            "A retentativa não pode ser solicitada.",
            &[("data", why)],
        )
    };
    let mut s = bank.lock();
    let cobr = s.rec.cobrs.get_mut(&txid).ok_or_else(Problem::not_found)?;
    let due = cobr["calendario"]["dataDeVencimento"]
        .as_str()
        .and_then(paylink_model::Date::parse_iso);
    let date = paylink_model::Date::parse_iso(&data).ok_or_else(|| refuse("YYYY-MM-DD"))?;
    if cobr["politicaRetentativa"] != "PERMITE_3R_7D" {
        return Err(refuse("A recorrência não permite retentativas."));
    }
    if cobr["status"] != "ATIVA" {
        return Err(refuse("A cobrança não está ativa."));
    }
    let tries = cobr["tentativas"].as_array().cloned().unwrap_or_default();
    if tries.last().is_none_or(|t| t["status"] != "REJEITADA") {
        return Err(refuse("A última tentativa não foi rejeitada."));
    }
    let retries = tries.iter().filter(|t| t["tipo"] == "RIFL").count();
    let within = due.is_some_and(|d| date > d && d.add_days(7).is_some_and(|l| date <= l));
    if retries >= 3 || !within {
        return Err(refuse(
            "No máximo 3 retentativas, até 7 dias após o vencimento.",
        ));
    }
    // Each retry on a day of its own, after every attempt already made.
    let tried = tries
        .iter()
        .filter_map(|t| t["dataLiquidacao"].as_str())
        .filter_map(paylink_model::Date::parse_iso)
        .max();
    if tried.is_some_and(|t| date <= t) {
        return Err(refuse(
            "Cada retentativa deve ser em uma nova data, posterior à última tentativa.",
        ));
    }
    let mut all = tries;
    all.push(attempt(&json!(data), "RIFL"));
    cobr["tentativas"] = json!(all);
    Ok((StatusCode::CREATED, Json(cobr.clone())))
}

fn webhook_url(body: &Bytes) -> Result<String, Problem> {
    let req = json_object(body, "WebhookOperacaoInvalida")?;
    let url = req["webhookUrl"].as_str().unwrap_or_default();
    if !(url.starts_with("https://") || url.starts_with("http://")) {
        return Err(invalid(
            "WebhookOperacaoInvalida",
            &[("webhookUrl", "O campo webhookUrl não é uma URI.")],
        ));
    }
    Ok(url.to_string())
}

pub(super) async fn put_webhookrec(
    AxState(bank): AxState<Bank>,
    body: Bytes,
) -> Result<StatusCode, Problem> {
    let url = webhook_url(&body)?;
    bank.lock().rec.webhook_rec = Some((url, now_iso()));
    Ok(StatusCode::OK)
}

pub(super) async fn put_webhookcobr(
    AxState(bank): AxState<Bank>,
    body: Bytes,
) -> Result<StatusCode, Problem> {
    let url = webhook_url(&body)?;
    bank.lock().rec.webhook_cobr = Some((url, now_iso()));
    Ok(StatusCode::OK)
}

fn webhook_answer(hook: Option<(String, String)>) -> Result<Json<Value>, Problem> {
    hook.map(|(url, at)| Json(json!({"webhookUrl": url, "criacao": at})))
        .ok_or_else(Problem::not_found)
}

pub(super) async fn get_webhookrec(AxState(bank): AxState<Bank>) -> Result<Json<Value>, Problem> {
    webhook_answer(bank.lock().rec.webhook_rec.clone())
}

pub(super) async fn get_webhookcobr(AxState(bank): AxState<Bank>) -> Result<Json<Value>, Problem> {
    webhook_answer(bank.lock().rec.webhook_cobr.clone())
}

pub(super) async fn delete_webhookrec(AxState(bank): AxState<Bank>) -> StatusCode {
    bank.lock().rec.webhook_rec = None;
    StatusCode::NO_CONTENT
}

pub(super) async fn delete_webhookcobr(AxState(bank): AxState<Bank>) -> StatusCode {
    bank.lock().rec.webhook_cobr = None;
    StatusCode::NO_CONTENT
}

// ---- The payer's bank's side ----

impl Bank {
    /// The recurrence `id_rec` as `GET /rec/{idRec}` shows it (without `dadosQR`).
    pub fn rec(&self, id_rec: &str) -> Option<Value> {
        self.lock().rec.recs.get(id_rec).cloned()
    }

    /// Every recurrence the bank holds.
    pub fn recs(&self) -> Vec<Value> {
        self.lock().rec.recs.values().cloned().collect()
    }

    /// The recurring charge `txid` as `GET /cobr/{txid}` shows it.
    pub fn cobr(&self, txid: &str) -> Option<Value> {
        self.lock().rec.cobrs.get(txid).cloned()
    }

    /// The webhook URLs registered with `PUT /webhookrec` and `PUT /webhookcobr`.
    pub fn rec_webhooks(&self) -> (Option<String>, Option<String>) {
        let s = self.lock();
        (
            s.rec.webhook_rec.as_ref().map(|w| w.0.clone()),
            s.rec.webhook_cobr.as_ref().map(|w| w.0.clone()),
        )
    }

    /// Changes recurrence `id_rec` from `from` to `to` as the payer's bank reports it, then
    /// posts the `/rec` callback.
    fn settle_rec(
        &self,
        id_rec: &str,
        from: &[&str],
        change: impl FnOnce(&mut Value),
    ) -> Result<Value, String> {
        let (rec, hook) = {
            let mut s = self.lock();
            let rec = s
                .rec
                .recs
                .get_mut(id_rec)
                .ok_or_else(|| format!("no recurrence {id_rec}"))?;
            let status = rec["status"].as_str().unwrap_or_default();
            if !from.contains(&status) {
                return Err(format!("recurrence {id_rec} is {status}"));
            }
            change(rec);
            let rec = rec.clone();
            (rec, s.rec.webhook_rec.as_ref().map(|w| w.0.clone()))
        };
        if let Some(url) = hook {
            self.post_callback(
                format!("{}/rec", url.trim_end_matches('/')),
                json!({"recs": [rec_notification(&rec)]}),
            );
        }
        Ok(rec)
    }

    /// The payer authorizes recurrence `id_rec` in their bank app (Jornada 2: its own QR).
    pub fn approve_rec(&self, id_rec: &str) -> Result<Value, String> {
        self.settle_rec(id_rec, &["CRIADA"], |rec| {
            rec["ativacao"] = json!({"tipoJornada": "JORNADA_2"});
            approve(rec);
        })
    }

    /// The payer declines recurrence `id_rec`.
    pub fn reject_rec(&self, id_rec: &str) -> Result<Value, String> {
        self.settle_rec(id_rec, &["CRIADA"], |rec| {
            rec["encerramento"] = json!({"rejeicao": {
                "codigo": "AP14", "descricao": "Usuário pagador rejeitou a recorrência."
            }});
            push_update(rec, "REJEITADA");
        })
    }

    /// The payer cancels recurrence `id_rec` in their bank app.
    pub fn cancel_rec_by_payer(&self, id_rec: &str) -> Result<Value, String> {
        self.settle_rec(id_rec, &["CRIADA", "APROVADA"], |rec| {
            rec["encerramento"] = json!({"cancelamento": {
                "solicitante": "USUARIO_PAGADOR", "codigo": "ACCL",
                "descricao": "Cancelada pelo usuário pagador."
            }});
            push_update(rec, "CANCELADA");
        })
    }

    /// The payer reads the composite code of recurrence `id_rec` (Jornada 3) and pays it: the
    /// immediate charge of `ativacao.dadosJornada.txid` is paid (its `/pix` callback), and the
    /// recurrence approved (its `/rec` callback). Returns the Pix.
    pub async fn pay_composite(&self, id_rec: &str) -> Result<Value, String> {
        let txid = self
            .rec(id_rec)
            .ok_or_else(|| format!("no recurrence {id_rec}"))?["ativacao"]["dadosJornada"]["txid"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("recurrence {id_rec} has no Jornada 3 txid"))?;
        if self.rec(id_rec).is_some_and(|r| r["status"] != "CRIADA") {
            return Err(format!(
                "recurrence {id_rec} is not waiting for authorization"
            ));
        }
        let pix = self.pay(&txid, None).await?;
        self.settle_rec(id_rec, &["CRIADA"], |rec| {
            rec["ativacao"] = json!({"tipoJornada": "JORNADA_3", "dadosJornada": {"txid": txid}});
            approve(rec);
        })?;
        Ok(pix)
    }

    /// Changes the latest attempt of recurring charge `txid`, then posts the `/cobr` callback.
    fn settle_cycle(
        &self,
        txid: &str,
        change: impl FnOnce(&mut Value, &mut Vec<Value>) -> Result<(), String>,
    ) -> Result<Value, String> {
        let (cobr, hook) = {
            let mut s = self.lock();
            let mut pix = Vec::new();
            let cobr = s
                .rec
                .cobrs
                .get_mut(txid)
                .ok_or_else(|| format!("no recurring charge {txid}"))?;
            if cobr["status"] != "ATIVA" {
                return Err(format!("recurring charge {txid} is {}", cobr["status"]));
            }
            change(cobr, &mut pix)?;
            let cobr = cobr.clone();
            s.pix.extend(pix);
            (cobr, s.rec.webhook_cobr.as_ref().map(|w| w.0.clone()))
        };
        if let Some(url) = hook {
            self.post_callback(
                format!("{}/cobr", url.trim_end_matches('/')),
                json!({"cobsr": [cobr_notification(&cobr)]}),
            );
        }
        Ok(cobr)
    }

    /// The payer's bank settles the scheduled attempt of recurring charge `txid`: PAGA, the
    /// charge CONCLUIDA, the Pix recorded (`GET /pix` finds it).
    pub fn pay_cycle(&self, txid: &str) -> Result<Value, String> {
        self.settle_cycle(txid, |cobr, pix| {
            let valor = cobr["valor"]["original"].clone();
            let tries = cobr["tentativas"].as_array_mut().ok_or("no attempt")?;
            let last = tries
                .last_mut()
                .filter(|t| t["status"] == "AGENDADA")
                .ok_or("no scheduled attempt")?;
            last["status"] = json!("PAGA");
            push_attempt_update(last, "PAGA");
            let e2e = last["endToEndId"].clone();
            let p = json!({
                "endToEndId": e2e, "txid": txid, "valor": valor,
                "horario": now_iso(), "infoPagador": "bank-sim pix automatico",
            });
            pix.push(p.clone());
            cobr["pix"] = json!([p]);
            push_update(cobr, "CONCLUIDA");
            Ok(())
        })
    }

    /// The payer's bank cannot settle the scheduled attempt of `txid` (no funds): REJEITADA.
    /// Under `NAO_PERMITE` the charge is REJEITADA too; under `PERMITE_3R_7D` it stays ATIVA
    /// for a retry (`POST /cobr/{txid}/retentativa/{data}`) until its third retry fails, which
    /// ends it REJEITADA as well (the receiver cannot cancel it once attempts began).
    pub fn fail_cycle(&self, txid: &str) -> Result<Value, String> {
        self.settle_cycle(txid, |cobr, _| {
            let tries = cobr["tentativas"].as_array_mut().ok_or("no attempt")?;
            let last = tries
                .last_mut()
                .filter(|t| t["status"] == "AGENDADA")
                .ok_or("no scheduled attempt")?;
            last["status"] = json!("REJEITADA");
            last["rejeicao"] = json!({"codigo": "AM02", "descricao": "Saldo insuficiente."});
            push_attempt_update(last, "REJEITADA");
            let retries = tries.iter().filter(|t| t["tipo"] == "RIFL").count();
            if cobr["politicaRetentativa"] != "PERMITE_3R_7D" || retries >= 3 {
                push_update(cobr, "REJEITADA");
            }
            Ok(())
        })
    }
}

/// APROVADA, with the payer's PSP (`pagador`) as the payer's bank reports it.
fn approve(rec: &mut Value) {
    let devedor = &rec["vinculo"]["devedor"];
    let mut pagador = json!({"ispbParticipante": ISPB});
    for doc in ["cpf", "cnpj"] {
        if devedor[doc].is_string() {
            pagador[doc] = devedor[doc].clone();
        }
    }
    rec["pagador"] = pagador;
    push_update(rec, "APROVADA");
}

fn push_attempt_update(attempt: &mut Value, status: &str) {
    let mut list = attempt["atualizacao"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    list.push(json!({"status": status, "data": now_iso()}));
    attempt["atualizacao"] = json!(list);
}

/// `POST /sim/rec/{idRec}/{approve|reject|cancel|pay}`: the payer's side of a recurrence.
pub(super) async fn sim_rec(
    AxState(bank): AxState<Bank>,
    Path((id, action)): Path<(String, String)>,
) -> Result<Json<Value>, Problem> {
    let done = match action.as_str() {
        "approve" => bank.approve_rec(&id),
        "reject" => bank.reject_rec(&id),
        "cancel" => bank.cancel_rec_by_payer(&id),
        "pay" => bank.pay_composite(&id).await,
        _ => return Err(Problem::not_found()),
    };
    done.map(Json)
        .map_err(|e| Problem::invalid("SimulacaoInvalida", &e, &[]))
}

/// `POST /sim/cobr/{txid}/{pay|fail}`: the payer's bank settles or fails a cycle.
pub(super) async fn sim_cobr(
    AxState(bank): AxState<Bank>,
    Path((txid, action)): Path<(String, String)>,
) -> Result<Json<Value>, Problem> {
    let done = match action.as_str() {
        "pay" => bank.pay_cycle(&txid),
        "fail" => bank.fail_cycle(&txid),
        _ => return Err(Problem::not_found()),
    };
    done.map(Json)
        .map_err(|e| Problem::invalid("SimulacaoInvalida", &e, &[]))
}
