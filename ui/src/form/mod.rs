//! Form validation state shared by the customer and invoice forms.
//!
//! The rules live in `paylink_model`; a form only says how to build its
//! request and validate it (`check`) and which API field paths it shows
//! (`field_of`). This module decides *when* errors are shown:
//!
//! * on blur of a field, its own error (if any) appears;
//! * on submit, every error appears and nothing is sent if there is one;
//! * on every change afterwards, the errors already shown are re-checked
//!   (so they update and disappear as soon as the field is fixed);
//! * errors from the server land on the field with the same API path, and
//!   the rest go to the form-level alert.

use paylink_text as text;
use std::sync::Arc;

use leptos::prelude::*;
use paylink_model::{ErrorEnvelope, Errors, Lang};
use wasm_bindgen::JsCast;

use crate::Failure;

mod shown;
pub use shown::{apply_envelope, error_id, field_id, place, shift_rows, Alert, ErrorMap, Shown};

/// A new text signal. Not inlined: the forms create ~30 of them, and each
/// inlined `RwSignal::new` is a copy of the arena-insertion code.
#[inline(never)]
pub fn text_signal(init: &str) -> RwSignal<String> {
    RwSignal::new(init.to_string())
}

/// A new flag signal (not inlined, like [`text_signal`]).
#[inline(never)]
pub fn flag_signal(init: bool) -> RwSignal<bool> {
    RwSignal::new(init)
}

/// What a form's alert says. The browser's own words are kept as what to
/// say, not as text, so that they follow a language switch; the server's
/// are its text.
#[derive(Clone)]
enum Said {
    /// "Fix the fields shown", with the messages of the check that no
    /// visible field takes.
    FixErrors,
    /// A message of the browser's (wrong password, no network), in the
    /// language shown.
    Local(Arc<dyn Fn(Lang) -> String + Send + Sync>),
    /// The server's words.
    Server(Alert),
}

/// Reactive validation state of one `<form>`. `Copy`, so views capture it freely.
///
/// Which fields show a message is state (set on blur, submit, a server
/// answer); the browser's messages themselves are derived from the current
/// values and language (`checked`), so a language switch re-renders them
/// with nothing to keep in step.
#[derive(Clone, Copy)]
pub struct Form {
    /// The `<form>` element's id (to focus its first invalid field).
    pub id: &'static str,
    /// The fields showing a message: the server's (kept as sent) or the
    /// check's (read from `checked`).
    pub errors: RwSignal<ErrorMap>,
    alert: RwSignal<Option<Said>>,
    lang: RwSignal<Lang>,
    /// Notified when a value may have changed (the check reads the values
    /// untracked, so that a keystroke re-runs it once, not once per field).
    edited: Trigger,
    /// The check's verdict on the current values in the current language:
    /// messages by visible field, and those no field takes.
    checked: Memo<(Errors, Vec<String>)>,
    field_of: Callback<String, Option<String>>,
}

impl Form {
    /// `check` validates the current values with the model (API paths →
    /// messages); `field_of` maps an API path to the visible field showing it.
    pub fn new(
        id: &'static str,
        lang: RwSignal<Lang>,
        check: impl Fn(Lang) -> Errors + Send + Sync + 'static,
        field_of: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
    ) -> Form {
        let field_of = Callback::new(move |p: String| field_of(&p));
        let edited = Trigger::new();
        let checked = Memo::new(move |_| {
            edited.track();
            place(&check(lang.get()), |p| field_of.run(p.to_string()))
        });
        Form {
            id,
            errors: RwSignal::new(ErrorMap::new()),
            alert: RwSignal::new(None),
            lang,
            edited,
            checked,
            field_of,
        }
    }

    /// The check's verdict on the values as they are now.
    fn client(&self) -> (Errors, Vec<String>) {
        self.edited.notify();
        self.checked.get_untracked()
    }

    /// A field the check shows a message on (its words come from `checked`).
    fn shown_by_check() -> Shown {
        Shown {
            msgs: Vec::new(),
            server: false,
        }
    }

