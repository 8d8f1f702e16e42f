//! Form controls wired to a [`Form`]: a visible `<label for>`, `name` = the
//! API field path, `aria-invalid` + `aria-describedby` pointing at the
//! message element when the field is invalid.
//!
//! These are plain functions taking an options struct rather than
//! `#[component]`s: every `<Component prop=…/>` call site with a different
//! set of props instantiates its own typed builder, and the forms have ~40
//! controls, so one call path per control kind keeps the wasm smaller.

use leptos::prelude::*;
use web_sys::HtmlInputElement;

use crate::components::html::{close, escape_into};
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

fn opt(s: &'static str) -> Option<&'static str> {
    (!s.is_empty()).then_some(s)
}

fn required_mark(required: bool) -> Option<AnyView> {
    required.then(|| view! { <span class="req" aria-hidden="true">" *"</span> }.into_any())
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

/// Whether `path` currently shows an error (a memo, so controls update only
/// when their own state changes).
fn invalid_memo(form: Form, path: &str) -> Memo<bool> {
    let path = path.to_string();
    Memo::new(move |_| form.errors.with(|m| m.contains_key(&path)))
}

/// A text-like input (or textarea) bound to `value`.
pub fn field(
    form: Form,
    name: &str,
    label: &'static str,
    value: RwSignal<String>,
    o: Opts,
) -> AnyView {
    let name = name.to_string();
    untrack(move || {
        let id = field_id(&name);
        let err_id = error_id(&name);
        let invalid = invalid_memo(form, &name);
        let aria_invalid = move || invalid.get().then_some("true");
        let described = {
            let err_id = err_id.clone();
            move || invalid.get().then(|| err_id.clone())
        };
        let on_input = {
            let name = name.clone();
            move |ev: leptos::ev::Event| {
                let mut text = event_target_value(&ev);
                if let Some(mask) = o.mask {
                    let masked = mask(&text);
                    if masked != text {
                        let el = event_target::<HtmlInputElement>(&ev);
                        let caret = el.selection_start().ok().flatten();
                        el.set_value(&masked);
                        if let Some(at) = caret.and_then(|c| caret_after_mask(&text, c, &masked)) {
                            let _ = el.set_selection_range(at, at);
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
            view! {
                <textarea
                    id=id.clone()
                    name=name.clone()
                    rows="4"
                    aria-required=o.required.then_some("true")
                    aria-invalid=aria_invalid
                    aria-describedby=described
                    prop:value=move || value.get()
                    on:input=on_input
                    on:blur=on_blur
                ></textarea>
            }
            .into_any()
        } else {
            view! {
                <input
                    id=id.clone()
                    name=name.clone()
                    type=o.kind.html()
                    autocomplete=opt(o.autocomplete)
                    inputmode=opt(o.inputmode)
                    placeholder=opt(o.placeholder)
                    aria-required=o.required.then_some("true")
                    aria-invalid=aria_invalid
                    aria-describedby=described
                    prop:value=move || value.get()
                    on:input=on_input
                    on:blur=on_blur
                />
            }
            .into_any()
        };
        let counter = (o.counter > 0).then(|| {
            view! { <p class="counter">{move || value.with(|v| v.chars().count())} "/" {o.counter}</p> }
        });

        view! {
            <div class="field" class:invalid=move || invalid.get()>
                <label for=id>{label} {required_mark(o.required)}</label>
                {control}
                {counter}
                {error_text(form, &name)}
            </div>
        }
        .into_any()
    })
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
) -> AnyView {
    let name = name.to_string();
    untrack(move || {
        let id = field_id(&name);
        let err_id = error_id(&name);
        let invalid = invalid_memo(form, &name);
        let current = value.get_untracked();
        let on_change = {
            let name = name.clone();
            move |ev: leptos::ev::Event| {
                value.set(event_target_value(&ev));
                form.changed(&name);
            }
        };
        let on_blur = {
            let name = name.clone();
            move |_| form.blur(&name)
        };
        // Static once built: escaped HTML rather than typed view code per
        // option (see `html`); `selected` sets the initial choice.
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
        view! {
            <div class="field" class:invalid=move || invalid.get()>
                <label for=id.clone()>{label} {required_mark(required)}</label>
                <select
                    id=id
                    name=name.clone()
                    aria-required=required.then_some("true")
                    aria-invalid=move || invalid.get().then_some("true")
                    aria-describedby=move || invalid.get().then(|| err_id.clone())
                    on:change=on_change
                    on:blur=on_blur
                    inner_html=html
                ></select>
                {error_text(form, &name)}
            </div>
        }
        .into_any()
    })
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
) -> AnyView {
    untrack(move || {
        let invalid = invalid_memo(form, name);
        view! {
            <div class="check">
                <input
                    type="checkbox"
                    id=id
                    name=name
                    value=opt(value)
                    aria-invalid=move || invalid.get().then_some("true")
                    aria-describedby=move || invalid.get().then(|| error_id(name))
                    prop:checked=move || checked.get()
                    on:change=move |ev| {
                        checked.set(event_target_checked(&ev));
                        form.changed(name);
                    }
                    on:blur=move |_| form.blur(name)
                />
                <label for=id>{label}</label>
            </div>
        }
        .into_any()
    })
}

/// The element holding a field's messages (`id` = [`error_id`]); empty when valid.
pub fn error_text(form: Form, name: &str) -> AnyView {
    let name = name.to_string();
    let id = error_id(&name);
    view! { <p class="error" id=id>{move || form.error(&name)}</p> }.into_any()
}

/// The form-level alert (`role="alert"`), shown when the form has one.
pub fn alert_box(form: Form) -> AnyView {
    (move || {
        form.alert.get().map(|a| {
            view! {
                <div class="alert" role="alert">
                    <p>{a.message}</p>
                    {(!a.details.is_empty()).then(|| view! {
                        <ul>{a.details.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}</ul>
                    })}
                </div>
            }
        })
    })
    .into_any()
}

/// A form's submit button: "Enviando…" and `aria-disabled` while `busy`
/// (not `disabled`: the button keeps its focus and stays announced).
pub fn submit_button(
    busy: crate::task::Busy,
    label: &'static str,
    l: paylink_model::Lang,
) -> AnyView {
    view! {
        <button type="submit" class="primary" aria-disabled=move || busy.get().then_some("true")>
            {move || if busy.get() { crate::i18n::K::Sending.t(l) } else { label }}
        </button>
    }
    .into_any()
}
