//! Reusable pieces of the screens, one `#[component]` family per file.

pub mod charges_link;
pub mod customer_picker;
pub mod editors;
pub mod installments;
pub mod lang_switch;
pub mod list;
pub mod nav;
pub mod poll;
pub mod sections;
pub mod table;
pub mod top_bar;
