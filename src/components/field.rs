//! Form controls wired to a [`Form`]: a visible `<label for>`, `name` = the
//! API field path, `aria-invalid` + `aria-describedby` pointing at the
//! message element when the field is invalid.
//!
//! These are plain functions taking an options struct rather than
//! `#[component]`s: every `<Component prop=…/>` call site with a different
//! set of props instantiates its own typed builder, and the forms have ~40
//! controls, so one call path per control kind keeps the wasm smaller.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Event, HtmlInputElement, Node};

use crate::components::html::{close, escape_into};
use crate::dom::{h, region, target_checked, target_value, watch, El};
use crate::form::{error_id, field_id, Form};

/// Which native control a [`field`] renders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    #[default]
    Text,
    Email,
    Tel,
    Date,
    Number,
    Url,
    /// A `<textarea>`.
    Area,
}

impl Kind {
    fn html(self) -> &'static str {
        match self {
            Kind::Text | Kind::Area => "text",
            Kind::Email => "email",
            Kind::Tel => "tel",
            Kind::Date => "date",
            Kind::Number => "number",
            Kind::Url => "url",
        }
    }
}

/// Options of a [`field`]; `..Opts::default()` for the rest.
#[derive(Clone, Copy, Default)]
pub struct Opts {
    pub kind: Kind,
    /// Rewrites the text on every input (CPF/CNPJ, CEP, phone).
    pub mask: Option<fn(&str) -> String>,
    /// Rewrites the text on blur when it returns `Some` (currency).
    pub reformat: Option<fn(&str) -> Option<String>>,
    pub required: bool,
    pub autocomplete: &'static str,
    pub inputmode: &'static str,
    pub placeholder: &'static str,
    /// > 0: a live `n/counter` character count.
    pub counter: usize,
}

fn required_mark(required: bool) -> Option<El> {
    required.then(|| h("span").class("req").attr("aria-hidden", "true").c(" *"))
}

/// Where the caret goes once `typed` (caret at `caret`, in UTF-16 units as
/// the DOM counts) is rewritten to `masked`: after the same number of letters
/// and digits, so an edit in the middle of `390.533.447-05` does not throw
/// the caret to the end. `None` (the browser's end) when it was at the end.
pub fn caret_after_mask(typed: &str, caret: u32, masked: &str) -> Option<u32> {
    let caret = caret as usize;
    if caret >= typed.encode_utf16().count() {
        return None;
    }
    // ASCII: the masks keep only ASCII letters and digits (and the Unicode
    // tables of `is_alphanumeric` would cost 2 KB of wasm).
    let significant = |c: char| c.is_ascii_alphanumeric();
    let mut units = 0;
    let keep = typed
        .chars()
        .take_while(|c| {
            units += c.len_utf16();
            units <= caret
        })
        .filter(|c| significant(*c))
        .count();
    let (mut seen, mut at) = (0, 0);
    for c in masked.chars() {
        if seen == keep {
            break;
        }
        seen += usize::from(significant(c));
        at += c.len_utf16();
    }
    Some(at as u32)
}

/// Shows `path`'s error (`Form::error`) with one effect per control: the
/// message's text, the field box's `invalid` class and the control's
/// `aria-invalid` / `aria-describedby`. The DOM is touched only when what is
/// shown changes (every control's effect re-runs when any error changes).
fn bind_error(
    form: Form,
    path: &str,
    control: Option<&El>,
    field_box: Option<&El>,
    msg: Option<&El>,
) {
    let path = path.to_string();
    let err_id = error_id(&path);
    let control = control.map(|c| c.0.clone());
    let field_box = field_box.map(|b| b.0.clone());
    let msg = msg.map(|m| m.0.clone());
    // What the DOM shows: no error, as the control was just built (so the
    // first run of a valid control touches nothing).
    let shown = std::cell::RefCell::new(None::<String>);
    watch(move || {
        let now = form.error(&path);
        if *shown.borrow() == now {
            return;
        }
        show_error(
            now.as_deref(),
            &err_id,
            control.as_ref(),
            field_box.as_ref(),
            msg.as_ref(),
        );
        *shown.borrow_mut() = now;
    });
}

// Out of line: on the first render every control is valid, so only the
// check above runs (the browser compiles a wasm function whole on its
// first call).
#[inline(never)]
fn show_error(
    error: Option<&str>,
    err_id: &str,
    control: Option<&web_sys::Element>,
    field_box: Option<&web_sys::Element>,
    msg: Option<&web_sys::Element>,
) {
    let invalid = error.is_some();
    if let Some(c) = control {
        if invalid {
            let _ = c.set_attribute("aria-invalid", "true");
            let _ = c.set_attribute("aria-describedby", err_id);
        } else {
            let _ = c.remove_attribute("aria-invalid");
            let _ = c.remove_attribute("aria-describedby");
        }
    }
    if let Some(b) = field_box {
        let _ = b.class_list().toggle_with_force("invalid", invalid);
    }
    if let Some(m) = msg {
        m.set_text_content(error);
    }
}

/// A field's box, label, control, extra (the counter) and message, with the
/// control's error shown by [`bind_error`].
fn field_parts(
    form: Form,
    path: &str,
    id: &str,
    label: &'static str,
    required: bool,
    control: El,
    extra: Option<El>,
) -> Node {
    let field_box = h("div").class("field");
    let msg = h("p").class("error").id(&error_id(path));
    bind_error(form, path, Some(&control), Some(&field_box), Some(&msg));
    field_box
        .c(h("label")
            .attr("for", id)
            .c(label)
            .c(required_mark(required)))
        .c(control)
        .c(extra)
        .c(msg)
        .into_node()
}

