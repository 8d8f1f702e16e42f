//! The invoicing service over real HTTP against a real SQLite file: one test
//! binary, each test on its own server (port 0) and its own database.

mod helpers;

mod auth;
mod cli;
mod customers;
mod envelope;
mod idempotency;
mod invoices;
mod notifications;
mod openapi;
mod payer;
mod proxy;
mod receiver;
mod scheduler;
mod web;
mod webhooks;
