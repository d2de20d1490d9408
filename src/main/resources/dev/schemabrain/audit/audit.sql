-- The audit chain (SPEC §9.2), in its own file beside the store: appends never wait for an index run's
-- write transaction, and a served catalog is not reloaded because a call was recorded.
-- One row per tools/call, one before a metric's SQL leaves and one after.
-- chain_hash = sha256(prev_hash || canonical JSON of the row's content fields, the id included);
-- the first row's prev_hash is 32 zero bytes. No foreign key: the log outlives every source.

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

CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;

CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
