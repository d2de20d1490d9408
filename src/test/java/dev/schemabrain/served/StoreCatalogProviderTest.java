package dev.schemabrain.served;

import dev.schemabrain.store.AuditWitnessStore;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The served catalog on a real demo store: kept across audit witnesses, reloaded when the catalog or the file changes. */
class StoreCatalogProviderTest {

    @TempDir
    Path dir;

    @Test
    void aWitnessKeepsTheSnapshotACatalogWriteOrANewFileReloadsIt() throws Exception {
        Path store = dir.resolve("demo.db");
        InProcessCli.Result demo = InProcessCli.run("--store", store.toString(), "demo", "--events", "none", "--database", dir.resolve("demo.sqlite").toString());
        assertEquals(0, demo.exitCode(), demo.stderr());
        StoreCatalogProvider provider = new StoreCatalogProvider(StoreLocation.file(store), () -> null, Optional.empty());

        ServedCatalog first = provider.current().orElseThrow();
        assertSame(first, provider.current().orElseThrow(), "nothing changed");
        AuditWitnessStore.advance(store, new AuditWitnessStore.Stored(1, "00", "00"), 1_000, previous -> {
        });
        assertSame(first, provider.current().orElseThrow(), "an audit witness is not a catalog change");

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement()) {
            st.execute("UPDATE catalog_version SET token = randomblob(16)");   // what the catalog tables' triggers do
        }
        ServedCatalog reloaded = provider.current().orElseThrow();
        assertNotSame(first, reloaded, "a catalog write while serving is picked up");

        Path copy = dir.resolve("copy.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement()) {
            st.execute("VACUUM INTO '" + copy + "'");   // a consistent copy, WAL included
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
            st.execute("UPDATE catalog_version SET token = randomblob(16)");
        }
        for (String suffix : new String[]{"", "-wal", "-shm"}) {
            Files.deleteIfExists(Path.of(store + suffix));   // a WAL left beside a new file would be replayed into it
        }
        Files.move(copy, store, StandardCopyOption.REPLACE_EXISTING);   // a new file at the path
        assertNotSame(reloaded, provider.current().orElseThrow(), "the kept connection follows the path, not the old file");

        Files.delete(store);
        assertTrue(provider.current().isEmpty(), "no store, no catalog");
    }

    @Test
    void aStoreFromBeforeTheValueIndexIsServedWithoutMigrating() throws Exception {
        Path store = dir.resolve("old.db");
        InProcessCli.Result demo = InProcessCli.run("--store", store.toString(), "demo", "--events", "none", "--database", dir.resolve("demo.sqlite").toString());
        assertEquals(0, demo.exitCode(), demo.stderr());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE catalog_columns DROP COLUMN value_index");   // as a store written before V10 is
            st.execute("PRAGMA user_version = 9");
        }
        ServedCatalog served = new StoreCatalogProvider(StoreLocation.file(store), () -> null, Optional.empty()).current().orElseThrow(
                () -> new AssertionError("a store one migration behind must still be served (serve reads without migrating)"));
        assertTrue(served.catalog().tables().size() > 10, "every table is served");
        assertTrue(served.catalog().tables().stream().flatMap(t -> t.columns().stream()).allMatch(col -> col.values().isEmpty()),
                "no values before the value index exists");
    }

    @Test
    void aStoreFromBeforeColumnDomainsIsServedWithoutMigrating() throws Exception {
        Path store = dir.resolve("old-domains.db");
        InProcessCli.Result demo = InProcessCli.run("--store", store.toString(), "demo", "--events", "none", "--database", dir.resolve("demo.sqlite").toString());
        assertEquals(0, demo.exitCode(), demo.stderr());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE catalog_columns DROP COLUMN domain");   // as a store written before V11 is
            st.execute("PRAGMA user_version = 10");
        }
        ServedCatalog served = new StoreCatalogProvider(StoreLocation.file(store), () -> null, Optional.empty()).current().orElseThrow(
                () -> new AssertionError("a store one migration behind must still be served"));
        assertTrue(served.catalog().tables().stream().flatMap(t -> t.columns().stream()).allMatch(col -> col.domain() == null),
                "no domains before the domain column exists");
    }
}
