-- Issue 41: each paid installment's receipt (comprovante). Written with the payment (the one path,
-- `payments::confirm_in`): its verification code, random (80 bits from the operating system,
-- Crockford base 32), which `/r/{code}` finds the installment by; and how it was paid, as only the
-- payment knows it: the method (PIX, BOLETO; NULL for one the merchant recorded by hand) and the
-- reference the payer's bank shows too (the Pix's endToEndId, the boleto's nosso número). An
-- installment paid before this migration gets its row the first time its receipt is shown. The
-- rest (amount, time, names, a reversal) is read from the installment each time.
CREATE TABLE receipts (
    installment_id  TEXT PRIMARY KEY REFERENCES installments(id),
    code            TEXT NOT NULL UNIQUE,
    method          TEXT,
    reference       TEXT,
    created_at      TEXT NOT NULL
);
