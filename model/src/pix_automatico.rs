//! Pix Automático (BACEN's recurring Pix, API Pix 2.9.0 `/rec`, `/cobr`): the invoice request's
//! opt-in `pixAutomatico`, the detail's `pixAutomatico`, the frequency → `periodicidade` mapping,
//! the retry policy, and the rules that decide whether an invoice can be charged that way (keyed
//! by the field path `pixAutomatico`, in pt-BR and English like every other field error).

use paylink_text as text;
use serde::{Deserialize, Serialize};

use crate::enums::{wire_enum, Frequency, InvoiceType, PaymentType};
use crate::errors::{Msg, PixAutomaticoRefusal, Violations};

/// The field path every Pix Automático error is keyed by.
pub const FIELD: &str = "pixAutomatico";

/// `pixAutomatico` of the invoice request: charge a RECURRING or SUBSCRIPTION invoice through
/// the payer's bank after one authorization.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(
        description = "Pix Automático: the payer authorizes the recurrence once in their bank app and their bank pays each cycle on its due date. Only for RECURRING and SUBSCRIPTION invoices accepting PIX, with a WEEKLY, MONTHLY, QUARTERLY, SEMESTER or YEARLY frequency, a fixed price, a customer with a CPF or CNPJ, and a merchant that is a company (CNPJ) whose PIX goes through a bank's API Pix."
    )
)]
#[serde(rename_all = "camelCase")]
pub struct PixAutomaticoRequest {
    /// Whether a cycle the payer's bank could not pay on its due date may be tried again (up to
    /// 3 times within 7 days: the recurrence's `politicaRetentativa` `PERMITE_3R_7D`); default
    /// false (`NAO_PERMITE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<bool>,
}

wire_enum!(
    /// `calendario.periodicidade` of a recurrence.
    Periodicidade {
        Semanal = "SEMANAL",
        Mensal = "MENSAL",
        Trimestral = "TRIMESTRAL",
        Semestral = "SEMESTRAL",
        Anual = "ANUAL",
    }
);

wire_enum!(
    /// `politicaRetentativa` of a recurrence: no retry, or up to 3 within 7 days after the due date.
    RetryPolicy {
        NaoPermite = "NAO_PERMITE",
        Permite3r7d = "PERMITE_3R_7D",
    }
);

impl RetryPolicy {
    pub fn from_retries(retries: bool) -> RetryPolicy {
        if retries {
            RetryPolicy::Permite3r7d
        } else {
            RetryPolicy::NaoPermite
        }
    }
}

impl Frequency {
    /// The Pix Automático periodicity of an invoice's frequency; `None` for those the
    /// arrangement does not have (every 14 days, every 2 months).
    pub fn periodicidade(self) -> Option<Periodicidade> {
        match self {
            Frequency::Weekly => Some(Periodicidade::Semanal),
            Frequency::Monthly => Some(Periodicidade::Mensal),
            Frequency::Quarterly => Some(Periodicidade::Trimestral),
            Frequency::Semester => Some(Periodicidade::Semestral),
            Frequency::Yearly => Some(Periodicidade::Anual),
            Frequency::Fortweekly | Frequency::Bimonthly => None,
        }
    }
}

/// The recurrence's last due date (`calendario.dataFinal`): the due date of the invoice's last
/// charge, as [`crate::plan::PeriodicEnd`] ends it (`endInstallment`, `endDate`, or an
/// `endSubscription` that is an ISO date, whichever comes first), never before the first one;
/// `None` (until cancelled) when nothing ends it.
pub fn last_due(
    first_due: crate::Date,
    frequency: Option<Frequency>,
    end: &crate::plan::PeriodicEnd,
) -> Option<crate::Date> {
    end.last_due(first_due, frequency?)
}

/// Pix Automático as a checked invoice asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewPixAutomatico {
    pub periodicidade: Periodicidade,
    pub retry_policy: RetryPolicy,
}

