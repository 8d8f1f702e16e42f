//! The payer page's interactive parts, the only code the browser gets
//! (`#[island]`; the rest of the crate is server-only HTML): a copy button,
//! the payment status that keeps the page current while an installment is
//! open, and the sandbox's payment, which tells the status to look at once.

// `#[island]`'s hydration entry (leptos's macro) forgets the mounted view on purpose: an
// island lives as long as the page.
#![allow(clippy::mem_forget)]

use paylink_text as text;
use std::time::Duration;

use leptos::prelude::*;
use paylink_model::{InstallmentStatus, Lang};
use paylink_ui::clipboard::copy;
use serde::Deserialize;

use crate::host::Host;

/// Copies `text` and says whether it worked, beside the button. Without
/// JavaScript a copy button could do nothing, so it stays `hidden` until the
/// island runs (the code itself is on the page, selectable).
#[island]
pub fn CopyButton(l: Lang, text: String, label: String) -> impl IntoView {
    let copied = RwSignal::new(None::<bool>);
    let live = RwSignal::new(false);
    Effect::new(move |_| live.set(true));
    view! {
        <button
            type="button"
            class="secondary"
            hidden=move || !live.get()
            on:click=move |_| copy(text.clone(), copied)
        >
            {label}
        </button>
        <span role="status" class="muted copy-status">
            {move || match copied.get() {
                Some(true) => text::COPIED.t(l),
                Some(false) => text::PAYER_COPY_FAILED.t(l),
                None => "",
            }}
        </span>
    }
}

/// What the payer should do now: while an installment is open, `children`
/// (how to pay it, rendered by the server), asked again with backoff (3 s,
/// then ×1.5 up to 30 s) from `GET /api/pay/{id}`; once the last one is
/// paid, the thanks and the way back to the merchant's site, followed after
/// 4 s. Each installment seen paid here is announced to the page
/// (`paylink:paid`); one paid with more to go reloads the page, whose server
/// renders the next installment's codes.
#[island]
pub fn PaymentStatus(
    l: Lang,
    id: String,
    /// An installment is waiting for payment (the server's `nextOpen`).
    open: bool,
    /// The installments already paid when the page was rendered.
    paid: Vec<u32>,
    /// The open installment's PIX code is still being made at the bank.
    pending: bool,
    redirect_to: Option<String>,
    children: Children,
) -> impl IntoView {
    let done = RwSignal::new(!open);
    let leaving = RwSignal::new(false);
    embed();
    let poke = Poke(Trigger::new());
    // The islands in `children` (the sandbox's payment) reach it.
    provide_context(poke);
    if open || pending {
        watch(Watch {
            id,
            paid,
            pending,
            redirect_to: redirect_to.clone(),
            done,
            leaving,
            poke,
            round: StoredValue::new(0),
        });
    }
    let back = redirect_to.map(|href| {
        view! {
            <p hidden=move || !done.get()>
                <a href=href target="_top">{text::BACK_TO_SITE.t(l)}</a>
            </p>
        }
    });
    view! {
        <div class="how" hidden=move || done.get()>{children()}</div>
        <p class="note" hidden=move || !done.get()>{text::ALL_PAID.t(l)}</p>
        <p role="status" class="muted">{move || leaving.get().then(|| text::PAID_NOW.t(l))}</p>
        {back}
    }
}

/// What the payment status watches for, and what it changes on the page
/// (read only in the browser).
#[derive(Clone)]
struct Watch {
    id: String,
    /// Installments already seen paid: a new one is announced.
    paid: Vec<u32>,
    /// Waiting for the bank's PIX code: its arrival reloads the page.
    pending: bool,
    redirect_to: Option<String>,
    done: RwSignal<bool>,
    leaving: RwSignal<bool>,
    /// Look now (a payment was just made on this page).
    poke: Poke,
    /// The current round of checks: a poke starts a new one, and the old
    /// round's timers stop.
    round: StoredValue<u32>,
}

/// Asks [`PaymentStatus`] to look at the invoice now, from an island inside it.
#[derive(Clone, Copy)]
pub struct Poke(Trigger);

/// The sandbox's "simulate payment": a form posted to the server (which
/// pays and sends the payer back to the page); with JavaScript the same
/// payment through `POST /api/pay/{id}/simulate`, and the page's status
/// looks at once (announcing `paylink:paid` as a real payment would).
#[island]
pub fn Simulate(l: Lang, id: String) -> impl IntoView {
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(false);
    let action = format!("/pay/{id}/simulate");
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        let Some(poke) = use_context::<Poke>() else {
            return; // the form goes to the server
        };
        ev.prevent_default();
        if !busy.get_untracked() {
            busy.set(true);
            simulate(id.clone(), poke, busy, failed);
        }
    };
    view! {
        <form method="post" action=action on:submit=on_submit>
            <button type="submit" class="secondary" aria-disabled=move || busy.get().then_some("true")>
                {text::SIMULATE.t(l)}
            </button>
            <span role="status" class="muted">{move || failed.get().then(|| text::RELOAD.t(l))}</span>
        </form>
    }
}

