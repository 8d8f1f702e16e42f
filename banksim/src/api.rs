//! The local bank's handlers: the token endpoint, the API Pix paths it implements (charges,
//! webhook, Pix received, refunds) and the simulator's own controls (`/sim/pay`,
//! `/sim/devolucao`, `/sim/down`).
//! Every error is the document's problem+json (`problem.rs`). A little over 400 lines: one
//! handler per path of the document, kept together so the bank reads as one API.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, Query, State as AxState};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::problem::Problem;
use super::{now_iso, Bank, TOKEN_TTL};

/// RFC 6749 client credentials: the client in HTTP Basic (or the form), `grant_type` in the form.
pub(super) async fn token(
    AxState(bank): AxState<Bank>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    use base64::Engine;
    let form: HashMap<String, String> = serde_urlencoded_pairs(&body);
    let basic = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
        .and_then(|b| String::from_utf8(b).ok());
    let (id, secret) = match basic.as_deref().and_then(|b| b.split_once(':')) {
        Some((i, s)) => (i.to_string(), s.to_string()),
        None => (
            form.get("client_id").cloned().unwrap_or_default(),
            form.get("client_secret").cloned().unwrap_or_default(),
        ),
    };
    let oauth_error =
        |status: StatusCode, error: &str| (status, Json(json!({ "error": error }))).into_response();
    if form.get("grant_type").map(String::as_str) != Some("client_credentials") {
        return oauth_error(StatusCode::BAD_REQUEST, "unsupported_grant_type");
    }
    if id != *bank.client_id || secret != *bank.client_secret {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client");
    }
    let token = uuid::Uuid::new_v4().simple().to_string();
    bank.lock()
        .tokens
        .insert(token.clone(), Instant::now() + TOKEN_TTL);
    Json(json!({
        "access_token": token,
        "token_type": "Bearer",
        "expires_in": TOKEN_TTL.as_secs(),
        "scope": "cob.write cob.read cobv.write cobv.read pix.write pix.read webhook.write webhook.read rec.write rec.read cobr.write cobr.read payloadlocationrec.write payloadlocationrec.read webhookrec.write webhookrec.read webhookcobr.write webhookcobr.read",
    }))
    .into_response()
}

fn serde_urlencoded_pairs(body: &[u8]) -> HashMap<String, String> {
    form_urlencoded::parse(body).into_owned().collect()
}

pub(super) fn txid_ok(txid: &str) -> bool {
    (26..=35).contains(&txid.len()) && txid.chars().all(|c| c.is_ascii_alphanumeric())
}

fn json_body(body: &Bytes, kind: &'static str) -> Result<Value, Problem> {
    serde_json::from_slice::<Value>(body)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| Problem::invalid(kind, "O corpo não é um objeto JSON.", &[]))
}

/// What the document requires of a charge's body beyond its shape (the tests check the full
/// schema from the recorded requests): the fields a bank would refuse the charge without.
fn check_charge(body: &Value, due_dated: bool) -> Vec<(&'static str, &'static str)> {
    let mut bad = Vec::new();
    let amount = |v: &Value| {
        v.as_str().is_some_and(|s| {
            s.split_once('.').is_some_and(|(i, d)| {
                (1..=10).contains(&i.len())
                    && d.len() == 2
                    && (i.to_string() + d).bytes().all(|b| b.is_ascii_digit())
            })
        })
    };
    if !amount(&body["valor"]["original"]) {
        bad.push((
            "cob.valor.original",
            "O campo valor.original não respeita o schema.",
        ));
    }
    if !body["chave"]
        .as_str()
        .is_some_and(|k| !k.is_empty() && k.len() <= 77)
    {
        bad.push(("cob.chave", "O campo chave não respeita o schema."));
    }
    if due_dated {
        let due = body["calendario"]["dataDeVencimento"].as_str();
        if due.is_none_or(|d| paylink_model::Date::parse_iso(d).is_none()) {
            bad.push((
                "cobv.calendario.dataDeVencimento",
                "O campo calendario.dataDeVencimento não respeita o schema.",
            ));
        }
        let devedor = &body["devedor"];
        if devedor["nome"].as_str().is_none()
            || (devedor["cpf"].as_str().is_none() && devedor["cnpj"].as_str().is_none())
        {
            bad.push((
                "cobv.devedor",
                "O objeto cobv.devedor não respeita o schema.",
            ));
        }
    } else if !body["calendario"]["expiracao"].is_u64() {
        bad.push((
            "cob.calendario.expiracao",
            "O campo calendario.expiracao não respeita o schema.",
        ));
    }
    bad
}

