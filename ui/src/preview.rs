//! The installment preview, the same in the merchant's invoice form and on a payment link's
//! page: the plan `paylink_model::installment_plan` gives (the function the server uses), as a
//! table with its total, or why there is none yet.

use leptos::either::Either;
use leptos::prelude::*;
use paylink_model::money::format_brl;
use paylink_model::{Lang, PlannedInstallment};
use paylink_text as text;

/// The preview of `rows` (the form's plan); `empty` says what to fill in when there are none.
#[component]
pub fn InstallmentPreview(
    l: Lang,
    rows: Memo<Vec<PlannedInstallment>>,
    empty: &'static str,
) -> impl IntoView {
    let body = move || {
        let rows = rows.get();
        if rows.is_empty() {
            return Either::Left(view! { <p class="muted">{empty}</p> });
        }
        let total: i64 = rows.iter().map(|r| r.price_cents).sum();
        let rows = rows
            .into_iter()
            .map(|r| {
                view! {
                    <tr>
                        <th scope="row">{r.number}</th>
                        <td>{r.due_date.format_for(l)}</td>
                        <td class="num">{format_brl(r.price_cents, l)}</td>
                    </tr>
                }
            })
            .collect_view();
        Either::Right(view! {
            <div class="table-wrap">
                <table class="installments">
                    <caption>{text::PREVIEW.t(l)}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{text::INSTALLMENT.t(l)}</th>
                            <th scope="col">{text::DUE_DATE.t(l)}</th>
                            <th scope="col" class="num">{text::AMOUNT.t(l)}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                    <tfoot>
                        <tr>
                            <th scope="row">{text::TOTAL.t(l)}</th>
                            <td></td>
                            <td class="num">{format_brl(total, l)}</td>
                        </tr>
                    </tfoot>
                </table>
            </div>
        })
    };
    view! {
        <section class="preview" aria-label=text::PREVIEW.t(l)>
            <h2>{text::PREVIEW.t(l)}</h2>
            {body}
        </section>
    }
}
