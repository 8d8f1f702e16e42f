-- Issue 38: each installment's static PIX code carries its own txid (field 62.05), random,
-- instead of the first 22 hex digits of the invoice id, which a receipt or a bank statement
-- showed: most of the id that opens the payer page. 25 characters, the BR Code's most.
-- Installments written from now on get one from the server's random generator; those already
-- there get one here (SQLite's randomblob draws from the operating system's generator).
ALTER TABLE installments ADD COLUMN pix_txid TEXT;
UPDATE installments SET pix_txid = substr(lower(hex(randomblob(13))), 1, 25);
