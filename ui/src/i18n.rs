//! What the server's payment link page still names `paylink_ui::i18n::U::FixErrors`: the
//! shared controls take their words from the catalog (`paylink-text`), and this stays only
//! until the server's texts move there too (issue 42's later step), then goes.

use paylink_model::Lang;

/// The one text of the controls' the server names by this path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum U {
    FixErrors,
}

impl U {
    pub fn t(self, l: Lang) -> &'static str {
        match self {
            U::FixErrors => paylink_text::FIX_ERRORS.t(l),
        }
    }
}
