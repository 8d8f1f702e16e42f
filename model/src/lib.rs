//! paylink's shared model: every type of the invoicing service's interface,
//! money in integer cents, the validation rules (keyed by API field path), and
//! the installment plan. Built for wasm32 (the widget) and native (the server),
//! so each rule is written once and runs on both sides.

pub mod actions;
pub mod boleto;
pub mod br;
pub mod charges;
pub mod customer;
pub mod dashboard;
pub mod date;
pub mod date_input;
pub mod enums;
pub mod errors;
pub mod installment_due;
pub mod invoice;
pub mod lang;
pub mod link;
pub mod link_spec;
pub mod list;
pub mod money;
pub mod notify;
pub mod operator;
pub mod outbound;
pub mod payer;
pub mod pix;
pub mod pix_automatico;
pub mod pix_night;
pub mod plan;
pub mod receipt;
pub mod reversal;
pub mod webhooks;
mod wire;

pub use charges::{amount_due, AmountDue, ChargeTerms, Discount, Fine, Interest};
pub use customer::*;
pub use dashboard::{Dashboard, MonthTotal};
pub use date::Date;
pub use enums::*;
pub use errors::{Errors, Msg, Violations};
pub use invoice::*;
pub use lang::Lang;
pub use link::{LinkChoice, PaymentLink};
pub use list::{CustomerPage, InvoicePage};
pub use notify::ProviderStatus;
pub use payer::*;
pub use pix_automatico::{
    CycleAttempt, PixAutomaticoCycle, PixAutomaticoDetail, PixAutomaticoRequest,
    PixAutomaticoStatus,
};
pub use plan::{installment_plan, periodic_due, PlannedInstallment, MAX_INSTALLMENTS};
