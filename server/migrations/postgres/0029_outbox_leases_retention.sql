-- Issue 39: two servers on one database never send one attempt twice, and what has served its
-- purpose is pruned.
--
-- Each claim of an outbox row writes a fresh `lease_id` beside `locked_until`; a worker records
-- its result only while the row still carries the lease it took (`WHERE id = ? AND lease_id = ?`),
-- so a worker whose lease ran out and was taken over records nothing.
ALTER TABLE deliveries ADD COLUMN lease_id TEXT;
ALTER TABLE notification_sends ADD COLUMN lease_id TEXT;
ALTER TABLE pix_charges ADD COLUMN lease_id TEXT;
ALTER TABLE pix_recurrences ADD COLUMN lease_id TEXT;

-- The pruning worker's scans, oldest first, without reading the whole table.
CREATE INDEX deliveries_finished ON deliveries(status, updated_at);
CREATE INDEX events_created ON events(created_at);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
CREATE INDEX notification_provider_statuses_received ON notification_provider_statuses(received_at);
