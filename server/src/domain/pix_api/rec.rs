//! Pix Automático's request bodies (API Pix 2.9.0, `server/pix-api/openapi.yaml`): the location
//! of a recurrence (`PayloadLocationRecSolicitada`), the recurrence (`RecSolicitada`) made from an
//! invoice that asked for it, its cancellation (`RecRevisada`), a recurring charge
//! (`CobRSolicitada`) and the webhooks (`WebhookRecSolicitado`, `WebhookCobRSolicitado`). Typed
//! with the document's names; the tests validate each against the document's schemas (mind its
//! errata: `RecBase.required` lists `idRec` and `retentativa`, which the bank assigns).

use paylink_model::pix_automatico::{Periodicidade, RetryPolicy};
use paylink_model::{CycleAttempt, Date};
use serde::Serialize;

use super::{reais, Devedor};

/// `POST /locrec`'s body (the path lists none: errata; the schema defined for it is this).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LocRec {
    pub tipo: &'static str,
}

pub const LOCREC: LocRec = LocRec { tipo: "rec" };

/// The recurrence's `vinculo`: the contract the payer recognises, and who pays.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Vinculo {
    pub contrato: String,
    pub devedor: Devedor,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objeto: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioRec {
    pub data_inicial: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_final: Option<String>,
    pub periodicidade: &'static str,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ValorRec {
    pub valor_rec: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DadosJornada {
    pub txid: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Ativacao {
    pub dados_jornada: DadosJornada,
}

/// `POST /rec`: a recurrence (`RecSolicitada`).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Rec {
    pub vinculo: Vinculo,
    pub calendario: CalendarioRec,
    pub valor: ValorRec,
    pub politica_retentativa: &'static str,
    /// The `/locrec` location's id.
    pub loc: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ativacao: Option<Ativacao>,
}

/// What a recurrence is made of, as paylink knows its invoice.
pub struct RecTerms<'a> {
    /// The invoice's `externalId`: the contract the payer recognises (at most 35 characters).
    pub contract: &'a str,
    pub description: Option<&'a str>,
    pub customer_document: &'a str,
    pub customer_name: &'a str,
    pub first_due: Date,
    /// The last due date allowed, when the invoice has one.
    pub last_due: Option<Date>,
    pub periodicidade: Periodicidade,
    pub retry_policy: RetryPolicy,
    /// Each cycle's amount (fixed: `valorRec`).
    pub price_cents: i64,
}

impl Rec {
    /// The recurrence of `t` at location `loc`, started by paying the immediate charge `txid`
    /// (Jornada 3). `None` when the customer's document is neither a CPF nor a CNPJ.
    pub fn new(t: &RecTerms<'_>, loc: u64, txid: Option<&str>) -> Option<Rec> {
        let devedor = match Devedor::new(t.customer_document, t.customer_name)? {
            Devedor::Pf { cpf, nome } => Devedor::Pf {
                cpf,
                nome: nome.chars().take(140).collect(),
            },
            Devedor::Pj { cnpj, nome } => Devedor::Pj {
                cnpj,
                nome: nome.chars().take(140).collect(),
            },
        };
        Some(Rec {
            vinculo: Vinculo {
                contrato: t.contract.chars().take(35).collect(),
                devedor,
                objeto: t
                    .description
                    .map(|d| d.chars().take(35).collect::<String>())
                    .filter(|d| !d.trim().is_empty()),
            },
            calendario: CalendarioRec {
                data_inicial: t.first_due.to_string(),
                data_final: t.last_due.map(|d| d.to_string()),
                periodicidade: t.periodicidade.as_str(),
            },
            valor: ValorRec {
                valor_rec: reais(t.price_cents),
            },
            politica_retentativa: t.retry_policy.as_str(),
            loc,
            ativacao: txid.map(|txid| Ativacao {
                dados_jornada: DadosJornada {
                    txid: txid.to_string(),
                },
            }),
        })
    }
}

/// `PATCH /rec/{idRec}` cancelling the recurrence (`RecRevisada` with `status`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RecCancel {
    pub status: &'static str,
}