    /// The field at `path` lost focus: show its error, or clear a browser one.
    pub fn blur(&self, path: &str) {
        let (client, _) = self.client();
        let shown = self.errors.with_untracked(|m| m.get(path).cloned());
        if shown.as_ref().is_some_and(|s| s.server) {
            return; // the server said so; only an edit clears it
        }
        match (client.get(path), shown) {
            (Some(_), Some(_)) => {}
            (Some(_), None) => self.errors.update(|m| {
                m.insert(path.to_string(), Self::shown_by_check());
            }),
            (None, Some(_)) => self.errors.update(|m| {
                m.remove(path);
            }),
            (None, None) => {}
        }
    }

    /// A field changed (input/change event): re-check the errors already
    /// shown, including a server error on this very field. Shows no new ones.
    pub fn changed(&self, path: &str) {
        if self.errors.with_untracked(|m| m.is_empty()) {
            return;
        }
        let (client, _) = self.client();
        let mut next = ErrorMap::new();
        self.errors.with_untracked(|m| {
            for (k, s) in m.iter() {
                if s.server && k != path {
                    next.insert(k.clone(), s.clone());
                } else if client.contains_key(k) {
                    next.insert(k.clone(), Self::shown_by_check());
                }
            }
        });
        if self.errors.with_untracked(|m| *m != next) {
            self.errors.set(next);
        }
    }

    /// The form's `on:submit`, sending with `action` (made with
    /// `Action::new_local`): the page stays, a submit while the action's call
    /// is on its way is ignored (a double click sends once), and `input()` is
    /// dispatched only when [`Form::submit`] finds nothing to fix.
    pub fn on_submit<I, O>(
        self,
        action: Action<I, O>,
        input: impl Fn() -> I + Clone + 'static,
    ) -> impl Fn(web_sys::SubmitEvent) + Clone + 'static
    where
        I: 'static,
        O: 'static,
    {
        // Once, with the form: `pending()` makes a new memo at each call.
        let pending = action.pending();
        move |ev: web_sys::SubmitEvent| {
            ev.prevent_default();
            if !pending.get_untracked() && self.submit() {
                action.dispatch_local(input());
            }
        }
    }

    /// Validates everything before sending. Shows every error, focuses the
    /// first invalid field and returns false when there is one.
    pub fn submit(&self) -> bool {
        let (client, rest) = self.client();
        let ok = client.is_empty() && rest.is_empty();
        let mut shown = ErrorMap::new();
        for k in client.into_keys() {
            shown.insert(k, Self::shown_by_check());
        }
        self.errors.set(shown);
        self.alert.set((!ok).then_some(Said::FixErrors));
        if !ok {
            self.focus_first_invalid();
        }
        ok
    }

    /// Shows a failed call: field errors on their fields, the rest in the alert.
    pub fn server_error(&self, err: &Failure) {
        let alert = match err {
            Failure::Api(env) => {
                self.show_envelope(env);
                return self.focus_first_invalid();
            }
            other => {
                let other = other.clone();
                Some(Said::Local(Arc::new(move |l| other.text(l))))
            }
        };
        self.alert.set(alert);
        self.focus_first_invalid();
    }

    /// Shows the server's verdict (an error envelope) without touching the
    /// page: field errors on their fields, the rest in the alert. Also how a
    /// form rendered by the server starts when it comes back with errors.
    pub fn show_envelope(&self, env: &ErrorEnvelope) {
        let mut shown = self.errors.get_untracked();
        let alert = apply_envelope(&mut shown, env, |p| self.field_of.run(p.to_string()));
        self.errors.set(shown);
        self.alert.set(alert.map(Said::Server));
    }

    /// The message shown on `path`, if any (tracked): the server's as sent,
    /// the check's in the current language.
    pub fn error(&self, path: &str) -> Option<String> {
        let server = self
            .errors
            .with(|m| m.get(path).map(|s| s.server.then(|| s.msgs.join(" "))))?;
        server.or_else(|| {
            self.checked
                .with(|(client, _)| client.get(path).map(|msgs| msgs.join(" ")))
        })
    }

    /// The alert shown at the top of the form, if any (tracked), in the
    /// current language when its words are the browser's.
    pub fn alert(&self) -> Option<Alert> {
        let said = self.alert.get()?;
        Some(match said {
            Said::FixErrors => Alert {
                message: text::FIX_ERRORS.t(self.lang.get()).to_string(),
                details: self.checked.with(|(_, rest)| rest.clone()),
            },
            Said::Local(text) => Alert {
                message: text(self.lang.get()),
                details: Vec::new(),
            },
            Said::Server(alert) => alert,
        })
    }

