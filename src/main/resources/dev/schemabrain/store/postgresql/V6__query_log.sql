-- PostgreSQL twin of migrations/V6__query_log.sql.
-- Query-log mining (mine-queries): one row per normalized statement per source. Literals are gone before a
-- row is written. observations is cumulative over runs; last_raw_calls is the engine's own counter at the
-- last run, so the next run adds only the difference (or, after a statistics reset, the new counter).

CREATE TABLE query_log (
    source_id      TEXT NOT NULL REFERENCES sources (source_id) ON DELETE CASCADE,
    fingerprint    TEXT NOT NULL,               -- first 16 bytes of sha256(normalized_sql), hex
    kind           TEXT NOT NULL,               -- select (an example) | write (counts as write activity)
    normalized_sql TEXT NOT NULL,               -- literals and parameters replaced by ?
    observations   BIGINT NOT NULL,
    last_raw_calls BIGINT NOT NULL,
    first_seen_at  TEXT NOT NULL,
    last_seen_at   TEXT NOT NULL,               -- the last run that saw its counter move
    tables         TEXT NOT NULL,               -- JSON array of schema.table (read; written for kind write)
    joins          TEXT NOT NULL,               -- JSON [{left, left_columns, right, right_columns}]
    columns        TEXT NOT NULL,               -- JSON [{column: schema.table.column, roles: [...]}]
    aggregates     TEXT NOT NULL,               -- JSON array
    pii_categories TEXT NOT NULL,               -- JSON array: categories of the columns touched
    PRIMARY KEY (source_id, fingerprint)
);

-- What each statement touches, for lookups by table (column_name '') or column.
CREATE TABLE query_log_refs (
    source_id   TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    schema_name TEXT NOT NULL,
    table_name  TEXT NOT NULL,
    column_name TEXT NOT NULL,
    PRIMARY KEY (source_id, fingerprint, schema_name, table_name, column_name),
    FOREIGN KEY (source_id, fingerprint) REFERENCES query_log (source_id, fingerprint) ON DELETE CASCADE
);

CREATE INDEX query_log_refs_by_name ON query_log_refs (schema_name, table_name, column_name);

-- Per source: the engine's statistics-reset token at the last run (pg_stat_statements_info.stats_reset), when
-- it has one; a changed token means every counter restarted.
CREATE TABLE query_log_sources (
    source_id     TEXT PRIMARY KEY REFERENCES sources (source_id) ON DELETE CASCADE,
    reset_token   TEXT,
    last_mined_at TEXT NOT NULL
);
