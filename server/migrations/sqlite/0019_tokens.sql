-- Tokens of their own (`paylink token list | revoke | rotate`): an application
-- holds several while a rotation's grace period runs, and each is revoked or
-- ends on its own. Only the SHA-256 of a token's secret is stored (hex). Times
-- are ISO-8601 UTC text, as elsewhere (they sort as text).
CREATE TABLE tokens (
    id              TEXT PRIMARY KEY,
    application_id  TEXT NOT NULL REFERENCES applications(id),
    secret_hash     TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    -- Set by a rotation: the secret is refused from then on.
    expires_at      TEXT,
    revoked_at      TEXT,
    -- Written when the stored value is a minute old or more, not on every request.
    last_used_at    TEXT
);
CREATE INDEX tokens_application ON tokens (application_id);

-- Each application's token so far becomes its first token, under the
-- application's own id; the application keeps no secret of its own.
INSERT INTO tokens (id, application_id, secret_hash, created_at)
    SELECT id, id, secret_hash, created_at FROM applications;
ALTER TABLE applications DROP COLUMN secret_hash;
