//! Form controls wired to a [`Form`]: a visible `<label for>`, `name` = the
//! API field path, `aria-invalid` + `aria-describedby` pointing at the
//! message element when the field is invalid. Each control also writes its
//! starting value as an attribute (`value`, `selected`, `checked`): the
//! server renders attributes, not properties, and a server-rendered form
//! sent back with its errors must keep what the person typed.

use leptos::either::Either;
use leptos::prelude::*;
use paylink_model::money::{format_brl_input, parse_brl};
use paylink_model::Lang;
use paylink_text as text;
use web_sys::HtmlInputElement;

use crate::form::{error_id, field_id, Alert, Form};

mod dates;
pub use dates::{date_kept, date_shown, DateField, DateHints};

/// Which native control a [`Field`] renders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    #[default]
    Text,
    Email,
    Tel,
    Number,
    Url,
    Password,
    /// A `<textarea>`.
    Area,
}

impl Kind {
    fn html(self) -> &'static str {
        match self {
            Kind::Text | Kind::Area => "text",
            Kind::Email => "email",
            Kind::Tel => "tel",
            Kind::Number => "number",
            Kind::Url => "url",
            Kind::Password => "password",
        }
    }
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
    // The masks keep only ASCII letters and digits.
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

/// The message shown on `path` (a memo: a control's attributes change only
/// when its own message does).
fn error_memo(form: Form, path: String) -> Memo<Option<String>> {
    Memo::new(move |_| form.error(&path))
}

/// The `*` after a required field's label.
#[component]
fn RequiredMark(required: bool) -> impl IntoView {
    required.then(|| view! { <span class="req" aria-hidden="true">" *"</span> })
}

/// The text of an input event, rewritten by `mask` (if any) in the input
/// itself, its caret kept after the same letters (editing the middle of a
/// masked value does not throw the caret to the end).
pub fn masked_input(ev: &web_sys::Event, mask: Option<fn(&str) -> String>) -> String {
    let text = event_target_value(ev);
    let Some(mask) = mask else { return text };
    let masked = mask(&text);
    if masked != text {
        let el: HtmlInputElement = event_target(ev);
        let caret = el.selection_start().ok().flatten();
        el.set_value(&masked);
        if let Some(at) = caret.and_then(|c| caret_after_mask(&text, c, &masked)) {
            let _ = el.set_selection_range(at, at);
        }
    }
    masked
}

/// A text-like input (or textarea) bound to `value`.
#[component]
pub fn Field(
    form: Form,
    #[prop(into)] name: String,
    label: &'static str,
    value: RwSignal<String>,
    #[prop(optional)] kind: Kind,
    /// Rewrites the text on every input (CPF/CNPJ, CEP, phone).
    #[prop(optional)]
    mask: Option<fn(&str) -> String>,
    /// Rewrites the text on blur when it returns `Some` (currency).
    #[prop(optional)]
    reformat: Option<fn(&str) -> Option<String>>,
    #[prop(optional)] required: bool,
    #[prop(optional)] autocomplete: Option<&'static str>,
    #[prop(optional)] inputmode: Option<&'static str>,
    #[prop(optional)] placeholder: Option<&'static str>,
    /// > 0: a live `n/counter` character count.
    #[prop(optional)]
    counter: usize,
    /// A date typed in this language: `value` keeps it as [`date_kept`],
    /// the input shows [`date_shown`].
    #[prop(optional)]
    date: Option<Lang>,
) -> impl IntoView {
    let id = field_id(&name);
    let shown = move || value.with(|v| date_shown(date, v));
    let err_id = error_id(&name);
    let error = error_memo(form, name.clone());
    let invalid = move || error.with(Option::is_some);
    let described = {
        let err_id = err_id.clone();
        move || invalid().then(|| err_id.clone())
    };
    let on_input = {
        let name = name.clone();
        move |ev: web_sys::Event| {
            value.set(date_kept(date, masked_input(&ev, mask)));
            form.changed(&name);
        }
    };
    let on_blur = {
        let name = name.clone();
        move |_| {
            if let Some(f) = reformat {
                if let Some(text) = value.with_untracked(|v| f(v)) {
                    value.set(text);
                }
            }
            form.blur(&name);
        }
    };
    let aria_required = required.then_some("true");
    // `Either`, not `.into_any()`: only the render modes a page uses are linked
    // (bench/README.md, "bench/wasm-attribution").
    let control = if kind == Kind::Area {
        Either::Left(view! {
            <textarea
                rows="4"
                id=id.clone()
                name=name
                aria-required=aria_required
                aria-invalid=move || invalid().then_some("true")
                aria-describedby=described
                prop:value=shown
                on:input=on_input
                on:blur=on_blur
            ></textarea>
        })
    } else {
        Either::Right(view! {
            <input
                type=kind.html()
                id=id.clone()
                name=name
                autocomplete=autocomplete
                inputmode=inputmode
                placeholder=placeholder
                aria-required=aria_required
                aria-invalid=move || invalid().then_some("true")
                aria-describedby=described
                value=untrack(shown)
                prop:value=shown
                on:input=on_input
                on:blur=on_blur
            />
        })
    };
    let counter = (counter > 0).then(|| {
        view! {
            <p class="counter">
                {move || format!("{}/{counter}", value.with(|v| v.chars().count()))}
            </p>
        }
    });
    view! {
        <div class="field" class:invalid=invalid>
            <label for=id>{label}<RequiredMark required /></label>
            {control}
            {counter}
            <p class="error" id=err_id>{move || error.get()}</p>
        </div>
    }
}

