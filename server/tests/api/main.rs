//! The invoicing service over real HTTP against a real database: one test
//! binary, each test on its own server (port 0) and its own database (a SQLite
//! file, or a fresh PostgreSQL schema when PAYLINK_TEST_DATABASE_URL is set).

mod helpers;

mod actions;
mod app_webhooks;
mod auth;
mod backends;
mod boleto_pdf;
mod charges_page;
mod cli;
mod connections;
mod customers;
mod dashboard;
mod envelope;
mod idempotency;
mod invoices;
mod link_admin;
mod link_page;
mod links;
mod lists;
mod metrics;
mod migrations;
mod notifications;
mod openapi;
mod operations;
mod operators;
mod outbound;
mod outbox;
mod owners;
mod pay_again;
mod pay_page;
mod payer;
mod pix_automatico;
mod pix_automatico_bank;
mod pix_automatico_serve;
mod pix_night;
mod process;
mod providers;
mod proxy;
mod receipts;
mod receiver;
mod retention;
mod scheduler;
mod schema;
mod settlement;
mod settlement_pix;
mod settlement_pix_devolucoes;
mod settlement_pix_lifecycle;
mod settlement_pix_serve;
mod smtp;
mod terms;
mod web;
mod webhooks;
