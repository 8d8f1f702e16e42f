//! The merchant's actions on an invoice's detail (`/invoices/:id`): cancel
//! it, record an installment paid outside paylink (amount and date), send
//! the charge to the payer again. Each opens an inline confirm step (a
//! `<form>` whose `<button type="submit">` acts; Escape or "Voltar" closes
//! it and gives the focus back to the button that opened it), shows its
//! pending state, then the outcome in a status line the focus moves to.
//!
//! The panel lives beside the detail, not inside it: the detail is drawn
//! again on every poll while an installment waits, which would throw away a
//! half-typed payment and the focus.

mod offer;

pub use offer::{installment_payment_request, payment_request, Offer, Step};
use offer::{step_request, today};

use leptos::prelude::*;
use paylink_model::actions::ManualPaymentRequest;
use paylink_model::money::format_brl_input;
use paylink_model::Lang;
use paylink_text as text;
use paylink_ui::confirm::ConfirmStep;

use crate::api;
use crate::Ctx;
use crate::{focus, focus_later};
use paylink_ui::field::{AlertBox, AmountField, DateField};
use paylink_ui::form::Form;

/// What an action did, for the status line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Done {
    Cancelled,
    /// The notifications queued again.
    Resent(usize),
    /// Installment `n` recorded as paid.
    Paid(u32),
}

impl Done {
    fn text(self, l: Lang) -> String {
        match self {
            Done::Cancelled => text::CANCELLED.t(l).to_string(),
            Done::Resent(queued) => text::resent(l, queued),
            Done::Paid(n) => text::paid_installment(l, n),
        }
    }
}