/// The rules the request alone decides: a RECURRING or SUBSCRIPTION invoice (`invoice_type`
/// `None`: the type is already an error elsewhere), accepting PIX, of a fixed price, whose
/// frequency has a periodicity. Each broken rule is added to `v` under [`FIELD`].
pub fn check_request(
    v: &mut Violations,
    req: Option<&PixAutomaticoRequest>,
    invoice_type: Option<InvoiceType>,
    frequency: Option<Frequency>,
    payment_types: &[PaymentType],
    price_by_customer: bool,
) -> Option<NewPixAutomatico> {
    let req = req?;
    let before = v.0.len();
    if invoice_type.is_some_and(|t| !t.is_periodic()) {
        v.add(
            FIELD,
            Msg::OnlyWhen("invoiceType = RECURRING | SUBSCRIPTION"),
        );
    }
    if !payment_types.is_empty() && !payment_types.contains(&PaymentType::Pix) {
        v.add(
            FIELD,
            Msg::PixAutomatico(PixAutomaticoRefusal::PixNotAccepted),
        );
    }
    if price_by_customer {
        v.add(
            FIELD,
            Msg::PixAutomatico(PixAutomaticoRefusal::PriceByCustomer),
        );
    }
    let periodicidade = frequency.and_then(|f| {
        let p = f.periodicidade();
        if p.is_none() {
            v.add(
                FIELD,
                Msg::PixAutomatico(PixAutomaticoRefusal::NoPeriodicity(f)),
            );
        }
        p
    });
    if v.0.len() > before {
        return None;
    }
    Some(NewPixAutomatico {
        periodicidade: periodicidade?,
        retry_policy: RetryPolicy::from_retries(req.retries.unwrap_or(false)),
    })
}

/// What the server knows that the request does not: whether it reaches a bank's API Pix, the
/// merchant's document (bare, as `br::check_document` leaves it) and the customer's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    pub api_pix: bool,
    pub merchant_document: Option<&'a str>,
    pub payer_document: Option<&'a str>,
}

/// A CNPJ as stored (14 letters or digits, valid check digits).
fn is_cnpj(document: &str) -> bool {
    document.len() == 14 && crate::br::cnpj_is_valid(document)
}

/// A CPF or CNPJ as stored.
fn is_document(document: &str) -> bool {
    match document.len() {
        11 => crate::br::cpf_is_valid(document),
        14 => crate::br::cnpj_is_valid(document),
        _ => false,
    }
}

/// The rules of the server's setup and of the customer, in the order a merchant fixes them.
pub fn check_context(ctx: Context<'_>) -> Result<(), Violations> {
    let mut v = Violations::default();
    if !ctx.api_pix {
        v.add(FIELD, Msg::PixAutomatico(PixAutomaticoRefusal::NoApiPix));
    }
    if !ctx.merchant_document.is_some_and(is_cnpj) {
        v.add(
            FIELD,
            Msg::PixAutomatico(PixAutomaticoRefusal::MerchantNotCompany),
        );
    }
    if !ctx.payer_document.is_some_and(is_document) {
        v.add(
            FIELD,
            Msg::PixAutomatico(PixAutomaticoRefusal::PayerWithoutDocument),
        );
    }
    if v.is_empty() {
        Ok(())
    } else {
        Err(v)
    }
}

/// Where an invoice's recurrence stands, as the merchant's detail shows it: `pending` (not at
/// the bank yet: being sent, or retried while the bank does not answer), `created` (at the
/// bank, waiting for the payer's authorization), `approved` (the payer authorized it: each
/// cycle is charged by their bank), `rejected` (the payer declined), `expired` (never
/// authorized in time), `cancelled` (by the payer in their bank app, or with the invoice), and
/// `refused` (the bank refused to create it; `reasons` says why).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum PixAutomaticoStatus {
    Pending,
    Created,
    Approved,
    Rejected,
    Expired,
    Cancelled,
    Refused,
}

impl PixAutomaticoStatus {
    pub const ALL: &'static [PixAutomaticoStatus] = &[
        PixAutomaticoStatus::Pending,
        PixAutomaticoStatus::Created,
        PixAutomaticoStatus::Approved,
        PixAutomaticoStatus::Rejected,
        PixAutomaticoStatus::Expired,
        PixAutomaticoStatus::Cancelled,
        PixAutomaticoStatus::Refused,
    ];
    /// What the wire carries, also the list's `pixAutomatico` filter values.
    pub const NAMES: &'static [&'static str] = &[
        "pending",
        "created",
        "approved",
        "rejected",
        "expired",
        "cancelled",
        "refused",
    ];

    pub fn as_str(self) -> &'static str {
        Self::NAMES[Self::ALL
            .iter()
            .position(|s| *s == self)
            .unwrap_or_default()]
    }

    pub fn parse(text: &str) -> Option<PixAutomaticoStatus> {
        let at = Self::NAMES.iter().position(|n| *n == text)?;
        Some(Self::ALL[at])
    }

    /// The merchant's status of a recurrence the bank reports as `status` (`RecStatus`).
    pub fn from_bank(status: &str) -> Option<PixAutomaticoStatus> {
        Some(match status {
            "CRIADA" => PixAutomaticoStatus::Created,
            "APROVADA" => PixAutomaticoStatus::Approved,
            "REJEITADA" => PixAutomaticoStatus::Rejected,
            "EXPIRADA" => PixAutomaticoStatus::Expired,
            "CANCELADA" => PixAutomaticoStatus::Cancelled,
            _ => return None,
        })
    }
}

