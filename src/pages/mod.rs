//! The merchant's screens, one file each: `/` (home: the customer form, then the invoice
//! form), the dashboard, the invoice and customer lists, the invoice detail and its actions,
//! the login, the webhooks and their deliveries, and the page for a path no screen answers.

pub mod customer_form;
pub mod customer_list;
pub mod dashboard;
pub mod home;
pub mod invoice_actions;
pub mod invoice_form;
pub mod invoice_list;
pub mod invoice_view;
pub mod links;
pub mod login;
pub mod not_found;
pub mod webhooks;
