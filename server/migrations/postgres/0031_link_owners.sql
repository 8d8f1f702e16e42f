-- Issue 38: a payment link acts as the application that owns it (its payers' customers and
-- invoices are that application's, its webhooks fire), and `paylink link create` now always
-- names one. A link made with the CLI before had none; with exactly one application in the
-- database it is that one's. With several nothing says whose it is: it stays without an owner
-- and is served, as before, as the application of the proxy's token (docs/security.md).
UPDATE payment_links SET application_id = (SELECT id FROM applications)
 WHERE application_id IS NULL AND (SELECT COUNT(*) FROM applications) = 1;
