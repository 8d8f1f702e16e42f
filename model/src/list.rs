//! The merchant's lists (invoices, customers): their query parameters and
//! their rules, shared by the service (which answers `GET` with them) and the
//! widget (whose list screens keep the same parameters in their URL). Errors
//! are keyed by parameter name, as a form's are by field path.

use serde::{Deserialize, Serialize};

use crate::customer::CustomerDetail;
use crate::date::Date;
use crate::enums::InvoiceState;
use crate::errors::{Msg, Violations};
use crate::invoice::InvoiceDetail;
use crate::pix_automatico::PixAutomaticoStatus;

/// Rows in a page when `limit` is not given.
pub const DEFAULT_LIMIT: u32 = 50;
/// The most rows a page may ask for.
pub const MAX_LIMIT: u32 = 100;
/// The longest search text.
pub const MAX_QUERY_CHARS: usize = 100;

/// The query parameters as they come (every one optional text).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListParams {
    pub status: Option<String>,
    pub due_from: Option<String>,
    pub due_to: Option<String>,
    pub q: Option<String>,
    pub cursor: Option<String>,
    pub limit: Option<String>,
    /// Invoices whose Pix Automático recurrence is in this state (`cancelled`: by the payer in
    /// their bank app, or with the invoice).
    pub pix_automatico: Option<String>,
}

/// Where a page starts: after the row with this creation time and id
/// (newest first). On the wire, `{createdAt}~{id}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub created_at: String,
    pub id: String,
}

impl Cursor {
    pub fn encode(&self) -> String {
        format!("{}~{}", self.created_at, self.id)
    }

    pub fn parse(text: &str) -> Option<Cursor> {
        let (created_at, id) = text.split_once('~')?;
        // Timestamps are written as `2026-11-25T12:00:00.000Z`.
        let stamp_ok = created_at.len() == 24
            && Date::parse_iso_prefix(created_at).is_some()
            && created_at.ends_with('Z');
        (stamp_ok && crate::br::uuid_is_valid(id)).then(|| Cursor {
            created_at: created_at.to_string(),
            id: id.to_ascii_lowercase(),
        })
    }
}

/// A checked invoice list query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvoiceFilter {
    pub status: Option<InvoiceState>,
    pub due_from: Option<Date>,
    pub due_to: Option<Date>,
    /// Search text folded by [`search_fold`] (customer name, document,
    /// e-mail, externalId).
    pub q: Option<String>,
    pub cursor: Option<Cursor>,
    pub limit: u32,
    /// Only invoices whose recurrence is in this state.
    pub pix_automatico: Option<PixAutomaticoStatus>,
}

/// A checked customer list query (`q`, folded by [`search_fold`], searches
/// name, document and e-mail).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomerFilter {
    pub q: Option<String>,
    pub cursor: Option<Cursor>,
    pub limit: u32,
}

