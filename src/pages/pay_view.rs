//! `/pay/:id`: the payer's page, from `GET /api/pay/{id}` (the model's
//! `PayerView`: no document, e-mail, phone, notifications or webhooks).
//! Shows what is owed, how to pay the next open installment (PIX QR and
//! "copia e cola", boleto line), the installments and the payment link.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_params_map;
use paylink_model::money::format_brl;
use paylink_model::{InstallmentStatus, Lang, PayerInstallment, PayerView};

use crate::api;
use crate::components::installments::{date_for, Row};
use crate::components::poll::poll_while;
use crate::components::sections::{
    failed, Accepted, CopyButton, CopyStatus, Facts, Installments, Loading, PaymentLinkSection,
};
use crate::embed::{self, Host};
use crate::i18n::K;
use crate::Ctx;

/// The route: the payer page of the path's `:id`.
#[component]
pub fn PayPage() -> impl IntoView {
    let params = use_params_map();
    move || {
        let id = params.read().get("id").unwrap_or_default();
        view! { <PayView id /> }
    }
}

/// The payer page of invoice `id`: counts the visit, asks again while an
/// installment is open, tells the host page of each installment seen paid
/// (`paylink:paid`) and, once all are, goes back to the merchant's site.
#[component]
pub fn PayView(id: String) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let lang = ctx.lang;
    // Count the visit (best effort), once per page shown.
    {
        let id = id.clone();
        spawn_local(async move { api::record_view(&id).await });
    }
    let page = LocalResource::new(move || {
        let (id, l) = (id.clone(), lang.get());
        async move { api::get_pay(&id, l).await }
    });
    // A payment confirmed elsewhere (the bank, the CLI) shows up without a reload.
    poll_while(
        move || page.refetch(),
        move || {
            page.with_untracked(|r| {
                !matches!(
                    r,
                    Some(Err(_))
                        | Some(Ok(PayerView {
                            next_open: None,
                            ..
                        }))
                )
            })
        },
    );
    // Installments seen paid so far; `None` until the first answer, which is
    // the baseline (an invoice already paid when opened fires nothing).
    let seen = StoredValue::new(None::<Vec<u32>>);
    Effect::new(move |_| {
        page.with(|r| {
            if let Some(Ok(p)) = r {
                announce_paid(ctx, p, seen);
            }
        });
    });
    // The sandbox's "simulate a payment", then the page asks again.
    let simulate = Action::new_local(move |id: &String| {
        let id = id.clone();
        async move {
            let _ = api::simulate_payment(&id, lang.get_untracked()).await;
            page.refetch();
        }
    });
    view! {
        <Transition fallback=move || view! { <Loading l=lang.get_untracked() class="card muted skeleton" /> }>
            <ErrorBoundary fallback=failed(lang)>
                {move || Suspend::new(async move {
                    page.await.map(|p| view! { <PayBody l=lang.get_untracked() p simulate /> })
                })}
            </ErrorBoundary>
        </Transition>
    }
}

/// `paylink:paid` for each installment newly seen paid; after the last one,
/// back to the merchant's site.
fn announce_paid(ctx: Ctx, p: &PayerView, seen: StoredValue<Option<Vec<u32>>>) {
    let paid: Vec<u32> = p
        .installments
        .iter()
        .filter(|i| i.status == InstallmentStatus::Confirmed)
        .map(|i| i.installment)
        .collect();
    if let Some(before) = seen.get_value() {
        let new: Vec<u32> = paid
            .iter()
            .copied()
            .filter(|n| !before.contains(n))
            .collect();
        for n in &new {
            ctx.emit(
                "paylink:paid",
                &embed::detail(&[
                    ("invoiceId", p.id.as_str().into()),
                    ("installment", (*n).into()),
                    ("allPaid", p.next_open.is_none().into()),
                ]),
            );
        }
        // In the iframe, a redirect would load the merchant's site inside
        // the frame: the host page has `paylink:paid` and decides.
        let framed = ctx.host(|h| matches!(h, Host::Frame { .. }));
        if !new.is_empty() && p.next_open.is_none() && !framed {
            if let Some(to) = &p.redirect_to {
                redirect_soon(to.clone());
            }
        }
    }
    seen.set_value(Some(paid));
}

#[component]
fn PayBody(l: Lang, p: PayerView, simulate: Action<String, ()>) -> impl IntoView {
    let copied = RwSignal::new(None::<bool>);
    let mut facts: Vec<(&'static str, String, &'static str)> = vec![
        (
            K::Amount.t(l),
            if p.price_by_customer {
                K::AmountByPayer.t(l).to_string()
            } else {
                format_brl(p.price, l)
            },
            "amount",
        ),
        (K::Customer.t(l), p.customer_name.clone(), ""),
    ];
    if let Some(d) = &p.description {
        facts.push((K::Description.t(l), d.clone(), "wide description"));
    }

    // How to pay the next open installment.
    let next = p
        .next_open
        .and_then(|n| p.installments.iter().find(|i| i.installment == n))
        .cloned();
    let open = next.is_some();
    let how = match next {
        None => view! { <p class="note">{K::AllPaid.t(l)}</p> }.into_any(),
        Some(i) => view! { <HowToPay l id=p.id.clone() i copied /> }.into_any(),
    };

    let rows: Vec<Row> = p
        .installments
        .iter()
        .map(|i| Row::stated(i.installment, &i.due_date, i.price, i.price_paid, i.status))
        .collect();
    let busy = simulate.pending();
    let sandbox = (p.sandbox && open).then(|| {
        let id = p.id.clone();
        view! {
            <p>
                <button
                    type="button"
                    class="secondary"
                    aria-disabled=move || busy.get().then_some("true")
                    on:click=move |_| {
                        if !busy.get_untracked() {
                            simulate.dispatch_local(id.clone());
                        }
                    }
                >
                    {K::Simulate.t(l)}
                </button>
            </p>
        }
    });
    let back = p.redirect_to.clone().filter(|_| !open).map(|href| {
        view! {
            <p>
                <a href=href target="_top">{K::BackToSite.t(l)}</a>
            </p>
        }
    });

    view! {
        <article class="card invoice pay">
            <p class="muted">{K::InvoiceFrom.t(l)} " " <strong>{p.merchant_name.clone()}</strong></p>
            <h1>{K::Payment.t(l)}</h1>
            <Facts items=facts />
            <section aria-label=K::HowToPay.t(l)>
                <div class="how">{how}</div>
                <CopyStatus l copied />
                {sandbox}
                {back}
            </section>
            <Installments l rows />
            <Accepted l types=p.payment_types.clone() />
            <PaymentLinkSection l url=p.url copied />
        </article>
    }
}

