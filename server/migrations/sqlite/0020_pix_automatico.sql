-- Pix Automático (issue 31): the recurrence at the bank of a RECURRING or SUBSCRIPTION invoice
-- that asked for it (`pixAutomatico` of the request).
--
-- pix_recurrences: one row per such invoice, written with the invoice (id is the invoice's id:
-- the outbox claim works on `id`). It is the outbox of the next call for the recurrence:
-- operation 'create' (POST /locrec once, then POST /rec with that location, then
-- GET /rec/{idRec}?txid= for the composite code) or 'cancel' (PATCH /rec/{idRec} CANCELADA when
-- the invoice is deleted); status 'pending' until the bank answered, then 'done', or 'failed'
-- when the bank refused it (refusal, as `{"reasons": [...]}`, says why; last_error keeps the
-- technical text). loc_id is the location the recurrence is made with: a retry after a lost
-- answer asks GET /locrec/{loc_id} first, and a location that already names an idRec is the
-- recurrence made, never a second one. bank_status is the bank's RecStatus as last read back
-- from the bank (GET /rec/{idRec}), closing who ended it and why.
CREATE TABLE pix_recurrences (
    id               TEXT PRIMARY KEY REFERENCES invoices(id),
    periodicity      TEXT NOT NULL,
    retry_policy     TEXT NOT NULL,
    operation        TEXT NOT NULL,
    status           TEXT NOT NULL,
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_at  TEXT NOT NULL,
    locked_until     TEXT,
    last_error       TEXT,
    refusal          TEXT,
    loc_id           BIGINT,
    location         TEXT,
    id_rec           TEXT UNIQUE,
    journey_txid     TEXT,
    copia_e_cola     TEXT,
    bank_status      TEXT,
    closing          TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX pix_recurrences_due ON pix_recurrences(status, next_attempt_at);
