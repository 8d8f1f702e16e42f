//! The two languages paylink speaks: pt-BR first, English available.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Lang {
    #[default]
    #[serde(rename = "pt-BR")]
    PtBr,
    #[serde(rename = "en")]
    En,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::PtBr => "pt-BR",
            Lang::En => "en",
        }
    }

    /// The language whose [`code`](Lang::code) is exactly `code`.
    pub fn from_code(code: &str) -> Option<Lang> {
        [Lang::PtBr, Lang::En]
            .into_iter()
            .find(|l| l.code() == code)
    }

    /// Picks a language from an `Accept-Language` header or a locale option
    /// (`en`, `en-US`, `pt-BR`, `en;q=0.8, pt;q=0.9`). Portuguese wins ties and
    /// anything unknown, because our payers are Brazilian.
    pub fn from_accept_language(header: &str) -> Lang {
        let mut best = (Lang::PtBr, -1.0f32);
        for part in header.split(',') {
            let mut it = part.split(';');
            let tag = it.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = it
                .find_map(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .and_then(|q| q.parse::<f32>().ok())
                })
                .unwrap_or(1.0);
            let lang = if tag == "en" || tag.starts_with("en-") {
                Lang::En
            } else if tag == "pt" || tag.starts_with("pt-") {
                Lang::PtBr
            } else {
                continue;
            };
            if q > best.1 || (q == best.1 && lang == Lang::PtBr) {
                best = (lang, q);
            }
        }
        best.0
    }
}
