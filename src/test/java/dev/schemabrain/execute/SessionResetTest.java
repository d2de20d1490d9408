package dev.schemabrain.execute;

import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pooled sessions keep nothing of a call. Each test plants every kind of session state it can on the pooled session
 * itself (the way a hostile statement would, had one passed the guard: written directly on the lent connection, and
 * committed where that is possible), hands it back the way the executor does, and reads the state from the next call,
 * which runs on the same server session. A session that breaks while idle is replaced and the next call succeeds.
 */
class SessionResetTest {

    @TempDir
    static Path dir;
    static String maria;
    static Path sqlite;

    @BeforeAll
    static void databases() throws Exception {
        TestPostgres.createDatabase("sb_pool", "CREATE TABLE item (id int PRIMARY KEY)", "INSERT INTO item VALUES (1), (2)");
        maria = TestMariaDb.create("sb_pool", "CREATE TABLE item (id int PRIMARY KEY)", "INSERT INTO item VALUES (1), (2)");
        sqlite = dir.resolve("pool.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE item (id INTEGER PRIMARY KEY)");
            st.execute("INSERT INTO item VALUES (1), (2)");
        }
    }

    @AfterAll
    static void dropMaria() throws Exception {
        TestMariaDb.drop(maria);
    }

    /** One slot, so every call gets the one pooled session. */
    private static QueryExecutor single(String url) throws Exception {
        return new QueryExecutor(SourceUrl.parse(url), new ExecutorSettings(5_000, 100, 1, 2_000, null));
    }

    private static List<Object> row(QueryExecutor ex, String sql) throws ExecutionException {
        return ex.execute(new BoundQuery(sql, List.of()), 1).rows().get(0);
    }

    /** Runs {@code statements} on the session the pool would lend next, then gives it back as a call would. */
    private static void plant(QueryExecutor ex, boolean autoCommit, String... statements) throws SQLException {
        SessionPool.Lease lease = ex.pool().borrow();
        assertTrue(lease.reused(), "the pool lends the session the previous call used");
        Connection c = lease.connection();
        c.setAutoCommit(autoCommit);
        try (Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        } finally {
            ex.pool().giveBack(lease);
        }
    }

    private static final String PG_PROBE = "SELECT pg_backend_pid(), current_setting('transaction_read_only'),"
            + " current_setting('default_transaction_read_only'), current_setting('statement_timeout'), current_setting('search_path'),"
            + " current_setting('TimeZone'), current_setting('DateStyle'), NULLIF(current_setting('sb.planted', true), ''), current_user,"
            + " (SELECT COUNT(*) FROM pg_prepared_statements), (SELECT COUNT(*) FROM pg_cursors WHERE name LIKE 'planted%'),"
            + " (SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()),"
            + " (SELECT COUNT(*) FROM pg_listening_channels()),"
            + " (SELECT COUNT(*) FROM pg_class WHERE relnamespace = pg_my_temp_schema())";

    @Test
    void postgresSessionStateIsGoneOnTheNextCall() throws Exception {
        TestPostgres.connect("postgres").close();
        try (Connection admin = TestPostgres.connect("postgres"); Statement st = admin.createStatement()) {
            st.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'sb_pool_other') THEN"
                    + " CREATE ROLE sb_pool_other; END IF; END $$");
        }
        try (QueryExecutor ex = single(TestPostgres.url("sb_pool"))) {
            List<Object> fresh = row(ex, PG_PROBE);
            plant(ex, true,
                    "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
                    "SET statement_timeout = 0",
                    "CREATE TEMP TABLE planted_temp (x int)",
                    "PREPARE planted_plan AS SELECT 1",
                    "SET search_path = pg_catalog",
                    "SET TIME ZONE 'Pacific/Kiritimati'",
                    "SET DateStyle = 'ISO, DMY'",
                    "SELECT set_config('sb.planted', 'yes', false)",
                    "SELECT pg_advisory_lock(4242)",
                    "LISTEN planted_channel",
                    "BEGIN", "DECLARE planted_cursor CURSOR WITH HOLD FOR SELECT 1", "COMMIT",
                    "SET ROLE sb_pool_other");
            List<Object> next = row(ex, PG_PROBE);
            assertEquals(fresh, next, "the next call's session is as a new one: " + fresh + " vs " + next);
            assertEquals("on", next.get(1), "its transaction is read-only");
            assertEquals(1L, ex.pool().opened(), "and it is the same server session");

            // A transaction left open, read-write, with a write in it: the session is closed, never lent again.
            plant(ex, false, "SET TRANSACTION READ WRITE", "CREATE TABLE planted_table (x int)");
            plant(ex, true, "BEGIN READ WRITE", "CREATE TABLE planted_table2 (x int)");
            assertEquals(List.of(0L), row(ex, "SELECT COUNT(*) FROM pg_tables WHERE tablename LIKE 'planted%'"));
            assertEquals(fresh.subList(1, fresh.size()), row(ex, PG_PROBE).subList(1, fresh.size()));
        }
    }

    @Test
    void aSessionOpenedAheadIsTheOneTheFirstQueryUsesAndItIsReadOnly() throws Exception {
        try (QueryExecutor ex = single(TestPostgres.url("sb_pool"))) {
            ex.openIdleSession();
            assertEquals(1L, ex.pool().opened());
            assertEquals(1, ex.pool().idleCount(), "left idle in the pool");
            List<Object> first = row(ex, PG_PROBE);
            assertEquals(1L, ex.pool().opened(), "the first query opened no connection of its own");
            assertEquals("on", first.get(1), "its transaction is read-only");
        }
    }

    @Test
    void aPostgresSessionKilledWhileIdleIsReplacedAndTheNextCallSucceeds() throws Exception {
        try (QueryExecutor ex = single(TestPostgres.url("sb_pool"))) {
            Object pid = row(ex, "SELECT pg_backend_pid()").get(0);
            kill(pid);
            Thread.sleep(QueryExecutor.ALIVE_WITHOUT_CHECK_MS + 200);   // idle long enough to be pinged before use
            Object next = row(ex, "SELECT pg_backend_pid()").get(0);
            assertNotEquals(pid, next);
            assertEquals(2L, ex.pool().opened());
            assertEquals(next, row(ex, "SELECT pg_backend_pid()").get(0), "the replacement is pooled in turn");
        }
    }

    @Test
    void aPostgresSessionKilledJustAfterItsCallFailsTheNextCallClearlyAndIsNeverLentAgain() throws Exception {
        // Within the window a session is lent unpinged: the call it meets fails as a lost connection, not with rows.
        try (QueryExecutor ex = single(TestPostgres.url("sb_pool"))) {
            Object pid = row(ex, "SELECT pg_backend_pid()").get(0);
            kill(pid);
            ExecutionException e = assertThrows(ExecutionException.class, () -> row(ex, "SELECT pg_backend_pid()"));
            assertEquals(ErrorKind.SOURCE_UNAVAILABLE, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("retry"), e.getMessage());
            Object next = row(ex, "SELECT pg_backend_pid()").get(0);
            assertNotEquals(pid, next);
            assertEquals(2L, ex.pool().opened());
        }
    }

    @Test
    void aPostgresStatementCannotMakeItsOwnOrTheNextCallsTransactionReadWrite() throws Exception {
        try (Connection admin = TestPostgres.connect("sb_pool"); Statement st = admin.createStatement()) {
            st.execute("CREATE SEQUENCE IF NOT EXISTS sb_pool_seq");
        }
        try (QueryExecutor ex = single(TestPostgres.url("sb_pool"))) {
            Object pid = row(ex, "SELECT pg_backend_pid()").get(0);
            ExecutionException own = assertThrows(ExecutionException.class,
                    () -> row(ex, "SELECT set_config('transaction_read_only', 'off', true), nextval('sb_pool_seq')"));
            assertTrue(own.getMessage().toLowerCase(Locale.ROOT).contains("read"), own.getMessage());
            ExecutionException same = assertThrows(ExecutionException.class,
                    () -> row(ex, "SELECT set_config('default_transaction_read_only', 'off', false), nextval('sb_pool_seq')"));
            assertTrue(same.getMessage().toLowerCase(Locale.ROOT).contains("read-only"), same.getMessage());
            // Set for the session by one call, it is gone by the next (rolled back with its call, and reset besides).
            assertEquals(List.of("off"), row(ex, "SELECT set_config('default_transaction_read_only', 'off', false)"));
            ExecutionException next = assertThrows(ExecutionException.class, () -> row(ex, "SELECT nextval('sb_pool_seq')"));
            assertTrue(next.getMessage().toLowerCase(Locale.ROOT).contains("read-only"), next.getMessage());
            assertEquals(pid, row(ex, "SELECT pg_backend_pid()").get(0), "all on the one pooled session");
        }
        assertEquals(1L, TestPostgres.count("sb_pool", "SELECT last_value FROM sb_pool_seq"));
        assertEquals(0L, TestPostgres.count("sb_pool", "SELECT CASE WHEN is_called THEN 1 ELSE 0 END FROM sb_pool_seq"));
    }

    @Test
    void aPostgresCallsTransactionIsReadOnlyEvenWhereTheSessionsDefaultIsNot() throws Exception {
        // Behind a pooler that drops startup options or moves session settings between server sessions, the session's
        // default may be read-write: the transaction a call's statement runs in is READ ONLY all the same.
        try (Connection admin = TestPostgres.connect("sb_pool"); Statement st = admin.createStatement()) {
            st.execute("CREATE SEQUENCE IF NOT EXISTS sb_pool_seq2");
        }
        SourceUrl url = SourceUrl.parse(TestPostgres.url("sb_pool"));
        Engine engine = Engines.of(url.kind()).orElseThrow();
        try (Connection c = engine.connect(url, Purpose.query(5_000));
             Statement st = c.createStatement()) {
            st.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE");
            c.commit();
            try (var rs = st.executeQuery("SELECT current_setting('default_transaction_read_only'),"
                    + " current_setting('transaction_read_only')")) {
                rs.next();
                assertEquals("off", rs.getString(1), "the session's default is read-write");
                assertEquals("on", rs.getString(2), "the call's transaction is not");
            }
            c.rollback();
            SQLException write = assertThrows(SQLException.class, () -> st.executeQuery("SELECT nextval('sb_pool_seq2')"));
            assertEquals("25006", write.getSQLState(), write.getMessage());   // read_only_sql_transaction
            c.rollback();
        }
        assertEquals(0L, TestPostgres.count("sb_pool", "SELECT CASE WHEN is_called THEN 1 ELSE 0 END FROM sb_pool_seq2"));
    }

    private static void kill(Object pid) throws SQLException {
        try (Connection admin = TestPostgres.connect("postgres"); Statement st = admin.createStatement()) {
            st.execute("SELECT pg_terminate_backend(" + pid + ")");
        }
    }

    @Test
    void aPostgresSessionWhoseStatementTimedOutIsNotReused() throws Exception {
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(TestPostgres.url("sb_pool")),
                new ExecutorSettings(200, 100, 1, 2_000, null))) {
            Object pid = row(ex, "SELECT pg_backend_pid()").get(0);
            ExecutionException e = assertThrows(ExecutionException.class, () -> row(ex, "SELECT pg_sleep(2)"));
            assertEquals(ErrorKind.STATEMENT_TIMEOUT, e.kind());
            assertNotEquals(pid, row(ex, "SELECT pg_backend_pid()").get(0));
            // A plain SQL error keeps the session.
            Object kept = row(ex, "SELECT pg_backend_pid()").get(0);
            assertThrows(ExecutionException.class, () -> row(ex, "SELECT * FROM no_such_table"));
            assertEquals(kept, row(ex, "SELECT pg_backend_pid()").get(0));
        }
    }

    @Test
    void thePoolNeverOpensMoreSessionsThanMaxConcurrentAndClosesIdleOnes() throws Exception {
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(TestPostgres.url("sb_pool")),
                new ExecutorSettings(5_000, 100, 3, 60_000, null), 200)) {
            ExecutorService callers = Executors.newFixedThreadPool(12);
            List<Future<List<Object>>> answers = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                answers.add(callers.submit(() -> row(ex, "SELECT pg_backend_pid(), pg_sleep(0.005)")));
            }
            Set<Object> backends = new HashSet<>();
            for (var answer : answers) {
                backends.add(answer.get().get(0));
            }
            callers.shutdown();
            assertTrue(ex.pool().opened() <= 3, "opened " + ex.pool().opened());
            assertEquals(ex.pool().opened(), backends.size());
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (ex.pool().idleCount() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(0, ex.pool().idleCount(), "sessions unused for longer than the idle limit are closed");
            long left;
            do {
                Thread.sleep(50);   // a backend exits a moment after its client closed the connection
                left = TestPostgres.count("postgres", "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = 'sb_pool'"
                        + " AND application_name = 'schemabrain'");
            } while (left > 0 && System.nanoTime() < deadline);
            assertEquals(0, left, "and their backends are gone");
        }
    }

    @Test
    void callsInARowShareOneSessionThoughEachIsResetAfterItsAnswer() throws Exception {
        // With room for three, a call arriving while the last one's session is still being reset waits for it
        // instead of opening a second connection, and it finds that session reset.
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(TestPostgres.url("sb_pool")),
                new ExecutorSettings(5_000, 100, 3, 2_000, null))) {
            String probe = "SELECT pg_backend_pid(), current_setting('application_name')";
            List<Object> fresh = row(ex, probe);
            for (int i = 0; i < 50; i++) {
                plant(ex, true, "SET application_name = 'planted'");
                assertEquals(fresh, row(ex, probe));
            }
            assertEquals(1L, ex.pool().opened());
        }
    }

    @Test
    void anInProcessEnginesConnectionIsClosedBeforeTheCallAnswers() throws Exception {
        // DuckDB keeps no session between calls; its file must be free when the answer is back, or the caller's own
        // connection with another configuration is refused. Repeated: a close after the answer loses this race often.
        Path duck = dir.resolve("closed.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + duck); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t AS SELECT 1 AS x");
        }
        try (QueryExecutor ex = single("duckdb:" + duck)) {
            for (int i = 0; i < 20; i++) {
                assertEquals(List.of(1L), row(ex, "SELECT x FROM t"));
                try (Connection mine = DriverManager.getConnection("jdbc:duckdb:" + duck)) {
                    assertTrue(mine.isValid(1));
                }
            }
        }
    }

    private static final String MARIA_PROBE = "SELECT CONNECTION_ID(), @@session.tx_read_only, @@session.max_statement_time,"
            + " @@session.time_zone, @@session.sql_mode, @@session.autocommit, @planted, DATABASE(), IS_USED_LOCK('sb_pool_planted_lock'),"
            + " @@session.character_set_client, @@session.collation_connection";

    @Test
    void mariaDbSessionStateIsGoneOnTheNextCall() throws Exception {
        try (QueryExecutor ex = single(TestMariaDb.url(maria))) {
            List<Object> fresh = row(ex, MARIA_PROBE);
            plant(ex, true,
                    "SET SESSION TRANSACTION READ WRITE",
                    "SET SESSION max_statement_time = 0",
                    "CREATE TEMPORARY TABLE planted_temp (x int)",
                    "PREPARE planted_stmt FROM 'SELECT 1'",
                    "SET @planted = 'yes'",
                    "SET SESSION time_zone = '+13:00'",
                    "SET SESSION sql_mode = 'ANSI_QUOTES'",
                    "SET NAMES utf8mb3 COLLATE utf8mb3_bin",
                    "SELECT GET_LOCK('sb_pool_planted_lock', 0)",
                    "USE mysql",
                    "START TRANSACTION");
            List<Object> next = row(ex, MARIA_PROBE);
            assertEquals(fresh, next, "the next call's session is as a new one: " + fresh + " vs " + next);
            assertEquals(1L, ex.pool().opened(), "and it is the same server session");
            ExecutionException temp = assertThrows(ExecutionException.class, () -> row(ex, "SELECT COUNT(*) FROM planted_temp"));
            // The table is gone with its session; the source's own words are withheld, the kind says it.
            assertEquals(ErrorKind.SCHEMA_DRIFT, temp.kind(), temp.getMessage());
            plant(ex, true);
            SessionPool.Lease lease = ex.pool().borrow();
            try (Statement st = lease.connection().createStatement()) {
                SQLException gone = assertThrows(SQLException.class, () -> st.execute("EXECUTE planted_stmt"));
                assertTrue(gone.getMessage().contains("planted_stmt"), gone.getMessage());
            } finally {
                ex.pool().giveBack(lease);
            }
        }
    }

    @Test
    void aMariaDbSessionKilledWhileIdleIsReplacedAndTheNextCallSucceeds() throws Exception {
        try (QueryExecutor ex = single(TestMariaDb.url(maria))) {
            Object id = row(ex, "SELECT CONNECTION_ID()").get(0);
            try (Connection admin = TestMariaDb.connect(maria); Statement st = admin.createStatement()) {
                st.execute("KILL " + id);
            }
            Object next = row(ex, "SELECT CONNECTION_ID()").get(0);
            assertNotEquals(id, next);
            assertEquals(next, row(ex, "SELECT CONNECTION_ID()").get(0), "the replacement is pooled in turn");
        }
    }

    @Test
    void sqliteSessionStateIsGoneOnTheNextCall() throws Exception {
        String probe = "SELECT (SELECT COUNT(*) FROM temp.sqlite_master), (SELECT COUNT(*) FROM pragma_database_list)";
        try (QueryExecutor ex = single("sqlite:" + sqlite)) {
            List<Object> fresh = row(ex, probe);
            // Temporary objects and attachments: the session is closed rather than reused.
            plant(ex, true, "CREATE TEMP TABLE planted_temp (x int)");
            assertEquals(fresh, row(ex, probe));
            assertEquals(2L, ex.pool().opened());
            plant(ex, true, "ATTACH DATABASE ':memory:' AS planted");
            assertEquals(fresh, row(ex, probe));
            assertEquals(3L, ex.pool().opened());
            // A transaction begun as text is rolled back; the session is kept.
            plant(ex, true, "BEGIN");
            assertEquals(fresh, row(ex, probe));
            SessionPool.Lease lease = ex.pool().borrow();
            try (Statement st = lease.connection().createStatement()) {
                SQLException none = assertThrows(SQLException.class, () -> st.execute("COMMIT"), "no transaction is open");
                assertTrue(none.getMessage().contains("no transaction"), none.getMessage());
            } finally {
                ex.pool().giveBack(lease);
            }
            assertEquals(3L, ex.pool().opened());
        }
    }
}
