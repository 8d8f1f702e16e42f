//! The retorno: the bank's answer file, read into one notice per boleto (segment T with its
//! segment U): registered, rejected, paid (amount and dates) or written off.

use paylink_model::Date;

pub use crate::store::boletos::Movement;

/// One boleto's news in a retorno: segment T with its segment U.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The line of segment T (1-based), for messages.
    pub line: usize,
    pub our_number: String,
    pub company_reference: String,
    pub amount_cents: i64,
    pub movement: Movement,
}

/// A retorno that cannot be read: the line (1-based) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RetornoError {
    pub line: usize,
    pub message: String,
}

/// Reads a whole retorno; any malformed line makes the whole file an error, so that nothing
/// of a damaged file is applied.
pub fn retorno(text: &str) -> Result<Vec<Notice>, RetornoError> {
    let mut notices = Vec::new();
    let mut pending_t: Option<(usize, String, String, i64, String, String)> = None;
    let mut saw_header = false;
    let mut saw_trailer = false;
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        let rec = raw.strip_suffix('\r').unwrap_or(raw);
        if rec.is_empty() && i > 0 {
            continue;
        }
        let err = |message: String| RetornoError { line, message };
        if saw_trailer {
            return Err(err("a record after the file trailer".into()));
        }
        if rec.len() != 240 || !rec.is_ascii() {
            return Err(err(format!(
                "a record has 240 ASCII characters; this one has {}",
                rec.chars().count()
            )));
        }
        let field = |from: usize, to: usize| &rec[from - 1..to];
        let number = |from: usize, to: usize, name: &str| -> Result<i64, RetornoError> {
            let s = field(from, to);
            if s.bytes().all(|b| b.is_ascii_digit()) {
                Ok(s.parse().expect("at most 15 digits"))
            } else {
                Err(err(format!(
                    "{name} (positions {from}-{to}) is not a number: '{s}'"
                )))
            }
        };
        let date = |from: usize, name: &str| -> Result<Option<Date>, RetornoError> {
            let s = field(from, from + 7);
            if s == "00000000" || s.trim().is_empty() {
                return Ok(None);
            }
            let parsed = s.bytes().all(|b| b.is_ascii_digit()).then(|| {
                Date::new(
                    s[4..8].parse().ok()?,
                    s[2..4].parse().ok()?,
                    s[0..2].parse().ok()?,
                )
            });
            match parsed.flatten() {
                Some(d) => Ok(Some(d)),
                None => Err(err(format!(
                    "{name} (positions {from}-{}) is not a date DDMMAAAA: '{s}'",
                    from + 7
                ))),
            }
        };
        match field(8, 8) {
            "0" => {
                if saw_header {
                    return Err(err("a second file header".into()));
                }
                if field(143, 143) != "2" {
                    return Err(err(
                        "the file header does not say retorno (position 143 = 2)".into(),
                    ));
                }
                saw_header = true;
            }
            _ if !saw_header => {
                return Err(err(
                    "the file does not start with its header (record type 0)".into(),
                ))
            }
            "1" | "5" => {}
            "9" => saw_trailer = true,
            "3" => match field(14, 14) {
                "T" => {
                    if let Some((t_line, ..)) = pending_t {
                        return Err(RetornoError {
                            line: t_line,
                            message: "segment T without its segment U".into(),
                        });
                    }
                    let amount = number(82, 96, "valor nominal")?;
                    pending_t = Some((
                        line,
                        field(16, 17).to_string(),
                        field(38, 57).trim().to_string(),
                        amount,
                        field(106, 130).trim().to_string(),
                        field(214, 223).trim().to_string(),
                    ));
                }
                "U" => {
                    let Some((t_line, code, our_number, amount_cents, company_reference, reasons)) =
                        pending_t.take()
                    else {
                        return Err(err("segment U without a segment T before it".into()));
                    };
                    if our_number.is_empty() {
                        return Err(RetornoError {
                            line: t_line,
                            message: "segment T has no nosso número (positions 38-57)".into(),
                        });
                    }
                    let movement = match code.as_str() {
                        "02" => Movement::Registered,
                        "03" => Movement::Rejected { reasons },
                        "06" | "17" => {
                            let paid_cents = number(78, 92, "valor pago")?;
                            let Some(paid_on) = date(138, "data da ocorrência")? else {
                                return Err(err(
                                    "a payment without its date (positions 138-145)".into()
                                ));
                            };
                            Movement::Paid {
                                paid_cents,
                                paid_on,
                                credited_on: date(146, "data do crédito")?,
                            }
                        }
                        "09" => Movement::WrittenOff,
                        c if c.bytes().all(|b| b.is_ascii_digit()) => {
                            Movement::Other(c.to_string())
                        }
                        c => {
                            return Err(RetornoError {
                                line: t_line,
                                message: format!(
                                    "movement code (positions 16-17) is not a number: '{c}'"
                                ),
                            })
                        }
                    };
                    notices.push(Notice {
                        line: t_line,
                        our_number,
                        company_reference,
                        amount_cents,
                        movement,
                    });
                }
                s => return Err(err(format!("unknown segment '{s}' (position 14)"))),
            },
            t => return Err(err(format!("unknown record type '{t}' (position 8)"))),
        }
    }
    if let Some((t_line, ..)) = pending_t {
        return Err(RetornoError {
            line: t_line,
            message: "segment T without its segment U".into(),
        });
    }
    if !saw_header {
        return Err(RetornoError {
            line: 1,
            message: "an empty file".into(),
        });
    }
    if !saw_trailer {
        return Err(RetornoError {
            line: text.lines().count(),
            message: "the file ends without its trailer (record type 9): it may be cut short"
                .into(),
        });
    }
    Ok(notices)
}
