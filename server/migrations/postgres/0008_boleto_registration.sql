-- Boletos registered at the bank with CNAB 240 (issue 24, item 2).
--
-- remessa_files: each remessa paylink wrote, numbered in sequence (the file's
-- NSA, "número sequencial do arquivo"), with its whole text so that a file lost
-- on its way to the bank can be sent again.
CREATE TABLE remessa_files (
    id           TEXT PRIMARY KEY,
    sequence     BIGINT NOT NULL UNIQUE,
    boletos      BIGINT NOT NULL,
    total_cents  BIGINT NOT NULL,
    content      TEXT NOT NULL,
    created_at   TEXT NOT NULL
);

-- One row per installment sent in a remessa: a row exists, so the boleto is
-- never sent again. state: SENT (in a remessa), REGISTERED (entrada
-- confirmada), REJECTED (entrada rejeitada, reasons kept), PAID (liquidação),
-- WRITTEN_OFF (baixa).
CREATE TABLE boleto_registrations (
    installment_id    TEXT PRIMARY KEY REFERENCES installments(id),
    our_number        TEXT NOT NULL UNIQUE,
    remessa_id        TEXT NOT NULL REFERENCES remessa_files(id),
    state             TEXT NOT NULL,
    rejected_reasons  TEXT,
    registered_at     TEXT,
    written_off_at    TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
);

-- Retorno files applied, by the SHA-256 of their bytes: the same file applied
-- again changes nothing.
CREATE TABLE retorno_files (
    sha256      TEXT PRIMARY KEY,
    notices     BIGINT NOT NULL,
    applied_at  TEXT NOT NULL
);