/// The amount due today when fine, interest or discount change it, with
/// why in one line: `R$ 33,34 − desconto de R$ 5,00`.
fn due_today(l: Lang, i: &PayerInstallment) -> Option<impl IntoView> {
    let a = i.amount_due.as_ref().filter(|a| a.total != i.price)?;
    let mut why = format_brl(a.original, l);
    for (cents, sign, what) in [
        (a.discount, "−", K::DiscountOf),
        (a.fine, "+", K::FineOf),
        (a.interest, "+", K::InterestOf),
    ] {
        if cents > 0 {
            why += &format!(" {sign} {} {}", what.t(l), format_brl(cents, l));
        }
    }
    if a.late_days > 0 {
        why += &format!(" ({} {})", a.late_days, K::DaysLate.t(l));
    }
    Some(view! {
        <p class="due-today" data-amount-due="">
            {K::DueToday.t(l)} ": " <strong>{format_brl(a.total, l)}</strong> " · " {why}
        </p>
    })
}

/// How to pay installment `i`: the amount due today (fine, interest,
/// discount), PIX (QR code and copia-e-cola) and boleto (linha digitável,
/// barcode, the printable PDF), each with its copy button.
#[component]
fn HowToPay(
    l: Lang,
    id: String,
    i: PayerInstallment,
    copied: RwSignal<Option<bool>>,
) -> impl IntoView {
    let today = due_today(l, &i);
    let title = format!(
        "{} {} · {} · {} {}",
        K::InstallmentNo.t(l),
        i.installment,
        format_brl(i.price - i.price_paid, l),
        K::DueDate.t(l),
        date_for(&i.due_date, l)
    );
    // The two SVGs are set as markup: they are drawn by paylink's own server
    // (`paylink_model`'s QR and ITF-25 renderers) from the BR Code and the
    // barcode's digits, and contain no text anyone else wrote.
    // With a bank's API Pix, until the bank made the charge there is no code to show yet,
    // and none will come if the bank refused it (the payer is told, not why).
    let pending = (i.pix.is_none() && i.pix_pending).then(|| {
        view! {
            <div class="method">
                <h3>"PIX"</h3>
                <p class="pix-pending" role="status" data-pix-pending="">{K::PixPending.t(l)}</p>
            </div>
        }
    });
    let unavailable = (i.pix.is_none() && i.pix_unavailable).then(|| {
        view! {
            <div class="method">
                <h3>"PIX"</h3>
                <p class="pix-unavailable" data-pix-unavailable="">{K::PixUnavailable.t(l)}</p>
            </div>
        }
    });
    let pix = i.pix.map(|pix| {
        view! {
            <div class="method">
                <h3>"PIX"</h3>
                <div class="qr" role="img" aria-label=K::PixQr.t(l) inner_html=pix.qr_svg></div>
                <p class="label">{K::PixCode.t(l)}</p>
                <p class="code" data-pix-payload="">{pix.payload.clone()}</p>
                <CopyButton text=pix.payload label=K::CopyPix.t(l) copied />
            </div>
        }
    });
    // The PDF's address is on the proxy (known once its base is).
    let pdf = RwSignal::new(None::<String>);
    if i.boleto.is_some() {
        let n = i.installment;
        spawn_local(async move { pdf.set(Some(api::boleto_pdf_url(&id, n).await)) });
    }
    let pdf_links = move || {
        pdf.get().map(|href| {
            let print = format!("{href}?print=1");
            view! {
                <p class="boleto-pdf">
                    <a href=href download="">{K::BoletoPdf.t(l)}</a>
                    " · "
                    <a href=print target="_blank" rel="noopener">{K::BoletoPrint.t(l)}</a>
                </p>
            }
        })
    };
    let boleto = i.boleto.map(|b| {
        view! {
            <div class="method">
                <h3>"Boleto"</h3>
                <p class="label">{K::BoletoLine.t(l)}</p>
                <p class="code" data-boleto-line="">{b.line.clone()}</p>
                <div class="barcode" aria-hidden="true" inner_html=b.barcode_svg></div>
                <CopyButton text=b.line label=K::CopyBoleto.t(l) copied />
                {pdf_links}
            </div>
        }
    });
    view! {
        <h2>{title}</h2>
        {today}
        <div class="methods">{pix}{pending}{unavailable}{boleto}</div>
    }
}

/// After the last installment is paid here, back to the merchant's site
/// (`redirectTo`, an http(s) URL by the model's rule) in 4 s, time to read
/// the confirmation; the link on the page works at once.
fn redirect_soon(to: String) {
    set_timeout(
        move || {
            let _ = window().location().assign(&to);
        },
        std::time::Duration::from_secs(4),
    );
}
