-- Each refund (devolução) paylink asked the bank for, by the Pix and the refund's id at the bank
-- (`PUT /pix/{e2eid}/devolucao/{id}`, which the bank treats as the same refund when repeated):
-- running `paylink pix refund` again with the same --id finds it here and counts it once.
CREATE TABLE pix_refunds (
    end_to_end_id  TEXT NOT NULL REFERENCES pix_payments(end_to_end_id),
    refund_id      TEXT NOT NULL,
    amount_cents   BIGINT NOT NULL,
    created_at     TEXT NOT NULL,
    PRIMARY KEY (end_to_end_id, refund_id)
);
