//! The notifications and webhooks editors of the invoice form: rows that
//! can be added and removed, with `name`s `notifications[i].type` etc.

use leptos::prelude::*;
use paylink_model::{
    Channel, HookType, Lang, NotificationRequest, NotificationType, WebhookRequest,
    MAX_NOTIFICATIONS, MAX_WEBHOOKS,
};
use wasm_bindgen::JsCast;
use web_sys::{Event, Node};

use crate::components::field::{field, select, Kind, Opts};
use crate::dom::{doc, frag, h, region};
use crate::form::{field_id, shift_rows, Form};
use crate::i18n::{self, K};

/// Trimmed text, `None` when blank.
pub fn trimmed(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty()).then(|| v.to_string())
}

/// A whole number typed in a field: `Ok(None)` when blank, `Err` when not a number.
pub(crate) fn whole(v: &str) -> Result<Option<i64>, ()> {
    let v = v.trim();
    if v.is_empty() {
        Ok(None)
    } else {
        v.parse().map(Some).map_err(|_| ())
    }
}

/// One notification row. Reference-counted signals: the row outlives the
/// views that show it (the list re-renders when a row is added or removed).
#[derive(Clone)]
pub struct NotificationRow {
    pub kind: ArcRwSignal<String>,
    pub channel: ArcRwSignal<String>,
    pub period: ArcRwSignal<String>,
}

impl Default for NotificationRow {
    fn default() -> Self {
        NotificationRow {
            kind: ArcRwSignal::new(NotificationType::SendInvoiceReminder.as_str().to_string()),
            channel: ArcRwSignal::new(Channel::Email.as_str().to_string()),
            period: ArcRwSignal::new(String::new()),
        }
    }
}

impl NotificationRow {
    /// Whether the `period` input applies (model: `NotificationType::takes_period`).
    pub fn takes_period(&self) -> bool {
        takes_period(&self.kind.get_untracked())
    }

    /// The request item, and whether the period typed is not a whole number.
    pub fn request(&self) -> (NotificationRequest, bool) {
        let (period, bad) = if self.takes_period() {
            match self.period.with_untracked(|p| whole(p)) {
                Ok(p) => (p, false),
                Err(()) => (None, true),
            }
        } else {
            (None, false)
        };
        let req = NotificationRequest {
            kind: self.kind.with_untracked(|v| trimmed(v)),
            channel: self.channel.with_untracked(|v| trimmed(v)),
            period,
        };
        (req, bad)
    }
}

fn takes_period(kind: &str) -> bool {
    NotificationType::parse(kind).is_some_and(NotificationType::takes_period)
}

#[derive(Clone)]
pub struct WebhookRow {
    pub hook_type: ArcRwSignal<String>,
    pub url: ArcRwSignal<String>,
}

impl Default for WebhookRow {
    fn default() -> Self {
        WebhookRow {
            hook_type: ArcRwSignal::new(HookType::PaymentConfirmed.as_str().to_string()),
            url: ArcRwSignal::new(String::new()),
        }
    }
}

impl WebhookRow {
    pub fn request(&self) -> WebhookRequest {
        WebhookRequest {
            hook_type: self.hook_type.with_untracked(|v| trimmed(v)),
            url: self.url.with_untracked(|v| trimmed(v)),
        }
    }
}

/// Focuses the element with `id` once the DOM has caught up.
fn focus_later(id: String) {
    let f = wasm_bindgen::closure::Closure::once_into_js(move || {
        if let Some(el) = doc().get_element_by_id(&id) {
            if let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.request_animation_frame(f.unchecked_ref());
    }
}

/// Adds a row (up to `max`) and focuses its first control.
fn add_row<T: Default + Send + Sync + 'static>(rows: RwSignal<Vec<T>>, max: usize, first: &str) {
    let n = rows.with_untracked(Vec::len);
    if n < max {
        rows.update(|v| v.push(T::default()));
        focus_later(field_id(&format!(
            "{first}[{n}].{}",
            if first == "webhooks" {
                "hookType"
            } else {
                "type"
            }
        )));
    }
}

/// Removes row `i`, renumbers the errors shown on later rows, and puts the
/// focus on the editor's add button (the removed button is gone).
fn remove_row<T: Send + Sync + 'static>(
    form: Form,
    rows: RwSignal<Vec<T>>,
    list: &'static str,
    i: usize,
) {
    rows.update(|v| {
        if i < v.len() {
            v.remove(i);
        }
    });
    form.errors.update(|m| shift_rows(m, list, i));
    focus_later(format!("add-{list}"));
}

fn options<T: Copy>(
    all: &[T],
    wire: fn(T) -> &'static str,
    text: impl Fn(T) -> &'static str,
) -> Vec<(&'static str, &'static str)> {
    all.iter().map(|t| (wire(*t), text(*t))).collect()
}