/// `PUT` of a charge: created, or (a retry of the same txid) the charge already there.
fn put_charge(bank: &Bank, txid: &str, body: &Bytes, due_dated: bool) -> Result<Response, Problem> {
    let kind = if due_dated {
        "CobVOperacaoInvalida"
    } else {
        "CobOperacaoInvalida"
    };
    if !txid_ok(txid) {
        return Err(Problem::invalid(
            kind,
            "O txid não respeita o schema.",
            &[("txid", "[a-zA-Z0-9]{26,35}")],
        ));
    }
    let req = json_body(body, kind)?;
    let bad = check_charge(&req, due_dated);
    if !bad.is_empty() {
        return Err(Problem::invalid(
            kind,
            "A requisição que busca criar uma cobrança não respeita o _schema_ ou está semanticamente errada.",
            &bad,
        ));
    }
    let mut s = bank.lock();
    *s.puts.entry(txid.to_string()).or_default() += 1;
    let devedor = &req["devedor"];
    let document = devedor["cpf"].as_str().or(devedor["cnpj"].as_str());
    if document.is_some_and(|d| s.refused_documents.iter().any(|r| r == d)) {
        return Err(Problem::invalid(
            kind,
            "A requisição que busca criar uma cobrança não respeita o _schema_ ou está semanticamente errada.",
            &[(
                if due_dated { "cobv.devedor" } else { "cob.devedor" },
                "O CPF ou CNPJ do devedor está cancelado na Receita Federal.",
            )],
        ));
    }
    if let Some(existing) = s.charges.get(txid) {
        if s.refuse_repeated_puts {
            // The document lists no 409: a bank that will not take a PUT of an existing txid
            // refuses it as an invalid operation on the charge.
            return Err(Problem::invalid(
                kind,
                "Já existe uma cobrança com este txid.",
                &[(
                    "txid",
                    "A cobrança já existe e não pode ser criada novamente.",
                )],
            ));
        }
        return Ok((StatusCode::CREATED, Json(existing.clone())).into_response());
    }
    s.next_loc += 1;
    let tipo = if due_dated { "cobv" } else { "cob" };
    let location = format!(
        "{}/qr/v2/{tipo}/{}",
        bank.url.trim_start_matches("https://"),
        uuid::Uuid::new_v4().simple()
    );
    let mut charge = req;
    if let Some(c) = charge["calendario"].as_object_mut() {
        c.insert("criacao".into(), json!(now_iso()));
        if due_dated {
            c.entry("validadeAposVencimento").or_insert(json!(30));
        }
    }
    let obj = charge.as_object_mut().expect("checked an object");
    obj.insert("txid".into(), json!(txid));
    obj.insert("revisao".into(), json!(0));
    obj.insert("status".into(), json!("ATIVA"));
    obj.insert(
        "loc".into(),
        json!({"id": s.next_loc, "txid": txid, "location": location, "tipoCob": tipo, "criacao": now_iso()}),
    );
    obj.insert("location".into(), json!(location));
    obj.insert("pixCopiaECola".into(), json!(dynamic_br_code(&location)));
    if due_dated {
        obj.insert(
            "recebedor".into(),
            json!({"cnpj": super::RECEIVER_CNPJ, "nome": super::RECEIVER_NAME, "cidade": "Sao Paulo", "uf": "SP", "cep": "01001000", "logradouro": "Praca da Se, 1"}),
        );
    }
    s.charges.insert(txid.to_string(), charge.clone());
    Ok((StatusCode::CREATED, Json(charge)).into_response())
}

/// The dynamic BR Code of a charge: its location in field 26.25 instead of a key, txid `***`.
fn dynamic_br_code(location: &str) -> String {
    fn tlv(out: &mut String, id: &str, value: &str) {
        out.push_str(&format!("{id}{:02}{value}", value.len()));
    }
    let mut account = String::new();
    tlv(&mut account, "00", "br.gov.bcb.pix");
    tlv(&mut account, "25", location);
    let mut additional = String::new();
    tlv(&mut additional, "05", "***");
    let mut out = String::new();
    tlv(&mut out, "00", "01");
    tlv(&mut out, "01", "12");
    tlv(&mut out, "26", &account);
    tlv(&mut out, "52", "0000");
    tlv(&mut out, "53", "986");
    tlv(&mut out, "58", "BR");
    tlv(&mut out, "59", "LOJA EXEMPLO");
    tlv(&mut out, "60", "SAO PAULO");
    tlv(&mut out, "62", &additional);
    out.push_str("6304");
    let crc = paylink_model::pix::crc16_ccitt(out.as_bytes());
    out.push_str(&format!("{crc:04X}"));
    out
}

