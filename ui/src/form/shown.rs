//! What a form shows on its fields: the messages on each API field path
//! ([`ErrorMap`]), the form-level [`Alert`], and how the model's or the
//! server's errors land there ([`place`], [`apply_envelope`], [`shift_rows`]), and the DOM
//! ids of a field's control and of its message ([`field_id`], [`error_id`]).

use paylink_model::{ErrorEnvelope, Errors};

/// Messages shown on one field; `server` when they came from the server
/// (those stay until the field is edited, since the browser cannot re-check them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub msgs: Vec<String>,
    pub server: bool,
}

/// Field path → what is shown on it, in the order shown. A list rather than
/// a `BTreeMap`: a form shows a few dozen errors at most, and the map's code
/// for this value type was ~3 KB of the wasm (brotli).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErrorMap(Vec<(String, Shown)>);

impl ErrorMap {
    pub fn new() -> ErrorMap {
        ErrorMap(Vec::new())
    }

    pub fn get(&self, path: &str) -> Option<&Shown> {
        self.0.iter().find(|(k, _)| k == path).map(|(_, s)| s)
    }

    pub fn contains_key(&self, path: &str) -> bool {
        self.get(path).is_some()
    }

    /// Sets what `path` shows (in place when it already shows something).
    pub fn insert(&mut self, path: String, shown: Shown) {
        match self.0.iter_mut().find(|(k, _)| *k == path) {
            Some((_, s)) => *s = shown,
            None => self.0.push((path, shown)),
        }
    }

    pub fn remove(&mut self, path: &str) {
        self.0.retain(|(k, _)| k != path);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Shown)> {
        self.0.iter().map(|(k, s)| (k, s))
    }
}

impl IntoIterator for ErrorMap {
    type Item = (String, Shown);
    type IntoIter = std::vec::IntoIter<(String, Shown)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// The form-level alert (`role="alert"`): a message and the details that
/// could not be put on a field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alert {
    pub message: String,
    pub details: Vec<String>,
}

/// Maps model/server errors (API paths) onto form fields. Errors whose path
/// no visible field takes are returned as `"path: message"` lines.
pub fn place(errors: &Errors, field_of: impl Fn(&str) -> Option<String>) -> (Errors, Vec<String>) {
    let mut placed = Errors::new();
    let mut rest = Vec::new();
    for (path, msgs) in errors {
        match field_of(path) {
            Some(field) => placed
                .entry(field)
                .or_default()
                .extend(msgs.iter().cloned()),
            None => rest.extend(msgs.iter().map(|m| format!("{path}: {m}"))),
        }
    }
    (placed, rest)
}

/// Applies a server error envelope to the shown errors: each `errors` entry
/// lands on its field (`notifications[0].period` on that row's period input);
/// returns the alert for what did not land on a field, or for an envelope
/// without field errors (not found, invalid token, server failure).
pub fn apply_envelope(
    shown: &mut ErrorMap,
    env: &ErrorEnvelope,
    field_of: impl Fn(&str) -> Option<String>,
) -> Option<Alert> {
    let errors = match &env.errors {
        Some(e) if !e.is_empty() => e,
        _ => {
            return Some(Alert {
                message: env.message.clone(),
                details: Vec::new(),
            })
        }
    };
    let (placed, rest) = place(errors, field_of);
    for (field, msgs) in placed {
        shown.insert(field, Shown { msgs, server: true });
    }
    (!rest.is_empty()).then(|| Alert {
        message: env.message.clone(),
        details: rest,
    })
}

/// Renumbers the shown errors of an editor after row `removed` is deleted:
/// `notifications[2].type` becomes `notifications[1].type`, row `removed`'s go.
pub fn shift_rows(shown: &mut ErrorMap, list: &str, removed: usize) {
    let prefix = format!("{list}[");
    let old = std::mem::take(shown);
    for (key, v) in old {
        let Some(rest) = key.strip_prefix(&prefix) else {
            shown.insert(key, v);
            continue;
        };
        let Some((idx, tail)) = rest.split_once(']') else {
            shown.insert(key, v);
            continue;
        };
        match idx.parse::<usize>() {
            Ok(i) if i == removed => {}
            Ok(i) if i > removed => {
                shown.insert(format!("{prefix}{}]{tail}", i - 1), v);
            }
            _ => {
                shown.insert(key, v);
            }
        }
    }
}

/// The DOM id of a field's control, from its API path
/// (`notifications[0].period` → `f-notifications-0--period`).
pub fn field_id(path: &str) -> String {
    let mut id = String::with_capacity(path.len() + 2);
    id.push_str("f-");
    id.extend(
        path.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }),
    );
    id
}

/// The id of the element holding a field's error message.
pub fn error_id(path: &str) -> String {
    let mut id = field_id(path);
    id.push_str("-err");
    id
}
