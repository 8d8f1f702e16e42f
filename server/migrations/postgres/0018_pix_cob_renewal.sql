-- A PIX charge payable now (`cob`) carries one amount and lasts only while that amount holds
-- (domain::pix_api::charge): expires_at is when it stops being payable (NULL for a `cobv`,
-- which the bank keeps until its due date and after). Once it has passed and the installment
-- still waits, the charges worker makes a new `cob` under a new txid (the installment's, then
-- `r1`, `r2`, ...: renewals counts them). The txids given up stay in pix_retired_txids, so a
-- Pix of an old charge (paid before it expired, heard of later) still finds its installment.
ALTER TABLE pix_charges ADD COLUMN expires_at TEXT;
ALTER TABLE pix_charges ADD COLUMN renewals BIGINT NOT NULL DEFAULT 0;
CREATE TABLE pix_retired_txids (
    txid           TEXT PRIMARY KEY,
    installment_id TEXT NOT NULL REFERENCES installments(id),
    retired_at     TEXT NOT NULL
);
-- A `cob` made before this migration was made to last a day (86 400 s) from when it was made.
UPDATE pix_charges
SET expires_at = to_char((updated_at::timestamptz + interval '1 day') AT TIME ZONE 'UTC',
                         'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
WHERE kind = 'cob' AND operation = 'create' AND status = 'done';
