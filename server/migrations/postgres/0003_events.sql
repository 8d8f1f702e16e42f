-- Events and their webhook deliveries (a transactional outbox): an event and
-- its deliveries are written in the same transaction as the change that caused
-- it, and the delivery worker sends them from here, surviving restarts.

-- Standard Webhooks signing secret of the application (`whsec_` + base64).
ALTER TABLE applications ADD COLUMN webhook_secret TEXT;

CREATE TABLE app_webhooks (
    id              TEXT PRIMARY KEY,
    application_id  TEXT NOT NULL REFERENCES applications(id),
    hook_type       TEXT NOT NULL,
    url             TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    disabled_at     TEXT
);
CREATE INDEX app_webhooks_application ON app_webhooks(application_id);

ALTER TABLE invoice_webhooks ADD COLUMN disabled_at TEXT;

CREATE TABLE events (
    id              TEXT PRIMARY KEY,
    application_id  TEXT NOT NULL REFERENCES applications(id),
    invoice_id      TEXT NOT NULL REFERENCES invoices(id),
    installment_id  TEXT,
    type            TEXT NOT NULL,
    payload         TEXT NOT NULL,
    created_at      TEXT NOT NULL
);
CREATE INDEX events_invoice ON events(invoice_id);

CREATE TABLE deliveries (
    id               TEXT PRIMARY KEY,
    event_id         TEXT NOT NULL REFERENCES events(id),
    -- 'invoice' or 'application': which table webhook_id points into.
    webhook_source   TEXT NOT NULL,
    webhook_id       TEXT NOT NULL,
    url              TEXT NOT NULL,
    -- pending | succeeded | failed | disabled
    status           TEXT NOT NULL,
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_at  TEXT,
    -- A worker holds a delivery until this time; another may take it after.
    locked_until     TEXT,
    last_status_code BIGINT,
    last_error       TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX deliveries_due ON deliveries(status, next_attempt_at);
CREATE INDEX deliveries_event ON deliveries(event_id);

CREATE TABLE delivery_attempts (
    id            TEXT PRIMARY KEY,
    delivery_id   TEXT NOT NULL REFERENCES deliveries(id),
    attempted_at  TEXT NOT NULL,
    status_code   BIGINT,
    error         TEXT,
    duration_ms   BIGINT NOT NULL
);
CREATE INDEX delivery_attempts_delivery ON delivery_attempts(delivery_id);
