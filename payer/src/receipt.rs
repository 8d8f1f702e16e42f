//! A paid installment's receipt (comprovante) on the payer page, with its PDF's link, and the
//! verification page `/r/{code}` (genuine, or nothing found): server-only HTML, the receipt's
//! lines as the model writes them (`paylink_model::receipt`).

use leptos::prelude::*;
use paylink_model::receipt::Receipt;
use paylink_model::Lang;

use crate::i18n::pick;

/// The receipt's lines as a definition list; a reversed one says so first.
fn lines(l: Lang, r: &Receipt) -> impl IntoView {
    let reversed = r.reversed.then(|| {
        view! { <p class="alert receipt-reversed" role="note" data-receipt-reversed="">{Receipt::reversed_note(l)}</p> }
    });
    let items = r
        .lines(l)
        .into_iter()
        .map(|(label, value)| {
            view! {
                <div>
                    <dt>{label}</dt>
                    <dd>{value}</dd>
                </div>
            }
        })
        .collect_view();
    view! {
        {reversed}
        <dl class="facts receipt-lines">{items}</dl>
    }
}

/// The receipt of one paid installment of invoice `id`, on its payer page.
#[component]
pub fn ReceiptCard(l: Lang, id: String, r: Receipt) -> impl IntoView {
    let lang = match l {
        Lang::PtBr => "",
        Lang::En => "?lang=en",
    };
    let href = format!(
        "/api/pay/{id}/installments/{}/receipt.pdf{lang}",
        r.installment
    );
    let title = format!(
        "{} · {} {}",
        Receipt::title(l),
        pick(l, "parcela", "installment"),
        r.installment
    );
    let label = title.clone();
    let n = r.installment;
    view! {
        <section class="receipt" aria-label=label data-receipt=n>
            <h2>{title}</h2>
            {lines(l, &r)}
            <p class="receipt-pdf">
                <a href=href download="">{pick(l, "Baixar comprovante (PDF)", "Download receipt (PDF)")}</a>
            </p>
        </section>
    }
}

/// `/r/{code}` of a receipt paylink issued: it is genuine, and what it says.
#[component]
pub fn ReceiptCheck(l: Lang, r: Receipt) -> impl IntoView {
    view! {
        <article class="card receipt-check">
            <h1>{pick(l, "Comprovante autêntico", "Genuine receipt")}</h1>
            <p class="receipt-genuine" role="status" data-receipt-genuine="">
                {pick(
                    l,
                    "Este comprovante foi emitido pela paylink e confere com o pagamento registrado:",
                    "paylink issued this receipt, and it matches the payment on record:",
                )}
            </p>
            {lines(l, &r)}
        </article>
    }
}

/// `/r/{code}` of anything else: nothing found, and nothing said about why.
#[component]
pub fn ReceiptUnknown(l: Lang) -> impl IntoView {
    view! {
        <div class="card">
            <h1>{pick(l, "Comprovante não encontrado", "Receipt not found")}</h1>
            <div class="alert" role="alert">
                <p>{pick(
                    l,
                    "Nenhum comprovante tem este código de verificação. Confira o código impresso no comprovante.",
                    "No receipt has this verification code. Check the code printed on the receipt.",
                )}</p>
            </div>
        </div>
    }
}
