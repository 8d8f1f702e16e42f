-- Payment links made through the API (issue 32: the merchant's links screen)
-- belong to the application whose token made them: its list, detail and
-- on/off switch see only its own and the deployment's. NULL: a link made with
-- `paylink link create`, the deployment's own, which every application sees.
ALTER TABLE payment_links ADD COLUMN application_id TEXT;
CREATE INDEX payment_links_application ON payment_links (application_id);
-- A link's invoices carry its slug as externalId: what it has brought in is
-- counted through this index.
CREATE INDEX invoices_external_id ON invoices (application_id, external_id);