/// An editor's `<fieldset>`: its rows (rendered again when a row is added
/// or removed) and the add button, disabled at `max` rows.
fn editor<T: Clone + Default + Send + Sync + 'static>(
    legend: &'static str,
    rows: RwSignal<Vec<T>>,
    list: &'static str,
    max: usize,
    add_label: &'static str,
    row: impl Fn(usize, T) -> Node + 'static,
) -> Node {
    let list_view = region(move || {
        let all = rows.get();
        untrack(|| {
            Some(frag(
                all.into_iter()
                    .enumerate()
                    .map(|(i, r)| row(i, r))
                    .collect(),
            ))
        })
    });
    let add = h("button")
        .attr("type", "button")
        .id(&format!("add-{list}"))
        .class("secondary")
        .flag_attr("disabled", "", move || rows.with(|v| v.len() >= max))
        .on("click", move |_| add_row(rows, max, list))
        .c("+ ")
        .c(add_label);
    h("fieldset")
        .class("group editor")
        .c(h("legend").c(legend))
        .c(list_view)
        .c(add)
        .into_node()
}

/// A row's `<fieldset>` with its legend ("Notificação 2"), controls and remove button.
fn row_box(l: Lang, title: String, controls: Vec<Node>, remove: impl Fn(Event) + 'static) -> Node {
    h("fieldset")
        .class("row")
        .c(h("legend").c(title.as_str()))
        .cs(controls)
        .c(h("button")
            .attr("type", "button")
            .class("link remove")
            .attr("aria-label", &format!("{} {}", K::Remove.t(l), title))
            .on("click", remove)
            .c(K::Remove.t(l)))
        .into_node()
}

pub fn notifications_editor(l: Lang, form: Form, rows: RwSignal<Vec<NotificationRow>>) -> Node {
    editor(
        K::Notifications.t(l),
        rows,
        "notifications",
        MAX_NOTIFICATIONS,
        K::AddNotification.t(l),
        move |i, row| notification_row(l, form, rows, i, row),
    )
}

fn notification_row(
    l: Lang,
    form: Form,
    rows: RwSignal<Vec<NotificationRow>>,
    i: usize,
    row: NotificationRow,
) -> Node {
    let kind = RwSignal::from(row.kind);
    let channel = RwSignal::from(row.channel);
    let period = RwSignal::from(row.period);
    let title = format!("{} {}", K::NotificationN.t(l), i + 1);
    let period_name = format!("notifications[{i}].period");
    let period_field = region(move || {
        takes_period(&kind.get()).then(|| {
            untrack(|| {
                field(
                    form,
                    &period_name,
                    K::PeriodDays.t(l),
                    period,
                    Opts {
                        kind: Kind::Number,
                        inputmode: "numeric",
                        placeholder: "5",
                        ..Opts::default()
                    },
                )
            })
        })
    });
    let controls = vec![
        select(
            form,
            &format!("notifications[{i}].type"),
            K::NotificationType.t(l),
            kind,
            options(NotificationType::ALL, NotificationType::as_str, |t| {
                i18n::notification_type(l, t)
            }),
            "",
            true,
        ),
        select(
            form,
            &format!("notifications[{i}].channel"),
            K::Channel.t(l),
            channel,
            options(Channel::ALL, Channel::as_str, |c| i18n::channel(l, c)),
            "",
            true,
        ),
        period_field,
    ];
    row_box(l, title, controls, move |_| {
        remove_row(form, rows, "notifications", i)
    })
}

pub fn webhooks_editor(l: Lang, form: Form, rows: RwSignal<Vec<WebhookRow>>) -> Node {
    editor(
        K::Webhooks.t(l),
        rows,
        "webhooks",
        MAX_WEBHOOKS,
        K::AddWebhook.t(l),
        move |i, row| webhook_row(l, form, rows, i, row),
    )
}

fn webhook_row(
    l: Lang,
    form: Form,
    rows: RwSignal<Vec<WebhookRow>>,
    i: usize,
    row: WebhookRow,
) -> Node {
    let title = format!("{} {}", K::WebhookN.t(l), i + 1);
    let controls = vec![
        select(
            form,
            &format!("webhooks[{i}].hookType"),
            K::HookType.t(l),
            RwSignal::from(row.hook_type),
            options(HookType::ALL, HookType::as_str, |h| i18n::hook_type(l, h)),
            "",
            true,
        ),
        field(
            form,
            &format!("webhooks[{i}].url"),
            K::WebhookUrl.t(l),
            RwSignal::from(row.url),
            Opts {
                kind: Kind::Url,
                required: true,
                placeholder: "https://",
                ..Opts::default()
            },
        ),
    ];
    row_box(l, title, controls, move |_| {
        remove_row(form, rows, "webhooks", i)
    })
}
