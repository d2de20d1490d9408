-- The audit chain of a PostgreSQL store (SPEC §9.2, §10.4): every serving instance appends to these
-- tables, so the whole fleet has one chain. Same columns and canonical form as the SQLite audit file
-- (dev/schemabrain/audit/audit.sql), so the chain is hashed and verified by the same code. An append
-- takes a transaction-scoped advisory lock, reads the head (the largest id) and inserts after it: the
-- chain never forks, and the serving role needs only SELECT and INSERT here (no head row to UPDATE).
-- Triggers reject UPDATE, DELETE and TRUNCATE for every role; only the owner (or a superuser) can
-- disable them, which audit verify and serve report as tampering.

CREATE TABLE audit_log (
    id               BIGINT PRIMARY KEY,
    occurred_at      TEXT NOT NULL,
    source_id        TEXT,
    caller           TEXT,
    tool             TEXT NOT NULL,
    phase            TEXT NOT NULL,
    status           TEXT NOT NULL,
    error_kind       TEXT,
    pii_categories   TEXT NOT NULL,
    args_hash        TEXT,
    sql_fingerprint  TEXT,
    row_count        BIGINT,
    duration_ms      BIGINT,
    prev_hash        TEXT NOT NULL,
    chain_hash       TEXT NOT NULL
);

-- format (2), key_id (the audit key's id), legacy_rows (always 0: this chain was keyed from its start).
CREATE TABLE audit_meta (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END
$$;

CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER audit_meta_no_change BEFORE UPDATE OR DELETE ON audit_meta
    FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER audit_meta_no_truncate BEFORE TRUNCATE ON audit_meta
    FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
