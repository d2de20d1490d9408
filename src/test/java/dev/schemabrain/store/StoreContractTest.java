package dev.schemabrain.store;

import dev.schemabrain.auth.StoreTokens;
import dev.schemabrain.auth.TokenEntry;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.IndexResult;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.pii.Allowance;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.sqlite.SqliteSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every store must do, run on each implementation (a SQLite file, a PostgreSQL schema): migrate from
 * empty, round-trip every repository, move the catalog version with catalog rows only, and leave the
 * previous state when a write fails.
 */
abstract class StoreContractTest {

    @TempDir
    Path dir;
    Path sourceFile;
    SourceUrl url;

    /** A store no test has written yet. */
    abstract StoreLocation freshStore() throws Exception;

    StoreLocation location;

    @BeforeEach
    void createSource() throws Exception {
        location = freshStore();
        sourceFile = dir.resolve("shop.db");
        url = SourceUrl.parse("sqlite:" + sourceFile);
        source("CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, country TEXT)",
                "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer(id), total REAL,"
                        + " UNIQUE (customer_id, total))",
                "INSERT INTO customer VALUES (1, 'Ann', 'ann@example.com', 'France'), (2, 'Bob', 'bob@example.com', 'Peru')",
                "INSERT INTO orders VALUES (1, 1, 9.5), (2, 2, 12.0)");
    }

    void source(String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sourceFile); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    IndexResult index(Instant at) throws Exception {
        try (SchemaSource source = new SqliteSource(url)) {
            return new Indexer(Clock.fixed(at, ZoneOffset.UTC)).run(url, source, location, false, IndexListener.SILENT);
        }
    }

    <T> T read(StoreWork<T> work) throws StoreException {
        try (Store store = Stores.open(location)) {
            return store.read(work);
        }
    }

    <T> T write(StoreWork<T> work) throws StoreException {
        try (Store store = Stores.openOrCreate(location)) {
            return store.write(work);
        }
    }

    Optional<String> version() throws StoreException {
        try (Store store = Stores.open(location)) {
            return store.catalogVersion();
        }
    }

    @Test
    void migratesFromEmptyOnTheFirstWrite() throws Exception {
        try (Store store = Stores.openOrCreate(location)) {
            assertEquals(Optional.empty(), store.catalogVersion(), "nothing is created by opening");
            assertEquals(List.of(), store.read(CatalogRepository::sourceIds));
            store.write(c -> null);
            assertTrue(store.catalogVersion().isPresent());
            for (String table : List.of("sources", "index_runs", "catalog_tables", "catalog_columns", "catalog_foreign_keys",
                    "catalog_unique_constraints", "semantic_objects", "pii_tags", "pii_overrides", "pii_settings",
                    "audit_witness", "catalog_version", "auth_tokens")) {
                boolean present = store.read(c -> StoreDialect.hasTable(c, table));
                assertTrue(present, table);
            }
            assertFalse(store.describe().contains("password"));
        }
    }

    @Test
    void anIndexRunRoundTripsTheCatalogAndReindexUpdatesIt() throws Exception {
        IndexResult first = index(Instant.parse("2026-01-01T00:00:00Z"));
        assertEquals(2, first.tables());
        Catalog catalog = read(c -> CatalogRepository.catalog(c, url.sourceId()));
        assertEquals(Set.of("customer", "orders"), Set.copyOf(catalog.tables().stream().map(t -> t.name().table()).toList()));
        var orders = catalog.tables().stream().filter(t -> t.name().table().equals("orders")).findFirst().orElseThrow();
        assertEquals(1, orders.foreignKeys().size());
        assertEquals(1, orders.uniqueConstraints().size());
        assertEquals(List.of(2, 7, 1), List.of(read(c -> CatalogRepository.liveCounts(c, url.sourceId()))[0],
                read(c -> CatalogRepository.liveCounts(c, url.sourceId()))[1], read(c -> CatalogRepository.liveCounts(c, url.sourceId()))[2]));
        assertEquals(Map.of(url.sourceId(), url.displayUrl()), read(CatalogRepository::sourceUrls));
        assertEquals(1, read(CatalogRepository::schemas).size());
        List<DocumentRepository.ServedDocument> docs = read(c -> DocumentRepository.served(c, url.sourceId(), true));
        assertEquals(9, docs.size(), "one document per table and per column");
        assertTrue(docs.stream().allMatch(d -> d.embedding() != null && d.embedding().length > 0), "vectors come back as bytes");
        assertTrue(read(PiiRepository::tags).tag(QualifiedName.of("main", "customer"), "email").tagged());

        source("ALTER TABLE customer ADD COLUMN phone TEXT", "DROP TABLE orders");
        IndexResult second = index(Instant.parse("2026-01-02T00:00:00Z"));
        assertEquals(1, second.tables());
        Catalog after = read(c -> CatalogRepository.catalog(c, url.sourceId()));
        assertEquals(List.of("customer"), after.tables().stream().map(t -> t.name().table()).toList());
        assertEquals(5, after.tables().get(0).columns().size());
        StoreSnapshot snapshot = read(StoreSnapshot::read);
        assertEquals(1, snapshot.catalog().tables().size());
    }

