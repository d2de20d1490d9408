package dev.schemabrain.security;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.pii.PiiClassifier;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Public figures of catalogues, as an index run on PostgreSQL tags them: Chinook's artists and composers, Pagila's
 * and Sakila's actors (with a few actor rows, so the content rules see names) against their customers and staff.
 * Writes target/security/public-figures.txt (docs/pii-blind-v5.md quotes it for version 4 and version 5).
 */
class PiiPublicFiguresTest {

    @TempDir
    Path dir;

    private static final List<String> PEOPLE_ROWS = List.of(
            "INSERT INTO actor (actor_id, first_name, last_name) VALUES (1, 'PENELOPE', 'GUINESS'), (2, 'NICK', 'WAHLBERG'), (3, 'ED', 'CHASE')");

    @Test
    void publicFiguresAndPeopleInTheSampleDatabases() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        Map<String, String> chinook = tags("chinook");
        Map<String, String> pagila = tags(load("pagila_v5", "pagila-pg15.sql"));
        Map<String, String> sakila = tags(load("sakila_v5", "sakila.sql"));
        StringBuilder out = new StringBuilder("public figures, classifier version " + PiiClassifier.VERSION + "\n");
        for (String c : List.of("artist.name", "track.composer", "album.title", "customer.first_name", "employee.last_name")) {
            out.append("chinook ").append(c).append(": ").append(chinook.getOrDefault("public." + c, "-")).append('\n');
        }
        for (String c : List.of("actor.first_name", "actor.last_name", "customer.first_name", "staff.last_name")) {
            out.append("pagila ").append(c).append(": ").append(pagila.getOrDefault("public." + c, "-")).append('\n');
        }
        for (String c : List.of("actor.first_name", "actor.last_name", "customer.first_name", "staff.last_name")) {
            out.append("sakila ").append(c).append(": ").append(sakila.getOrDefault("public." + c, "-")).append('\n');
        }
        Files.createDirectories(Path.of("target", "security"));
        Files.writeString(Path.of("target", "security", "public-figures.txt"), out);
        System.err.print(out);
        if (!PiiClassifier.VERSION.equals("4")) {
            for (Map<String, String> db : List.of(pagila, sakila)) {
                assertEquals(null, db.get("public.actor.first_name"), out.toString());
                assertEquals(null, db.get("public.actor.last_name"), out.toString());
                assertEquals("contact", db.get("public.customer.first_name"), out.toString());
            }
            assertEquals(null, chinook.get("public.artist.name"), out.toString());
            assertEquals(null, chinook.get("public.track.composer"), out.toString());
            assertEquals("contact", chinook.get("public.customer.first_name"), out.toString());
        }
    }

    private static String load(String database, String file) throws Exception {
        TestPostgres.loadSample(database, file);
        try (Connection c = TestPostgres.connect(database); Statement st = c.createStatement()) {
            st.execute("SET session_replication_role = replica");
            st.execute("DELETE FROM actor");
            for (String sql : PEOPLE_ROWS) {
                st.execute(sql);
            }
            st.execute("ANALYZE");
        }
        return database;
    }

    private Map<String, String> tags(String database) throws Exception {
        SourceUrl url = SourceUrl.parse(TestPostgres.url(database));
        Path store = dir.resolve(database + ".db");
        try (SchemaSource s = Sources.open(url)) {
            new Indexer().run(url, s, store, false, IndexListener.SILENT);
        }
        Map<String, String> out = new TreeMap<>();
        try (SqliteStore s = SqliteStore.open(store)) {
            for (PiiTags.Entry e : s.read(PiiRepository::tags).tagged()) {
                out.put(e.qualifiedColumn(), String.join(",", e.tag().categoryNames()));
            }
        }
        return out;
    }
}
