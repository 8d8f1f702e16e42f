-- Each installment's boleto nosso número (the 10 digits after the agreement),
-- stored and unique (issue 21). Before, it was derived from the installment
-- id's first 12 hex digits mod 10^10: with random ids two boletos shared one
-- with a chance of ~40 % at 100,000 boletos (and a remessa then refused the
-- second), with time-ordered ids within the same millisecond.
--
-- New installments are numbered 1, 2, 3 … by a counter, which skips every
-- number an older installment already printed (the runs of such numbers are
-- listed once, here): every number this database ever holds is one of those
-- or one the counter gave, so none is given twice (the unique index says so).

ALTER TABLE installments ADD COLUMN our_number BIGINT;

-- Installments already there keep the number they printed: the old
-- derivation (the id's hex digits 1-8 and 10-13, dashes left out), in SQL.
UPDATE installments SET our_number = (
      (instr('0123456789abcdef', substr(lower(id), 1, 1)) - 1) * 17592186044416
    + (instr('0123456789abcdef', substr(lower(id), 2, 1)) - 1) * 1099511627776
    + (instr('0123456789abcdef', substr(lower(id), 3, 1)) - 1) * 68719476736
    + (instr('0123456789abcdef', substr(lower(id), 4, 1)) - 1) * 4294967296
    + (instr('0123456789abcdef', substr(lower(id), 5, 1)) - 1) * 268435456
    + (instr('0123456789abcdef', substr(lower(id), 6, 1)) - 1) * 16777216
    + (instr('0123456789abcdef', substr(lower(id), 7, 1)) - 1) * 1048576
    + (instr('0123456789abcdef', substr(lower(id), 8, 1)) - 1) * 65536
    + (instr('0123456789abcdef', substr(lower(id), 10, 1)) - 1) * 4096
    + (instr('0123456789abcdef', substr(lower(id), 11, 1)) - 1) * 256
    + (instr('0123456789abcdef', substr(lower(id), 12, 1)) - 1) * 16
    + (instr('0123456789abcdef', substr(lower(id), 13, 1)) - 1)
) % 10000000000;

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

-- The runs of consecutive numbers older installments hold (from 1; the counter never gives 0).
CREATE TABLE our_number_runs (
    first_number  BIGINT PRIMARY KEY,
    last_number   BIGINT NOT NULL
);
INSERT INTO our_number_runs (first_number, last_number)
SELECT MIN(our_number), MAX(our_number)
FROM (SELECT our_number, our_number - ROW_NUMBER() OVER (ORDER BY our_number) AS run
      FROM installments WHERE our_number >= 1) AS held
GROUP BY run;

-- The last number given.
CREATE TABLE our_number_counter (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    last_number  BIGINT NOT NULL
);
INSERT INTO our_number_counter (id, last_number) VALUES (1, 0);

-- The database numbers each installment written without one, in the INSERT
-- itself (no statement more per invoice): the counter moves to the next
-- number, past a run of older numbers when it meets one.
CREATE TRIGGER installments_our_number AFTER INSERT ON installments
WHEN NEW.our_number IS NULL
BEGIN
    UPDATE our_number_counter SET last_number = COALESCE(
        (SELECT r.last_number + 1 FROM our_number_runs r
         WHERE r.first_number = our_number_counter.last_number + 1),
        last_number + 1);
    UPDATE installments SET our_number = (SELECT last_number FROM our_number_counter)
    WHERE id = NEW.id;
END;

-- The same for a number set to NULL: the older installments that lost theirs, now.
CREATE TRIGGER installments_our_number_renew AFTER UPDATE OF our_number ON installments
WHEN NEW.our_number IS NULL
BEGIN
    UPDATE our_number_counter SET last_number = COALESCE(
        (SELECT r.last_number + 1 FROM our_number_runs r
         WHERE r.first_number = our_number_counter.last_number + 1),
        last_number + 1);
    UPDATE installments SET our_number = (SELECT last_number FROM our_number_counter)
    WHERE id = NEW.id;
END;
UPDATE installments SET our_number = NULL WHERE our_number IS NULL;

CREATE UNIQUE INDEX installments_our_number ON installments(our_number);

-- Indexes no query needs, each an extra write per row (issue 21, the store's
-- speed): invoices_application and customers_application are the first
-- column of invoices_application_created and customers_application_created,
-- which serve the same lookups; events are read by id, never by invoice.
DROP INDEX invoices_application;
DROP INDEX customers_application;
DROP INDEX events_invoice;
