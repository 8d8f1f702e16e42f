-- Why the bank does not hold an installment's PIX charge, for the merchant's detail (issue 24's
-- follow-up): a charge refused for good, or a different charge the bank already holds under its
-- txid. JSON, `{"state": "refused" | "conflict", "reasons": [...]}` (paylink_model::PixCharge),
-- set with status 'failed'; last_error keeps the whole technical answer for the log.
ALTER TABLE pix_charges ADD COLUMN refusal TEXT;
