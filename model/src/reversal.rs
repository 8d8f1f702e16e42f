//! After a reversal: whether the payer of a `REVERSED` installment may pay it again. A Pix the
//! payer's bank returned as an operational failure (`MED_OPERACIONAL`), a Pix Automático dispute
//! or the receiver's own refund leaves the debt owed, so the payer page offers to pay again; a
//! return for suspected fraud (`MED_FRAUDE`) does not: the account that paid may not be the
//! payer's, and asking again would invite the same fraud.

use crate::enums::InstallmentStatus;
use crate::invoice::{Devolucao, DevolucaoNatureza, DevolucaoStatus};

/// Whether an installment with `status` and `devolucoes` may be paid again: `REVERSED`, and
/// none of what came back (`DEVOLVIDO`) was returned for fraud.
pub fn pay_again_offered(status: InstallmentStatus, devolucoes: &[Devolucao]) -> bool {
    status == InstallmentStatus::Reversed
        && !devolucoes.iter().any(|d| {
            d.status == DevolucaoStatus::Devolvido && d.natureza == DevolucaoNatureza::MedFraude
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn returned(natureza: DevolucaoNatureza, status: DevolucaoStatus) -> Devolucao {
        Devolucao {
            id: "D1".into(),
            end_to_end_id: "E1".into(),
            rtr_id: None,
            amount: 10_000,
            natureza,
            status,
            requested_at: None,
            settled_at: None,
        }
    }

    #[test]
    fn a_reversal_for_fraud_is_not_paid_again() {
        use DevolucaoNatureza::*;
        let done = DevolucaoStatus::Devolvido;
        for n in [Original, MedOperacional, MedPixAutomatico, Retirada] {
            assert!(
                pay_again_offered(InstallmentStatus::Reversed, &[returned(n, done)]),
                "{n:?}"
            );
        }
        assert!(!pay_again_offered(
            InstallmentStatus::Reversed,
            &[returned(MedFraude, done)]
        ));
        // A fraud claim among the returns is enough; one the bank did not carry out is not.
        let both = [returned(MedOperacional, done), returned(MedFraude, done)];
        assert!(!pay_again_offered(InstallmentStatus::Reversed, &both));
        let refused = [
            returned(MedOperacional, done),
            returned(MedFraude, DevolucaoStatus::NaoRealizado),
        ];
        assert!(pay_again_offered(InstallmentStatus::Reversed, &refused));
    }

    #[test]
    fn only_a_reversed_installment_is_paid_again() {
        let d = [returned(
            DevolucaoNatureza::MedOperacional,
            DevolucaoStatus::Devolvido,
        )];
        assert!(!pay_again_offered(InstallmentStatus::Confirmed, &d));
        assert!(!pay_again_offered(InstallmentStatus::WaitingPayment, &d));
    }
}