/// The actions panel of invoice `id`. `offer`: `None` while loading, after a
/// failed load and once cancelled; `refetch` asks for the detail again.
#[component]
pub fn InvoiceActions(
    id: String,
    #[prop(into)] offer: Signal<Option<Offer>>,
    refetch: Callback<()>,
) -> impl IntoView {
    let lang = expect_context::<Ctx>().lang;
    let client = api::use_client();
    let id = StoredValue::new(id);
    // The step the merchant opened; the one shown is derived from it and the
    // offer: a step the invoice no longer allows (paid elsewhere meanwhile)
    // is closed.
    let opened = RwSignal::new(Step::Closed);
    let step = Memo::new(move |_| {
        let s = opened.get();
        let allowed = offer.with(|o| o.as_ref().map_or(s == Step::Closed, |o| o.allows(s)));
        if allowed {
            s
        } else {
            Step::Closed
        }
    });
    // What the last action did and why a step failed, kept as facts and
    // worded in the language shown (they follow a switch).
    let notice = RwSignal::new(None::<Done>);
    let step_error = RwSignal::new(None::<api::Error>);
    let amount = RwSignal::new(String::new());
    let paid_on = RwSignal::new(String::new());
    let form = Form::new(
        "action-step",
        lang,
        move |l| {
            step_request(
                offer.get_untracked(),
                step.get_untracked(),
                &amount.get_untracked(),
                &paid_on.get_untracked(),
                l,
            )
            .err()
            .unwrap_or_default()
        },
        |p| matches!(p, "amount" | "paidOn").then(|| p.to_string()),
    );

    // The status line is always in the page: it takes the focus before the
    // step it replaces goes (see `close`).
    let done = move |what: Done| {
        notice.set(Some(what));
        focus("#action-notice");
        opened.set(Step::Closed);
    };
    let cancel = Action::new_local(move |l: &Lang| {
        let l = *l;
        async move {
            match client.cancel_invoice(&id.get_value(), l).await {
                Ok(()) => {
                    done(Done::Cancelled);
                    refetch.run(());
                }
                Err(e) => step_error.set(Some(e)),
            }
        }
    });
    let resend = Action::new_local(move |l: &Lang| {
        let l = *l;
        async move {
            match client.resend_invoice(&id.get_value(), l).await {
                Ok(r) => done(Done::Resent(r.queued)),
                Err(e) => step_error.set(Some(e)),
            }
        }
    });
    let pay = Action::new_local(move |(n, req, l): &(u32, ManualPaymentRequest, Lang)| {
        let (n, req, l) = (*n, req.clone(), *l);
        async move {
            match client.record_payment(&id.get_value(), n, &req, l).await {
                Ok(_) => {
                    done(Done::Paid(n));
                    refetch.run(());
                }
                Err(e) => form.server_error(&e),
            }
        }
    });
    let busy = Signal::derive(move || {
        cancel.pending().get() || resend.pending().get() || pay.pending().get()
    });

    let open = move |s: Step| {
        step_error.set(None);
        form.errors.set(Default::default());
        form.set_alert(None);
        if let Step::Pay(n) = s {
            let cents = offer
                .get_untracked()
                .and_then(|o| o.pay.iter().find(|(m, _)| *m == n).map(|(_, c)| *c))
                .unwrap_or(0);
            amount.set(format_brl_input(cents));
            paid_on.set(today().to_string());
            focus_later("#action-step [name=amount]".into());
        } else {
            focus_later("#action-step button[type=submit]".into());
        }
        notice.set(None);
        opened.set(s);
    };
    // The opener is focused before the step goes: were the step removed
    // first, the focus would fall to <body> for a frame, and a screen reader
    // would announce the page instead of the button.
    let close = move || {
        focus(&format!("#{}", step.get_untracked().opener()));
        opened.set(Step::Closed);
    };
    let close_step = Callback::new(move |()| close());
    let on_submit = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        let l = lang.get_untracked();
        match step.get_untracked() {
            Step::Closed => {}
            Step::Cancel => {
                step_error.set(None);
                cancel.dispatch_local(l);
            }
            Step::Resend => {
                step_error.set(None);
                resend.dispatch_local(l);
            }
            Step::Pay(n) => {
                if form.submit() {
                    if let Ok(req) = step_request(
                        offer.get_untracked(),
                        Step::Pay(n),
                        &amount.get_untracked(),
                        &paid_on.get_untracked(),
                        l,
                    ) {
                        pay.dispatch_local((n, req, l));
                    }
                }
            }
        }
    };

    // The open step: its question, its fields (a payment) and its buttons.
    let step_view = move || {
        let l = lang.get();
        let s = step.get();
        let (question, confirm) = match s {
            Step::Closed => return None,
            Step::Cancel => (text::CANCEL_ASK.t(l).to_string(), text::CANCEL_CONFIRM.t(l)),
            Step::Resend => (text::RESEND_ASK.t(l).to_string(), text::RESEND_CONFIRM.t(l)),
            Step::Pay(n) => (
                format!("{}: {}", text::pay_of(l, n), text::PAY_ASK.t(l)),
                text::PAY_CONFIRM.t(l),
            ),
        };
        let fields = matches!(s, Step::Pay(_)).then(|| {
            view! {
                <AlertBox form />
                <div class="cols">
                    <AmountField form name="amount" label=text::PAY_AMOUNT.t(l) value=amount />
                    <DateField form name="paidOn" label=text::PAID_ON.t(l) value=paid_on l required=true />
                </div>
            }
        });
        Some(view! {
            <ConfirmStep
                id="action-step"
                l
                lang
                question
                confirm
                busy
                error=step_error
                on_submit
                close=close_step
            >
                {fields}
            </ConfirmStep>
        })
    };

    // The buttons the invoice's state allows.
    let buttons = move || {
        let l = lang.get();
        let o = offer.get()?;
        if o.is_empty() {
            return Some(view! { <p class="muted">{text::NO_ACTIONS.t(l)}</p> }.into_any());
        }
        let opener = move |s: Step, text: String, class: &'static str| {
            view! {
                <button
                    type="button"
                    id=s.opener()
                    class=class
                    aria-expanded=move || if step.get() == s { "true" } else { "false" }
                    aria-controls="action-step"
                    on:click=move |_| open(s)
                >
                    {text}
                </button>
            }
        };
        let pays = o
            .pay
            .iter()
            .map(|(n, _)| opener(Step::Pay(*n), text::pay_of(l, *n), "secondary"))
            .collect_view();
        Some(view! {
            <div class="actions">
                {pays}
                {o.resend.then(|| opener(Step::Resend, text::RESEND.t(l).to_string(), "secondary"))}
                {o.cancel.then(|| opener(Step::Cancel, text::CANCEL.t(l).to_string(), "secondary danger"))}
            </div>
        }
        .into_any())
    };

    let shown = move || offer.with(Option::is_some) || notice.with(Option::is_some);
    view! {
        <section class="card invoice-actions" aria-labelledby="actions-h" hidden=move || !shown()>
            <h2 id="actions-h">{move || text::ACTIONS.t(lang.get())}</h2>
            <p id="action-notice" class="note" role="status" tabindex="-1">
                {move || notice.get().map(|d| d.text(lang.get()))}
            </p>
            {buttons}
            {step_view}
        </section>
    }
}
