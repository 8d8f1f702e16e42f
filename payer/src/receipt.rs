//! A paid installment's receipt (comprovante) on the payer page, with its PDF's link, and the
//! verification page `/r/{code}` (genuine, or nothing found): server-only HTML, the receipt's
//! lines as the model writes them (`paylink_model::receipt`).

use leptos::prelude::*;
use paylink_model::receipt::Receipt;
use paylink_model::Lang;
use paylink_text as text;

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
        "{} · {}",
        Receipt::title(l),
        text::receipt_installment(l, r.installment)
    );
    let label = title.clone();
    let n = r.installment;
    view! {
        <section class="receipt" aria-label=label data-receipt=n>
            <h2>{title}</h2>
            {lines(l, &r)}
            <p class="receipt-pdf">
                <a href=href download="">{text::DOWNLOAD_RECEIPT.t(l)}</a>
            </p>
        </section>
    }
}

/// `/r/{code}` of a receipt paylink issued: it is genuine, and what it says.
#[component]
pub fn ReceiptCheck(l: Lang, r: Receipt) -> impl IntoView {
    view! {
        <article class="card receipt-check">
            <h1>{text::RECEIPT_GENUINE.t(l)}</h1>
            <p class="receipt-genuine" role="status" data-receipt-genuine="">
                {text::RECEIPT_GENUINE_NOTE.t(l)}
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
            <h1>{text::RECEIPT_NOT_FOUND.t(l)}</h1>
            <div class="alert" role="alert">
                <p>{text::RECEIPT_UNKNOWN_NOTE.t(l)}</p>
            </div>
        </div>
    }
}
