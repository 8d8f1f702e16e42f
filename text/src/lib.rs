//! Every text paylink's merchant app and its form controls show, each sentence once, in
//! pt-BR (first) and English side by side.
//!
//! - A fixed text is a [`Tr`] static: `text::DUE_DATE.t(lang)`. `Tr` is a struct literal with
//!   both languages, so a missing translation does not compile:
//!
//!   ```compile_fail
//!   static X: paylink_text::Tr = paylink_text::Tr { pt: "Vencimento" };
//!   ```
//! - A sentence that carries a value or a count is a function with a `match` on the
//!   language (exhaustive: a language without its arm does not compile), the value inside
//!   the sentence where each grammar wants it (`charge_for(l, name)`), plurals chosen in it
//!   (`customers_found(l, n)`); where the value is shown in markup of its own, the function
//!   gives the text before and after it ([`Around`]).
//! - Each text is a static or a function of its own, so a bundle links only those it uses.
//!
//! The payer pages' texts are here too (`payer`, `pix`), the model's field errors
//! (`fields`), and the server's: its error envelopes' messages (`service`), the payer's
//! e-mails and SMS (`notices`) and the documents it makes (`documents`). This crate therefore takes
//! nothing of paylink's, and [`Lang`] is defined here.

mod lang;

pub mod backoffice;
pub mod charges;
pub mod controls;
pub mod documents;
pub mod fields;
pub mod links;
pub mod lists;
pub mod merchant;
pub mod notices;
pub mod payer;
pub mod pix;
pub mod pix_automatico;
pub mod receipts;
pub mod service;
pub mod session;
pub mod values;
pub mod webhooks;
pub mod words;

pub use backoffice::*;
pub use charges::*;
pub use controls::*;
pub use documents::*;
pub use fields::*;
pub use lang::Lang;
pub use links::*;
pub use lists::*;
pub use merchant::*;
pub use notices::*;
pub use payer::*;
pub use pix::*;
pub use pix_automatico::*;
pub use receipts::*;
pub use service::*;
pub use session::*;
pub use values::*;
pub use webhooks::*;
pub use words::*;

/// A text in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tr {
    pub pt: &'static str,
    pub en: &'static str,
}

impl Tr {
    /// The text in `lang`. Not inlined: each use is a call with the text's address, as
    /// small as a key's (the widget's bundle is measured, bench/README.md).
    #[inline(never)]
    pub fn t(&self, lang: Lang) -> &'static str {
        pick(lang, self.pt, self.en)
    }
}

/// The one choice of a language's version of anything: a text, a pair of texts.
pub fn pick<T>(lang: Lang, pt: T, en: T) -> T {
    match lang {
        Lang::PtBr => pt,
        Lang::En => en,
    }
}

/// A sentence around a value shown in markup of its own (a name in `<strong>`, a link):
/// the text before it and the text after it, in the order the language puts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Around {
    pub before: &'static str,
    pub after: &'static str,
}

const fn around(before: &'static str, after: &'static str) -> Around {
    Around { before, after }
}
