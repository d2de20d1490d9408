package dev.schemabrain.security;

import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 item 11: a store served with --source pointing at another database than the one indexed
 * would apply the indexed database's PII tags to the other one's data; serve refuses to start.
 */
class WrongSourceTest {

    private static int refused;
    private static int tried;

    @TempDir
    Path dir;
    Path music;
    Path payroll;
    Path store;

    @BeforeEach
    void createSources() throws Exception {
        music = dir.resolve("music.db");
        payroll = dir.resolve("payroll.db");
        store = dir.resolve("music-store.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + music); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT)");
            st.execute("INSERT INTO artist VALUES (1, 'AC/DC')");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + payroll); Statement st = c.createStatement()) {
            // Same table name, other data: the music store's tags say nothing about it.
            st.execute("CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT, ssn TEXT, salary INTEGER)");
            st.execute("INSERT INTO artist VALUES (1, 'Ann Lee', '123-45-6789', 90000)");
        }
        assertEquals(0, CliRun.of("--store", store.toString(), "index", "--source", "sqlite:" + music).exit());
    }

    @Test
    void serveRefusesASourceTheStoreWasNotIndexedFrom() {
        CliRun r = CliRun.of("--store", store.toString(), "serve", "--source", "sqlite:" + payroll);
        tried++;
        boolean ok = r.exit() == 2 && r.err().contains("sqlite:" + music) && r.err().contains("index this source")
                && r.err().strip().lines().count() == 1;
        if (ok) {
            refused++;
        }
        assertAll(() -> assertEquals(2, r.exit(), r.err()),
                () -> assertTrue(r.err().contains("sqlite:" + music.toAbsolutePath()), "names the indexed source: " + r.err()),
                () -> assertTrue(r.err().contains("sqlite:" + payroll.toAbsolutePath()), "names the given source: " + r.err()),
                () -> assertTrue(r.err().contains("index this source"), "says what to do: " + r.err()),
                () -> assertEquals(1, r.err().strip().lines().count(), r.err()));
    }

    @Test
    void serveRefusesAnotherPostgresDatabaseAndAnotherEngine() throws Exception {
        TestPostgres.createDatabase("sb_music", "CREATE TABLE artist (id int PRIMARY KEY, name text)",
                "INSERT INTO artist VALUES (1, 'AC/DC')");
        TestPostgres.createDatabase("sb_payroll", "CREATE TABLE artist (id int PRIMARY KEY, name text, ssn text)",
                "INSERT INTO artist VALUES (1, 'Ann Lee', '123-45-6789')");
        Path pgStore = dir.resolve("pg-music.db");
        assertEquals(0, CliRun.of("--store", pgStore.toString(), "index", "--source", TestPostgres.url("sb_music")).exit());
        // Each pairing is its own case: one that is wrongly accepted does not hide the others.
        assertAll(Stream.of(
                new String[]{pgStore.toString(), TestPostgres.url("sb_payroll")},
                new String[]{pgStore.toString(), "sqlite:" + payroll},
                new String[]{store.toString(), TestPostgres.url("sb_payroll")}).<Executable>map(served -> () -> {
            CliRun r = CliRun.of("--store", served[0], "serve", "--source", served[1]);
            tried++;
            if (r.exit() == 2 && r.err().contains("index this source")) {
                refused++;
            }
            assertAll(served[1] + " served from " + served[0],
                    () -> assertEquals(2, r.exit(), r.err()),
                    () -> assertTrue(r.err().contains("index this source"), r.err()));
        }));
        assertEquals(0, CliRun.of("--store", pgStore.toString(), "serve", "--source", TestPostgres.url("sb_music")).exit());
        // A store holding both sources on purpose (index --add-source) serves both: the SQLite file from the path it
        // records, the PostgreSQL database only with a connection of its own.
        assertEquals(0, CliRun.of("--store", pgStore.toString(), "index", "--source", "sqlite:" + music, "--add-source").exit());
        CliRun fileOnly = CliRun.of("--store", pgStore.toString(), "serve", "--source", "sqlite:" + music);
        assertAll(() -> assertEquals(2, fileOnly.exit(), fileOnly.err()),
                () -> assertTrue(fileOnly.err().contains("no connection for postgresql://"), fileOnly.err()),
                () -> assertEquals(0, CliRun.of("--store", pgStore.toString(), "serve", "--source", TestPostgres.url("sb_music")).exit()),
                () -> assertEquals(0, CliRun.of("--store", pgStore.toString(), "serve", "--source", "sqlite:" + music,
                        "--source", TestPostgres.url("sb_music")).exit()));
    }

    @Test
    void serveAcceptsTheIndexedSource() {
        assertEquals(0, CliRun.of("--store", store.toString(), "serve", "--source", "sqlite:" + music).exit());
    }

    @Test
    void serveAcceptsAStoreNotYetIndexed() {
        assertEquals(0, CliRun.of("--store", dir.resolve("empty.db").toString(), "serve", "--source", "sqlite:" + payroll).exit(),
                "serve starts before anything is indexed; tools answer index_not_ready");
    }

    @AfterAll
    static void figures() throws Exception {
        FileFigures.record("wrong-source serves refused", refused, tried);
    }
}
