-- Query-log mining v2: each statement's column-to-value filters as JSON [{schema, table, column, operator,
-- values}], values only where the example keeps them (a catalog-known value of a non-PII column); the raw
-- material of observed segment drafts, summed over statements as observed joins are.
ALTER TABLE query_log ADD COLUMN filters TEXT NOT NULL DEFAULT '[]';
