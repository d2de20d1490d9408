package dev.schemabrain.execute;

import dev.schemabrain.engine.Purpose;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.engine.Explain;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The executor's guarantees on real PostgreSQL, MariaDB and SQLite. */
class QueryExecutorTest {

    @TempDir
    static Path dir;
    static String maria;
    static Path sqlite;

    @BeforeAll
    static void databases() throws Exception {
        TestPostgres.createDatabase("sb_exec", "CREATE TABLE item (id int PRIMARY KEY, name text, price numeric(8,2), added date)",
                "INSERT INTO item SELECT g, 'item ' || g, g * 1.25, DATE '2024-01-01' + g FROM generate_series(1, 50) g");
        maria = TestMariaDb.create("sb_exec", "CREATE TABLE item (id int PRIMARY KEY, name varchar(20), price decimal(8,2), added date)",
                "INSERT INTO item SELECT seq, CONCAT('item ', seq), seq * 1.25, DATE '2024-01-01' + INTERVAL seq DAY FROM seq_1_to_50");
        sqlite = dir.resolve("exec.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price NUMERIC, added TEXT)");
            st.execute("WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 50) "
                    + "INSERT INTO item SELECT n, 'item ' || n, n * 1.25, date('2024-01-01', '+' || n || ' days') FROM g");
        }
    }

    @AfterAll
    static void dropMaria() throws Exception {
        TestMariaDb.drop(maria);
    }

    static List<String> urls() {
        return List.of(TestPostgres.url("sb_exec"), TestMariaDb.url(maria), "sqlite:" + sqlite);
    }

    private static void resetStatementStatistics() throws Exception {
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
        }
    }

    /** The normalized statements sb_exec executed since the reset whose text contains {@code word}. */
    private static List<String> statementsMentioning(String word) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT s.query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
                     + " WHERE d.datname = 'sb_exec' AND s.query LIKE '%" + word + "%'")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    static QueryExecutor executor(String url, ExecutorSettings settings) throws Exception {
        return new QueryExecutor(SourceUrl.parse(url), settings);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void boundParametersRowCapAndJsonFriendlyValues(String url) throws Exception {
        try (QueryExecutor ex = executor(url, new ExecutorSettings(5_000, 10, 4, 1_000, null))) {
            QueryExecutor.Result r = ex.execute(new BoundQuery(
                    "SELECT id, name, price, added FROM item WHERE price > ? AND name <> ? ORDER BY id", List.of(10, "item 12")), 100);
            assertEquals(10, r.rows().size(), url);
            assertTrue(r.truncated(), url + ": 50 rows match, the cap is 10");
            List<Object> first = r.rows().get(0);
            assertEquals(9L, first.get(0), url);
            assertEquals("item 9", first.get(1), url);
            assertEquals(0, new BigDecimal("11.25").compareTo(new BigDecimal(first.get(2).toString())), url);
            assertEquals("2024-01-10", first.get(3), url);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void fewerRowsThanTheCapAreNotTruncated(String url) throws Exception {
        try (QueryExecutor ex = executor(url, new ExecutorSettings(5_000, 10, 4, 1_000, null))) {
            QueryExecutor.Result small = ex.execute(new BoundQuery("SELECT id FROM item WHERE id <= ?", List.of(3)), 100);
            assertFalse(small.truncated(), url);
            assertEquals(3, small.rows().size(), url);
        }
    }

    static Stream<Arguments> writes() {
        return urls().stream().flatMap(url -> Stream.of("INSERT INTO item (id, name) VALUES (1000, 'x')",
                "UPDATE item SET name = 'x'", "DELETE FROM item", "CREATE TABLE evil (id int)").map(write -> Arguments.of(url, write)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("writes")
    void aWriteIsRefusedByTheSessionEvenIfOneReachedIt(String url, String write) throws Exception {
        try (QueryExecutor ex = executor(url, ExecutorSettings.defaults())) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> ex.execute(new BoundQuery(write, List.of()), 10), url + " " + write);
            assertEquals(ErrorKind.STATEMENT_FAILED, e.kind(), url + " " + write + ": " + e.getMessage());
            QueryExecutor.Result count = ex.execute(new BoundQuery("SELECT COUNT(*), MIN(name) FROM item", List.of()), 1);
            assertEquals(50L, count.rows().get(0).get(0), url + ": nothing was written");
            assertEquals("item 1", count.rows().get(0).get(1), url);
        }
    }

    @Test
    void postgresExplainEstimatesWithoutRunningAndTheCostCapRefusesBeforeRunning() throws Exception {
        resetStatementStatistics();
        try (QueryExecutor pg = executor(TestPostgres.url("sb_exec"), ExecutorSettings.defaults())) {
            Explain plan = pg.explain(new BoundQuery("SELECT pg_sleep(3), id FROM item WHERE id > ?", List.of(1)));
            assertNotNull(plan.totalCost());
            assertTrue(plan.estimatedRows() > 0);
        }
        try (QueryExecutor capped = executor(TestPostgres.url("sb_exec"), ExecutorSettings.defaults().withCostCap(0.5))) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> capped.execute(new BoundQuery("SELECT pg_sleep(3) FROM item", List.of()), 10));
            assertEquals(ErrorKind.COST_CAP_EXCEEDED, e.kind());
        }
        // What PostgreSQL ran: the two plans, and neither statement itself (each behind SchemaBrain's marker).
        assertEquals(List.of("EXPLAIN", "EXPLAIN"), statementsMentioning("pg_sleep").stream()
                .map(q -> q.substring(Purpose.STATEMENT_MARKER.length()))
                .map(q -> q.substring(0, q.indexOf(' '))).sorted().toList());
    }

    static List<String> mariaAndSqlite() {
        return List.of(TestMariaDb.url(maria), "sqlite:" + sqlite);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mariaAndSqlite")
    void explainAnswersAPlan(String url) throws Exception {
        try (QueryExecutor ex = executor(url, ExecutorSettings.defaults())) {
            Explain plan = ex.explain(new BoundQuery("SELECT id FROM item WHERE id > ?", List.of(1)));
            assertFalse(plan.plan().isBlank(), url);
        }
    }

    static Stream<Arguments> slowStatements() {
        return Stream.of(Arguments.of(TestPostgres.url("sb_exec"), "SELECT pg_sleep(5)"),
                Arguments.of(TestMariaDb.url(maria), "SELECT COUNT(*) FROM seq_1_to_100000 a, seq_1_to_100000 b"),
                Arguments.of("sqlite:" + sqlite, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT COUNT(*) FROM r"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("slowStatements")
    void aLongStatementIsStoppedAsStatementTimeout(String url, String sql) throws Exception {
        try (QueryExecutor ex = executor(url, new ExecutorSettings(300, 100, 4, 1_000, null))) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> ex.execute(new BoundQuery(sql, List.of()), 10));
            assertEquals(ErrorKind.STATEMENT_TIMEOUT, e.kind(), url + ": " + e.getMessage());
        }
    }

    static List<String> downSources() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        return List.of("postgresql://postgres@127.0.0.1:" + closedPort + "/x", "mariadb://root@127.0.0.1:" + closedPort + "/x",
                "sqlite:" + dir.resolve("missing.sqlite"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("downSources")
    void aSourceThatIsDownIsUnavailable(String url) throws Exception {
        try (QueryExecutor ex = executor(url, ExecutorSettings.defaults())) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> ex.execute(new BoundQuery("SELECT 1", List.of()), 1));
            assertEquals(ErrorKind.SOURCE_UNAVAILABLE, e.kind(), url + ": " + e.getMessage());
        }
    }

    @Test
    void aReadOnlyOpenOfAMissingSqliteFileCreatesNoFile() throws Exception {
        Path missing = dir.resolve("still-missing.sqlite");
        try (QueryExecutor ex = executor("sqlite:" + missing, ExecutorSettings.defaults())) {
            assertThrows(ExecutionException.class, () -> ex.execute(new BoundQuery("SELECT 1", List.of()), 1));
        }
        assertFalse(Files.exists(missing));
    }

    @Test
    void aSourceThatRefusesTheLoginIsUnavailableAndTheMessageKeepsThePasswordOut() throws Exception {
        String role = TestPostgres.passwordRole();
        try (QueryExecutor ex = executor("postgresql://" + role + ":wrong-secret@127.0.0.1:" + TestPostgres.port() + "/sb_exec",
                ExecutorSettings.defaults())) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> ex.execute(new BoundQuery("SELECT 1", List.of()), 1));
            assertEquals(ErrorKind.SOURCE_UNAVAILABLE, e.kind());
            assertFalse(e.getMessage().contains("wrong-secret"), e.getMessage());
        }
    }
}