/// A text-like input (or textarea) bound to `value`.
pub fn field(
    form: Form,
    name: &str,
    label: &'static str,
    value: RwSignal<String>,
    o: Opts,
) -> Node {
    let name = name.to_string();
    let id = field_id(&name);
    let on_input = {
        let name = name.clone();
        move |ev: Event| {
            let mut text = target_value(&ev);
            if let Some(mask) = o.mask {
                let masked = mask(&text);
                if masked != text {
                    if let Some(el) = ev
                        .target()
                        .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
                    {
                        let caret = el.selection_start().ok().flatten();
                        el.set_value(&masked);
                        if let Some(at) = caret.and_then(|c| caret_after_mask(&text, c, &masked)) {
                            let _ = el.set_selection_range(at, at);
                        }
                    }
                    text = masked;
                }
            }
            value.set(text);
            form.changed(&name);
        }
    };
    let on_blur = {
        let name = name.clone();
        move |_| {
            if let Some(f) = o.reformat {
                if let Some(text) = value.with_untracked(|v| f(v)) {
                    value.set(text);
                }
            }
            form.blur(&name);
        }
    };
    let control = if o.kind == Kind::Area {
        h("textarea").attr("rows", "4")
    } else {
        h("input")
            .attr("type", o.kind.html())
            .attr_opt("autocomplete", o.autocomplete)
            .attr_opt("inputmode", o.inputmode)
            .attr_opt("placeholder", o.placeholder)
    };
    let control = control
        .id(&id)
        .attr("name", &name)
        .attr_opt("aria-required", if o.required { "true" } else { "" });
    let control = control
        .prop_value(move || value.get())
        .on("input", on_input)
        .on("blur", on_blur);
    let counter = (o.counter > 0).then(|| {
        let max = o.counter;
        h("p")
            .class("counter")
            .dyn_text(move || format!("{}/{max}", value.with(|v| v.chars().count())))
    });
    field_parts(form, &name, &id, label, o.required, control, counter)
}

/// A `<select>` bound to `value`; `blank` (if not empty) is the text of a
/// leading option with value `""`. `options` are (wire value, visible text).
pub fn select(
    form: Form,
    name: &str,
    label: &'static str,
    value: RwSignal<String>,
    options: Vec<(&'static str, &'static str)>,
    blank: &'static str,
    required: bool,
) -> Node {
    let name = name.to_string();
    let id = field_id(&name);
    let current = value.get_untracked();
    let on_change = {
        let name = name.clone();
        move |ev: Event| {
            value.set(target_value(&ev));
            form.changed(&name);
        }
    };
    let on_blur = {
        let name = name.clone();
        move |_| form.blur(&name)
    };
    // The options are static once built: escaped HTML (see `html`);
    // `selected` sets the initial choice.
    let mut html = String::new();
    for (v, text) in (!blank.is_empty())
        .then_some(("", blank))
        .into_iter()
        .chain(options)
    {
        // `value` even when empty: without it an option's value is its text.
        html.push_str("<option value=\"");
        escape_into(&mut html, v);
        html.push_str(if current == v { "\" selected>" } else { "\">" });
        escape_into(&mut html, text);
        close(&mut html, "option");
    }
    let control = h("select")
        .id(&id)
        .attr("name", &name)
        .attr_opt("aria-required", if required { "true" } else { "" })
        .html(&html);
    let control = control.on("change", on_change).on("blur", on_blur);
    field_parts(form, &name, &id, label, required, control, None)
}

/// A checkbox bound to `checked`. Several may share a `name` (a group, with
/// distinct `value`s); the group's message is rendered once by the caller
/// with [`error_text`].
pub fn checkbox(
    form: Form,
    name: &'static str,
    value: &'static str,
    id: &'static str,
    label: &'static str,
    checked: RwSignal<bool>,
) -> Node {
    let input = h("input")
        .attr("type", "checkbox")
        .id(id)
        .attr("name", name)
        .attr_opt("value", value);
    bind_error(form, name, Some(&input), None, None);
    let input = input
        .prop_checked(move || checked.get())
        .on("change", move |ev| {
            checked.set(target_checked(&ev));
            form.changed(name);
        })
        .on("blur", move |_| form.blur(name));
    h("div")
        .class("check")
        .c(input)
        .c(h("label").attr("for", id).c(label))
        .into_node()
}

/// The element holding a field's messages (`id` = [`error_id`]); empty when valid.
pub fn error_text(form: Form, name: &str) -> Node {
    let msg = h("p").class("error").id(&error_id(name));
    bind_error(form, name, None, None, Some(&msg));
    msg.into_node()
}

/// The form-level alert (`role="alert"`), shown when the form has one.
pub fn alert_box(form: Form) -> Node {
    region(move || form.alert.get().map(alert_view))
}

// Out of line: a form starts without an alert, and the browser compiles a
// wasm function whole on its first call.
#[inline(never)]
fn alert_view(a: crate::form::Alert) -> Node {
    let details = (!a.details.is_empty()).then(|| {
        h("ul").cs(a
            .details
            .iter()
            .map(|d| h("li").c(d.as_str()).into_node())
            .collect())
    });
    h("div")
        .class("alert")
        .attr("role", "alert")
        .c(h("p").c(a.message))
        .c(details)
        .into_node()
}

/// A form's submit button: "Enviando…" and `aria-disabled` while `busy`
/// (not `disabled`: the button keeps its focus and stays announced).
pub fn submit_button(busy: Signal<bool>, label: &'static str, l: paylink_model::Lang) -> Node {
    h("button")
        .attr("type", "submit")
        .class("primary")
        .flag_attr("aria-disabled", "true", move || busy.get())
        .dyn_text(move || {
            if busy.get() {
                crate::i18n::K::Sending.t(l)
            } else {
                label
            }
            .to_string()
        })
        .into_node()
}
