//! The payer page's Pix Automático offer (issue 31): the composite code (QR, made on the server
//! like the PIX QR, and copia e cola in `[data-pix-automatico-payload]`) beside the terms the
//! payer agrees to by paying it: the contract, each cycle's amount, the periodicity, the first and
//! last dates, the retry policy, and that it can be cancelled in their bank app at any time; and
//! the note an installment the payer's bank pays shows instead of a code; and, for a payer who
//! declined the recurrence (or let it expire), the offer to authorize it again (a form posted to
//! `/pay/{id}/pix-automatico`, without JavaScript), then that the new code is being made. Its own
//! file (its words in the catalog, `paylink_text::pix_automatico`), so the page's other parts stay
//! as they are.

use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::pix_automatico::{Periodicidade, RetryPolicy};
use paylink_model::{Date, Lang, PayerPixAutomatico, PixAutomaticoAgain};
use paylink_text as text;

use crate::islands::CopyButton;

fn periodicity(l: Lang, p: Periodicidade) -> &'static str {
    match p {
        Periodicidade::Semanal => text::WEEKLY.t(l),
        Periodicidade::Mensal => text::MONTHLY.t(l),
        Periodicidade::Trimestral => text::QUARTERLY.t(l),
        Periodicidade::Semestral => text::SEMESTER.t(l),
        Periodicidade::Anual => text::YEARLY.t(l),
    }
}

fn retries(l: Lang, r: RetryPolicy) -> &'static str {
    match r {
        RetryPolicy::NaoPermite => text::RETRIES_NONE.t(l),
        RetryPolicy::Permite3r7d => text::RETRIES_UP_TO_3.t(l),
    }
}

fn date(l: Lang, iso: &str) -> String {
    Date::parse_iso_prefix(iso).map_or_else(|| iso.to_string(), |d| d.format_for(l))
}

/// The offer: what paying the composite code agrees to, and the code itself.
#[component]
pub fn PixAutomaticoOffer(l: Lang, a: PayerPixAutomatico) -> impl IntoView {
    let last = a
        .last_due
        .as_deref()
        .map_or_else(|| text::UNTIL_YOU_CANCEL.t(l).to_string(), |d| date(l, d));
    let facts = [
        (text::CONTRACT.t(l), a.contract.clone()),
        (text::EACH_CHARGE.t(l), format_brl(a.amount, l)),
        (
            text::PERIODICITY.t(l),
            periodicity(l, a.periodicity).to_string(),
        ),
        (text::FIRST_CHARGE.t(l), date(l, &a.first_due)),
        (text::LAST_CHARGE.t(l), last),
    ];
    // The SVG is markup drawn by paylink's own server (the model's QR renderer) from the
    // bank's code, with no text anyone else wrote.
    view! {
        <section
            class="pix-automatico"
            aria-label="Pix Automático"
            data-pix-automatico=if a.pays_first { "pay" } else { "authorize" }
        >
            <h2>"Pix Automático"</h2>
            <p>
                {if a.pays_first {
                    text::PAY_FIRST_AUTHORIZE_NEXT.t(l)
                } else {
                    text::AUTHORIZE_NEXT.t(l)
                }}
            </p>
            <dl class="facts">
                {facts
                    .into_iter()
                    .map(|(k, v)| view! { <div><dt>{k}</dt><dd>{v}</dd></div> })
                    .collect_view()}
            </dl>
            <ul class="terms" aria-label=text::PAYER_TERMS.t(l)>
                <li>{retries(l, a.retry_policy)}</li>
                <li>
                    {text::CANCEL_IN_BANK_APP.t(l)}
                </li>
            </ul>
            <div class="method">
                <div
                    class="qr"
                    role="img"
                    aria-label=text::PIX_AUTOMATICO_QR.t(l)
                    inner_html=a.qr_svg
                ></div>
                <p class="label">{text::PIX_AUTOMATICO_CODE.t(l)}</p>
                <p class="code" data-pix-automatico-payload="">{a.payload.clone()}</p>
                <p>
                    <CopyButton
                        l
                        text=a.payload
                        label=text::COPY_PIX_AUTOMATICO.t(l)
                            .to_string()
                    />
                </p>
            </div>
        </section>
    }
}

/// What an installment the payer's bank will pay says instead of a code.
pub fn cycle_note(l: Lang) -> impl IntoView {
    view! {
        <p class="pix-automatico-cycle" data-pix-automatico-cycle="">
            {text::PAID_BY_PIX_AUTOMATICO.t(l)}
        </p>
    }
}

/// A payer who declined the recurrence offered (or let it expire) may ask for a new one: a
/// form the server answers by making it (Jornada 3 while the first charge is open, else
/// Jornada 2), then this page with its code; meanwhile, that it is being made.
pub fn again(l: Lang, id: &str, again: PixAutomaticoAgain) -> impl IntoView {
    let why = match again {
        PixAutomaticoAgain::Declined => text::PIX_AUTOMATICO_DECLINED.t(l),
        PixAutomaticoAgain::Expired => text::PIX_AUTOMATICO_EXPIRED.t(l),
        PixAutomaticoAgain::Preparing => {
            return view! {
                <section class="pix-automatico" aria-label="Pix Automático" data-pix-automatico="preparing">
                    <h2>"Pix Automático"</h2>
                    <p role="status">
                        {text::PIX_AUTOMATICO_PREPARING.t(l)}
                    </p>
                    <p><a href=format!("/pay/{id}")>{text::RELOAD_PAGE.t(l)}</a></p>
                </section>
            }
            .into_any();
        }
    };
    view! {
        <section class="pix-automatico" aria-label="Pix Automático" data-pix-automatico="again">
            <h2>"Pix Automático"</h2>
            <p>{why}</p>
            <p>
                {text::ASK_NEW_CODE.t(l)}
            </p>
            <form method="post" action=format!("/pay/{id}/pix-automatico")>
                <button type="submit" class="primary">
                    {text::AUTHORIZE_PIX_AUTOMATICO.t(l)}
                </button>
            </form>
        </section>
    }
    .into_any()
}