/// `pixAutomatico` of the invoice detail (null when the invoice did not ask for it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PixAutomaticoDetail {
    pub status: PixAutomaticoStatus,
    /// The recurrence's id at the bank (`RR…`/`RN…`, 29 characters) once it is there.
    pub id_rec: Option<String>,
    /// `SEMANAL`, `MENSAL`, `TRIMESTRAL`, `SEMESTRAL` or `ANUAL`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub periodicity: Periodicidade,
    /// `NAO_PERMITE` or `PERMITE_3R_7D`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub retry_policy: RetryPolicy,
    /// Why the recurrence is not at the bank (`refused`), in the bank's words; or who cancelled
    /// it and why (`cancelled`, `rejected`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// Each later cycle sent to the payer's bank as a recurring charge (`cobr`), with its
    /// attempts, in installment order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cycles: Vec<PixAutomaticoCycle>,
}

/// A later cycle of an authorized recurrence: its recurring charge at the bank (`cobr`), as the
/// bank last read it back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PixAutomaticoCycle {
    /// The installment's number.
    pub installment: u32,
    /// The due date sent (`calendario.dataDeVencimento`), YYYY-MM-DD.
    #[cfg_attr(feature = "openapi", schema(format = "date"))]
    pub due_date: String,
    /// The charge's status at the bank (`CobRStatus`): `CRIADA`, `ATIVA` (scheduled or being
    /// retried), `CONCLUIDA` (paid), `REJEITADA` (no attempt left), `CANCELADA`, `EXPIRADA`; or
    /// `RECUSADA`, paylink's: the bank refused to make it. Every status but the first three puts
    /// the installment back on the payer page.
    pub status: String,
    /// Each attempt of the payer's bank to pay it (`tentativas`), oldest first.
    #[serde(default)]
    pub attempts: Vec<CycleAttempt>,
    /// Why the bank refused to make it (`RECUSADA`), in its words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
}

/// One attempt of the payer's bank to pay a cycle (`tentativas[]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CycleAttempt {
    /// The day it settles (`dataLiquidacao`), YYYY-MM-DD.
    #[cfg_attr(feature = "openapi", schema(format = "date"))]
    pub date: String,
    /// `AGND` (on the due date), `NTAG`, or `RIFL` (a retry after a rejected attempt).
    #[serde(rename = "type")]
    pub kind: String,
    /// `SOLICITADA`, `AGENDADA`, `PAGA`, `CANCELADA`, `REJEITADA` or `EXPIRADA`.
    pub status: String,
    /// The rejection's code in the Pix message catalogue (`rejeicao.codigo`), when rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<String>,
    /// The rejection as the bank words it (`rejeicao.descricao`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl PixAutomaticoCycle {
    /// What became of the cycle, for the merchant.
    pub fn outcome(&self, lang: crate::Lang) -> String {
        let back = text::CYCLE_BACK_ON_PAGE.t(lang);
        match self.status.as_str() {
            "CRIADA" | "ATIVA" => match self.attempts.last() {
                Some(a) if a.kind == "RIFL" && a.status == "AGENDADA" => {
                    text::CYCLE_RETRY_SCHEDULED.t(lang).to_string()
                }
                Some(a) if a.status == "REJEITADA" => {
                    text::CYCLE_ATTEMPT_REJECTED.t(lang).to_string()
                }
                _ => text::CYCLE_SCHEDULED.t(lang).to_string(),
            },
            "CONCLUIDA" => text::CYCLE_PAID.t(lang).to_string(),
            "REJEITADA" => text::CYCLE_NOT_PAID.t(lang).to_string() + back,
            "EXPIRADA" => text::CYCLE_EXPIRED.t(lang).to_string() + back,
            "CANCELADA" => text::CANCELLED_F.t(lang).to_string() + back,
            "RECUSADA" => {
                let why = if self.reasons.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", self.reasons.join("; "))
                };
                text::CYCLE_REFUSED.t(lang).to_string() + &why + back
            }
            other => other.to_string(),
        }
    }
}

