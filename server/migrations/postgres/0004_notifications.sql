-- Payer notifications (a transactional outbox, like deliveries): each
-- configured notification of an invoice becomes scheduled sends, written in
-- the same transaction as the change that causes them (creation, a new
-- installment, a payment, a reversal); the notifier sends them from here.

CREATE TABLE notification_sends (
    id               TEXT PRIMARY KEY,
    notification_id  TEXT NOT NULL REFERENCES invoice_notifications(id),
    invoice_id       TEXT NOT NULL REFERENCES invoices(id),
    installment_id   TEXT REFERENCES installments(id),
    type             TEXT NOT NULL,
    channel          TEXT NOT NULL,
    -- The customer's e-mail (Email) or phone (WhatsApp, SMS); read again when sending.
    recipient        TEXT,
    -- When the rule says it is due (ISO UTC); a past one is sent once, as soon as possible.
    due_at           TEXT NOT NULL,
    -- pending | sent | failed | skipped
    status           TEXT NOT NULL,
    attempts         BIGINT NOT NULL DEFAULT 0,
    -- due_at at first, later than due_at while retrying after failures.
    next_attempt_at  TEXT NOT NULL,
    last_error       TEXT,
    sent_at          TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    -- A worker holds a send until this time; another may take it after.
    locked_until     TEXT
);
CREATE INDEX notification_sends_due ON notification_sends(status, next_attempt_at);
CREATE INDEX notification_sends_invoice ON notification_sends(invoice_id);
CREATE INDEX notification_sends_notification ON notification_sends(notification_id, installment_id);
