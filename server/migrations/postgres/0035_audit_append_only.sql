-- The operator audit as an append-only trail: one index per line instead of two, and no
-- foreign-key check. Each of an operator's actions writes one line inside the action's own
-- transaction (for a creation, in the same statement), so what a line costs is paid by every
-- write of every operator (bench/api's proxy / direct): `operator_audit_operator` is an index no
-- query reads (the trail is listed by time, `store::operators::list_audit`), and the foreign key
-- locked the operator's row (FOR KEY SHARE) on every line, one lock shared by all the operator's
-- concurrent actions. A trail must outlive what it names, operators are never deleted (an account
-- is disabled), and every line's operator comes from the live session that acted.
ALTER TABLE operator_audit DROP CONSTRAINT operator_audit_operator_id_fkey;
DROP INDEX operator_audit_operator;
