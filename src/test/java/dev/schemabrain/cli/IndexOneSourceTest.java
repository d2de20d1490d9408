package dev.schemabrain.cli;

import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A store indexed from one source takes a second, unrelated one only when asked to (issue 31: the demo's store). */
class IndexOneSourceTest {

    @TempDir
    Path dir;

    @Test
    void aSecondSourceIsRefusedUnlessAddedOnPurpose() throws Exception {
        Path shop = dir.resolve("shop.sql");
        Files.writeString(shop, "CREATE TABLE orders (id INTEGER PRIMARY KEY, total NUMERIC);");
        Path crm = dir.resolve("crm.sql");
        Files.writeString(crm, "CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT);");
        String store = dir.resolve("s.db").toString();

        InProcessCli.Result first = InProcessCli.run("index", "--store", store, "--source", "ddl:" + shop);
        assertEquals(0, first.exitCode(), first.stderr());
        InProcessCli.Result again = InProcessCli.run("index", "--store", store, "--source", "ddl:" + shop);
        assertEquals(0, again.exitCode(), "the same source re-indexes as before: " + again.stderr());

        byte[] before = Files.readAllBytes(Path.of(store));
        InProcessCli.Result other = InProcessCli.run("index", "--store", store, "--source", "ddl:" + crm);
        assertEquals(2, other.exitCode(), other.stdout() + other.stderr());
        assertEquals("schemabrain: The store " + store + " holds ddl:" + shop + ", not ddl:" + crm + "; give this source"
                + " a store of its own with --store FILE, or pass --add-source to serve both from this store on purpose.",
                other.stderr().strip());
        assertArrayEquals(before, Files.readAllBytes(Path.of(store)), "the refused run wrote nothing");

        InProcessCli.Result added = InProcessCli.run("index", "--store", store, "--source", "ddl:" + crm, "--add-source");
        assertEquals(0, added.exitCode(), added.stderr());
        try (Store s = Stores.open(StoreLocation.file(Path.of(store)))) {
            assertEquals(2, s.read(CatalogRepository::sourceUrls).size());
        }
    }
}