    @Test
    void aColumnDomainRoundTripsAndANewLabelIsAStructuralChange() throws Exception {
        source("CREATE TABLE invoice (id INTEGER PRIMARY KEY, status TEXT NOT NULL CHECK (status IN ('draft', 'paid', 'it''s')),"
                + " is_test INTEGER NOT NULL DEFAULT 0 CHECK (is_test IN (0, 1)))");
        index(Instant.parse("2026-01-01T00:00:00Z"));
        var invoice = read(c -> CatalogRepository.catalog(c, url.sourceId())).table(QualifiedName.of("main", "invoice")).orElseThrow();
        assertEquals(new Domain(Domain.Kind.CHECK, null, List.of("draft", "paid", "it's")),
                invoice.column("status").orElseThrow().domain());
        assertEquals(Domain.BOOLEAN, invoice.column("is_test").orElseThrow().domain());
        assertEquals(null, invoice.column("id").orElseThrow().domain(), "an open type has no domain");

        source("DROP TABLE invoice", "CREATE TABLE invoice (id INTEGER PRIMARY KEY, status TEXT NOT NULL CHECK"
                + " (status IN ('draft', 'paid', 'it''s', 'void')), is_test INTEGER NOT NULL DEFAULT 0 CHECK (is_test IN (0, 1)))");
        IndexResult second = index(Instant.parse("2026-01-02T00:00:00Z"));
        assertEquals(1, second.counts().columnsChanged(), "only the column whose list grew changed");
        var after = read(c -> CatalogRepository.catalog(c, url.sourceId())).table(QualifiedName.of("main", "invoice")).orElseThrow();
        assertEquals(List.of("draft", "paid", "it's", "void"), after.column("status").orElseThrow().domain().values());
    }

    @Test
    void repositoriesRoundTrip() throws Exception {
        index(Instant.parse("2026-01-01T00:00:00Z"));
        QualifiedName customer = QualifiedName.of("main", "customer");
        PiiTags.Entry override = new PiiTags.Entry(customer, "country",
                PiiTag.of(List.of(PiiCategory.CONTACT), List.of("operator")), PiiTags.Origin.OPERATOR);
        Set<PiiCategory> blocked = new HashSet<>(BlockList.FLOOR.categories());
        blocked.add(PiiCategory.CONTACT);
        BlockList block = BlockList.of(blocked, false);
        List<SemanticRepository.StoredObject> objects = List.of(new SemanticRepository.StoredObject(
                "entity", "buyer", "{\"name\":\"buyer\",\"table\":\"main.customer\"}", "manual", "validated"));
        write(c -> {
            PiiRepository.replaceOverrides(c, List.of(override));
            PiiRepository.putBlockList(c, Optional.of(block));
            PiiAllowanceRepository.replace(c, List.of(new PiiAllowanceRepository.Entry(customer, "email", Set.of(Allowance.GROUP_BY))));
            SemanticRepository.put(c, objects);
            return null;
        });
        assertEquals(List.of(override), read(PiiRepository::overrides));
        assertEquals(Optional.of(block), read(PiiRepository::blockList));
        assertEquals(Map.of(customer, Map.of("email", Set.of(Allowance.GROUP_BY))), read(PiiAllowanceRepository::allowances));
        assertTrue(read(SemanticRepository::load).containsAll(objects));

        StoreTokens tokens = new StoreTokens(location);
        String token = tokens.create("ci-bot");
        assertFalse(token.isBlank());
        assertEquals(List.of("ci-bot"), tokens.list().stream().map(TokenEntry::name).toList());
        tokens.revoke("ci-bot");
        assertEquals(List.of(), tokens.list());
    }

    @Test
    void theCatalogVersionMovesWithCatalogRowsOnly() throws Exception {
        index(Instant.parse("2026-01-01T00:00:00Z"));
        String indexed = version().orElseThrow();
        new StoreTokens(location).create("unrelated");
        write(c -> {
            try (PreparedStatement st = c.prepareStatement(
                    "INSERT INTO audit_witness (id, row_count, head_hash, mac, written_at) VALUES (1, 3, 'ab', 'cd', 'now')")) {
                st.executeUpdate();
            }
            return null;
        });
        assertEquals(indexed, version().orElseThrow(), "tokens and the audit witness are not the catalog");
        write(c -> {
            PiiRepository.putBlockList(c, Optional.of(BlockList.FLOOR));
            return null;
        });
        assertNotEquals(indexed, version().orElseThrow(), "a policy change is");
    }

    @Test
    void aFailedWriteLeavesThePreviousState() throws Exception {
        index(Instant.parse("2026-01-01T00:00:00Z"));
        String before = version().orElseThrow();
        Catalog catalog = read(c -> CatalogRepository.catalog(c, url.sourceId()));
        StoreException e = assertThrows(StoreException.class, () -> write(c -> {
            try (Statement st = c.createStatement()) {
                st.executeUpdate("DELETE FROM catalog_columns");
                st.executeUpdate("INSERT INTO no_such_table VALUES (1)");
            }
            return null;
        }));
        assertTrue(e.getMessage().contains("the store was left as it was"), e.getMessage());
        assertEquals(catalog, read(c -> CatalogRepository.catalog(c, url.sourceId())));
        assertEquals(before, version().orElseThrow());
    }
}
