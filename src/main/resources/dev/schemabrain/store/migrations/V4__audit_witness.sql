-- The audit chain's witness in the store (one row: the chain's row count and head hash, signed with
-- a key derived from the audit key), and the catalog version the server's catalog snapshot is keyed by.
--
-- Every append writes the witness, so the store file changes on every tool call; the served catalog
-- must not reload for that. catalog_version.token takes a fresh random value whenever any row the
-- catalog is read from changes (triggers below), and only then. A table added later that the served
-- catalog reads needs the same three triggers in its own migration.

CREATE TABLE audit_witness (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    row_count   INTEGER NOT NULL,
    head_hash   TEXT NOT NULL,            -- hex chain_hash of row row_count
    mac         TEXT NOT NULL,            -- hex HMAC over both, with the witness key
    written_at  TEXT NOT NULL
);

CREATE TABLE catalog_version (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    token  BLOB NOT NULL
);

INSERT INTO catalog_version (id, token) VALUES (1, randomblob(16));

CREATE TRIGGER catalog_version_sources_insert AFTER INSERT ON sources
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_sources_update AFTER UPDATE ON sources
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_sources_delete AFTER DELETE ON sources
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_index_runs_insert AFTER INSERT ON index_runs
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_index_runs_update AFTER UPDATE ON index_runs
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_index_runs_delete AFTER DELETE ON index_runs
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_tables_insert AFTER INSERT ON catalog_tables
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_tables_update AFTER UPDATE ON catalog_tables
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_tables_delete AFTER DELETE ON catalog_tables
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_columns_insert AFTER INSERT ON catalog_columns
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_columns_update AFTER UPDATE ON catalog_columns
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_columns_delete AFTER DELETE ON catalog_columns
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_foreign_keys_insert AFTER INSERT ON catalog_foreign_keys
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_foreign_keys_update AFTER UPDATE ON catalog_foreign_keys
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_foreign_keys_delete AFTER DELETE ON catalog_foreign_keys
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_unique_constraints_insert AFTER INSERT ON catalog_unique_constraints
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_unique_constraints_update AFTER UPDATE ON catalog_unique_constraints
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_catalog_unique_constraints_delete AFTER DELETE ON catalog_unique_constraints
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_semantic_objects_insert AFTER INSERT ON semantic_objects
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_semantic_objects_update AFTER UPDATE ON semantic_objects
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_semantic_objects_delete AFTER DELETE ON semantic_objects
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_pii_tags_insert AFTER INSERT ON pii_tags
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_pii_tags_update AFTER UPDATE ON pii_tags
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_pii_tags_delete AFTER DELETE ON pii_tags
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_pii_overrides_insert AFTER INSERT ON pii_overrides
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_pii_overrides_update AFTER UPDATE ON pii_overrides
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_pii_overrides_delete AFTER DELETE ON pii_overrides
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_pii_settings_insert AFTER INSERT ON pii_settings
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_pii_settings_update AFTER UPDATE ON pii_settings
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;

CREATE TRIGGER catalog_version_pii_settings_delete AFTER DELETE ON pii_settings
BEGIN
    UPDATE catalog_version SET token = randomblob(16);
END;
