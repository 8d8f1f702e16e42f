//! The payer page's Pix Automático offer (issue 31): the composite code (QR, made on the server
//! like the PIX QR, and copia e cola in `[data-pix-automatico-payload]`) beside the terms the
//! payer agrees to by paying it: the contract, each cycle's amount, the periodicity, the first and
//! last dates, the retry policy, and that it can be cancelled in their bank app at any time; and
//! the note an installment the payer's bank pays shows instead of a code; and, for a payer who
//! declined the recurrence (or let it expire), the offer to authorize it again (a form posted to
//! `/pay/{id}/pix-automatico`, without JavaScript), then that the new code is being made. Its own
//! file (and words), so the page's other parts stay as they are.

use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::pix_automatico::{Periodicidade, RetryPolicy};
use paylink_model::{Date, Lang, PayerPixAutomatico, PixAutomaticoAgain};

use crate::i18n;
use crate::islands::CopyButton;

fn periodicity(l: Lang, p: Periodicidade) -> &'static str {
    match p {
        Periodicidade::Semanal => i18n::pick(l, "Semanal", "Weekly"),
        Periodicidade::Mensal => i18n::pick(l, "Mensal", "Monthly"),
        Periodicidade::Trimestral => i18n::pick(l, "Trimestral", "Quarterly"),
        Periodicidade::Semestral => i18n::pick(l, "Semestral", "Every six months"),
        Periodicidade::Anual => i18n::pick(l, "Anual", "Yearly"),
    }
}

fn retries(l: Lang, r: RetryPolicy) -> &'static str {
    match r {
        RetryPolicy::NaoPermite => i18n::pick(
            l,
            "Sem novas tentativas: um pagamento que falhar no vencimento não é cobrado de novo.",
            "No retries: a payment that fails on its due date is not tried again.",
        ),
        RetryPolicy::Permite3r7d => i18n::pick(
            l,
            "Se um pagamento falhar no vencimento, até 3 novas tentativas em até 7 dias.",
            "If a payment fails on its due date, up to 3 more tries within 7 days.",
        ),
    }
}

fn date(l: Lang, iso: &str) -> String {
    Date::parse_iso_prefix(iso).map_or_else(|| iso.to_string(), |d| d.format_for(l))
}

/// The offer: what paying the composite code agrees to, and the code itself.
#[component]
pub fn PixAutomaticoOffer(l: Lang, a: PayerPixAutomatico) -> impl IntoView {
    let last = a.last_due.as_deref().map_or_else(
        || i18n::pick(l, "até você cancelar", "until you cancel").to_string(),
        |d| date(l, d),
    );
    let facts = [
        (i18n::pick(l, "Contrato", "Contract"), a.contract.clone()),
        (
            i18n::pick(l, "Valor de cada cobrança", "Each charge"),
            format_brl(a.amount, l),
        ),
        (
            i18n::pick(l, "Periodicidade", "Frequency"),
            periodicity(l, a.periodicity).to_string(),
        ),
        (
            i18n::pick(l, "Primeira cobrança", "First charge"),
            date(l, &a.first_due),
        ),
        (i18n::pick(l, "Última cobrança", "Last charge"), last),
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
                    i18n::pick(
                        l,
                        "Pague a primeira cobrança com este código e autorize as próximas: o seu banco paga cada uma no vencimento, sem você precisar voltar aqui.",
                        "Pay the first charge with this code and authorize the next ones: your bank pays each on its due date, without you coming back here.",
                    )
                } else {
                    i18n::pick(
                        l,
                        "Autorize as próximas cobranças com este código (nada é pago agora): o seu banco paga cada uma no vencimento, sem você precisar voltar aqui.",
                        "Authorize the next charges with this code (nothing is paid now): your bank pays each on its due date, without you coming back here.",
                    )
                }}
            </p>
            <dl class="facts">
                {facts
                    .into_iter()
                    .map(|(k, v)| view! { <div><dt>{k}</dt><dd>{v}</dd></div> })
                    .collect_view()}
            </dl>
            <ul class="terms" aria-label=i18n::pick(l, "Condições", "Terms")>
                <li>{retries(l, a.retry_policy)}</li>
                <li>
                    {i18n::pick(
                        l,
                        "Você pode cancelar a autorização a qualquer momento no app do seu banco.",
                        "You can cancel the authorization at any time in your bank's app.",
                    )}
                </li>
            </ul>
            <div class="method">
                <div
                    class="qr"
                    role="img"
                    aria-label=i18n::pick(l, "QR code do Pix Automático", "Pix Automático QR code")
                    inner_html=a.qr_svg
                ></div>
                <p class="label">{i18n::pick(l, "Pix copia e cola", "Pix copy and paste")}</p>
                <p class="code" data-pix-automatico-payload="">{a.payload.clone()}</p>
                <p>
                    <CopyButton
                        l
                        text=a.payload
                        label=i18n::pick(l, "Copiar código do Pix Automático", "Copy the Pix Automático code")
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
            {i18n::pick(
                l,
                "Pago pelo Pix Automático: o seu banco paga esta parcela no vencimento.",
                "Paid through Pix Automático: your bank pays this installment on its due date.",
            )}
        </p>
    }
}

/// A payer who declined the recurrence offered (or let it expire) may ask for a new one: a
/// form the server answers by making it (Jornada 3 while the first charge is open, else
/// Jornada 2), then this page with its code; meanwhile, that it is being made.
pub fn again(l: Lang, id: &str, again: PixAutomaticoAgain) -> impl IntoView {
    let why = match again {
        PixAutomaticoAgain::Declined => i18n::pick(
            l,
            "Você recusou a autorização do Pix Automático no app do seu banco.",
            "You declined the Pix Automático authorization in your bank's app.",
        ),
        PixAutomaticoAgain::Expired => i18n::pick(
            l,
            "A autorização do Pix Automático expirou sem ser feita.",
            "The Pix Automático authorization expired before it was given.",
        ),
        PixAutomaticoAgain::Preparing => {
            return view! {
                <section class="pix-automatico" aria-label="Pix Automático" data-pix-automatico="preparing">
                    <h2>"Pix Automático"</h2>
                    <p role="status">
                        {i18n::pick(
                            l,
                            "Estamos gerando um novo código de autorização com o banco. Recarregue a página em alguns instantes.",
                            "A new authorization code is being made with the bank. Reload the page in a few moments.",
                        )}
                    </p>
                    <p><a href=format!("/pay/{id}")>{i18n::pick(l, "Recarregar", "Reload")}</a></p>
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
                {i18n::pick(
                    l,
                    "Se mudou de ideia, peça um novo código: autorizando, o seu banco paga cada cobrança no vencimento, e você pode cancelar quando quiser no app do banco.",
                    "If you changed your mind, ask for a new code: once you authorize it, your bank pays each charge on its due date, and you can cancel at any time in your bank's app.",
                )}
            </p>
            <form method="post" action=format!("/pay/{id}/pix-automatico")>
                <button type="submit" class="primary">
                    {i18n::pick(l, "Autorizar o Pix Automático", "Authorize Pix Automático")}
                </button>
            </form>
        </section>
    }
    .into_any()
}