impl CycleAttempt {
    /// The attempt's kind, for the merchant.
    pub fn kind_text(&self, lang: crate::Lang) -> String {
        match self.kind.as_str() {
            "AGND" => text::ATTEMPT_ON_DUE_DATE.t(lang).to_string(),
            "RIFL" => text::ATTEMPT_RETRY.t(lang).to_string(),
            other => other.to_string(),
        }
    }

    /// The attempt's status, for the merchant.
    pub fn status_text(&self, lang: crate::Lang) -> String {
        let said = match self.status.as_str() {
            "SOLICITADA" => &text::ATTEMPT_REQUESTED,
            "AGENDADA" => &text::SCHEDULED,
            "PAGA" => &text::STATE_PAID,
            "CANCELADA" => &text::CANCELLED_F,
            "REJEITADA" => &text::ATTEMPT_REJECTED,
            "EXPIRADA" => &text::ATTEMPT_EXPIRED,
            other => return other.to_string(),
        };
        said.t(lang).to_string()
    }

    /// Why the payer's bank did not pay it, when it says: its words (Portuguese, as banks write
    /// them) and the catalogue's code.
    pub fn reason_text(&self, lang: crate::Lang) -> Option<String> {
        if self.reason.is_none() && self.reason_code.is_none() {
            return None;
        }
        let words = self.reason.as_deref().unwrap_or_default();
        let code = self.reason_code.as_deref().unwrap_or("?");
        Some(text::bank_declined(lang, words, code))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;

    fn rendered(v: &Violations) -> Vec<String> {
        v.render(Lang::PtBr).remove(FIELD).unwrap_or_default()
    }

    #[test]
    fn each_frequency_has_its_periodicity_or_none() {
        use Frequency::*;
        let map: Vec<_> = Frequency::ALL
            .iter()
            .map(|f| (*f, f.periodicidade().map(Periodicidade::as_str)))
            .collect();
        assert_eq!(
            map,
            vec![
                (Weekly, Some("SEMANAL")),
                (Fortweekly, None),
                (Monthly, Some("MENSAL")),
                (Bimonthly, None),
                (Quarterly, Some("TRIMESTRAL")),
                (Semester, Some("SEMESTRAL")),
                (Yearly, Some("ANUAL")),
            ]
        );
    }

    #[test]
    fn the_last_due_date_is_the_last_charges_whatever_ends_the_invoice() {
        use crate::plan::PeriodicEnd;
        let d = |s: &str| crate::Date::parse_iso(s).unwrap();
        let first = d("2027-01-31");
        let end = |date: Option<&str>, n: Option<u32>, sub: Option<&str>| {
            PeriodicEnd::new(date.map(d), n, sub)
        };
        let last = |f, e: &PeriodicEnd| last_due(first, Some(f), e).map(|d| d.to_string());
        use Frequency::*;
        // endInstallment: the nth charge's due date.
        assert_eq!(
            last(Monthly, &end(None, Some(3), None)).as_deref(),
            Some("2027-03-31")
        );
        assert_eq!(
            last(Weekly, &end(None, Some(1), None)).as_deref(),
            Some("2027-01-31")
        );
        // endDate: the last charge due on or before it, not the date itself.
        assert_eq!(
            last(Monthly, &end(Some("2027-06-30"), None, None)).as_deref(),
            Some("2027-06-30")
        );
        assert_eq!(
            last(Monthly, &end(Some("2027-06-29"), None, None)).as_deref(),
            Some("2027-05-31")
        );
        assert_eq!(
            last(Weekly, &end(Some("2027-02-20"), None, None)).as_deref(),
            Some("2027-02-14")
        );
        // Whichever comes first.
        assert_eq!(
            last(Monthly, &end(Some("2027-06-30"), Some(3), None)).as_deref(),
            Some("2027-03-31")
        );
        // A subscription ended by an ISO date in endSubscription (the scheduler's rule too).
        assert_eq!(
            last(Quarterly, &end(None, None, Some(" 2027-12-31 "))).as_deref(),
            Some("2027-10-31")
        );
        assert_eq!(
            last(Monthly, &end(Some("2027-03-01"), None, Some("2027-12-31"))).as_deref(),
            Some("2027-02-28")
        );
        // An endSubscription that is no date ends nothing; nothing at all: until cancelled.
        assert_eq!(
            last(Yearly, &end(None, None, Some("when the customer asks"))),
            None
        );
        assert_eq!(last(Yearly, &end(None, None, None)), None);
        assert_eq!(last(Yearly, &end(None, Some(0), None)), None);
        // An end before the first due date leaves the first charge (it exists whatever).
        assert_eq!(
            last(Monthly, &end(None, None, Some("2026-01-01"))).as_deref(),
            Some("2027-01-31")
        );
        assert_eq!(last_due(first, None, &end(None, Some(3), None)), None);
    }

    #[test]
    fn a_cycle_says_what_became_of_it_in_both_languages() {
        use crate::Lang::{En, PtBr};
        let attempt = |kind: &str, status: &str, why: Option<(&str, &str)>| CycleAttempt {
            date: "2027-01-10".into(),
            kind: kind.into(),
            status: status.into(),
            reason_code: why.map(|w| w.0.to_string()),
            reason: why.map(|w| w.1.to_string()),
        };
        let rejected = attempt("AGND", "REJEITADA", Some(("AM02", "Saldo insuficiente.")));
        assert_eq!(
            rejected.reason_text(PtBr).unwrap(),
            "O banco do pagador recusou: “Saldo insuficiente.” (código AM02)"
        );
        assert!(rejected
            .reason_text(En)
            .unwrap()
            .starts_with("The payer's bank declined it"));
        assert_eq!(rejected.status_text(En), "Rejected");
        assert_eq!(rejected.kind_text(PtBr), "No vencimento");
        assert_eq!(attempt("RIFL", "PAGA", None).reason_text(En), None);
        let mut cycle = PixAutomaticoCycle {
            installment: 2,
            due_date: "2027-01-10".into(),
            status: "ATIVA".into(),
            attempts: vec![rejected, attempt("RIFL", "AGENDADA", None)],
            reasons: vec![],
        };
        assert_eq!(
            cycle.outcome(En),
            "Another attempt scheduled at the payer's bank"
        );
        cycle.status = "REJEITADA".into();
        assert!(cycle
            .outcome(PtBr)
            .ends_with("a parcela voltou para a página de pagamento"));
        cycle.status = "RECUSADA".into();
        cycle.reasons = vec!["Recorrência cancelada.".into()];
        assert_eq!(
            cycle.outcome(En),
            "Refused by the bank when sent (Recorrência cancelada.); the installment is back on the payment page"
        );
    }

    #[test]
    fn statuses_read_as_they_are_written() {
        for s in PixAutomaticoStatus::ALL {
            let wire = serde_json::to_value(s).unwrap();
            assert_eq!(wire.as_str(), Some(s.as_str()));
            assert_eq!(PixAutomaticoStatus::parse(s.as_str()), Some(*s));
        }
        assert_eq!(PixAutomaticoStatus::parse("CANCELLED"), None);
    }

    #[test]
    fn retries_choose_the_policy() {
        let ok = |retries| {
            check_request(
                &mut Violations::default(),
                Some(&PixAutomaticoRequest { retries }),
                Some(InvoiceType::Recurring),
                Some(Frequency::Monthly),
                &[PaymentType::Pix],
                false,
            )
            .map(|p| p.retry_policy.as_str())
        };
        assert_eq!(ok(Some(true)), Some("PERMITE_3R_7D"));
        assert_eq!(ok(Some(false)), Some("NAO_PERMITE"));
        assert_eq!(ok(None), Some("NAO_PERMITE"));
    }

    #[test]
    fn not_asked_is_nothing_to_check() {
        let mut v = Violations::default();
        let got = check_request(
            &mut v,
            None,
            Some(InvoiceType::Single),
            Some(Frequency::Bimonthly),
            &[PaymentType::Boleto],
            true,
        );
        assert_eq!(got, None);
        assert!(v.is_empty());
    }

    #[test]
    fn context_refusals_in_both_languages() {
        let v = check_context(Context::default()).unwrap_err();
        let pt = rendered(&v);
        assert_eq!(pt.len(), 3, "{pt:?}");
        assert!(pt[0].contains("--pix-api-url"));
        assert!(pt[1].contains("CNPJ"));
        assert!(pt[2].contains("CPF ou CNPJ"));
        let en = v.render(Lang::En).remove(FIELD).unwrap();
        assert!(en[2].starts_with("The customer needs a CPF or CNPJ"));
        // A CPF merchant is not a company; a malformed payer document is no document.
        let v = check_context(Context {
            api_pix: true,
            merchant_document: Some("52998224725"),
            payer_document: Some("123"),
        })
        .unwrap_err();
        assert_eq!(rendered(&v).len(), 2);
        assert!(check_context(Context {
            api_pix: true,
            merchant_document: Some("11222333000181"),
            payer_document: Some("52998224725"),
        })
        .is_ok());
    }
}
