package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Re-indexing a real PostgreSQL: an untouched database takes the change-token shortcut; any change
 * to definitions, comments or rows makes the token move and the full comparison find it.
 */
class PostgresReindexTest {

    @TempDir
    Path dir;

    /** Whether the last {@link #index} read the source's catalog, which the change-token shortcut skips. */
    boolean introspected;

    IndexResult index(SourceUrl url) throws Exception {
        introspected = false;
        try (SchemaSource source = Sources.open(url)) {
            SchemaSource watched = new SchemaSource() {
                @Override
                public SourceKind kind() {
                    return source.kind();
                }

                @Override
                public Catalog introspect(IntrospectionOptions options) throws SourceException {
                    introspected = true;
                    return source.introspect(options);
                }

                @Override
                public Optional<String> catalogToken() throws SourceException {
                    return source.catalogToken();
                }
            };
            return new Indexer().run(url, watched, dir.resolve("store.db"), false, IndexListener.SILENT);
        }
    }

    void sql(String statement) throws Exception {
        try (Connection c = TestPostgres.connect("pg_reindex"); Statement st = c.createStatement()) {
            st.execute(statement);
        }
        settle();
    }

    /**
     * Row-change counters reach pg_stat_all_tables when the writing backend flushes them, a moment
     * after its connection closes; wait for the inserted rows to be counted before indexing.
     */
    static void settle() throws Exception {
        long expected = TestPostgres.count("pg_reindex", "SELECT count(*) FROM pg_class WHERE relname IN ('customer', 'client')") > 0
                ? TestPostgres.count("pg_reindex", "SELECT count(*) FROM " + customerTable()) : 0;
        for (int i = 0; i < 100; i++) {
            long counted = TestPostgres.count("pg_reindex", "SELECT coalesce(sum(n_tup_ins), 0) FROM pg_stat_all_tables"
                    + " WHERE relname IN ('customer', 'client')");
            if (counted >= expected) {
                return;
            }
            Thread.sleep(50);
        }
    }

    static String customerTable() throws Exception {
        return TestPostgres.count("pg_reindex", "SELECT count(*) FROM pg_class WHERE relname = 'client'") > 0 ? "client" : "customer";
    }

    @Test
    void everyKindOfChangeMovesTheToken() throws Exception {
        TestPostgres.createDatabase("pg_reindex",
                "CREATE TABLE customer (id int PRIMARY KEY, name text, country text)",
                "CREATE TABLE orders (id int PRIMARY KEY, customer_id int REFERENCES customer(id), total numeric)",
                "INSERT INTO customer VALUES (1, 'Ann', 'France')");
        settle();
        SourceUrl url = SourceUrl.parse(TestPostgres.url("pg_reindex"));
        IndexResult first = index(url);
        assertEquals(2, first.counts().tablesNew());
        assertEquals(6, first.columns());

        IndexResult untouched = index(url);
        assertEquals(2, untouched.counts().tablesUnchanged());
        assertEquals(6, untouched.counts().columnsUnchanged());
        assertFalse(introspected, "the shortcut does not introspect");
        assertEquals(1, untouched.foreignKeys());

        sql("ALTER TABLE orders ADD COLUMN placed_at timestamptz");
        IndexResult added = index(url);
        assertEquals(1, added.counts().columnsNew());
        assertEquals(1, added.counts().tablesChanged());

        sql("COMMENT ON COLUMN customer.country IS 'Billing country'");
        IndexResult commented = index(url);
        assertEquals(1, commented.counts().tablesChanged(), "a comment is a semantic change");

        sql("INSERT INTO customer VALUES (2, 'Bob', 'Peru')");
        IndexResult rows = index(url);
        assertTrue(rows.counts().columnsChanged() >= 1, "new sample values are a semantic change: " + rows.counts());

        sql("ALTER TABLE customer RENAME TO client");
        IndexResult renamed = index(url);
        assertEquals(1, renamed.counts().tablesNew());
        assertEquals(1, renamed.counts().tablesDeprecated());
        assertEquals(1, renamed.counts().tablesChanged(), "orders now references client");

        assertEquals(2, index(url).counts().tablesUnchanged());
    }
}
