-- Issue 41: every devolução of a Pix paylink received, whoever started it (`paylink pix refund`,
-- the merchant in the bank's app, a payer's MED claim), as the bank reports it in the Pix
-- (`devolucoes` of `GET /pix/{e2eid}`): its return id (`rtrId`), why (`natureza`), where it
-- stands (`status`: EM_PROCESSAMENTO, DEVOLVIDO, NAO_REALIZADO) and when it was settled. The
-- refunds paylink asked for before are the bank's answers to `PUT .../devolucao/{id}` of a
-- plain Pix, carried out: ORIGINAL and DEVOLVIDO.
ALTER TABLE pix_refunds ADD COLUMN rtr_id TEXT;
ALTER TABLE pix_refunds ADD COLUMN natureza TEXT NOT NULL DEFAULT 'ORIGINAL';
ALTER TABLE pix_refunds ADD COLUMN status TEXT NOT NULL DEFAULT 'DEVOLVIDO';
-- When the bank says it was requested and settled (RFC 3339, UTC).
ALTER TABLE pix_refunds ADD COLUMN requested_at TEXT;
ALTER TABLE pix_refunds ADD COLUMN settled_at TEXT;
ALTER TABLE pix_refunds ADD COLUMN updated_at TEXT;