/// In embed.js's frame, the height and the theme follow the parent (see `host`).
fn embed() {
    Effect::new(|_| {
        let (host, options) = crate::host::here();
        crate::host::connect(host, options, |_| {});
    });
}

fn simulate(id: String, poke: Poke, busy: RwSignal<bool>, failed: RwSignal<bool>) {
    leptos::task::spawn_local(async move {
        let base = crate::host::api_base();
        let res = gloo_net::http::Request::post(&format!("{base}/api/pay/{id}/simulate"))
            .send()
            .await;
        // Read to its end, as every answer is: a body left unread keeps its request open.
        let ok = match res {
            Ok(r) => r.ok() && r.text().await.is_ok(),
            Err(_) => false,
        };
        failed.set(!ok);
        busy.set(false);
        if ok {
            poke.0.notify();
        }
    });
}

/// The part of `GET /api/pay/{id}` (the model's `PayerView`) this reads.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Seen {
    next_open: Option<u32>,
    installments: Vec<SeenInstallment>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SeenInstallment {
    installment: u32,
    status: InstallmentStatus,
    #[serde(default)]
    pix_pending: bool,
}

async fn fetch(id: &str, base: &str) -> Option<Seen> {
    let res = gloo_net::http::Request::get(&format!("{base}/api/pay/{id}"))
        .send()
        .await
        .ok()?;
    // Read to its end either way: a body left unread keeps its request open.
    let text = res.text().await.ok()?;
    if !res.ok() {
        return None;
    }
    // serde_json is in the bundle anyway: leptos reads each island's props with it.
    leptos::serde_json::from_str(&text).ok()
}

/// Starts asking once the island is hydrated (effects run only in the
/// browser), 3 s later; a poke starts a new round at once.
fn watch(w: Watch) {
    Effect::new(move |before: Option<()>| {
        w.poke.0.track();
        let round = w.round.get_value() + 1;
        w.round.set_value(round);
        let first = if before.is_some() { 0.0 } else { 3000.0 };
        schedule(first, 3000.0, round, w.clone());
    });
}

/// The check of `round` in `wait` ms; `delay` is the wait it stands for
/// (the next one is 1.5 times as long).
fn schedule(wait: f64, delay: f64, round: u32, w: Watch) {
    set_timeout(
        move || {
            if w.round.get_value() == round {
                leptos::task::spawn_local(check(delay, round, w));
            }
        },
        Duration::from_millis(wait as u64),
    );
}

async fn check(delay: f64, round: u32, w: Watch) {
    let next = (delay * 1.5).min(30_000.0);
    let Some(seen) = fetch(&w.id, &crate::host::api_base()).await else {
        return schedule(next, next, round, w);
    };
    let new: Vec<u32> = seen
        .installments
        .iter()
        .filter(|i| i.status == InstallmentStatus::Confirmed && !w.paid.contains(&i.installment))
        .map(|i| i.installment)
        .collect();
    let all_paid = seen.next_open.is_none();
    let (host, _) = crate::host::here();
    for n in &new {
        announce(host, &w.id, *n, all_paid);
    }
    let code_ready = w.pending && !seen.installments.iter().any(|i| i.pix_pending);
    if all_paid && !new.is_empty() {
        w.done.set(true);
        // In a frame or a merchant's element, the merchant's page decides
        // where to go (`paylink:paid`).
        if let Some(to) = w.redirect_to.filter(|_| matches!(host, Host::Page)) {
            w.leaving.set(true);
            set_timeout(
                move || {
                    let _ = window().location().assign(&to);
                },
                Duration::from_secs(4),
            );
        }
    } else if !new.is_empty() || code_ready {
        // The server renders the next installment's codes.
        host.go(&format!("/pay/{}", w.id));
    } else {
        schedule(next, next, round, w);
    }
}

/// `paylink:paid` for the page around (see `host`).
// Into its one caller, `check`: a smaller payer bundle (bench/widget-size).
#[inline]
fn announce(host: &Host, id: &str, installment: u32, all_paid: bool) {
    use wasm_bindgen::JsValue;
    host.emit(
        "paylink:paid",
        &[
            ("invoiceId", JsValue::from_str(id)),
            ("installment", JsValue::from(installment)),
            ("allPaid", JsValue::from(all_paid)),
        ],
    );
}
