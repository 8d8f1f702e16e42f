-- Issue 41: links to a payer's page of charges (`/c/{token}`, every invoice of one customer with
-- one application). Only the SHA-256 of a link's random token is kept (hex), as for API tokens:
-- the database never holds what opens the page. A link ends when it expires (30 days after it was
-- made) or is revoked (the merchant revokes all of a customer's links at once). A notification's
-- link names its send, so a retried send revokes the link of its earlier attempt. Times are
-- ISO-8601 UTC text, as elsewhere (they sort as text).
CREATE TABLE charges_links (
    token_hash      TEXT PRIMARY KEY,
    application_id  TEXT NOT NULL REFERENCES applications(id),
    customer_id     TEXT NOT NULL REFERENCES customers(id),
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,
    revoked_at      TEXT,
    send_id         TEXT
);
CREATE INDEX charges_links_customer ON charges_links (application_id, customer_id);
CREATE INDEX charges_links_send ON charges_links (send_id);
