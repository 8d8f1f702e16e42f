-- Fine, interest and discount of an invoice (issue 23): multa, juros de
-- mora and desconto, as the model checked them. Values are integers:
-- hundredths of a percent for PERCENTAGE (2 % is 200), cents for FIXED.
-- All NULL when the invoice has no such term.
ALTER TABLE invoices ADD COLUMN fine_type TEXT;
ALTER TABLE invoices ADD COLUMN fine_value BIGINT;
-- Percent per month, in hundredths (1 % a month is 100).
ALTER TABLE invoices ADD COLUMN interest_monthly_bp BIGINT;
ALTER TABLE invoices ADD COLUMN discount_type TEXT;
ALTER TABLE invoices ADD COLUMN discount_value BIGINT;
-- YYYY-MM-DD, on or before due_date.
ALTER TABLE invoices ADD COLUMN discount_until TEXT;

-- The same terms on payment links, for every invoice created through one.
-- The discount lasts until its invoice's due date minus discount_days_before_due.
ALTER TABLE payment_links ADD COLUMN fine_type TEXT;
ALTER TABLE payment_links ADD COLUMN fine_value BIGINT;
ALTER TABLE payment_links ADD COLUMN interest_monthly_bp BIGINT;
ALTER TABLE payment_links ADD COLUMN discount_type TEXT;
ALTER TABLE payment_links ADD COLUMN discount_value BIGINT;
ALTER TABLE payment_links ADD COLUMN discount_days_before_due BIGINT;
