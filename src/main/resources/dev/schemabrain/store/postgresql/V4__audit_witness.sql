-- PostgreSQL twin of migrations/V4__audit_witness.sql: the audit witness row, and the catalog version a
-- serving instance polls. catalog_version.token takes a fresh random value whenever a statement changes
-- a table the served catalog is read from (statement-level triggers, renewing it once per
-- transaction), and only then. A table added later that the served catalog reads needs the same trigger.

CREATE TABLE audit_witness (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    row_count   BIGINT NOT NULL,
    head_hash   TEXT NOT NULL,
    mac         TEXT NOT NULL,
    written_at  TEXT NOT NULL
);

CREATE TABLE catalog_version (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    token  BYTEA NOT NULL
);

INSERT INTO catalog_version (id, token) VALUES (1, decode(md5(random()::text || clock_timestamp()::text), 'hex'));

-- Once per transaction: an index run executes tens of thousands of statements, and renewing the token
-- after each would rewrite the same row as often (a transaction-local setting remembers it was done).
CREATE FUNCTION catalog_version_renew() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('schemabrain.catalog_renewed', true) IS DISTINCT FROM txid_current()::text THEN
        PERFORM set_config('schemabrain.catalog_renewed', txid_current()::text, true);
        UPDATE catalog_version SET token = decode(md5(random()::text || clock_timestamp()::text), 'hex') WHERE id = 1;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER catalog_version_sources AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sources
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
CREATE TRIGGER catalog_version_index_runs AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON index_runs
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
CREATE TRIGGER catalog_version_catalog_tables AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_tables
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
CREATE TRIGGER catalog_version_catalog_columns AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_columns
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
CREATE TRIGGER catalog_version_catalog_foreign_keys AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_foreign_keys
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
CREATE TRIGGER catalog_version_catalog_unique_constraints AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
    ON catalog_unique_constraints FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
CREATE TRIGGER catalog_version_semantic_objects AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON semantic_objects
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
CREATE TRIGGER catalog_version_pii_tags AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pii_tags
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
CREATE TRIGGER catalog_version_pii_overrides AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pii_overrides
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
CREATE TRIGGER catalog_version_pii_settings AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pii_settings
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_renew();
