package dev.schemabrain.mining;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.store.QueryLogRepository.Example;
import dev.schemabrain.testing.PerformanceSchemaMariaDb;
import dev.schemabrain.testing.SecurityFigures;
import dev.schemabrain.testing.StoreBytes;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static dev.schemabrain.mining.MinedStore.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29, item 13, end to end: statements whose text hides a name or an SSN where a lexer with the wrong
 * rules lets it out (a quoted alias, a nested PostgreSQL comment, MySQL's double-quoted string) run on the
 * real engine, are read from its statement statistics by mine-queries, and must reach the store as examples
 * with no trace of the value.
 */
class MinedLiteralLeakTest {

    private static final String TABLE = "CREATE TABLE customer (customer_id INT PRIMARY KEY, first_name VARCHAR(40), ssn VARCHAR(11))";

    /** Each statement with the values it hides; every value must stay out of the store. */
    private record Case(String sql, List<String> hidden) {
    }

    private static final List<Case> POSTGRES = List.of(
            new Case("SELECT customer_id AS \"John Smith 123-45-6789\" FROM customer", List.of("John Smith", "123-45-6789")),
            // PostgreSQL's comments nest: all of this after first_name is one comment, not "…, last_name AS jane_roe_secret".
            new Case("SELECT first_name /* outer /* inner */ , ssn AS jane_roe_secret -- */\n FROM customer WHERE customer_id = 2",
                    List.of("jane_roe_secret")),
            new Case("SELECT ssn FROM customer WHERE first_name = 'C:\\' OR first_name = 'Mary Major 555-12-3456'",
                    List.of("Mary Major", "555-12-3456")));

    private static final List<Case> MARIADB = List.of(
            new Case("SELECT customer_id AS `John Smith 123-45-6789` FROM customer", List.of("John Smith", "123-45-6789")),
            new Case("SELECT first_name AS \"Jane Roe 987-65-4321\" FROM customer WHERE first_name = \"O\\\"Brien 555-12-3456\"",
                    List.of("Jane Roe", "987-65-4321", "Brien", "555-12-3456")));

    @TempDir
    Path dir;

    @Test
    void postgresqlStatementsReachTheStoreWithoutTheirValues() throws Exception {
        String db = "t29mine_pg";
        TestPostgres.createDatabase(db, TABLE.replace("VARCHAR", "varchar"), "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        MinedStore mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", TestPostgres.url(db)));
        try (Connection c = TestPostgres.connect(db); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_statements_reset()");
            for (Case k : POSTGRES) {
                st.execute(k.sql());
            }
        }
        // A row an older normalizer stored (it kept quoted aliases): the next run removes it.
        plant(mined, TestPostgres.url(db), "SELECT customer_id AS \"Old Leak 111-22-3333\" FROM customer");
        int held = check(mined, TestPostgres.url(db), POSTGRES, "PostgreSQL");
        SecurityFigures.record("13 mined statements stored without the value they hide, PostgreSQL (pg_stat_statements)", held, POSTGRES.size());
        assertEquals(POSTGRES.size(), held);
        String bytes = StoreBytes.of(mined.file());
        boolean purged = !bytes.contains("Old Leak") && !bytes.contains("111-22-3333");
        SecurityFigures.record("13 rows an older normalizer stored removed by the next mine-queries", purged ? 1 : 0, 1);
        assertTrue(purged, "the planted row of an older normalizer is gone from the store's bytes");
        // Re-running finds every row as this normalizer writes it: nothing removed, counts continue.
        long before = mined.stored(TestPostgres.url(db)).stream().mapToLong(Example::observations).sum();
        ok(mined.cli("mine-queries", "--source", TestPostgres.url(db)));
        assertEquals(before, mined.stored(TestPostgres.url(db)).stream().mapToLong(Example::observations).sum());
    }

    @Test
    void mariadbDigestsReachTheStoreWithoutTheirValues() throws Exception {
        String db = "t29mine_maria";
        PerformanceSchemaMariaDb.port();   // starts the server
        try (Connection c = PerformanceSchemaMariaDb.admin(); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + db);
            st.execute("CREATE DATABASE " + db);
        }
        try (Connection c = PerformanceSchemaMariaDb.connect(db); Statement st = c.createStatement()) {
            st.execute(TABLE);
        }
        MinedStore mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", PerformanceSchemaMariaDb.url(db)));
        try (Connection c = PerformanceSchemaMariaDb.connect(db); Statement st = c.createStatement()) {
            st.execute("TRUNCATE TABLE performance_schema.events_statements_summary_by_digest");
            for (Case k : MARIADB) {
                st.execute(k.sql());
            }
        }
        int held = check(mined, PerformanceSchemaMariaDb.url(db), MARIADB, "MariaDB");
        SecurityFigures.record("13 mined statements stored without the value they hide, MariaDB (performance_schema digests)", held, MARIADB.size());
        assertEquals(MARIADB.size(), held);
    }

    /** Writes a statement into the store as an older SchemaBrain's mine-queries did, with its text as given. */
    private static void plant(MinedStore mined, String url, String sql) throws Exception {
        String sourceId = SourceUrl.parse(url).sourceId();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + mined.file());
             PreparedStatement st = c.prepareStatement("INSERT INTO query_log (source_id, fingerprint, kind, normalized_sql,"
                     + " observations, last_raw_calls, first_seen_at, last_seen_at, tables, joins, columns, aggregates, pii_categories)"
                     + " VALUES (?, 'f00d', 'select', ?, 3, 3, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z',"
                     + " '[\"public.customer\"]', '[]', '[]', '[]', '[]')")) {
            st.setString(1, sourceId);
            st.setString(2, sql);
            st.executeUpdate();
        }
    }

    /** How many cases held: the statement is stored as an example (so mining still works) and none of its values is in the store. */
    private static int check(MinedStore mined, String url, List<Case> cases, String engine) throws Exception {
        ok(mined.cli("mine-queries", "--source", url));
        List<Example> stored = mined.stored(url);
        String all = stored.stream().map(Example::sql).collect(Collectors.joining("\n"));
        String bytes = StoreBytes.of(mined.file());
        List<String> failures = new ArrayList<>();
        for (Case k : cases) {
            for (String value : k.hidden()) {
                if (bytes.contains(value)) {
                    failures.add(value + " reached the store from: " + k.sql());
                }
            }
        }
        int leaked = (int) cases.stream().filter(k -> k.hidden().stream().anyMatch(bytes::contains)).count();
        assertEquals(cases.size(), stored.size(), engine + ": every statement is still an example:\n" + all);
        assertTrue(failures.isEmpty(), engine + ": " + failures + "\nstored:\n" + all);
        return cases.size() - leaked;
    }
}
