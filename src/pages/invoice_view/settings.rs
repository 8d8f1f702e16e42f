//! An invoice's detail, its settings: what was sent to the payer and where each send stands,
//! then the notification and webhook settings (the merchant's detail only).

use leptos::prelude::*;
use paylink_model::date::format_instant_brasilia;
use paylink_model::{InvoiceDetail, Lang, ProviderStatus};
use paylink_text as text;

use crate::components::installments::date_for;
use crate::components::table::{Cell, Table};
use crate::i18n;

/// What was sent to the payer (each send that is no longer only scheduled: channel, to whom
/// masked, when, where it stands, the provider's id, the last error), then the notification
/// and webhook settings (merchant detail only).
#[component]
pub(super) fn Settings(l: Lang, inv: InvoiceDetail) -> impl IntoView {
    let notifications: Vec<Vec<Cell>> = [
        &inv.notification_before_due_date,
        &inv.notification_after_due_date,
        &inv.notification_after_payment,
        &inv.notification_send_types,
    ]
    .into_iter()
    .flatten()
    .map(|n| {
        vec![
            Cell::new(i18n::notification_type(l, n.kind)),
            Cell::new(i18n::channel(l, n.channel)),
            Cell::num(n.period.map(|p| p.to_string()).unwrap_or_default()),
        ]
    })
    .collect();
    let webhooks: Vec<Vec<Cell>> = inv
        .webhooks
        .iter()
        .map(|w| {
            vec![
                Cell::new(i18n::hook_type(l, w.hook_type)),
                Cell {
                    class: "break",
                    ..Cell::new(w.url.clone())
                },
            ]
        })
        .collect();
    let sends: Vec<Vec<Cell>> = [
        &inv.notification_before_due_date,
        &inv.notification_after_due_date,
        &inv.notification_after_payment,
        &inv.notification_send_types,
    ]
    .into_iter()
    .flatten()
    .flat_map(|n| n.sends.iter().map(move |s| (n, s)))
    .filter(|(_, s)| s.status != "pending" || s.last_error.is_some())
    .map(|(n, s)| {
        let when = s.provider_status_at.as_deref().or(s.sent_at.as_deref());
        vec![
            Cell::new(i18n::notification_type(l, n.kind)),
            Cell::new(i18n::channel(l, s.channel.unwrap_or(n.channel))),
            Cell::new(s.to.clone().unwrap_or_else(|| "—".into())),
            Cell::new(
                when.map_or_else(|| date_for(&s.due_at, l), |w| format_instant_brasilia(w, l)),
            ),
            Cell {
                badge: send_badge(&s.status, s.provider_status),
                ..Cell::new(i18n::send_status(l, &s.status, s.provider_status))
            },
            Cell {
                class: "break",
                ..Cell::new(s.provider_id.clone().unwrap_or_default())
            },
            Cell {
                class: "break",
                ..Cell::new(s.last_error.clone().unwrap_or_default())
            },
        ]
    })
    .collect();
    view! {
        <SettingsSection
            l
            title=&text::NOTIFICATION_SENDS
            head=vec![
                (text::EVENT.t(l), ""),
                (text::CHANNEL.t(l), ""),
                (text::SENT_TO.t(l), ""),
                (text::WHEN.t(l), ""),
                (text::STATUS.t(l), ""),
                (text::PROVIDER_ID.t(l), ""),
                (text::LAST_ERROR.t(l), ""),
            ]
            rows=sends
        />
        <SettingsSection
            l
            title=&text::CONFIGURED_NOTIFICATIONS
            head=vec![(text::EVENT.t(l), ""), (text::CHANNEL.t(l), ""), (text::DAYS.t(l), "num")]
            rows=notifications
        />
        <SettingsSection l title=&text::CONFIGURED_WEBHOOKS head=vec![(text::EVENT.t(l), ""), ("URL", "")] rows=webhooks />
    }
}

/// The badge of a send's state: delivered or read as paid installments are shown, a
/// failure as a reversal, the rest as waiting.
fn send_badge(status: &str, provider: Option<ProviderStatus>) -> &'static str {
    match (provider, status) {
        (Some(ProviderStatus::Read | ProviderStatus::Delivered), _) => "badge confirmed",
        (Some(ProviderStatus::Failed), _) | (_, "failed") => "badge reversed",
        _ => "badge waiting",
    }
}

/// A settings table under its heading, or "none".
#[component]
fn SettingsSection(
    l: Lang,
    title: &'static text::Tr,
    head: Vec<(&'static str, &'static str)>,
    rows: Vec<Vec<Cell>>,
) -> impl IntoView {
    let title = title.t(l);
    let body = if rows.is_empty() {
        view! { <p class="muted">{text::NONE.t(l)}</p> }.into_any()
    } else {
        view! { <Table caption=title head rows /> }.into_any()
    };
    view! {
        <section aria-label=title>
            <h2>{title}</h2>
            {body}
        </section>
    }
}
