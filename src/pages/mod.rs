//! The screens: the merchant's dashboard, the two merchant forms, the invoice and customer lists, the
//! invoice detail and its actions, a payment link's
//! page and the payer page.

pub mod customer_form;
pub mod customer_list;
pub mod dashboard;
pub mod invoice_actions;
pub mod invoice_form;
pub mod invoice_list;
pub mod invoice_view;
pub mod link_form;
pub mod login;
pub mod pay_view;
