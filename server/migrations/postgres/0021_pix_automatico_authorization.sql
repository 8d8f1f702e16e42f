-- Pix Automático's Jornada 2 (issue 31): the recurrence's own code (GET /rec/{idRec} without a
-- txid), which authorizes the recurrence without paying anything; the payer page offers it when
-- the first cycle was paid another way, so the composite code (copia_e_cola) no longer applies.
ALTER TABLE pix_recurrences ADD COLUMN authorization_code TEXT;