pub const REC_CANCEL: RecCancel = RecCancel {
    status: "CANCELADA",
};

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioCobR {
    pub data_de_vencimento: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ValorCobR {
    pub original: String,
}

/// The merchant's account each cycle is credited to (`DadosBancariosRecebedor`).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Recebedor {
    pub conta: String,
    pub tipo_conta: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agencia: Option<String>,
}

/// `PUT /cobr/{txid}`: one cycle of a recurrence (`CobRSolicitada`).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CobR {
    pub id_rec: String,
    pub calendario: CalendarioCobR,
    pub valor: ValorCobR,
    pub ajuste_dia_util: bool,
    pub recebedor: Recebedor,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub info_adicional: Option<String>,
}

impl CobR {
    pub fn new(id_rec: &str, due: Date, cents: i64, recebedor: Recebedor) -> CobR {
        CobR {
            id_rec: id_rec.to_string(),
            calendario: CalendarioCobR {
                data_de_vencimento: due.to_string(),
            },
            valor: ValorCobR {
                original: reais(cents),
            },
            ajuste_dia_util: true,
            recebedor,
            info_adicional: None,
        }
    }
}

/// `PATCH /cobr/{txid}` cancelling a recurring charge (`CobRRevisada`).
pub const COBR_CANCEL: RecCancel = RecCancel {
    status: "CANCELADA",
};

/// The Pix of a recurring charge's paid attempts, as the bank holds it (`GET /cobr/{txid}`): each
/// attempt PAGA whose endToEndId has a Pix in `pix` with a readable amount and time. What the
/// bank does not show as paid is not there.
pub fn paid(cobr: &serde_json::Value) -> Vec<super::ConfirmedPix> {
    let Some(txid) = cobr["txid"].as_str() else {
        return Vec::new();
    };
    let paid_attempts: Vec<&str> = cobr["tentativas"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["status"] == "PAGA")
        .filter_map(|t| t["endToEndId"].as_str())
        .collect();
    cobr["pix"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let e2e = p["endToEndId"].as_str()?;
            if !paid_attempts.contains(&e2e) || p["txid"].as_str().is_some_and(|t| t != txid) {
                return None;
            }
            Some(super::ConfirmedPix {
                end_to_end_id: e2e.to_string(),
                txid: txid.to_string(),
                cents: p["valor"].as_str().and_then(super::cents_of)?,
                horario: p["horario"]
                    .as_str()
                    .and_then(paylink_model::date::millis_from_rfc3339)
                    .map(paylink_model::date::iso_utc_from_millis)?,
            })
        })
        .collect()
}

/// A recurrence's status as the bank answered it (`RecStatus`).
pub fn status_of(rec: &serde_json::Value) -> Option<String> {
    rec["status"].as_str().map(str::to_string)
}

/// Who ended a recurrence and why, as the bank says (`encerramento`), for the merchant.
pub fn closing_of(rec: &serde_json::Value) -> Vec<String> {
    let end = &rec["encerramento"];
    let mut out = Vec::new();
    for kind in ["rejeicao", "cancelamento"] {
        let e = &end[kind];
        if e.is_object() {
            let who = e["solicitante"]
                .as_str()
                .map(|s| format!("{s}: "))
                .unwrap_or_default();
            out.push(format!(
                "{who}{} ({})",
                e["descricao"].as_str().unwrap_or_default(),
                e["codigo"].as_str().unwrap_or_default()
            ));
        }
    }
    out
}

/// What a recurring charge read back from the bank (`GET /cobr/{txid}`) asks of paylink.
#[derive(Debug, PartialEq)]
pub enum Cycle {
    /// Still scheduled (or being retried): nothing to do.
    Waiting,
    /// Another attempt on `Date`: the last one was rejected, the recurrence allows retries
    /// (`PERMITE_3R_7D`), fewer than 3 were made and the date is within 7 days of the due date.
    Retry(Date),
    /// Ended unpaid (`status`), with why: the installment goes back to the payer page.
    Ended(String, Vec<String>),
}

/// Retries after a rejected attempt, at most (`PERMITE_3R_7D`) ...
pub const MAX_RETRIES: usize = 3;
/// ... within this many days after the due date.
pub const RETRY_DAYS: i64 = 7;

