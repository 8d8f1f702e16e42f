//! Two notices of the payer page (issue 41): Pix at night (a person's bank may cap a Pix at
//! R$ 1.000,00 between 20h and 6h; the model's `pix_night` decides when), pointing to the boleto
//! when the installment has one; and, for a reversed installment the payer may pay again (the
//! model's `reversal`), the offer to do so: a form posted to `/pay/{id}/installments/{n}/pay-again`,
//! without JavaScript. Their own file (their words in the catalog, `paylink_text::payer`), so the
//! page's other parts stay as they are.

use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::pix_night::NIGHT_LIMIT_CENTS;
use paylink_model::Lang;
use paylink_text as text;

/// Pix at night: why the payer's bank may refuse the Pix, and the boleto when there is one.
pub fn pix_at_night(l: Lang, boleto: bool) -> impl IntoView {
    let limit = format_brl(NIGHT_LIMIT_CENTS, l);
    let why = text::pix_night_limit(l, &limit);
    let instead = if boleto {
        text::PIX_NIGHT_BOLETO.t(l)
    } else {
        text::PIX_NIGHT_LATER.t(l)
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
        <section class="pay-again" aria-label=text::PAY_AGAIN.t(l) data-pay-again=n>
            <h2>{text::PAYMENT_RETURNED.t(l)}</h2>
            <p>
                {text::PAYMENT_RETURNED_NOTE.t(l)}
            </p>
            <form method="post" action=format!("/pay/{id}/installments/{n}/pay-again")>
                <button type="submit" class="primary">{text::PAY_AGAIN.t(l)}</button>
            </form>
        </section>
    }
}
