//! Notification sends as the merchant sees them and as providers carry them: what a
//! provider's status callbacks may change (a status only moves forward), a recipient
//! masked for operators' screens, and an SMS text that fits one segment.

use serde::{Deserialize, Serialize};

use crate::enums::{wire_enum, Channel};

wire_enum!(
    /// What the provider (WhatsApp's Cloud API, Twilio) last said of a message it took.
    ProviderStatus {
        Sent = "sent",
        Delivered = "delivered",
        Read = "read",
        Failed = "failed",
    }
);

impl ProviderStatus {
    /// How far along a message is. Callbacks arrive in any order and more than once; a
    /// status is recorded only when its rank is above the recorded one, so a late
    /// `delivered` never replaces `read`, and a message the provider failed after
    /// sending it shows `failed` unless it is also said to have arrived.
    pub fn rank(self) -> i64 {
        match self {
            ProviderStatus::Sent => 1,
            ProviderStatus::Failed => 2,
            ProviderStatus::Delivered => 3,
            ProviderStatus::Read => 4,
        }
    }
}

/// The stored e-mail or phone (E.164) of a send as an operator's screen shows it: enough
/// to recognise it, not to use it. `maria.silva@example.com` → `m***a@example.com`;
/// `+5511987654321` → `(11) 9****-4321` (no `+55`, as Brazilians write it); another
/// country's number keeps its `+` and last four digits.
pub fn mask_recipient(channel: Channel, stored: &str) -> String {
    let stored = stored.trim();
    match channel {
        Channel::Email => {
            let Some((local, domain)) = stored.rsplit_once('@') else {
                return "***".into();
            };
            let chars: Vec<char> = local.chars().collect();
            match chars.as_slice() {
                [] => format!("***@{domain}"),
                [first] | [first, _] => format!("{first}***@{domain}"),
                [first, .., last] => format!("{first}***{last}@{domain}"),
            }
        }
        Channel::WhatsApp | Channel::Sms => {
            let digits: Vec<char> = stored.chars().filter(char::is_ascii_digit).collect();
            let brazilian = stored.starts_with("+55") || !stored.starts_with('+');
            let national = match digits.as_slice() {
                ['5', '5', rest @ ..] if brazilian && (10..=11).contains(&rest.len()) => rest,
                rest if !stored.starts_with('+') && (10..=11).contains(&rest.len()) => rest,
                _ => {
                    let keep = digits.len().saturating_sub(4);
                    let tail: String = digits[keep..].iter().collect();
                    return format!("+{}{tail}", "*".repeat(keep.max(1)));
                }
            };
            let ddd: String = national[..2].iter().collect();
            let last: String = national[national.len() - 4..].iter().collect();
            if national.len() == 11 {
                format!("({ddd}) {}****-{last}", national[2])
            } else {
                format!("({ddd}) ****-{last}")
            }
        }
    }
}

// ---------------------------------------------------------------------------
// SMS: one segment is 160 GSM-7 septets, or 70 UCS-2 units when any character
// is outside GSM-7 (3GPP TS 23.038).

/// GSM 03.38's basic character set (one septet each).
const GSM7_BASIC: &str = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?\
¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/// Its extension table: each is an escape and the character, two septets.
const GSM7_EXTENSION: &str = "\u{0C}^{}\\[~]|€";

/// Septets of one GSM-7 segment.
pub const SMS_GSM7_SEGMENT: usize = 160;
/// UTF-16 units of one UCS-2 segment.
pub const SMS_UCS2_SEGMENT: usize = 70;

/// The septets `text` takes in GSM-7, `None` when a character is not in it.
pub fn gsm7_septets(text: &str) -> Option<usize> {
    text.chars().try_fold(0, |n, c| {
        if GSM7_BASIC.contains(c) {
            Some(n + 1)
        } else if GSM7_EXTENSION.contains(c) {
            Some(n + 2)
        } else {
            None
        }
    })
}

/// Whether `text` is one SMS segment: 160 septets in GSM-7, else 70 UCS-2 units.
pub fn fits_one_segment(text: &str) -> bool {
    match gsm7_septets(text) {
        Some(n) => n <= SMS_GSM7_SEGMENT,
        None => text.encode_utf16().count() <= SMS_UCS2_SEGMENT,
    }
}

/// Portuguese letters GSM-7 lacks, written as the plain letter (`ã` → `a`, `ç` → `c`,
/// `ô` → `o`), and typographic punctuation as ASCII; a text in GSM-7 gets 160
/// characters a segment instead of 70. Letters GSM-7 has (`é`, `à`, `Ç`, `ü`) stay.
pub fn to_gsm7(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let plain = match c {
            'á' | 'â' | 'ã' => "a",
            'Á' | 'Â' | 'Ã' | 'À' => "A",
            'ç' => "c",
            'ê' | 'ë' => "e",
            'Ê' | 'Ë' | 'È' => "E",
            'í' | 'î' | 'ï' => "i",
            'Í' | 'Î' | 'Ï' | 'Ì' => "I",
            'ó' | 'ô' | 'õ' => "o",
            'Ó' | 'Ô' | 'Õ' | 'Ò' => "O",
            'ú' | 'û' => "u",
            'Ú' | 'Û' | 'Ù' => "U",
            '\u{2018}' | '\u{2019}' => "'",
            '\u{201C}' | '\u{201D}' => "\"",
            '\u{2013}' | '\u{2014}' => "-",
            '\u{2026}' => "...",
            '\u{00A0}' | '\u{202F}' | '\t' => " ",
            _ => {
                out.push(c);
                continue;
            }
        };
        out.push_str(plain);
    }
    out
}

