//! Reusable pieces of the screens.

pub mod editors;
pub mod field;
pub mod html;
pub mod installments;
pub mod lang_switch;
pub mod poll;
pub mod sections;
pub mod table;
