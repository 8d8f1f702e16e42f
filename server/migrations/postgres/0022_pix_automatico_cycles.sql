-- Pix Automático (issue 31): what the merchant sees of each cycle and of a recurrence replaced.
--
-- pix_cycles: each later cycle's recurring charge (`cobr`, one per installment: its txid is the
-- installment's) as the bank last read it back (the PUT's answer, GET /cobr/{txid} after each
-- callback, the PATCH cancelling it): status is the bank's CobRStatus, or RECUSADA when the bank
-- refused to make it (reasons, JSON, say why); attempts is its `tentativas` as paylink keeps them,
-- JSON `[{"date", "type", "status", "reasonCode", "reason"}]` (paylink_model::CycleAttempt). The
-- invoice detail shows them under pixAutomatico.cycles.
CREATE TABLE pix_cycles (
    installment_id  TEXT PRIMARY KEY REFERENCES installments(id),
    invoice_id      TEXT NOT NULL REFERENCES invoices(id),
    txid            TEXT NOT NULL UNIQUE,
    due_date        TEXT NOT NULL,
    status          TEXT NOT NULL,
    attempts        TEXT NOT NULL,
    reasons         TEXT,
    updated_at      TEXT NOT NULL
);
CREATE INDEX pix_cycles_invoice ON pix_cycles(invoice_id);

-- pix_recurrences_past: a recurrence an invoice no longer waits on, kept when a new one replaces
-- it in pix_recurrences (a payer who declined, or let it expire, asked the payer page for a new
-- one): its idRec, how it ended at the bank (bank_status, closing as in pix_recurrences) and when
-- it was replaced.
CREATE TABLE pix_recurrences_past (
    id_rec       TEXT PRIMARY KEY,
    invoice_id   TEXT NOT NULL REFERENCES invoices(id),
    bank_status  TEXT,
    closing      TEXT,
    replaced_at  TEXT NOT NULL
);
CREATE INDEX pix_recurrences_past_invoice ON pix_recurrences_past(invoice_id);
