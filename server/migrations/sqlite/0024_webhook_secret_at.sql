-- The webhooks screen (issue 32): when the application's signing secret was made (shown beside
-- the webhooks; the secret itself is readable only in the answer that made it), and the
-- delivery list's newest-first pages of one application.
ALTER TABLE applications ADD COLUMN webhook_secret_at TEXT;
UPDATE applications SET webhook_secret_at = created_at WHERE webhook_secret IS NOT NULL;
CREATE INDEX events_application ON events(application_id, invoice_id);
CREATE INDEX deliveries_created ON deliveries(created_at, id);
