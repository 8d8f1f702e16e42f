-- expires_at: when a PIX charge stops being payable (domain::pix_api::charge): a `cob`
-- (payable now) carries one amount and lasts only while that amount holds; a `cobv` lasts
-- until its validadeAposVencimento days after the due date have passed. Once it has passed and
-- the installment still waits, the charges worker makes a new charge under a new txid (the
-- installment's, then `r1`, `r2`, ...: renewals counts them). The txids given up stay in pix_retired_txids, so a
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
-- A `cobv` was made payable until 30 days after its due date (charge::DAYS_AFTER_DUE), to the
-- end of that day in Brasília (03:00 UTC the next day).
UPDATE pix_charges
SET expires_at = (SELECT to_char(left(i.due_date, 10)::date + 31, 'YYYY-MM-DD') || 'T03:00:00.000Z'
                  FROM installments i WHERE i.id = pix_charges.id)
WHERE kind = 'cobv' AND operation = 'create' AND status = 'done';
