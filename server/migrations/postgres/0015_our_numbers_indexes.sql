-- Each installment's boleto nosso número (the 10 digits after the agreement),
-- stored and unique (issue 21). Before, it was derived from the installment
-- id's first 12 hex digits mod 10^10: with random ids two boletos shared one
-- with a chance of ~40 % at 100,000 boletos (and a remessa then refused the
-- second), with time-ordered ids within the same millisecond.
--
-- New installments are numbered by a sequence (1, 2, 3 …), through the
-- column's default, which skips a number an older installment already holds.

ALTER TABLE installments ADD COLUMN our_number BIGINT;

-- Installments already there keep the number they printed: the old
-- derivation (the id's first 12 hex digits, dashes left out), in SQL.
UPDATE installments
SET our_number = ('x' || substr(replace(lower(id), '-', ''), 1, 12))::bit(48)::bigint % 10000000000;

-- Older installments that shared a number (the bug): the one registered at the
-- bank keeps it, or else the oldest; the others (which no remessa could
-- register) get a new number below.
UPDATE installments SET our_number = NULL WHERE id IN (
    SELECT id FROM (
        SELECT i.id, ROW_NUMBER() OVER (
                   PARTITION BY i.our_number
                   ORDER BY r.installment_id IS NULL, i.created_at, i.id) AS k
        FROM installments i LEFT JOIN boleto_registrations r ON r.installment_id = i.id
    ) AS ranked WHERE k > 1
);

CREATE SEQUENCE installment_our_numbers MINVALUE 1 MAXVALUE 9999999999;

-- The next number of the sequence that no installment holds: only an older
-- installment's can be held (the sequence gives each number once), so the
-- loop turns at most once per older number met.
CREATE FUNCTION next_our_number() RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    n BIGINT;
BEGIN
    LOOP
        n := nextval('installment_our_numbers');
        IF NOT EXISTS (SELECT 1 FROM installments WHERE our_number = n) THEN
            RETURN n;
        END IF;
    END LOOP;
END
$$;

UPDATE installments SET our_number = next_our_number() WHERE our_number IS NULL;
ALTER TABLE installments ALTER COLUMN our_number SET DEFAULT next_our_number();
ALTER TABLE installments ALTER COLUMN our_number SET NOT NULL;
CREATE UNIQUE INDEX installments_our_number ON installments(our_number);

-- Indexes no query needs, each an extra write per row (issue 21, the store's
-- speed): invoices_application and customers_application are the first
-- column of invoices_application_created and customers_application_created,
-- which serve the same lookups; events are read by id, never by invoice.
DROP INDEX invoices_application;
DROP INDEX customers_application;
DROP INDEX events_invoice;
