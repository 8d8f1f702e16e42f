-- Idempotency-Key records (Stripe semantics): the first successful answer to a
-- key is replayed for 24 hours to retries with the same request.
CREATE TABLE idempotency_keys (
    application_id  TEXT NOT NULL REFERENCES applications(id),
    key             TEXT NOT NULL,
    request_hash    TEXT NOT NULL,
    status_code     BIGINT NOT NULL,
    response_body   TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    PRIMARY KEY (application_id, key)
);
