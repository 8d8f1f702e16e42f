//! The merchant's screens: the dashboard, the two forms, the invoice and customer lists, the
//! invoice detail and its actions, and the login.

pub mod customer_form;
pub mod customer_list;
pub mod dashboard;
pub mod invoice_actions;
pub mod invoice_form;
pub mod invoice_list;
pub mod invoice_view;
pub mod login;