impl ListParams {
    /// The invoice list's rules (a parameter given empty breaks them, except
    /// `q`): `status` one of [`InvoiceState`], dates
    /// `YYYY-MM-DD` with `dueTo` not before `dueFrom`, `q` at most 100
    /// characters, `limit` 1 to 100, `cursor` as a page's `nextCursor`.
    pub fn invoice_filter(&self) -> Result<InvoiceFilter, Violations> {
        let mut v = Violations::default();
        let (q, cursor, limit) = self.common(&mut v);
        let status = given(&self.status).and_then(|s| {
            let state = InvoiceState::parse(&s.to_ascii_lowercase());
            if state.is_none() {
                v.add("status", Msg::OneOf(InvoiceState::NAMES));
            }
            state
        });
        let pix_automatico = given(&self.pix_automatico).and_then(|s| {
            let state = PixAutomaticoStatus::parse(&s.to_ascii_lowercase());
            if state.is_none() {
                v.add("pixAutomatico", Msg::OneOf(PixAutomaticoStatus::NAMES));
            }
            state
        });
        let mut date = |field: &'static str, value: &Option<String>| {
            given(value).and_then(|s| {
                let d = Date::parse_iso(s);
                if d.is_none() {
                    v.add(field, Msg::IsoDate);
                }
                d
            })
        };
        let due_from = date("dueFrom", &self.due_from);
        let due_to = date("dueTo", &self.due_to);
        if let (Some(from), Some(to)) = (due_from, due_to) {
            if to < from {
                v.add("dueTo", Msg::NotBefore("dueFrom"));
            }
        }
        if !v.is_empty() {
            return Err(v);
        }
        Ok(InvoiceFilter {
            status,
            due_from,
            due_to,
            q,
            cursor,
            limit,
            pix_automatico,
        })
    }

    /// The CSV export's rules: the invoice list's filters; `cursor` and
    /// `limit` are refused (the export has every matching row).
    pub fn export_filter(&self) -> Result<InvoiceFilter, Violations> {
        let filters = ListParams {
            cursor: None,
            limit: None,
            ..self.clone()
        };
        let checked = filters.invoice_filter();
        let mut v = checked.as_ref().err().cloned().unwrap_or_default();
        for (field, value) in [("cursor", &self.cursor), ("limit", &self.limit)] {
            if given(value).is_some() {
                v.add(field, Msg::NotAFilter);
            }
        }
        if v.is_empty() {
            checked
        } else {
            Err(v)
        }
    }

    /// The customer list's rules: `q`, `cursor` and `limit` as for invoices;
    /// the invoice-only parameters are refused.
    pub fn customer_filter(&self) -> Result<CustomerFilter, Violations> {
        let mut v = Violations::default();
        let (q, cursor, limit) = self.common(&mut v);
        for (field, value) in [
            ("status", &self.status),
            ("dueFrom", &self.due_from),
            ("dueTo", &self.due_to),
            ("pixAutomatico", &self.pix_automatico),
        ] {
            if given(value).is_some() {
                v.add(field, Msg::NotAFilter);
            }
        }
        if !v.is_empty() {
            return Err(v);
        }
        Ok(CustomerFilter { q, cursor, limit })
    }

    fn common(&self, v: &mut Violations) -> (Option<String>, Option<Cursor>, u32) {
        // Counted as sent (the document's maxLength), not once folded: the
        // fold drops combining accents.
        if self
            .q
            .as_ref()
            .is_some_and(|q| q.chars().count() > MAX_QUERY_CHARS)
        {
            v.add("q", Msg::MaxChars(MAX_QUERY_CHARS));
        } else if present(&self.q).is_some_and(|q| q.chars().any(char::is_control)) {
            // PostgreSQL text cannot hold a NUL; no one searches for a tab.
            v.add("q", Msg::WrongType("text"));
        }
        let q = present(&self.q).map(search_fold);
        let (cursor, limit) = page(&self.cursor, &self.limit, v);
        (q, cursor, limit)
    }
}

/// A page of any list: `cursor` a page's `nextCursor` given back, `limit` 1
/// to 100 (default 50); a parameter given empty breaks its rule (a form
/// leaves a blank filter out of the URL). What breaks is added to `v`.
pub fn page(
    cursor: &Option<String>,
    limit: &Option<String>,
    v: &mut Violations,
) -> (Option<Cursor>, u32) {
    let cursor = given(cursor).and_then(|c| {
        let cursor = Cursor::parse(c);
        if cursor.is_none() {
            v.add("cursor", Msg::Cursor);
        }
        cursor
    });
    let limit = match given(limit) {
        None => DEFAULT_LIMIT,
        Some(l) => match l.parse::<u32>() {
            Ok(n) if (1..=MAX_LIMIT).contains(&n) => n,
            _ => {
                v.add("limit", Msg::IntRange(1, i64::from(MAX_LIMIT)));
                DEFAULT_LIMIT
            }
        },
    };
    (cursor, limit)
}

/// What a text search compares: `text` in lower case (any script), without
/// the accents of Portuguese and the rest of Latin-1, so that "JOÃO", "joão"
/// and "joao" are one name (merchants type names without accents). The
/// service folds `q` with it and stores the same fold of what `q` searches
/// (names, e-mails, externalIds), so SQLite and PostgreSQL, whose `LOWER`s
/// differ, compare alike. Combining accents (text in decomposed form) go too.
pub fn search_fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' | 'å' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ý' | 'ÿ' => 'y',
            'ç' => 'c',
            'ñ' => 'n',
            c => c,
        })
        .collect()
}

/// A parameter given, even empty: `?dueTo=` is not a date (a form that
/// leaves a filter blank leaves it out of the URL). Only `q` may be blank.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim)
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// One page of the invoice list, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct InvoicePage {
    /// Each invoice in the detail form.
    pub data: Vec<InvoiceDetail>,
    /// The `cursor` of the next page; `null` on the last one.
    pub next_cursor: Option<String>,
}

