package dev.schemabrain.cli;

import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ctrl-C during a long index run (issue 31): one sentence at once, exit 130 within a second or two, the store as it was. */
class IndexInterruptIT {

    @TempDir
    Path dir;

    @Test
    void ctrlCWhileEmbeddingStopsAtOnceAndLeavesTheStoreAsItWas() throws Exception {
        Path schema = dir.resolve("app.sql");
        Files.writeString(schema, "CREATE TABLE orders (id INTEGER PRIMARY KEY, total NUMERIC);");
        Path store = dir.resolve("s.db");
        Cli.Result first = Cli.run(dir, "--store", store.toString(), "index", "--source", "ddl:" + schema);
        assertEquals(0, first.exitCode(), first.stderr());
        byte[] before = Files.readAllBytes(store);

        // The same source grown to thousands of distinct texts: embedding them takes far longer than the wait below.
        StringBuilder ddl = new StringBuilder();
        for (int t = 0; t < 500; t++) {
            ddl.append("CREATE TABLE ledger_").append(t).append(" (id INTEGER PRIMARY KEY");
            for (int c = 0; c < 6; c++) {
                ddl.append(", amount_").append(t).append('_').append(c).append(" NUMERIC");
            }
            ddl.append(");\n");
        }
        Files.writeString(schema, ddl);
        Path err = dir.resolve("index.err");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                Path.of(System.getProperty("schemabrain.jar", "target/schemabrain.jar")).toAbsolutePath().toString(),
                "--store", store.toString(), "index", "--source", "ddl:" + schema)
                .directory(dir.toFile()).redirectOutput(dir.resolve("index.out").toFile()).redirectError(err.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(err, StandardCharsets.UTF_8).contains("Describing and embedding")) {
            assertTrue(p.isAlive() && System.nanoTime() < deadline, "the run reaches embedding: " + Files.readString(err));
            Thread.sleep(50);
        }
        Thread.sleep(2_000);   // the model is loaded and embedding the first slices
        assertTrue(p.isAlive(), "still embedding when interrupted");
        long signalled = System.nanoTime();
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "the run stops");
        long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);

        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(130, p.exitValue(), stderr);
        assertTrue(stderr.strip().endsWith("schemabrain: index interrupted; the store " + store + " is unchanged."), stderr);
        assertEquals(1, stderr.lines().filter(l -> l.startsWith("schemabrain: ")).count(), "that sentence alone: " + stderr);
        assertTrue(stopMillis < 2_500, "stopped " + stopMillis + " ms after SIGINT");
        assertEquals("", Files.readString(dir.resolve("index.out")), "no summary of a run that did not happen");
        assertArrayEquals(before, Files.readAllBytes(store), "the store file is as it was");
        try (Store s = Stores.open(StoreLocation.file(store))) {
            String id = List.copyOf(s.read(CatalogRepository::sourceUrls).keySet()).get(0);
            assertEquals(1, s.read(c -> CatalogRepository.liveCounts(c, id))[0], "it still holds the one table it held");
        }
    }
}
