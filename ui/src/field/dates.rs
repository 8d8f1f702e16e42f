//! Dates in a text field, as each language writes them: pt-BR `dd/mm/aaaa`
//! masked while typing, English `yyyy-mm-dd`; kept as ISO once they read as
//! one, so a language switch rewrites a finished date.

use leptos::prelude::*;
use paylink_model::date::mask_date_br;
use paylink_model::{Date, Lang};

use super::Field;
use crate::form::Form;

/// How a date is typed in each language: pt-BR `dd/mm/aaaa`, masked while
/// typing (`date::mask_date_br`) on a numeric keypad; English `yyyy-mm-dd`.
pub struct DateHints {
    pub mask: Option<fn(&str) -> String>,
    pub placeholder: &'static str,
    pub inputmode: Option<&'static str>,
}

impl DateHints {
    pub fn of(l: Lang) -> DateHints {
        match l {
            Lang::PtBr => DateHints {
                mask: Some(mask_date_br),
                placeholder: "dd/mm/aaaa",
                inputmode: Some("numeric"),
            },
            Lang::En => DateHints {
                mask: None,
                placeholder: "yyyy-mm-dd",
                inputmode: None,
            },
        }
    }
}

/// What a text field keeps of `typed`: as typed, unless the field holds a
/// date (`date`: the language it is typed in), which is kept as ISO once it
/// reads as one (`01/12/2026` → `2026-12-01`). What the field shows is
/// derived from it per language ([`date_shown`]), so a language switch
/// rewrites a finished date (dd/mm/aaaa ⇄ yyyy-mm-dd) and leaves a
/// half-typed one, with nothing to keep in step. Forms read it with
/// `Date::parse_for`, which takes ISO in either language.
pub fn date_kept(date: Option<Lang>, typed: String) -> String {
    match date.map(|l| Date::parse_for(l, &typed)) {
        Some(Ok(d)) => d.to_string(),
        _ => typed,
    }
}

/// What a text field shows of its kept text ([`date_kept`]): a date in the
/// form `date`'s language writes it; anything else as it is.
pub fn date_shown(date: Option<Lang>, kept: &str) -> String {
    match (date, Date::parse_iso(kept.trim())) {
        (Some(l), Some(d)) => d.format_for(l),
        _ => kept.to_string(),
    }
}

/// A date as the language writes it, in a text field (never the browser's
/// `type="date"`, whose format follows the browser's locale, not the
/// widget's): pt-BR `dd/mm/aaaa`, masked while typing
/// (`date::mask_date_br`), English `yyyy-mm-dd` (`Date::format_for`).
/// `value` holds it as [`date_kept`]; the form reads it with
/// `Date::parse_for` and sends ISO.
#[component]
pub fn DateField(
    form: Form,
    #[prop(into)] name: String,
    label: &'static str,
    value: RwSignal<String>,
    l: Lang,
    #[prop(optional)] required: bool,
) -> impl IntoView {
    let DateHints {
        mask,
        placeholder,
        inputmode,
    } = DateHints::of(l);
    match (mask, inputmode) {
        (Some(mask), Some(inputmode)) => view! {
            <Field form name label value required mask inputmode placeholder autocomplete="off" date=l />
        }
        .into_any(),
        _ => view! {
            <Field form name label value required placeholder autocomplete="off" date=l />
        }
        .into_any(),
    }
}
