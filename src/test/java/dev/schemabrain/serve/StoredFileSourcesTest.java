package dev.schemabrain.serve;

import dev.schemabrain.demo.DemoEvents;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store of a SQLite and a DuckDB file: given one, serve opens the other from the path the store records (a file
 * URL holds no secret), and says so; a file that is gone is named as a source without a connection.
 */
class StoredFileSourcesTest {

    @TempDir
    static Path dir;
    static Path store;
    static Path events;

    @BeforeAll
    static void indexBoth() throws Exception {
        Path app = dir.resolve("app.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + app); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE plans (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
            st.execute("INSERT INTO plans VALUES (1, 'free'), (2, 'pro')");
        }
        events = DemoEvents.beside(app);
        DemoEvents.ensure(events);
        store = dir.resolve("store.db");
        assertEquals(0, run("--store", store.toString(), "index", "--source", "sqlite:" + app).exitCode());
        assertEquals(0, run("--store", store.toString(), "index", "--add-source", "--source", "duckdb:" + events).exitCode());
    }

    private static InProcessCli.Result run(String... args) {
        return InProcessCli.runAtEof(Map.of("SCHEMABRAIN_AUDIT_KEY", "cd".repeat(32)), args);
    }

    @Test
    void givenOneFileTheOtherIsOpenedFromTheStoredPath() throws Exception {
        InProcessCli.Result r = run("--store", store.toString(), "serve", "--source", "sqlite:" + dir.resolve("app.sqlite"));
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("serving duckdb:" + events + " too, from the path the store records"), r.stderr());

        Path moved = dir.resolve("moved.duckdb");
        Files.move(events, moved);
        try {
            InProcessCli.Result gone = run("--store", store.toString(), "serve", "--source", "sqlite:" + dir.resolve("app.sqlite"));
            assertEquals(2, gone.exitCode(), gone.stderr());
            assertTrue(gone.stderr().contains("no connection for duckdb:" + events), gone.stderr());
        } finally {
            Files.move(moved, events);
        }
    }
}
