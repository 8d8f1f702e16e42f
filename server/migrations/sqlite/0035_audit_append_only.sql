-- The operator audit as an append-only trail: one B-tree per line instead of three. Each of an
-- operator's actions writes one line inside the action's own write transaction (for a creation,
-- in the same statement), which SQLite's write gate serialises, so every page the line dirties
-- is paid by every write of every operator (bench/api's proxy / direct). Before this migration a
-- line wrote the table, the automatic index of its TEXT primary key and `operator_audit_operator`,
-- an index no query reads (the trail is listed by time, `store::operators::list_audit`).
-- WITHOUT ROWID keeps the rows in their primary key (UUIDv7: new lines land at the end).
-- No foreign key to `operators`: a trail must outlive what it names, operators are never deleted
-- (an account is disabled), and every line's operator comes from the live session that acted.
CREATE TABLE operator_audit_lines (
    id            TEXT PRIMARY KEY,
    operator_id   TEXT NOT NULL,
    -- login, logout, create_customer, create_invoice, cancel, mark_paid, resend, export, ...
    action        TEXT NOT NULL,
    target_id     TEXT,
    at            TEXT NOT NULL,
    client_addr   TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO operator_audit_lines (id, operator_id, action, target_id, at, client_addr)
    SELECT id, operator_id, action, target_id, at, client_addr FROM operator_audit;
DROP TABLE operator_audit;
ALTER TABLE operator_audit_lines RENAME TO operator_audit;
