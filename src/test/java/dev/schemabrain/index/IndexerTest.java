package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.engine.sqlite.SqliteSource;
import dev.schemabrain.store.CatalogChanges.RunCounts;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.error.StoreException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Re-index behaviour on a real SQLite source and a real store file. */
class IndexerTest {

    @TempDir
    Path dir;
    Path sourceFile;
    Path storeFile;
    SourceUrl url;

    @BeforeEach
    void createSource() throws Exception {
        sourceFile = dir.resolve("shop.db");
        storeFile = dir.resolve("store.db");
        url = SourceUrl.parse("sqlite:" + sourceFile);
        sql("CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT)",
                "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer(id), total REAL)",
                "CREATE TABLE legacy (id INTEGER PRIMARY KEY, note TEXT)",
                "INSERT INTO customer VALUES (1, 'Ann', 'France'), (2, 'Bob', 'Peru')",
                "INSERT INTO orders VALUES (1, 1, 9.5), (2, 2, 12.0)");
    }

    void sql(String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sourceFile); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    IndexResult index(Instant at) throws Exception {
        try (SchemaSource source = new SqliteSource(url)) {
            return new Indexer(Clock.fixed(at, ZoneOffset.UTC)).run(url, source, storeFile, false, IndexListener.SILENT);
        }
    }

