//! The two languages paylink speaks, defined beside the texts (`paylink-text`, the layer
//! below this one) so that the model's messages can take theirs from the catalog.

pub use paylink_text::Lang;
