-- Issue 38: each installment's static PIX code carries its own txid (field 62.05), random,
-- instead of the first 22 hex digits of the invoice id, which a receipt or a bank statement
-- showed: most of the id that opens the payer page. 25 characters, the BR Code's most.
-- Installments written from now on get one from the server's random generator; those already
-- there get one here (gen_random_uuid draws from a strong random source; its version and
-- variant digits leave 94 random bits in the 25 characters).
ALTER TABLE installments ADD COLUMN pix_txid TEXT;
UPDATE installments SET pix_txid = substr(replace(CAST(gen_random_uuid() AS TEXT), '-', ''), 1, 25);
