//! The notifications and webhooks editors of the invoice form: rows that
//! can be added and removed, with `name`s `notifications[i].type` etc. Each
//! list is a keyed `<For>` (a row's identity and its place): adding a row
//! leaves the rows drawn as they are, and removing one draws again only the
//! rows after it, whose names change.

use leptos::prelude::*;
use paylink_model::{
    Channel, HookType, InvoiceHookType, Lang, NotificationRequest, NotificationType,
    WebhookRequest, MAX_NOTIFICATIONS, MAX_WEBHOOKS,
};
use paylink_text as text;

use crate::i18n;
use paylink_ui::field::{Field, Kind, Select};
use paylink_ui::form::{field_id, shift_rows, Form};

/// A new row's identity (the `<For>` key, with its place).
fn next_row_id() -> usize {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

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
    pub id: usize,
    pub kind: ArcRwSignal<String>,
    pub channel: ArcRwSignal<String>,
    pub period: ArcRwSignal<String>,
}

impl Default for NotificationRow {
    fn default() -> Self {
        NotificationRow {
            id: next_row_id(),
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
    pub id: usize,
    pub hook_type: ArcRwSignal<String>,
    pub url: ArcRwSignal<String>,
}

impl Default for WebhookRow {
    fn default() -> Self {
        WebhookRow {
            id: next_row_id(),
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

/// Adds a row (up to `max`) and focuses its first control.
fn add_row<T: Default + Send + Sync + 'static>(rows: RwSignal<Vec<T>>, max: usize, list: &str) {
    let n = rows.with_untracked(Vec::len);
    if n < max {
        rows.update(|v| v.push(T::default()));
        let first = if list == "webhooks" {
            "hookType"
        } else {
            "type"
        };
        crate::focus_later(format!("#{}", field_id(&format!("{list}[{n}].{first}"))));
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
    crate::focus_later(format!("#add-{list}"));
}

fn options<T: Copy>(
    all: &[T],
    wire: fn(T) -> &'static str,
    text: impl Fn(T) -> &'static str,
) -> Vec<(String, String)> {
    all.iter()
        .map(|t| (wire(*t).into(), text(*t).into()))
        .collect()
}

/// The add button of an editor, disabled at `max` rows.
#[component]
fn AddButton<T: Default + Send + Sync + 'static>(
    rows: RwSignal<Vec<T>>,
    list: &'static str,
    max: usize,
    label: &'static str,
) -> impl IntoView {
    view! {
        <button
            type="button"
            id=format!("add-{list}")
            class="secondary"
            disabled=move || rows.with(|v| v.len() >= max)
            on:click=move |_| add_row(rows, max, list)
        >
            "+ "
            {label}
        </button>
    }
}

/// A row's `<fieldset>` with its legend ("Notificação 2"), controls and remove button.
#[component]
fn RowBox(
    l: Lang,
    title: String,
    on_remove: impl Fn() + 'static,
    children: Children,
) -> impl IntoView {
    view! {
        <fieldset class="row">
            <legend>{title.clone()}</legend>
            {children()}
            <button
                type="button"
                class="link remove"
                aria-label=text::remove_row(l, &title)
                on:click=move |_| on_remove()
            >
                {text::REMOVE.t(l)}
            </button>
        </fieldset>
    }
}

/// The notifications editor: a row per notification and the add button.
#[component]
pub fn NotificationsEditor(
    l: Lang,
    form: Form,
    rows: RwSignal<Vec<NotificationRow>>,
) -> impl IntoView {
    view! {
        <fieldset class="group editor">
            <legend>{text::NOTIFICATIONS.t(l)}</legend>
            <For
                each=move || rows.get().into_iter().enumerate()
                key=|(i, row)| (row.id, *i)
                children=move |(i, row)| view! { <NotificationRowView l form rows i row /> }
            />
            <AddButton rows list="notifications" max=MAX_NOTIFICATIONS label=text::ADD_NOTIFICATION.t(l) />
        </fieldset>
    }
}

#[component]
fn NotificationRowView(
    l: Lang,
    form: Form,
    rows: RwSignal<Vec<NotificationRow>>,
    i: usize,
    row: NotificationRow,
) -> impl IntoView {
    let kind = RwSignal::from(row.kind);
    let channel = RwSignal::from(row.channel);
    let period = RwSignal::from(row.period);
    let title = text::notification_n(l, i + 1);
    let period_field = move || {
        takes_period(&kind.get()).then(|| {
            view! {
                <Field
                    form
                    name=format!("notifications[{i}].period")
                    label=text::PERIOD_DAYS.t(l)
                    value=period
                    kind=Kind::Number
                    inputmode="numeric"
                    placeholder="5"
                />
            }
        })
    };
    view! {
        <RowBox l title on_remove=move || remove_row(form, rows, "notifications", i)>
            <Select
                form
                name=format!("notifications[{i}].type")
                label=text::EVENT.t(l)
                value=kind
                options=options(NotificationType::ALL, NotificationType::as_str, |t| i18n::notification_type(l, t))
                required=true
            />
            <Select
                form
                name=format!("notifications[{i}].channel")
                label=text::CHANNEL.t(l)
                value=channel
                options=options(Channel::ALL, Channel::as_str, |c| i18n::channel(l, c))
                required=true
            />
            {period_field}
        </RowBox>
    }
}

/// The webhooks editor, like [`NotificationsEditor`].
#[component]
pub fn WebhooksEditor(l: Lang, form: Form, rows: RwSignal<Vec<WebhookRow>>) -> impl IntoView {
    view! {
        <fieldset class="group editor">
            <legend>{text::WEBHOOKS.t(l)}</legend>
            <For
                each=move || rows.get().into_iter().enumerate()
                key=|(i, row)| (row.id, *i)
                children=move |(i, row)| view! { <WebhookRowView l form rows i row /> }
            />
            <AddButton rows list="webhooks" max=MAX_WEBHOOKS label=text::ADD_WEBHOOK.t(l) />
        </fieldset>
    }
}

#[component]
fn WebhookRowView(
    l: Lang,
    form: Form,
    rows: RwSignal<Vec<WebhookRow>>,
    i: usize,
    row: WebhookRow,
) -> impl IntoView {
    let title = text::webhook_n(l, i + 1);
    view! {
        <RowBox l title on_remove=move || remove_row(form, rows, "webhooks", i)>
            <Select
                form
                name=format!("webhooks[{i}].hookType")
                label=text::EVENT.t(l)
                value=RwSignal::from(row.hook_type)
                options=options(InvoiceHookType::ALL, InvoiceHookType::as_str, |h| i18n::hook_type(l, h.into()))
                required=true
            />
            <Field
                form
                name=format!("webhooks[{i}].url")
                label=text::WEBHOOK_URL.t(l)
                value=RwSignal::from(row.url)
                kind=Kind::Url
                required=true
                placeholder="https://"
            />
        </RowBox>
    }
}