/// `1234,5` → `1.234,50` when it is a valid amount (on blur of an amount).
pub fn reformat_price(s: &str) -> Option<String> {
    parse_brl(s).map(format_brl_input)
}

/// A required amount in reais, typed as Brazilians write it: a decimal
/// keypad, `0,00` as the placeholder, rewritten as `1.234,56` once the field
/// is left (the model reads it with `money::parse_brl`).
#[component]
pub fn AmountField(
    form: Form,
    #[prop(into)] name: String,
    label: &'static str,
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <Field
            form
            name
            label
            value
            required=true
            inputmode="decimal"
            placeholder="0,00"
            reformat=reformat_price
        />
    }
}

/// A `<select>` bound to `value`; `blank` (if given) is the text of a
/// leading option with value `""`. `options` are (wire value, visible text),
/// owned: an installment count is made at run time, and `String` is what a view
/// already renders (an `Oco` here linked its own code into the link page's bundle).
#[component]
pub fn Select(
    form: Form,
    #[prop(into)] name: String,
    label: &'static str,
    value: RwSignal<String>,
    options: Vec<(String, String)>,
    #[prop(optional)] blank: Option<&'static str>,
    #[prop(optional)] required: bool,
) -> impl IntoView {
    let id = field_id(&name);
    let err_id = error_id(&name);
    let error = error_memo(form, name.clone());
    let invalid = move || error.with(Option::is_some);
    let described = {
        let err_id = err_id.clone();
        move || invalid().then(|| err_id.clone())
    };
    let on_change = {
        let name = name.clone();
        move |ev| {
            value.set(event_target_value(&ev));
            form.changed(&name);
        }
    };
    let on_blur = {
        let name = name.clone();
        move |_| form.blur(&name)
    };
    let options = blank
        .map(|b| (String::new(), b.to_string()))
        .into_iter()
        .chain(options)
        .map(|(v, text)| {
            // `value` even when empty: without it an option's value is its text.
            // `selected` for the server's HTML (a property is not rendered there).
            let chosen = value.with_untracked(|c| *c == v);
            let this = v.clone();
            view! {
                <option value=v selected=chosen prop:selected=move || value.with(|c| *c == this)>
                    {text}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="field" class:invalid=invalid>
            <label for=id.clone()>{label}<RequiredMark required /></label>
            <select
                id=id
                name=name
                aria-required=required.then_some("true")
                aria-invalid=move || invalid().then_some("true")
                aria-describedby=described
                on:change=on_change
                on:blur=on_blur
            >
                {options}
            </select>
            <p class="error" id=err_id>{move || error.get()}</p>
        </div>
    }
}

/// A checkbox bound to `checked`: the `checked` attribute for the server's
/// HTML (which renders no property), the property and `on:change` after
/// that. Not `bind:checked`: its binding (a derived signal and a listener of
/// its own per checkbox) made the link page's wasm 1.8 KB larger (brotli,
/// bench/README.md) for the same behaviour. Several may share a `name` (a group, with
/// distinct `value`s); the group's message is shown once by the caller with
/// [`ErrorText`].
#[component]
pub fn Checkbox(
    form: Form,
    name: &'static str,
    #[prop(optional)] value: Option<&'static str>,
    id: &'static str,
    label: &'static str,
    checked: RwSignal<bool>,
) -> impl IntoView {
    let error = error_memo(form, name.to_string());
    let invalid = move || error.with(Option::is_some);
    view! {
        <div class="check">
            <input
                type="checkbox"
                id=id
                name=name
                value=value
                aria-invalid=move || invalid().then_some("true")
                aria-describedby=move || invalid().then(|| error_id(name))
                checked=checked.get_untracked()
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
}

/// The element holding a field's messages (`id` = [`error_id`]); empty when valid.
#[component]
pub fn ErrorText(form: Form, name: &'static str) -> impl IntoView {
    let error = error_memo(form, name.to_string());
    view! { <p class="error" id=error_id(name)>{move || error.get()}</p> }
}

/// The form-level alert (`role="alert"`), shown when the form has one.
#[component]
pub fn AlertBox(form: Form) -> impl IntoView {
    move || form.alert().map(|a| view! { <AlertView alert=a /> })
}

#[component]
fn AlertView(alert: Alert) -> impl IntoView {
    let details = (!alert.details.is_empty()).then(|| {
        view! { <ul>{alert.details.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}</ul> }
    });
    view! {
        <div class="alert" role="alert">
            <p>{alert.message}</p>
            {details}
        </div>
    }
}

/// A form's submit button: "Enviando…" and `aria-disabled` while `busy`
/// (not `disabled`: the button keeps its focus and stays announced).
#[component]
pub fn SubmitButton(
    #[prop(into)] busy: Signal<bool>,
    label: &'static str,
    l: Lang,
) -> impl IntoView {
    view! {
        <button type="submit" class="primary" aria-disabled=move || busy.get().then_some("true")>
            {move || if busy.get() { text::SENDING.t(l) } else { label }}
        </button>
    }
}
