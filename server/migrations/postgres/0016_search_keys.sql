-- What the lists' text search `q` compares (store/lists.rs): the text folded by
-- paylink_model::list::search_fold (lower case, no Portuguese accents), written by the
-- store with the row. SQL cannot fold alike on both backends (SQLite's LOWER is
-- ASCII-only), so rows written before this migration are filled by paylink at start-up
-- (store/search_keys.rs); NULL means "not filled yet".
-- customers: the name and the e-mail, one line each.
ALTER TABLE customers ADD COLUMN search_key TEXT;
-- invoices: the externalId.
ALTER TABLE invoices ADD COLUMN search_key TEXT;
