-- The language a payer reads (issue 33's "in the payer's language"): their e-mails, WhatsApp and
-- SMS, and the payment page those link to. NULL is pt-BR, paylink's payers' language.
ALTER TABLE customers ADD COLUMN language TEXT;