pub(super) async fn put_cobv(
    AxState(bank): AxState<Bank>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, Problem> {
    put_charge(&bank, &txid, &body, true)
}

pub(super) async fn put_cob(
    AxState(bank): AxState<Bank>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, Problem> {
    put_charge(&bank, &txid, &body, false)
}

pub(super) async fn get_charge(
    AxState(bank): AxState<Bank>,
    Path(txid): Path<String>,
) -> Result<Json<Value>, Problem> {
    bank.charge(&txid).map(Json).ok_or_else(Problem::not_found)
}

/// Only the removal paylink sends: `{"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}` of an active charge.
pub(super) async fn patch_cobv(
    AxState(bank): AxState<Bank>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, Problem> {
    let req = json_body(&body, "CobVOperacaoInvalida")?;
    let mut s = bank.lock();
    let charge = s.charges.get_mut(&txid).ok_or_else(Problem::not_found)?;
    if charge["status"] != "ATIVA" {
        return Err(Problem::invalid(
            "CobVOperacaoInvalida",
            "Cobrança não encontra-se mais com o status ATIVA, somente cobranças ativas podem ser revisadas.",
            &[],
        ));
    }
    if req["status"] != "REMOVIDA_PELO_USUARIO_RECEBEDOR" {
        return Err(Problem::invalid(
            "CobVOperacaoInvalida",
            "A requisição não respeita o _schema_.",
            &[(
                "cobv.status",
                "Só REMOVIDA_PELO_USUARIO_RECEBEDOR é aceito aqui.",
            )],
        ));
    }
    charge["status"] = req["status"].clone();
    charge["revisao"] = json!(charge["revisao"].as_u64().unwrap_or(0) + 1);
    Ok(Json(charge.clone()))
}

pub(super) async fn put_webhook(
    AxState(bank): AxState<Bank>,
    Path(chave): Path<String>,
    body: Bytes,
) -> Result<StatusCode, Problem> {
    let req = json_body(&body, "WebhookOperacaoInvalida")?;
    let url = req["webhookUrl"].as_str().unwrap_or_default();
    if !(url.starts_with("https://") || url.starts_with("http://")) || chave.len() > 77 {
        return Err(Problem::invalid(
            "WebhookOperacaoInvalida",
            "A requisição não respeita o _schema_.",
            &[("webhookUrl", "O campo webhookUrl não é uma URI.")],
        ));
    }
    bank.lock().webhooks.insert(chave, url.to_string());
    Ok(StatusCode::OK)
}

pub(super) async fn get_pix(
    AxState(bank): AxState<Bank>,
    Path(e2eid): Path<String>,
) -> Result<Json<Value>, Problem> {
    let s = bank.lock();
    s.pix
        .iter()
        .find(|p| p["endToEndId"] == e2eid.as_str())
        .cloned()
        .map(Json)
        .ok_or_else(Problem::not_found)
}

/// Pix received between `inicio` and `fim` (RFC 3339, UTC), one page.
pub(super) async fn list_pix(
    AxState(bank): AxState<Bank>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, Problem> {
    let stamp = |name: &str| {
        q.get(name)
            .filter(|v| v.len() >= 20 && v.ends_with('Z') && v.as_bytes()[10] == b'T')
            .map(|v| v[..19].to_string())
            .ok_or_else(|| {
                Problem::invalid(
                    "ConsultaInvalida",
                    "Os parâmetros inicio e fim são obrigatórios, em RFC 3339 (UTC).",
                    &[(if name == "inicio" { "inicio" } else { "fim" }, "RFC 3339")],
                )
            })
    };
    let (inicio, fim) = (stamp("inicio")?, stamp("fim")?);
    // The page asked for: `paginacao.paginaAtual` from 0, `paginacao.itensPorPagina` (100 unless
    // said); a negative or unreadable one is the document's ConsultaInvalida.
    let number = |name: &str, default: usize| match q.get(name) {
        None => Ok(default),
        Some(v) => v.parse::<usize>().map_err(|_| {
            Problem::invalid(
                "ConsultaInvalida",
                "Os parâmetros de paginação devem ser inteiros não negativos.",
                &[(name, "inteiro não negativo")],
            )
        }),
    };
    let page = number("paginacao.paginaAtual", 0)?;
    let per_page = number("paginacao.itensPorPagina", 100)?;
    let s = bank.lock();
    let per_page = per_page.clamp(1, s.page_cap.unwrap_or(1000));
    let all: Vec<&Value> = s
        .pix
        .iter()
        .filter(|p| {
            let h = p["horario"].as_str().unwrap_or_default();
            h.len() >= 19 && h[..19] >= *inicio && h[..19] <= *fim
        })
        .collect();
    let pages = all.len().div_ceil(per_page).max(1);
    let pix: Vec<&Value> = all
        .iter()
        .skip(page * per_page)
        .take(per_page)
        .copied()
        .collect();
    Ok(Json(json!({
        "parametros": {
            "inicio": q["inicio"], "fim": q["fim"],
            "paginacao": {"paginaAtual": page, "itensPorPagina": per_page, "quantidadeDePaginas": pages, "quantidadeTotalDeItens": all.len()}
        },
        "pix": pix,
    })))
}

/// A refund of part or all of a Pix (`DevolucaoSolicitada`); the same id again is the same
/// refund. Reported in the Pix's callback, as the bank's own devoluções are.
pub(super) async fn put_refund(
    AxState(bank): AxState<Bank>,
    Path((e2eid, id)): Path<(String, String)>,
    body: Bytes,
) -> Result<(StatusCode, Json<Value>), Problem> {
    let req = json_body(&body, "PixDevolucaoInvalida")?;
    let known = bank.pix(&e2eid).ok_or_else(Problem::not_found)?;
    let again = known["devolucoes"]
        .as_array()
        .and_then(|all| all.iter().find(|r| r["id"] == id.as_str()).cloned());
    if let Some(same) = again {
        return Ok((StatusCode::CREATED, Json(same)));
    }
    let valor = req["valor"].as_str().ok_or_else(|| {
        Problem::invalid(
            "PixDevolucaoInvalida",
            "O valor da devolução não respeita o schema.",
            &[("valor", "inválido")],
        )
    })?;
    let d = super::Devolve {
        id: Some(&id),
        valor: Some(valor),
        natureza: req["natureza"].as_str(),
        status: None,
    };
    bank.devolve_as(&e2eid, d)
        .await
        .map(|r| (StatusCode::CREATED, Json(r)))
        .map_err(|e| {
            let field = match e {
                super::DevolveError::BadId => "id",
                super::DevolveError::BadNatureza => "natureza",
                _ => "valor",
            };
            Problem::invalid(
                "PixDevolucaoInvalida",
                &e.to_string(),
                &[(field, "inválido")],
            )
        })
}

#[derive(serde::Deserialize)]
struct SimDevolucao {
    id: Option<String>,
    valor: Option<String>,
    natureza: Option<String>,
    status: Option<String>,
}

/// The bank returns a Pix on its own (a MED claim, a refund from the bank's app): `{"valor",
/// "natureza", "status", "id"}`, each optional (`Bank::devolve`).
pub(super) async fn sim_devolucao(
    AxState(bank): AxState<Bank>,
    Path(e2eid): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, Problem> {
    let d: SimDevolucao = if body.is_empty() {
        SimDevolucao {
            id: None,
            valor: None,
            natureza: None,
            status: None,
        }
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| Problem::invalid("SimulacaoInvalida", &e.to_string(), &[]))?
    };
    let devolve = super::Devolve {
        id: d.id.as_deref(),
        valor: d.valor.as_deref(),
        natureza: d.natureza.as_deref(),
        status: d.status.as_deref(),
    };
    bank.devolve(&e2eid, devolve)
        .await
        .map(Json)
        .map_err(|e| Problem::invalid("SimulacaoInvalida", &e, &[]))
}

#[derive(serde::Deserialize)]
struct SimPay {
    valor: Option<String>,
}

pub(super) async fn sim_pay(
    AxState(bank): AxState<Bank>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, Problem> {
    let valor = serde_json::from_slice::<SimPay>(&body)
        .ok()
        .and_then(|p| p.valor);
    bank.pay(&txid, valor.as_deref())
        .await
        .map(Json)
        .map_err(|e| Problem::invalid("SimulacaoInvalida", &e, &[]))
}

pub(super) async fn sim_down(AxState(bank): AxState<Bank>, Path(seconds): Path<u64>) -> StatusCode {
    bank.down_for(Duration::from_secs(seconds));
    StatusCode::NO_CONTENT
}
