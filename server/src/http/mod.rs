//! The invoicing service of the spec: one module per resource, each exporting `router()`.

pub mod customers;
pub mod health;
pub mod invoices;
