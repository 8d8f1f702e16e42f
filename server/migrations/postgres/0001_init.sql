-- paylink schema, PostgreSQL: the same tables as migrations/sqlite, with every
-- integer BIGINT so both backends decode i64 alike through sqlx::Any. TEXT ids
-- (UUID strings), TEXT ISO-8601 UTC timestamps (they sort as text).

CREATE TABLE applications (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL,
    name         TEXT NOT NULL UNIQUE,
    -- SHA-256 of the 32-byte random secret, hex. The secret itself is never stored.
    secret_hash  TEXT NOT NULL,
    created_at   TEXT NOT NULL
);

CREATE TABLE customers (
    id              TEXT PRIMARY KEY,
    application_id  TEXT NOT NULL REFERENCES applications(id),
    user_id         TEXT NOT NULL,
    full_name       TEXT NOT NULL,
    document        TEXT,
    business        TEXT,
    email           TEXT,
    phone           TEXT,
    observations    TEXT,
    created_at      TEXT NOT NULL,
    deleted_at      TEXT
);
CREATE INDEX customers_application ON customers(application_id);

CREATE TABLE addresses (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL UNIQUE REFERENCES customers(id),
    address       TEXT,
    number        TEXT,
    complement    TEXT,
    neighborhood  TEXT,
    city          TEXT,
    state         TEXT,
    zipcode       TEXT
);

CREATE TABLE invoices (
    id                  TEXT PRIMARY KEY,
    application_id      TEXT NOT NULL REFERENCES applications(id),
    customer_id         TEXT NOT NULL REFERENCES customers(id),
    external_id         TEXT NOT NULL,
    description         TEXT,
    invoice_type        TEXT NOT NULL,
    price_cents         BIGINT NOT NULL,
    price_by_customer   BOOLEAN NOT NULL,
    due_date            TEXT NOT NULL,
    installment_count   BIGINT NOT NULL,
    frequency           TEXT,
    end_date            TEXT,
    end_installment     BIGINT,
    end_subscription    TEXT,
    redirect_to         TEXT,
    created_at          TEXT NOT NULL,
    deleted_at          TEXT
);
CREATE INDEX invoices_application ON invoices(application_id);

CREATE TABLE installments (
    id                   TEXT PRIMARY KEY,
    invoice_id           TEXT NOT NULL REFERENCES invoices(id),
    number               BIGINT NOT NULL,
    price_cents          BIGINT NOT NULL,
    price_paid_cents     BIGINT NOT NULL DEFAULT 0,
    due_date             TEXT NOT NULL,
    status               TEXT NOT NULL,
    created_at           TEXT NOT NULL,
    updated_at           TEXT,
    deleted_at           TEXT,
    last_view_at         TEXT,
    paid_at              TEXT,
    payment_received_at  TEXT,
    views_count          BIGINT NOT NULL DEFAULT 0,
    UNIQUE (invoice_id, number)
);

CREATE TABLE invoice_payment_types (
    invoice_id    TEXT NOT NULL REFERENCES invoices(id),
    position      BIGINT NOT NULL,
    payment_type  TEXT NOT NULL,
    PRIMARY KEY (invoice_id, payment_type)
);

CREATE TABLE invoice_notifications (
    id          TEXT PRIMARY KEY,
    invoice_id  TEXT NOT NULL REFERENCES invoices(id),
    position    BIGINT NOT NULL,
    type        TEXT NOT NULL,
    channel     TEXT NOT NULL,
    period      BIGINT,
    created_at  TEXT NOT NULL
);
CREATE INDEX invoice_notifications_invoice ON invoice_notifications(invoice_id);

CREATE TABLE invoice_webhooks (
    id          TEXT PRIMARY KEY,
    invoice_id  TEXT NOT NULL REFERENCES invoices(id),
    position    BIGINT NOT NULL,
    hook_type   TEXT NOT NULL,
    url         TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX invoice_webhooks_invoice ON invoice_webhooks(invoice_id);
