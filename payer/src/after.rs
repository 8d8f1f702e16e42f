//! Two notices of the payer page (issue 41): Pix at night (a person's bank may cap a Pix at
//! R$ 1.000,00 between 20h and 6h; the model's `pix_night` decides when), pointing to the boleto
//! when the installment has one; and, for a reversed installment the payer may pay again (the
//! model's `reversal`), the offer to do so: a form posted to `/pay/{id}/installments/{n}/pay-again`,
//! without JavaScript. Their own file (and words), so the page's other parts stay as they are.

use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::pix_night::NIGHT_LIMIT_CENTS;
use paylink_model::Lang;

use crate::i18n;

/// Pix at night: why the payer's bank may refuse the Pix, and the boleto when there is one.
pub fn pix_at_night(l: Lang, boleto: bool) -> impl IntoView {
    let limit = format_brl(NIGHT_LIMIT_CENTS, l);
    let why = match l {
        Lang::PtBr => format!(
            "Entre 20h e 6h, o seu banco pode limitar um Pix de pessoa física a {limit}: um Pix deste valor pode ser recusado agora."
        ),
        Lang::En => format!(
            "Between 8 pm and 6 am, your bank may limit a Pix by a person to {limit}: a Pix of this amount may be refused now."
        ),
    };
    let instead = if boleto {
        i18n::pick(
            l,
            "Você pode pagar pelo boleto abaixo, ou pagar o Pix depois das 6h.",
            "You can pay by the boleto below, or pay by Pix after 6 am.",
        )
    } else {
        i18n::pick(
            l,
            "Se o seu banco recusar, pague o Pix depois das 6h.",
            "If your bank refuses it, pay by Pix after 6 am.",
        )
    };
    view! {
        <div class="alert pix-night" role="note" data-pix-at-night=if boleto { "boleto" } else { "" }>
            <p>{why}</p>
            <p>{instead}</p>
        </div>
    }
}

/// The offer to pay reversed installment `n` again.
pub fn pay_again(l: Lang, id: &str, n: u32) -> impl IntoView {
    view! {
        <section class="pay-again" aria-label=i18n::pick(l, "Pagar novamente", "Pay again") data-pay-again=n>
            <h2>{i18n::pick(l, "Pagamento devolvido", "Payment returned")}</h2>
            <p>
                {i18n::pick(
                    l,
                    "O pagamento desta parcela foi devolvido e ela continua em aberto. Você pode pagá-la novamente.",
                    "The payment of this installment was returned, and it is still owed. You can pay it again.",
                )}
            </p>
            <form method="post" action=format!("/pay/{id}/installments/{n}/pay-again")>
                <button type="submit" class="primary">{i18n::pick(l, "Pagar novamente", "Pay again")}</button>
            </form>
        </section>
    }
}
