//! The embedding's options (`locale`, `theme`, `screens`, `prefill`; see
//! the `host` module's docs), read from the JavaScript object a frame's
//! fragment, a mount element's `data-paylink-options` or a parent's
//! `{type: "options"}` message carries.

use js_sys::{Array, Object, Reflect};
use paylink_model::Lang;
use wasm_bindgen::{JsCast, JsValue};

/// The embedding options (see the `host` module's docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    pub proxy: Option<String>,
    pub locale: Option<Lang>,
    /// (`--paylink-primary`, value).
    pub theme: Vec<(String, String)>,
    /// `None`: every screen.
    pub screens: Option<Vec<String>>,
    /// API field path → initial text.
    pub prefill: Vec<(String, String)>,
}

/// `o[key]`, or `undefined` when `o` is not an object.
pub(super) fn get(o: &JsValue, key: &str) -> JsValue {
    if !o.is_object() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A string, or a number written as one (`prefill: {installmentCount: 3}`).
fn text_of(v: &JsValue) -> Option<String> {
    v.as_string()
        .or_else(|| {
            v.as_f64()
                .and_then(|_| {
                    js_sys::Number::from(v.clone())
                        .to_string_with_radix(10)
                        .ok()
                })
                .map(String::from)
        })
        .filter(|s| !s.trim().is_empty())
}

fn entries(o: &JsValue) -> Vec<(String, String)> {
    if !o.is_object() {
        return Vec::new();
    }
    Object::entries(o.unchecked_ref())
        .iter()
        .filter_map(|pair| {
            let pair: Array = pair.unchecked_into();
            Some((pair.get(0).as_string()?, text_of(&pair.get(1))?))
        })
        .collect()
}

/// `primaryDark` / `primary-dark` / `--paylink-primary-dark` → `--paylink-primary-dark`;
/// `None` for anything that is not a plain name.
pub fn theme_property(key: &str) -> Option<String> {
    let key = key.strip_prefix("--paylink-").unwrap_or(key);
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return None;
    }
    let mut name = String::from("--paylink-");
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            name.push('-');
        }
        name.push(c.to_ascii_lowercase());
    }
    Some(name)
}

impl Options {
    /// Reads `{proxy, locale, theme: {…}, screens: [...] | "a b", prefill: {…}}`;
    /// what is missing or of the wrong type is left at its default.
    pub fn read(o: &JsValue) -> Options {
        let s = |k: &str| text_of(&get(o, k));
        let screens = get(o, "screens");
        let screens = if Array::is_array(&screens) {
            Some(
                Array::from(&screens)
                    .iter()
                    .filter_map(|v| v.as_string())
                    .collect(),
            )
        } else {
            screens.as_string().map(|s| {
                s.split([' ', ','])
                    .filter(|w| !w.is_empty())
                    .map(str::to_string)
                    .collect()
            })
        };
        Options {
            proxy: s("proxy").map(|p| p.trim_end_matches('/').to_string()),
            locale: s("locale").map(|l| {
                if l.trim().to_ascii_lowercase().starts_with("en") {
                    Lang::En
                } else {
                    Lang::PtBr
                }
            }),
            theme: entries(&get(o, "theme"))
                .into_iter()
                .filter_map(|(k, v)| Some((theme_property(&k)?, v)))
                .collect(),
            screens,
            prefill: entries(&get(o, "prefill")),
        }
    }

    /// Whether `screen` (`summary`, `pay`) is shown.
    pub fn shows(&self, screen: &str) -> bool {
        self.screens
            .as_ref()
            .is_none_or(|s| s.iter().any(|x| x == screen))
    }
}
