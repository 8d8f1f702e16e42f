-- The merchant's lists (store/lists.rs): newest first per application, keyset-paginated
-- on (created_at, id); and the installments' status and due date, which the
-- open/paid/overdue filters test for each invoice.
CREATE INDEX invoices_application_created ON invoices(application_id, created_at DESC, id DESC);
CREATE INDEX customers_application_created ON customers(application_id, created_at DESC, id DESC);
CREATE INDEX installments_invoice_status_due ON installments(invoice_id, status, due_date);
