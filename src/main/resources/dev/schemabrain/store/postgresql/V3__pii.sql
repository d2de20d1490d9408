-- PostgreSQL twin of migrations/V3__pii.sql.
-- PII tags: what the classifier decided per column at the last index run (origin heuristic), and the
-- operator's overrides from schemabrain/pii_policy.yaml (origin operator), which win and survive re-indexing.

CREATE TABLE pii_tags (
    source_id     TEXT NOT NULL REFERENCES sources (source_id) ON DELETE CASCADE,
    schema_name   TEXT NOT NULL,
    table_name    TEXT NOT NULL,
    column_name   TEXT NOT NULL,
    sensitivity   TEXT NOT NULL,               -- public | internal | confidential | pii
    categories    TEXT NOT NULL,               -- JSON array of category names
    reasons       TEXT NOT NULL,               -- JSON array: which rule fired
    PRIMARY KEY (source_id, schema_name, table_name, column_name)
);

CREATE TABLE pii_overrides (
    schema_name   TEXT NOT NULL,
    table_name    TEXT NOT NULL,
    column_name   TEXT NOT NULL,
    sensitivity   TEXT NOT NULL,
    categories    TEXT NOT NULL,
    PRIMARY KEY (schema_name, table_name, column_name)
);

CREATE TABLE pii_settings (
    key   TEXT PRIMARY KEY,                    -- block_list
    value TEXT NOT NULL                        -- JSON
);