/// One page of the customer list, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomerPage {
    pub data: Vec<CustomerDetail>,
    /// The `cursor` of the next page; `null` on the last one.
    pub next_cursor: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_what_it_wrote_and_nothing_else() {
        let c = Cursor {
            created_at: "2026-11-25T12:00:00.000Z".into(),
            id: "0b6f1f0e-6a3e-4b8e-9a57-2d1c4a1e9f10".into(),
        };
        assert_eq!(Cursor::parse(&c.encode()), Some(c));
        for bad in [
            "",
            "~",
            "2026-11-25T12:00:00.000Z",
            "2026-11-25~0b6f1f0e-6a3e-4b8e-9a57-2d1c4a1e9f10",
            "2026-11-25T12:00:00.000Z~x",
            "2026-13-25T12:00:00.000Z~0b6f1f0e-6a3e-4b8e-9a57-2d1c4a1e9f10",
        ] {
            assert_eq!(Cursor::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_search_fold_drops_case_and_portuguese_accents() {
        assert_eq!(search_fold("JOÃO"), "joao");
        assert_eq!(search_fold("Conceição"), "conceicao");
        assert_eq!(search_fold("MARIA DA CONCEIÇÃO"), "maria da conceicao");
        assert_eq!(
            search_fold("ÁÀÂÃÄ ÉÊÈË ÍÌÎÏ ÓÒÔÕÖ ÚÙÛÜ Ç Ñ"),
            "aaaaa eeee iiii ooooo uuuu c n"
        );
        assert_eq!(
            search_fold("áàâãä éêèë íìîï óòôõö úùûü ç ñ"),
            "aaaaa eeee iiii ooooo uuuu c n"
        );
        // Decomposed (a + combining tilde) as some keyboards send it.
        assert_eq!(search_fold("Joa\u{303}o"), "joao");
        // Unaccented text only changes case; digits, LIKE's wildcards and
        // other scripts' letters stay (lower-cased).
        assert_eq!(
            search_fold("Pedido_3% ana@LOJA.example"),
            "pedido_3% ana@loja.example"
        );
        assert_eq!(search_fold("ΣΩ Łódź"), "σω łodź");
        assert_eq!(search_fold(&search_fold("Ação")), search_fold("Ação"));
    }

    #[test]
    fn q_is_folded_and_its_length_counted_as_sent() {
        let p = ListParams {
            q: Some(" JOÃO Conceição ".into()),
            ..Default::default()
        };
        assert_eq!(
            p.customer_filter().unwrap().q.as_deref(),
            Some("joao conceicao")
        );
        // 101 characters, 51 once the combining tildes are folded away.
        let long = ListParams {
            q: Some(format!("{}a", "a\u{303}".repeat(50))),
            ..Default::default()
        };
        assert!(long.invoice_filter().unwrap_err().has("q"));
        let longest = ListParams {
            q: Some("ã".repeat(MAX_QUERY_CHARS)),
            ..Default::default()
        };
        assert_eq!(
            longest.invoice_filter().unwrap().q,
            Some("a".repeat(MAX_QUERY_CHARS))
        );
    }

    #[test]
    fn a_blank_q_is_absent_and_other_blank_parameters_are_errors() {
        let p = ListParams {
            q: Some("  Maria ".into()),
            ..Default::default()
        };
        let f = p.invoice_filter().unwrap();
        assert_eq!(
            (f.status, f.q.as_deref(), f.limit),
            (None, Some("maria"), 50)
        );
        let blank_q = ListParams {
            q: Some(" ".into()),
            ..Default::default()
        };
        assert_eq!(blank_q.invoice_filter().unwrap().q, None);
        // `?dueTo=` is not a date: a form leaves a blank filter out of the URL.
        let blank = || Some(" ".to_string());
        for (p, field) in [
            (
                ListParams {
                    due_to: blank(),
                    ..Default::default()
                },
                "dueTo",
            ),
            (
                ListParams {
                    status: blank(),
                    ..Default::default()
                },
                "status",
            ),
            (
                ListParams {
                    limit: blank(),
                    ..Default::default()
                },
                "limit",
            ),
            (
                ListParams {
                    cursor: blank(),
                    ..Default::default()
                },
                "cursor",
            ),
            (
                ListParams {
                    pix_automatico: Some("revoked".into()),
                    ..Default::default()
                },
                "pixAutomatico",
            ),
        ] {
            assert!(p.invoice_filter().unwrap_err().has(field), "{field}");
        }
    }
}
