package dev.schemabrain.cli;

import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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

    /** A source of thousands of columns: embedding and writing them take seconds. */
    private static String manyTables() {
        StringBuilder ddl = new StringBuilder();
        for (int t = 0; t < 500; t++) {
            ddl.append("CREATE TABLE ledger_").append(t).append(" (id INTEGER PRIMARY KEY");
            for (int c = 0; c < 6; c++) {
                ddl.append(", amount_").append(t).append('_').append(c).append(" NUMERIC");
            }
            ddl.append(");\n");
        }
        return ddl.toString();
    }

    private Process index(Path store, Path schema, Path err) throws IOException {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                Path.of(System.getProperty("schemabrain.jar", "target/schemabrain.jar")).toAbsolutePath().toString(),
                "--store", store.toString(), "index", "--source", "ddl:" + schema)
                .directory(dir.toFile()).redirectOutput(dir.resolve("index.out").toFile()).redirectError(err.toFile()).start();
    }

    private static void awaitLine(Process p, Path err, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.readString(err, StandardCharsets.UTF_8).contains(line)) {
            assertTrue(p.isAlive() && System.nanoTime() < deadline, "the run reaches '" + line + "': " + Files.readString(err));
            Thread.sleep(20);
        }
    }

    @Test
    void ctrlCWhileAFirstIndexWritesLeavesNoStoreAndItsLinesInOrder() throws Exception {
        Path schema = Files.writeString(dir.resolve("first.sql"), manyTables());
        Path store = dir.resolve("first.db");
        Path err = dir.resolve("first.err");
        Process p = index(store, schema, err);
        awaitLine(p, err, "Writing the store");
        Thread.sleep(200);   // into the write transaction
        assertTrue(p.isAlive(), "still writing when interrupted");
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the run stops");

        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(130, p.exitValue(), stderr);
        List<String> lines = stderr.lines().toList();
        assertEquals("schemabrain: index interrupted; nothing was indexed into " + store + ".", lines.get(lines.size() - 1), stderr);
        assertEquals("Writing the store " + store + " ...", lines.get(lines.size() - 2), stderr);
        assertEquals("", Files.readString(dir.resolve("index.out")), "no summary of a run that was undone");
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("first.db")).toList(),
                    "no store file, empty or half-written, is left");
        }
    }

    @Test
    void ctrlCWhileEmbeddingStopsAtOnceAndLeavesTheStoreAsItWas() throws Exception {
        Path schema = dir.resolve("app.sql");
        Files.writeString(schema, "CREATE TABLE orders (id INTEGER PRIMARY KEY, total NUMERIC);");
        Path store = dir.resolve("s.db");
        Cli.Result first = Cli.run(dir, "--store", store.toString(), "index", "--source", "ddl:" + schema);
        assertEquals(0, first.exitCode(), first.stderr());
        byte[] before = Files.readAllBytes(store);

        // The same source grown to thousands of distinct texts: embedding them takes far longer than the wait below.
        Files.writeString(schema, manyTables());
        Path err = dir.resolve("index.err");
        Process p = index(store, schema, err);
        awaitLine(p, err, "Describing and embedding");
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