    String storeValue(String query) throws Exception {
        try (SqliteStore store = SqliteStore.open(storeFile)) {
            return store.read(c -> {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
                    return rs.next() ? rs.getString(1) : null;
                }
            });
        }
    }

    void storeUpdate(String update) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + storeFile); Statement st = c.createStatement()) {
            st.execute(update);
        }
    }

    @Test
    void firstIndexThenUnchangedReindexWritesNothingNew() throws Exception {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        IndexResult first = index(t0);
        assertAll(() -> assertEquals(new RunCounts(3, 0, 0, 0, 8, 0, 0, 0), first.counts()),
                () -> assertEquals(3, first.tables()),
                () -> assertEquals(1, first.foreignKeys()),
                () -> assertEquals(11, first.documents().described(), "3 tables and 8 columns described"),
                () -> assertEquals(11, first.documents().embedded(), "and embedded"),
                () -> assertEquals("0", storeValue("SELECT count(*) FROM catalog_columns WHERE embedding IS NULL OR length(embedding) != 384 * 4")));

        // A description written by an enricher (origin llm) is not the offline describer's to replace.
        storeUpdate("UPDATE catalog_columns SET description = 'Country of the customer', description_origin = 'llm'"
                + " WHERE column_name = 'country'");
        String vector = storeValue("SELECT hex(embedding) FROM catalog_columns WHERE column_name = 'country'");
        IndexResult second = index(t0.plusSeconds(60));
        assertAll(() -> assertEquals(new RunCounts(0, 0, 3, 0, 0, 0, 8, 0), second.counts()),
                () -> assertEquals(0, second.documents().embedded(), "nothing changed, nothing is embedded again"),
                () -> assertEquals("Country of the customer",
                        storeValue("SELECT description FROM catalog_columns WHERE column_name = 'country'")),
                () -> assertEquals(vector, storeValue("SELECT hex(embedding) FROM catalog_columns WHERE column_name = 'country'")),
                () -> assertEquals("2", storeValue("SELECT count(*) FROM index_runs")),
                () -> assertEquals("[\"France\",\"Peru\"]", storeValue("SELECT samples FROM catalog_columns WHERE column_name = 'country'")));
    }

    @Test
    void semanticAndStructuralChangesAreClassifiedAndStamped() throws Exception {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        index(t0);
        storeUpdate("UPDATE catalog_columns SET described_hash = semantic_hash");

        sql("INSERT INTO customer VALUES (3, 'Chen', 'Japan')");   // new sample value: semantic change
        sql("ALTER TABLE orders ADD COLUMN placed_at TEXT");       // new column: structural change
        IndexResult r = index(t0.plusSeconds(3600));
        assertAll(() -> assertEquals(2, r.counts().tablesChanged()),
                () -> assertEquals(1, r.counts().tablesUnchanged()),
                () -> assertEquals(1, r.counts().columnsNew()),
                // customer's id and country gained a sample value (its name is a person's name: tagged contact, it keeps
                // no samples); orders' three old columns gained a sibling.
                () -> assertEquals(5, r.counts().columnsChanged()),
                () -> assertEquals(3, r.counts().columnsUnchanged(), "legacy's columns and customer.name"),
                () -> assertEquals("[\"France\",\"Peru\",\"Japan\"]",
                        storeValue("SELECT samples FROM catalog_columns WHERE column_name = 'country'")),
                () -> assertEquals("0", storeValue("SELECT count(*) FROM catalog_columns WHERE column_name = 'country'"
                        + " AND described_hash = semantic_hash"), "a semantic change makes the description stale"),
                () -> assertNull(storeValue("SELECT schema_changed_at FROM catalog_tables WHERE table_name = 'customer'")),
                () -> assertEquals(t0.plusSeconds(3600).toString(),
                        storeValue("SELECT schema_changed_at FROM catalog_tables WHERE table_name = 'orders'")));
    }

    @Test
    void missingObjectsAreDeprecatedThenPurgedAfterThirtyDays() throws Exception {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        index(t0);
        sql("DROP TABLE legacy");
        IndexResult r = index(t0.plus(Duration.ofDays(1)));
        assertEquals(1, r.counts().tablesDeprecated());
        assertEquals(2, r.counts().columnsDeprecated());
        assertEquals(t0.plus(Duration.ofDays(1)).toString(),
                storeValue("SELECT deprecated_at FROM catalog_tables WHERE table_name = 'legacy'"));
        try (SqliteStore store = SqliteStore.open(storeFile)) {
            Catalog live = store.read(c -> CatalogRepository.catalog(c, url.sourceId()));
            assertEquals(2, live.tables().size(), "deprecated tables are not part of the live catalog");
        }

        IndexResult later = index(t0.plus(Duration.ofDays(20)));
        assertEquals(0, later.tablesPurged());
        IndexResult purged = index(t0.plus(Duration.ofDays(32)));
        assertEquals(1, purged.tablesPurged());
        assertEquals("0", storeValue("SELECT count(*) FROM catalog_tables WHERE table_name = 'legacy'"));
        assertEquals("0", storeValue("SELECT count(*) FROM catalog_columns WHERE column_name = 'note'"));
    }

    @Test
    void aTableThatComesBackIsRestored() throws Exception {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        index(t0);
        sql("DROP TABLE legacy");
        index(t0.plusSeconds(10));
        sql("CREATE TABLE legacy (id INTEGER PRIMARY KEY, note TEXT)");
        IndexResult r = index(t0.plusSeconds(20));
        assertEquals(1, r.counts().tablesChanged());
        assertNull(storeValue("SELECT deprecated_at FROM catalog_tables WHERE table_name = 'legacy'"));
    }

    @Test
    void aSourceFailureLeavesTheStoreByteForByteUnchanged() throws Exception {
        index(Instant.parse("2026-01-01T00:00:00Z"));
        byte[] before = Files.readAllBytes(storeFile);
        SourceUrl missing = SourceUrl.parse("sqlite:" + dir.resolve("missing.db"));
        assertThrows(SourceException.class, () -> new Indexer().run(missing, new SqliteSource(missing), storeFile,
                false, IndexListener.SILENT));
        assertArrayEquals(before, Files.readAllBytes(storeFile));
    }

    @Test
    void aFailedWriteRollsBackEverything() throws Exception {
        index(Instant.parse("2026-01-01T00:00:00Z"));
        byte[] before = Files.readAllBytes(storeFile);
        // Two columns with one name violate the store's UNIQUE (table_id, column_name) half-way through the write.
        Column id = new Column("id", 1, "INTEGER", false, null, null, List.of());
        Table broken = new Table(QualifiedName.of("main", "zzz_broken"), TableKind.TABLE, null, null,
                List.of(id, new Column("id", 2, "TEXT", true, null, null, List.of())), List.of(), List.of(), List.of(), null);
        SchemaSource source = new SchemaSource() {
            @Override
            public SourceKind kind() {
                return SourceKind.SQLITE;
            }

            @Override
            public Catalog introspect(IntrospectionOptions options) throws SourceException {
                Catalog real = new SqliteSource(url).introspect(options);
                List<Table> tables = new ArrayList<>(real.tables());
                tables.add(broken);
                return new Catalog(tables);
            }
        };
        StoreException e = assertThrows(StoreException.class,
                () -> new Indexer().run(url, source, storeFile, false, IndexListener.SILENT));
        assertTrue(e.getMessage().contains("left as it was"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(storeFile));
        assertEquals("0", storeValue("SELECT count(*) FROM catalog_tables WHERE table_name = 'zzz_broken'"));
        assertEquals("1", storeValue("SELECT count(*) FROM index_runs"), "the failed run was not recorded");
    }

    @Test
    void aNewStoreIsNotLeftBehindWhenTheFirstRunFails() throws Exception {
        SourceUrl missing = SourceUrl.parse("sqlite:" + dir.resolve("missing.db"));
        assertThrows(SourceException.class, () -> new Indexer().run(missing, new SqliteSource(missing), storeFile,
                false, IndexListener.SILENT));
        assertFalse(Files.exists(storeFile));
    }

    @Test
    void aTextFileIsNotAStoreAndIsLeftUntouched() throws Exception {
        Files.writeString(storeFile, "these are my notes, not a database\n");
        byte[] before = Files.readAllBytes(storeFile);
        StoreException e = assertThrows(StoreException.class, () -> index(Instant.now()));
        assertTrue(e.getMessage().contains("is not a SchemaBrain store"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(storeFile));
    }

    @Test
    void anotherApplicationsSqliteDatabaseIsNotAStoreAndIsLeftUntouched() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + storeFile); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE other_app (x INTEGER)");
        }
        byte[] foreign = Files.readAllBytes(storeFile);
        assertThrows(StoreException.class, () -> index(Instant.now()));
        assertArrayEquals(foreign, Files.readAllBytes(storeFile));
    }

    @Test
    void aStoreFromANewerVersionIsRefused() throws Exception {
        index(Instant.parse("2026-01-01T00:00:00Z"));
        storeUpdate("PRAGMA user_version = 99");
        byte[] before = Files.readAllBytes(storeFile);
        StoreException e = assertThrows(StoreException.class, () -> index(Instant.now()));
        assertTrue(e.getMessage().contains("newer SchemaBrain"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(storeFile));
    }

    @Test
    void dryRunReportsWithoutWriting() throws Exception {
        try (SchemaSource source = new SqliteSource(url)) {
            IndexResult r = new Indexer().run(url, source, storeFile, true, IndexListener.SILENT);
            assertTrue(r.dryRun());
            assertEquals(3, r.counts().tablesNew());
        }
        assertFalse(Files.exists(storeFile));
    }

    @Test
    void passwordsNeverReachTheStore() throws Exception {
        SourceUrl withPassword = SourceUrl.parse("postgresql://ann:s3cret-pw@db.example.com:5432/app?sslmode=require&password=other");
        assertAll(() -> assertEquals("postgresql://db.example.com:5432/app?sslmode=require", withPassword.displayUrl()),
                () -> assertFalse(withPassword.toString().contains("s3cret")),
                () -> assertEquals("other", withPassword.password()),
                () -> assertEquals(SourceUrl.parse("postgresql://bob:x@db.example.com:5432/app?sslmode=require").sourceId(),
                        withPassword.sourceId(), "the source id ignores credentials"),
                () -> assertNotEquals(url.sourceId(), withPassword.sourceId()));
    }

    @Test
    void aSourceIdIs16Characters() {
        assertNotNull(url.sourceId());
        assertEquals(16, url.sourceId().length());
    }
}
