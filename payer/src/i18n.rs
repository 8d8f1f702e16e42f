//! The payer pages' words: every fixed text is the catalog's (`paylink-text`, the merchant's
//! app's too); here is the one `pick` of a language's version for the sentences still written
//! where they are shown.

pub use paylink_text::pick;
