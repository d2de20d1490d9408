-- The catalog: what introspection found, with fingerprints that decide what a re-index must redo.
-- Descriptions and embeddings live beside the facts they were computed from; *_hash columns record
-- the semantic hash each was computed for, so a stale one is simply one whose hash differs.

CREATE TABLE sources (
    source_id        TEXT PRIMARY KEY,          -- sha256(url without credentials), 16 hex chars
    kind             TEXT NOT NULL,             -- postgresql | mysql | sqlite | ddl | spider
    display_url      TEXT NOT NULL,             -- never holds a password
    catalog_token    TEXT,                      -- the engine's change token at the last full run, if it has one
    first_indexed_at TEXT NOT NULL,
    last_indexed_at  TEXT NOT NULL
);

CREATE TABLE index_runs (
    run_id             INTEGER PRIMARY KEY,
    source_id          TEXT NOT NULL REFERENCES sources (source_id) ON DELETE CASCADE,
    started_at         TEXT NOT NULL,
    finished_at        TEXT NOT NULL,
    introspect_ms      INTEGER NOT NULL,
    write_ms           INTEGER NOT NULL,
    tables_new         INTEGER NOT NULL,
    tables_changed     INTEGER NOT NULL,
    tables_unchanged   INTEGER NOT NULL,
    tables_deprecated  INTEGER NOT NULL,
    tables_purged      INTEGER NOT NULL,
    columns_new        INTEGER NOT NULL,
    columns_changed    INTEGER NOT NULL,
    columns_unchanged  INTEGER NOT NULL,
    columns_deprecated INTEGER NOT NULL
);

CREATE TABLE catalog_tables (
    table_id           INTEGER PRIMARY KEY,
    source_id          TEXT NOT NULL REFERENCES sources (source_id) ON DELETE CASCADE,
    schema_name        TEXT NOT NULL,
    table_name         TEXT NOT NULL,
    kind               TEXT NOT NULL,           -- table | view | materialized_view | partitioned
    row_estimate       INTEGER,
    comment            TEXT,
    is_junction        INTEGER NOT NULL,
    primary_key        TEXT NOT NULL,           -- JSON array of column names in key order
    data_version       TEXT,                    -- engine token; unchanged means samples can be reused
    structural_hash    TEXT NOT NULL,
    semantic_hash      TEXT NOT NULL,
    description        TEXT,
    description_origin TEXT,                    -- db_comment | yaml | llm | heuristic
    description_model  TEXT,
    described_hash     TEXT,
    embedding          BLOB,
    embedding_model    TEXT,
    embedded_hash      TEXT,
    first_seen_at      TEXT NOT NULL,
    schema_changed_at  TEXT,
    deprecated_at      TEXT,
    UNIQUE (source_id, schema_name, table_name)
);

CREATE TABLE catalog_columns (
    column_id          INTEGER PRIMARY KEY,
    table_id           INTEGER NOT NULL REFERENCES catalog_tables (table_id) ON DELETE CASCADE,
    column_name        TEXT NOT NULL,
    ordinal            INTEGER NOT NULL,
    data_type          TEXT NOT NULL,
    is_nullable        INTEGER NOT NULL,
    default_value      TEXT,
    is_primary_key     INTEGER NOT NULL,
    comment            TEXT,
    samples            TEXT NOT NULL,           -- JSON array, already redacted
    structural_hash    TEXT NOT NULL,
    semantic_hash      TEXT NOT NULL,
    description        TEXT,
    description_origin TEXT,
    description_model  TEXT,
    described_hash     TEXT,
    embedding          BLOB,
    embedding_model    TEXT,
    embedded_hash      TEXT,
    first_seen_at      TEXT NOT NULL,
    schema_changed_at  TEXT,
    deprecated_at      TEXT,
    UNIQUE (table_id, column_name)
);

CREATE TABLE catalog_foreign_keys (
    table_id        INTEGER NOT NULL REFERENCES catalog_tables (table_id) ON DELETE CASCADE,
    constraint_name TEXT,
    columns         TEXT NOT NULL,              -- JSON array, in key order
    target_schema   TEXT NOT NULL,
    target_table    TEXT NOT NULL,
    target_columns  TEXT NOT NULL               -- JSON array, paired with columns
);
CREATE INDEX catalog_foreign_keys_by_table ON catalog_foreign_keys (table_id);
CREATE INDEX catalog_foreign_keys_by_target ON catalog_foreign_keys (target_schema, target_table);

CREATE TABLE catalog_unique_constraints (
    table_id        INTEGER NOT NULL REFERENCES catalog_tables (table_id) ON DELETE CASCADE,
    constraint_name TEXT,
    columns         TEXT NOT NULL               -- JSON array
);
CREATE INDEX catalog_unique_constraints_by_table ON catalog_unique_constraints (table_id);
