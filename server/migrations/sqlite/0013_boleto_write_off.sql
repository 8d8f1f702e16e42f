-- Pedidos de baixa (CNAB 240 movement 02): a registered boleto whose invoice was
-- cancelled or whose installment was paid another way is written off at the bank
-- by the next remessa, once; this is the remessa that asked for it.
ALTER TABLE boleto_registrations ADD COLUMN write_off_remessa_id TEXT REFERENCES remessa_files(id);
