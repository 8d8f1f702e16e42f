//! The background loops `serve` runs: webhook deliveries and notification
//! sends (both from an outbox table), and the recurring-charge scheduler.

pub mod notifications;
pub mod scheduler;
pub mod webhooks;