/// The next step of recurring charge `cobr` on `today` (in Brasília); its paid attempts are
/// [`paid`]'s.
pub fn cycle(cobr: &serde_json::Value, today: Date) -> Cycle {
    let tries: Vec<&serde_json::Value> = cobr["tentativas"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    let why = || -> Vec<String> {
        tries
            .iter()
            .filter_map(|t| {
                let r = &t["rejeicao"];
                r.is_object().then(|| {
                    format!(
                        "{} {}: {} ({})",
                        t["dataLiquidacao"].as_str().unwrap_or_default(),
                        t["status"].as_str().unwrap_or_default(),
                        r["descricao"].as_str().unwrap_or_default(),
                        r["codigo"].as_str().unwrap_or_default()
                    )
                })
            })
            .collect()
    };
    match cobr["status"].as_str() {
        Some("ATIVA") | Some("CRIADA") => {}
        Some("CONCLUIDA") | None => return Cycle::Waiting,
        Some(ended) => return Cycle::Ended(ended.to_string(), why()),
    }
    let Some(last) = tries.last() else {
        return Cycle::Waiting;
    };
    if last["status"] != "REJEITADA" {
        return Cycle::Waiting;
    }
    let retries = tries.iter().filter(|t| t["tipo"] == "RIFL").count();
    let due = cobr["calendario"]["dataDeVencimento"]
        .as_str()
        .and_then(Date::parse_iso);
    // Each retry on a day of its own: after the due date, after today, after every attempt made.
    let last_try = tries
        .iter()
        .filter_map(|t| t["dataLiquidacao"].as_str().and_then(Date::parse_iso))
        .max();
    let next = due.and_then(|d| {
        let mut day = today.add_days(1)?.max(d.add_days(1)?);
        if let Some(last) = last_try {
            day = day.max(last.add_days(1)?);
        }
        (day <= d.add_days(RETRY_DAYS)?).then_some(day)
    });
    match next {
        Some(day) if cobr["politicaRetentativa"] == "PERMITE_3R_7D" && retries < MAX_RETRIES => {
            Cycle::Retry(day)
        }
        _ => Cycle::Ended("REJEITADA".into(), why()),
    }
}

/// A recurring charge read back from the bank as the merchant's detail keeps it: its due date,
/// status and attempts; `None` for an answer that is no recurring charge.
pub fn cycle_state(cobr: &serde_json::Value) -> Option<(String, String, Vec<CycleAttempt>)> {
    let due = cobr["calendario"]["dataDeVencimento"].as_str()?.to_string();
    let status = cobr["status"].as_str()?.to_string();
    let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
    let attempts = cobr["tentativas"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| CycleAttempt {
            date: text(&t["dataLiquidacao"]).unwrap_or_default(),
            kind: text(&t["tipo"]).unwrap_or_default(),
            status: text(&t["status"]).unwrap_or_default(),
            reason_code: text(&t["rejeicao"]["codigo"]),
            reason: text(&t["rejeicao"]["descricao"]),
        })
        .collect();
    Some((due, status, attempts))
}

/// Keeps recurring charge `txid` as the bank just answered it, for the merchant's detail; with
/// `ended`, as paylink ended it (`REJEITADA`: the bank keeps a charge whose retries are spent
/// `ATIVA`, with no attempt left).
pub async fn keep_cycle(
    db: &crate::store::Db,
    txid: &str,
    cobr: &serde_json::Value,
    ended: Option<&str>,
) -> Result<(), crate::store::DbError> {
    match cycle_state(cobr) {
        Some((due, status, attempts)) => {
            let status = ended.unwrap_or(&status);
            crate::store::pix_cycles::record(db, txid, &due, status, &attempts, &[]).await
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn d(s: &str) -> Date {
        Date::parse_iso(s).unwrap()
    }

    fn cobr(policy: &str, status: &str, tries: &[(&str, &str)]) -> serde_json::Value {
        let tentativas: Vec<_> = tries
            .iter()
            .enumerate()
            .map(|(n, (tipo, st))| {
                let mut t = json!({"tipo": tipo, "status": st, "endToEndId": format!("E{n}"),
                                   "dataLiquidacao": "2027-01-10"});
                if *st == "REJEITADA" {
                    t["rejeicao"] = json!({"codigo": "AM02", "descricao": "Saldo insuficiente."});
                }
                t
            })
            .collect();
        json!({"txid": "t1", "status": status, "politicaRetentativa": policy,
               "calendario": {"dataDeVencimento": "2027-01-10"}, "tentativas": tentativas})
    }

    #[test]
    fn a_rejected_attempt_is_retried_within_the_policy_and_then_ends() {
        let today = d("2027-01-10");
        let one = cobr("PERMITE_3R_7D", "ATIVA", &[("AGND", "REJEITADA")]);
        assert_eq!(cycle(&one, today), Cycle::Retry(d("2027-01-11")));
        // Later than the day after the due date: tomorrow, while within 7 days.
        assert_eq!(cycle(&one, d("2027-01-14")), Cycle::Retry(d("2027-01-15")));
        assert!(matches!(cycle(&one, d("2027-01-17")), Cycle::Ended(..)));
        let three = cobr(
            "PERMITE_3R_7D",
            "ATIVA",
            &[
                ("AGND", "REJEITADA"),
                ("RIFL", "REJEITADA"),
                ("RIFL", "REJEITADA"),
                ("RIFL", "REJEITADA"),
            ],
        );
        match cycle(&three, today) {
            Cycle::Ended(status, why) => {
                assert_eq!(status, "REJEITADA");
                assert_eq!(why.len(), 4);
                assert!(why[0].contains("Saldo insuficiente. (AM02)"), "{why:?}");
            }
            other => panic!("{other:?}"),
        }
        // Each retry on a new day: after the last attempt's, even when asked on the same day.
        let mut two = cobr(
            "PERMITE_3R_7D",
            "ATIVA",
            &[("AGND", "REJEITADA"), ("RIFL", "REJEITADA")],
        );
        two["tentativas"][1]["dataLiquidacao"] = json!("2027-01-11");
        assert_eq!(cycle(&two, today), Cycle::Retry(d("2027-01-12")));
        two["tentativas"][1]["dataLiquidacao"] = json!("2027-01-17");
        assert!(
            matches!(cycle(&two, today), Cycle::Ended(..)),
            "past 7 days"
        );
        let none = cobr("NAO_PERMITE", "REJEITADA", &[("AGND", "REJEITADA")]);
        assert!(matches!(cycle(&none, today), Cycle::Ended(..)));
        let scheduled = cobr(
            "PERMITE_3R_7D",
            "ATIVA",
            &[("AGND", "REJEITADA"), ("RIFL", "AGENDADA")],
        );
        assert_eq!(cycle(&scheduled, today), Cycle::Waiting);
        assert_eq!(cycle(&json!({}), today), Cycle::Waiting);
        assert_eq!(
            cycle(&json!({"status": "ATIVA", "tentativas": "x"}), today),
            Cycle::Waiting
        );
    }

    #[test]
    fn only_the_pix_of_paid_attempts_count() {
        let mut c = cobr(
            "NAO_PERMITE",
            "CONCLUIDA",
            &[("AGND", "REJEITADA"), ("RIFL", "PAGA")],
        );
        c["pix"] = json!([
            {"endToEndId": "E0", "txid": "t1", "valor": "10.00", "horario": "2027-01-10T12:00:00Z"},
            {"endToEndId": "E1", "txid": "t1", "valor": "10.00", "horario": "2027-01-11T12:00:00-03:00"},
            {"endToEndId": "E1", "txid": "other", "valor": "10.00", "horario": "2027-01-11T12:00:00Z"},
            {"endToEndId": "E1", "txid": "t1", "valor": "10", "horario": "2027-01-11T12:00:00Z"},
        ]);
        let paid = paid(&c);
        assert_eq!(paid.len(), 1, "{paid:?}");
        assert_eq!(paid[0].end_to_end_id, "E1");
        assert_eq!(paid[0].cents, 1000);
        assert_eq!(paid[0].horario, "2027-01-11T15:00:00.000Z");
        assert!(super::paid(&json!({"pix": []})).is_empty());
    }
}