    /// Whether the form shows an alert (untracked).
    pub fn has_alert(&self) -> bool {
        self.alert.with_untracked(Option::is_some)
    }

    /// Shows the server's words at the top of the form (`None`: no alert).
    pub fn set_alert(&self, alert: Option<Alert>) {
        self.alert.set(alert.map(Said::Server));
    }

    /// Shows a message of the browser's at the top of the form, in the
    /// language shown (it follows a switch).
    pub fn say(&self, text: impl Fn(Lang) -> String + Send + Sync + 'static) {
        self.alert.set(Some(Said::Local(Arc::new(text))));
    }

    /// Focuses the first control, in page order, whose name has an error (or, for a
    /// value kept in a hidden input, the control beside it that its label names).
    pub fn focus_first_invalid(&self) {
        let Ok(list) = document().query_selector_all(&format!("#{} [name]", self.id)) else {
            return;
        };
        let errors = self.errors.get_untracked();
        for i in 0..list.length() {
            let Some(el) = list.item(i) else { continue };
            let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() else {
                continue;
            };
            let Some(name) = el.get_attribute("name") else {
                continue;
            };
            if errors.contains_key(&name) {
                // A field whose value sits in a hidden input (the customer picker's id)
                // is typed into in the control its label names, `field_id`.
                let control = document()
                    .get_element_by_id(&field_id(&name))
                    .and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok());
                let _ = control.as_ref().unwrap_or(el).focus();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(msgs: &[&str], server: bool) -> Shown {
        Shown {
            msgs: msgs.iter().map(|m| m.to_string()).collect(),
            server,
        }
    }

    #[test]
    fn ids_are_safe_for_selectors() {
        assert_eq!(field_id("fullName"), "f-fullName");
        assert_eq!(field_id("address.zipcode"), "f-address-zipcode");
        assert_eq!(
            field_id("notifications[0].period"),
            "f-notifications-0--period"
        );
        assert_eq!(error_id("webhooks[1].url"), "f-webhooks-1--url-err");
    }

    #[test]
    fn envelope_errors_land_on_fields_and_the_rest_in_the_alert() {
        let env = ErrorEnvelope {
            code: 422,
            message: "Falha de validação".into(),
            errors: Some(
                [
                    ("notifications[0].period", "mínimo 5"),
                    ("customerId", "não encontrado"),
                    ("items", "?"),
                ]
                .into_iter()
                .map(|(k, v)| (k.to_string(), vec![v.to_string()]))
                .collect(),
            ),
        };
        let mut m = ErrorMap::new();
        let alert = apply_envelope(&mut m, &env, |p| (p != "items").then(|| p.to_string()));
        assert_eq!(
            m.get("notifications[0].period"),
            Some(&shown(&["mínimo 5"], true))
        );
        assert_eq!(m.get("customerId"), Some(&shown(&["não encontrado"], true)));
        let alert = alert.unwrap();
        assert_eq!(alert.message, "Falha de validação");
        assert_eq!(alert.details, ["items: ?"]);

        // All placed: no alert.
        let mut m = ErrorMap::new();
        let all = ErrorEnvelope {
            errors: Some([("customerId".to_string(), vec!["x".to_string()])].into()),
            ..env.clone()
        };
        assert_eq!(apply_envelope(&mut m, &all, |p| Some(p.to_string())), None);

        // No field errors: the message is the alert.
        let bare = ErrorEnvelope {
            code: 401,
            message: "Token inválido".into(),
            errors: None,
        };
        let alert = apply_envelope(&mut ErrorMap::new(), &bare, |_| None).unwrap();
        assert_eq!(alert.message, "Token inválido");
        assert!(alert.details.is_empty());
    }

    #[test]
    fn removing_a_row_renumbers_the_rows_after_it() {
        let mut m = ErrorMap::new();
        for k in [
            "notifications[0].type",
            "notifications[1].period",
            "notifications[3].channel",
            "notificationsX",
            "webhooks[2].url",
        ] {
            m.insert(k.to_string(), shown(&["x"], false));
        }
        shift_rows(&mut m, "notifications", 1);
        let keys: Vec<&str> = m.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "notifications[0].type",
                "notifications[2].channel",
                "notificationsX",
                "webhooks[2].url"
            ]
        );
    }
}
