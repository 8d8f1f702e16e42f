//! BACEN's API Pix (release 2.9.0, `server/pix-api/openapi.yaml`): the request bodies paylink
//! sends a bank for an installment, and the txid that names its charge. The txid is derived from
//! the installment, so a retry after a lost answer is a `PUT` of the same charge, never a second
//! one. Bodies are typed here with the document's names; the tests validate each against the
//! document's schemas (`CobVSolicitada`, `CobSolicitada`, `CobVRevisada`).

use paylink_model::Date;
use serde::Serialize;

pub mod charge;
mod confirm;
pub mod devolucao;
pub mod rec;

pub use confirm::{apply, cents_of, check_confirmed, ConfirmedPix};

/// The txid of an installment's charge: its UUID's 32 hex digits, within the document's
/// `[a-zA-Z0-9]{26,35}`. Anything else (an id that is not a UUID) is refused.
pub fn txid(installment_id: &str) -> Option<String> {
    let hex: String = installment_id.chars().filter(|c| *c != '-').collect();
    (hex.len() == 32 && hex.chars().all(|c| c.is_ascii_hexdigit())).then_some(hex)
}

/// An amount as the document writes them: reais with two decimals, `\d{1,10}\.\d{2}`.
pub fn reais(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Who owes the charge (`devedor`): a CPF (11 digits) or a CNPJ (14 letters or digits).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(untagged)]
pub enum Devedor {
    Pf { cpf: String, nome: String },
    Pj { cnpj: String, nome: String },
}

impl Devedor {
    /// From a customer's stored document (bare) and name; `None` for a document that is neither.
    pub fn new(document: &str, name: &str) -> Option<Devedor> {
        let nome = name.chars().take(200).collect();
        match document.len() {
            11 if document.bytes().all(|b| b.is_ascii_digit()) => Some(Devedor::Pf {
                cpf: document.to_string(),
                nome,
            }),
            14 if document
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()) =>
            {
                Some(Devedor::Pj {
                    cnpj: document.to_string(),
                    nome,
                })
            }
            _ => None,
        }
    }
}

/// `{modalidade, valorPerc}` of a fine (1 fixed value, 2 percentage) or of interest
/// (1 value per calendar day, 3 percent per month in calendar days, ...).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Modalidade {
    pub modalidade: u8,
    pub valor_perc: String,
}

/// A discount until a fixed date (modalidade 1 fixed value, 2 percentage).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Desconto {
    pub modalidade: u8,
    pub desconto_data_fixa: Vec<DescontoDataFixa>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DescontoDataFixa {
    pub data: String,
    pub valor_perc: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CobVValor {
    pub original: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multa: Option<Modalidade>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub juros: Option<Modalidade>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desconto: Option<Desconto>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CalendarioVencimento {
    pub data_de_vencimento: String,
    pub validade_apos_vencimento: u32,
}

/// `PUT /cobv/{txid}`: a charge with a due date (`CobVSolicitada`).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CobV {
    pub calendario: CalendarioVencimento,
    pub devedor: Devedor,
    pub valor: CobVValor,
    pub chave: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solicitacao_pagador: Option<String>,
}

impl CobV {
    /// A charge of `cents` due on `due`, payable `days_after_due` calendar days after it.
    pub fn new(chave: &str, due: Date, days_after_due: u32, devedor: Devedor, cents: i64) -> CobV {
        CobV {
            calendario: CalendarioVencimento {
                data_de_vencimento: due.to_string(),
                validade_apos_vencimento: days_after_due,
            },
            devedor,
            valor: CobVValor {
                original: reais(cents),
                multa: None,
                juros: None,
                desconto: None,
            },
            chave: chave.to_string(),
            solicitacao_pagador: None,
        }
    }

    /// The invoice's fine, interest and discount as the document states them: multa
    /// modalidade 2 (percentage) or 1 (fixed value); juros modalidade 3 (percent a month,
    /// calendar days), as paylink's `amount_due` charges it; desconto modalidade 2
    /// (percentage) or 1 (fixed value) until a fixed date. The payer's PSP then computes the
    /// same amount `paylink_model::charges::amount_due` does.
    pub fn with_terms(mut self, terms: &paylink_model::ChargeTerms) -> CobV {
        use paylink_model::charges::Value;
        // A percentage in hundredths and an amount in cents both print as `d.dd`.
        let modalidade = |v: Value| match v {
            Value::Cents(c) => (1, reais(c)),
            Value::Percent(bp) => (2, reais(bp)),
        };
        self.valor.multa = terms.fine.map(|f| {
            let (modalidade, valor_perc) = modalidade(f);
            Modalidade {
                modalidade,
                valor_perc,
            }
        });
        self.valor.juros = terms.interest_monthly_bp.map(|bp| Modalidade {
            modalidade: 3,
            valor_perc: reais(bp),
        });
        self.valor.desconto = terms.discount.map(|d| {
            let (modalidade, valor_perc) = modalidade(d.value);
            Desconto {
                modalidade,
                desconto_data_fixa: vec![DescontoDataFixa {
                    data: d.until.to_string(),
                    valor_perc,
                }],
            }
        });
        self
    }

    /// What the payer's app shows beside the charge (at most 140 characters).
    pub fn with_message(mut self, message: &str) -> CobV {
        self.solicitacao_pagador = Some(message.chars().take(140).collect());
        self
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CalendarioExpiracao {
    pub expiracao: u32,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CobValor {
    pub original: String,
}

/// `PUT /cob/{txid}`: a charge payable now, for `expiracao` seconds (`CobSolicitada`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Cob {
    pub calendario: CalendarioExpiracao,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub devedor: Option<Devedor>,
    pub valor: CobValor,
    pub chave: String,
}

impl Cob {
    pub fn new(chave: &str, expires_in_secs: u32, devedor: Option<Devedor>, cents: i64) -> Cob {
        Cob {
            calendario: CalendarioExpiracao {
                expiracao: expires_in_secs,
            },
            devedor,
            valor: CobValor {
                original: reais(cents),
            },
            chave: chave.to_string(),
        }
    }
}

/// `PATCH /cobv/{txid}` that removes a charge, so a cancelled invoice can no longer be paid
/// (`CobVRevisada` with `status`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CobVRemoval {
    pub status: &'static str,
}

pub const REMOVAL: CobVRemoval = CobVRemoval {
    status: "REMOVIDA_PELO_USUARIO_RECEBEDOR",
};

#[cfg(test)]
mod tests;
