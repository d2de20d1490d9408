-- The audit chain (SPEC §9.2), in its own file beside the store: appends never wait for an index run's
-- write transaction, and a served catalog is not reloaded because a call was recorded.
-- One row per tools/call, one before a metric's SQL leaves and one after.
-- chain_hash = HMAC-SHA256(chain key, prev_hash || canonical JSON of the row's content fields, the id
-- included); the first row's prev_hash is 32 zero bytes. The key is kept outside this file and the
-- store; audit_meta names it by its id. Rows up to legacy_rows were written by a keyless build and are
-- chained with plain sha256 (the first keyed row's HMAC covers their head). No foreign key: the log
-- outlives every source. A missing trigger is tampering: it is never re-created, verify reports it.

CREATE TABLE IF NOT EXISTS audit_log (
    id               INTEGER PRIMARY KEY,
    occurred_at      TEXT NOT NULL,             -- ISO-8601 UTC
    source_id        TEXT,
    caller           TEXT,                      -- the MCP client's name/version
    tool             TEXT NOT NULL,
    phase            TEXT NOT NULL,             -- call | started | completed
    status           TEXT NOT NULL,
    error_kind       TEXT,
    pii_categories   TEXT NOT NULL,             -- JSON array
    args_hash        TEXT,
    sql_fingerprint  TEXT,
    row_count        INTEGER,
    duration_ms      INTEGER,
    prev_hash        TEXT NOT NULL,             -- hex
    chain_hash       TEXT NOT NULL              -- hex
);

-- Callers and roles (SPEC §11.4): the caller's role under the access policy and the row filters its statement
-- carried (JSON array of entity.column), NULL when none; in the hashed content only when set, so rows without
-- them hash as before. Added by ALTER so a log written before roles gains them the same way (AuditSchema).
ALTER TABLE audit_log ADD COLUMN role TEXT;
ALTER TABLE audit_log ADD COLUMN row_filters TEXT;

CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;

CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;


-- format (2), key_id (the audit key's id), legacy_rows (rows chained without a key), mark (the signed
-- KeyedMark: the keyless prefix, the row bound to it, whether the store keeps the witness).
CREATE TABLE IF NOT EXISTS audit_meta (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

CREATE TRIGGER IF NOT EXISTS audit_meta_no_update BEFORE UPDATE ON audit_meta
BEGIN
    SELECT RAISE(ABORT, 'audit_meta is append-only');
END;

CREATE TRIGGER IF NOT EXISTS audit_meta_no_delete BEFORE DELETE ON audit_meta
BEGIN
    SELECT RAISE(ABORT, 'audit_meta is append-only');
END;
