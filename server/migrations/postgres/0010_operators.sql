-- Operator accounts (`paylink operator add`): the merchant's people who log
-- in to the back office, their sessions, the failed logins that throttle
-- guessing, and the audit trail of what each did. Times are Unix
-- milliseconds (BIGINT) so expiry and windows compare as numbers on both
-- backends; booleans are BIGINT 0/1.
CREATE TABLE operators (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE,
    name           TEXT NOT NULL,
    -- argon2id, PHC string ($argon2id$v=19$m=...,t=...,p=...$salt$hash).
    password_hash  TEXT NOT NULL,
    active         BIGINT NOT NULL DEFAULT 1,
    created_at     TEXT NOT NULL
);

-- Only the SHA-256 of the session id is stored: a copy of the database
-- logs no one in.
CREATE TABLE operator_sessions (
    id_hash       TEXT PRIMARY KEY,
    operator_id   TEXT NOT NULL REFERENCES operators(id),
    created_ms    BIGINT NOT NULL,
    last_seen_ms  BIGINT NOT NULL
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

-- One row per failed login, under two keys: 'account:{email}' and
-- 'address:{ip}'. Old rows are pruned as logins come.
CREATE TABLE login_failures (
    throttle_key  TEXT NOT NULL,
    at_ms         BIGINT NOT NULL
);
CREATE INDEX login_failures_key ON login_failures (throttle_key, at_ms);

CREATE TABLE operator_audit (
    id            TEXT PRIMARY KEY,
    operator_id   TEXT NOT NULL REFERENCES operators(id),
    -- login, logout, create_customer, create_invoice, cancel, mark_paid, resend, export
    action        TEXT NOT NULL,
    target_id     TEXT,
    at            TEXT NOT NULL,
    client_addr   TEXT NOT NULL
);
CREATE INDEX operator_audit_operator ON operator_audit (operator_id, at);