/// An SMS text of `before`, the description in parentheses and `after`, in one segment
/// where it can be: everything is written in GSM-7 where a letter allows ([`to_gsm7`]),
/// then only the description is shortened (ending in `...`) or left out. `before` and
/// `after` carry what must arrive whole (the amount, the link) and are never cut; when
/// they alone do not fit, the message goes without the description in more segments.
pub fn fit_sms(before: &str, description: Option<&str>, after: &str) -> String {
    let (before, after) = (to_gsm7(before), to_gsm7(after));
    let bare = format!("{before}{after}");
    let description = description.map(|d| to_gsm7(d.trim())).unwrap_or_default();
    if description.is_empty() {
        return bare;
    }
    let whole = format!("{before} ({description}){after}");
    if fits_one_segment(&whole) {
        return whole;
    }
    // The longest cut that fits (a cut can only make it shorter, or GSM-7 where it was not).
    let chars: Vec<char> = description.chars().collect();
    for len in (1..chars.len()).rev() {
        let cut: String = chars[..len].iter().collect();
        let cut = cut.trim_end();
        if cut.is_empty() {
            continue;
        }
        let text = format!("{before} ({cut}...){after}");
        if fits_one_segment(&text) {
            return text;
        }
    }
    bare
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://pay.loja.example/pay/0b6f3f1e-8a57-4f0e-9d2c-1c2b3a4d5e6f";

    #[test]
    fn a_status_only_moves_forward() {
        use ProviderStatus::*;
        assert!(Read.rank() > Delivered.rank());
        assert!(Delivered.rank() > Sent.rank());
        assert!(Failed.rank() > Sent.rank(), "failed after sent is news");
        assert!(Delivered.rank() > Failed.rank(), "arrived after all");
        assert_eq!(ProviderStatus::parse("read"), Some(Read));
        assert_eq!(ProviderStatus::parse("queued"), None);
    }

    #[test]
    fn recipients_are_masked_and_phones_shown_without_55() {
        let m = |c, s| mask_recipient(c, s);
        assert_eq!(
            m(Channel::Email, "maria.silva@example.com"),
            "m***a@example.com"
        );
        assert_eq!(m(Channel::Email, "jo@example.com"), "j***@example.com");
        assert_eq!(m(Channel::Email, "nonsense"), "***");
        assert_eq!(m(Channel::WhatsApp, "+5511987654321"), "(11) 9****-4321");
        assert_eq!(m(Channel::Sms, "+551134567890"), "(11) ****-7890");
        assert_eq!(m(Channel::Sms, "+12025550123"), "+*******0123");
        for s in ["+5511987654321", "+12025550123"] {
            assert!(!m(Channel::Sms, s).contains("98765"), "{s}");
        }
    }

    #[test]
    fn gsm7_counts_extension_characters_twice_and_knows_what_is_outside() {
        assert_eq!(gsm7_septets("Olé, R$ 10,00!"), Some(14));
        assert_eq!(gsm7_septets("[€]"), Some(6));
        assert_eq!(gsm7_septets("violão"), None);
        assert!(fits_one_segment(&"a".repeat(160)));
        assert!(!fits_one_segment(&"a".repeat(161)));
        assert!(!fits_one_segment(&"€".repeat(81)), "162 septets");
        assert!(fits_one_segment(&"€".repeat(80)));
        // One character outside GSM-7 makes the whole text UCS-2: 70.
        assert!(fits_one_segment(&format!("{}✓", "a".repeat(69))));
        assert!(!fits_one_segment(&format!("{}✓", "a".repeat(70))));
        assert_eq!(
            to_gsm7("Conceição, violão, você, café"),
            "Conceicao, violao, voce, café"
        );
        assert!(gsm7_septets(&to_gsm7("ÁÃÂÊÍÓÔÕÚáãâêíóôõúç – “x” …")).is_some());
    }

    #[test]
    fn a_long_description_is_cut_never_the_amount_or_the_link() {
        let before = "Maria, lembrete: a fatura de R$ 1.234,56";
        let after = format!(" vence em 31/01/2027. Pague: {URL}");
        let text = fit_sms(
            before,
            Some(&"Mensalidade do curso de violão ".repeat(8)),
            &after,
        );
        assert!(fits_one_segment(&text), "{text}");
        assert_eq!(gsm7_septets(&text), Some(160), "as much as fits: {text}");
        assert!(text.starts_with(before), "{text}");
        assert!(text.ends_with(&after), "{text}");
        assert_eq!(
            text,
            format!("{before} (Mensalidade do curso...){after}"),
            "the description cut, in GSM-7"
        );

        // Short enough: whole, in GSM-7.
        let text = fit_sms(before, Some("Curso de violão"), &after);
        assert_eq!(text, format!("{before} (Curso de violao){after}"));

        // Extension characters count twice: fewer of the description fit.
        let plain = fit_sms(before, Some(&"x".repeat(200)), &after);
        let braces = fit_sms(before, Some(&"{".repeat(200)), &after);
        assert!(fits_one_segment(&braces) && fits_one_segment(&plain));
        assert!(braces.len() < plain.len(), "{braces}");

        // A character GSM-7 cannot carry in the description: cut off, so the rest is GSM-7.
        let text = fit_sms(before, Some(&format!("{}✓", "a".repeat(200))), &after);
        assert!(gsm7_septets(&text).is_some(), "{text}");
        assert!(fits_one_segment(&text));

        // No room at all: no description, the amount and the link whole, in more segments.
        let long_after = format!(" vence em 31/01/2027. Pague: {URL}?{}", "q".repeat(100));
        let text = fit_sms(before, Some("Curso"), &long_after);
        assert_eq!(text, format!("{before}{long_after}"));
        assert_eq!(fit_sms(before, None, &after), format!("{before}{after}"));
        assert_eq!(
            fit_sms(before, Some("  "), &after),
            format!("{before}{after}")
        );
    }
}
