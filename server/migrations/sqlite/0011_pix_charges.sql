-- PIX through a bank's API Pix (issue 24, item 1).
--
-- pix_charges: one row per PIX installment once the charges worker took it up
-- (paylink serve --pix-api-url). It is the outbox of the next call for that
-- charge: operation 'create' (PUT /cobv or /cob of the txid derived from the
-- installment, so a retry never makes a second charge) or 'remove' (PATCH
-- /cobv when the invoice is deleted); status 'pending' until the bank answered,
-- then 'done', or 'failed' when the bank refused it (last_error says why).
-- id is the installment's id (the outbox claim works on `id`). The bank's
-- answer is kept: location, copia_e_cola (the dynamic BR Code) and bank_status.
CREATE TABLE pix_charges (
    id               TEXT PRIMARY KEY REFERENCES installments(id),
    invoice_id       TEXT NOT NULL REFERENCES invoices(id),
    txid             TEXT NOT NULL UNIQUE,
    kind             TEXT,
    operation        TEXT NOT NULL,
    status           TEXT NOT NULL,
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_at  TEXT NOT NULL,
    locked_until     TEXT,
    last_error       TEXT,
    location         TEXT,
    copia_e_cola     TEXT,
    bank_status      TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX pix_charges_due ON pix_charges(status, next_attempt_at);

-- Each Pix the bank confirmed, by its endToEndId: a callback or a
-- reconciliation pass that sees it again changes nothing.
CREATE TABLE pix_payments (
    end_to_end_id   TEXT PRIMARY KEY,
    installment_id  TEXT NOT NULL REFERENCES installments(id),
    txid            TEXT NOT NULL,
    amount_cents    BIGINT NOT NULL,
    paid_at         TEXT NOT NULL,
    refunded_cents  BIGINT NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL
);
CREATE INDEX pix_payments_installment ON pix_payments(installment_id);
