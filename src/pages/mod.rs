//! The screens: the two merchant forms, the invoice detail and the payer page.

pub mod customer_form;
pub mod invoice_form;
pub mod invoice_view;
pub mod pay_view;
