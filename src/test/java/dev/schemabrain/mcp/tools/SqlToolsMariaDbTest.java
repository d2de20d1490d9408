package dev.schemabrain.mcp.tools;

import dev.schemabrain.engine.Purpose;
import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.testing.ChinookOnMariaDb;
import dev.schemabrain.testing.TestMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * validate_query and execute on MariaDB (Chinook's five tables copied from PostgreSQL, customer with its email),
 * read with MySQL's dialect: MySQL's incident classes (executable comments, INTO OUTFILE and DUMPFILE, LOAD_FILE,
 * SLEEP, BENCHMARK, GET_LOCK, locking clauses, a second statement, DML, the system schemas, SET, HANDLER) and PII
 * laundering are each refused with their reason, and MariaDB's general log shows that none of them reached the
 * server and that what did run was only the rewritten SELECT the tool reported (with its EXPLAIN and the count of
 * withheld groups); an analyst's aggregate equals hand-written SQL.
 */
class SqlToolsMariaDbTest {

    @TempDir
    static Path dir;
    static String maria;
    static SourceUrl url;
    static Path store;
    static QueryExecutor executor;
    static ToolRegistry tools;
    static final List<String> LEFT = new ArrayList<>();

    @BeforeAll
    static void serve() throws Exception {
        maria = ChinookOnMariaDb.create();
        try (Connection c = TestMariaDb.connect(maria); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE customer ADD COLUMN email VARCHAR(60)");
        }
        ChinookOnMariaDb.copy(maria, "SELECT email, customer_id FROM customer",
                "UPDATE customer SET email = ? WHERE customer_id = ?", 2);
        url = SourceUrl.parse(TestMariaDb.url(maria));
        store = dir.resolve("maria.db");
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        tools = SqlAnswers.servedAndAudited(url, store, executor, LEFT);
    }

    @AfterAll
    static void close() throws Exception {
        executor.close();
        TestMariaDb.drop(maria);
    }

    static JsonNode call(String tool, String sql) {
        return tools.call(tool, Map.of("sql", sql), "test", Access.UNRESTRICTED).toTree();
    }

    /** MySQL's and MariaDB's incident classes, each with the guard's reason (the message ends with it). */
    static final Map<String, String> ATTACKS = new LinkedHashMap<>();

    static {
        Map<String, String> m = ATTACKS;
        m.put("SELECT 1 /*! ; DROP TABLE invoice */", "executable_comment");
        m.put("SELECT country /*!50000 , email */ FROM customer", "executable_comment");
        m.put("SELECT /*M! SLEEP(5), */ 1", "executable_comment");
        m.put("SELECT /*+ SET_VAR(max_statement_time=0) */ count(*) FROM invoice", "executable_comment");
        m.put("SELECT 1 # comment", "executable_comment");
        m.put("SELECT 1 --1", "executable_comment");
        m.put("SELECT * FROM invoice INTO OUTFILE '/tmp/x'", "into_outfile");
        m.put("SELECT total INTO DUMPFILE '/tmp/x' FROM invoice LIMIT 1", "into_outfile");
        m.put("SELECT total FROM invoice LIMIT 1 INTO OUTFILE '/tmp/x'", "into_outfile");
        m.put("SELECT total INTO @x FROM invoice LIMIT 1", "syntax_error");
        m.put("SELECT LOAD_FILE('/etc/passwd')", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice WHERE LOAD_FILE('/etc/passwd') IS NOT NULL", "function_not_allowed");
        m.put("SELECT SLEEP(5)", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice WHERE SLEEP(1) = 0", "function_not_allowed");
        m.put("SELECT BENCHMARK(100000000, MD5('x'))", "function_not_allowed");
        m.put("SELECT GET_LOCK('x', 10)", "function_not_allowed");
        m.put("SELECT RELEASE_LOCK('x')", "function_not_allowed");
        m.put("SELECT IS_FREE_LOCK('x')", "function_not_allowed");
        m.put("SELECT * FROM invoice FOR UPDATE", "locking_clause");
        m.put("SELECT * FROM invoice FOR UPDATE NOWAIT", "locking_clause");
        m.put("SELECT * FROM invoice LOCK IN SHARE MODE", "locking_clause");
        m.put("SELECT 1; DROP TABLE invoice", "not_a_single_select");
        m.put("SELECT 1; SELECT SLEEP(5)", "not_a_single_select");
        m.put("SELECT 1;/**/DELETE FROM invoice", "not_a_single_select");
        m.put("WITH d AS (DELETE FROM invoice) SELECT 1", "dml_in_statement");
        m.put("WITH d AS (SELECT 1) DELETE FROM invoice", "dml_in_statement");
        m.put("DELETE FROM invoice", "dml_in_statement");
        m.put("UPDATE invoice SET total = 0", "dml_in_statement");
        m.put("REPLACE INTO genre VALUES (1, 'x')", "dml_in_statement");
        m.put("INSERT INTO genre SELECT * FROM genre", "dml_in_statement");
        m.put("SELECT * FROM information_schema.processlist", "system_catalog");
        m.put("SELECT table_name FROM information_schema.tables", "system_catalog");
        m.put("SELECT * FROM mysql.user", "system_catalog");
        m.put("SELECT * FROM `mysql`.`general_log`", "system_catalog");
        m.put("SELECT * FROM performance_schema.threads", "system_catalog");
        m.put("SELECT * FROM sys.processlist", "system_catalog");
        m.put("SET sql_mode = ''", "not_a_single_select");
        m.put("SET @x = 1", "not_a_single_select");
        m.put("SET GLOBAL general_log = OFF", "not_a_single_select");
        m.put("SET STATEMENT max_statement_time=0 FOR SELECT count(*) FROM invoice", "not_a_single_select");
        m.put("HANDLER invoice OPEN", "not_a_single_select");
        m.put("HANDLER invoice READ FIRST", "not_a_single_select");
        m.put("SHOW GRANTS", "not_a_single_select");
        m.put("DO SLEEP(5)", "not_a_single_select");
        m.put("CALL p()", "not_a_single_select");
        m.put("LOAD DATA INFILE '/etc/passwd' INTO TABLE genre", "not_a_single_select");
        m.put("SELECT @@version", "function_not_allowed");
        m.put("SELECT @@global.secure_file_priv", "function_not_allowed");
        m.put("SELECT user()", "function_not_allowed");
        m.put("SELECT database()", "function_not_allowed");
        m.put("SELECT connection_id()", "function_not_allowed");
        m.put("SELECT * FROM invoice PROCEDURE ANALYSE()", "function_not_allowed");
        m.put("SELECT name FROM genre PROCEDURE ANALYSE()", "function_not_allowed");
        m.put("SELECT * FROM seq_1_to_10", "unknown_name");
        m.put("SELECT count(*) FROM invoice FOR SYSTEM_TIME AS OF (SELECT SLEEP(5))", "unsupported_construct");
        m.put("SELECT count(*) FROM invoice FOR SYSTEM_TIME AS OF TIMESTAMP '2020-01-01'", "unsupported_construct");
        m.put("SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS (x INT PATH '$')) t", "function_not_allowed");
        m.put("SELECT CAST(total AS BINARY) FROM invoice", "function_not_allowed");
        // The parser reads CONVERT's type as a column: refused, if not for the best reason.
        m.put("SELECT CONVERT(total, BINARY) FROM invoice", "unknown_name");
        m.put("SELECT CONVERT(email, CHAR) FROM customer", "unknown_name");
    }

    /** Personal values laundered through names, expressions and query structure: pii_blocked on the wire. */
    static final List<String> LAUNDERING = List.of(
            "SELECT email FROM customer",
            "SELECT email AS remark FROM customer",
            "SELECT c.email AS remark FROM invoice i JOIN customer c ON c.customer_id = i.customer_id",
            "SELECT first_name AS remark FROM customer",
            "SELECT CONCAT(first_name, ' ', last_name) FROM customer",
            "SELECT CASE WHEN email LIKE 'a%' THEN 1 ELSE 0 END FROM customer",
            "SELECT sum(CASE WHEN email LIKE 'a%' THEN 1 ELSE 0 END) FROM customer",
            "SELECT IF(email LIKE 'a%', 1, 0) AS remark FROM customer",
            "SELECT count(*) FROM customer WHERE email LIKE 'a%'",
            "SELECT GROUP_CONCAT(email) FROM customer",
            "SELECT GROUP_CONCAT(DISTINCT last_name ORDER BY last_name SEPARATOR ';') FROM customer",
            "SELECT country, GROUP_CONCAT(email) FROM customer GROUP BY country",
            "SELECT CAST(email AS CHAR(60)) AS remark FROM customer",
            "SELECT CONVERT(email USING utf8mb4) FROM customer",
            "SELECT HEX(email) FROM customer",
            "SELECT JSON_OBJECT('e', email) FROM customer",
            "SELECT x FROM (SELECT email AS x FROM customer) s",
            "WITH c AS (SELECT email AS p FROM customer) SELECT p FROM c",
            "SELECT max(email) FROM customer",
            "SELECT name FROM genre UNION SELECT email FROM customer",
            "SELECT customer_id, country FROM customer");

    @Test
    void mysqlsIncidentClassesAndLaunderingAreRefusedBeforeAnySqlLeaves() {
        LEFT.clear();
        SqlAnswers.refusedWithReasons(tools, ATTACKS, LAUNDERING);
        assertEquals(List.of(), LEFT, "no statement left for the database");
    }

    @Test
    void anAnalystsAggregateEqualsHandWrittenSql() throws Exception {
        JsonNode answer = SqlAnswers.analystsAggregatesEqualHandWrittenSql(tools, SqlToolsMariaDbTest::maria);
        assertTrue(answer.path("data").path("sql").asText().contains("`customer_id`"), "MySQL quoting in the rewrite");
    }

    static List<List<String>> maria(String sql) throws Exception {
        try (Connection c = TestMariaDb.connect(maria); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return SqlAnswers.rows(rs);
        }
    }

    /** One line of MariaDB's general log. */
    record Logged(long thread, String command, String argument) {
    }

    /**
     * MariaDB's general log as the witness: a fresh executor (so its connections are logged from their Connect line
     * on) runs every refused statement through both tools, then three allowed ones; the log, read for the threads that
     * connected to this test's own database only (other tests may share the server), holds no refused text, and
     * every statement the server parsed is the session's setup, or the rewritten SELECT a tool reported (with its
     * EXPLAIN and, for a suppressed answer, the count of withheld groups).
     */
    @Test
    void theGeneralLogShowsNothingRefusedReachedMariaDbAndOnlyTheRewrittenSelectRan() throws Exception {
        List<String> refused = new ArrayList<>(ATTACKS.keySet());
        refused.addAll(LAUNDERING);
        List<String> reported = new ArrayList<>();
        List<Logged> log;
        try (Connection admin = TestMariaDb.connect(maria); Statement st = admin.createStatement()) {
            String generalLog = scalar(st, "SELECT @@GLOBAL.general_log");
            String logOutput = scalar(st, "SELECT @@GLOBAL.log_output");
            Timestamp since = Timestamp.valueOf(scalar(st, "SELECT NOW(6) - INTERVAL 1 SECOND"));
            st.execute("SET GLOBAL log_output = 'TABLE'");
            st.execute("SET GLOBAL general_log = 'ON'");
            try (QueryExecutor fresh = new QueryExecutor(url, ExecutorSettings.defaults())) {
                ToolRegistry witnessed = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(fresh));
                SqlAnswers.refusedByBoth(witnessed, refused);
                for (String sql : List.of(
                        "SELECT c.country, count(*) AS invoices, sum(i.total) AS revenue FROM invoice i JOIN customer c"
                                + " ON c.customer_id = i.customer_id GROUP BY c.country ORDER BY c.country",
                        "SELECT g.name, count(*) AS tracks FROM track t JOIN genre g ON g.genre_id = t.genre_id"
                                + " GROUP BY g.name ORDER BY tracks DESC")) {
                    JsonNode e = witnessed.call("execute", Map.of("sql", sql), "test", Access.UNRESTRICTED).toTree();
                    assertTrue(List.of("success", "degraded").contains(e.path("status").asText()), e::toString);
                    reported.add(e.path("data").path("sql").asText());
                }
                JsonNode v = witnessed.call("validate_query", Map.of("sql", "SELECT billing_country, sum(total) FROM invoice"
                        + " GROUP BY billing_country"), "test", Access.UNRESTRICTED).toTree();
                assertEquals("success", v.path("status").asText(), v::toString);
                reported.add(v.path("data").path("sql").asText());
            } finally {
                st.execute("SET GLOBAL general_log = " + ("1".equals(generalLog) ? "'ON'" : "'OFF'"));
                st.execute("SET GLOBAL log_output = '" + logOutput + "'");
            }
            log = ownLog(admin, since);
        }
        List<String> parsed = new ArrayList<>();
        Map<Long, Boolean> readOnly = new HashMap<>();
        for (Logged l : log) {
            if (!List.of("Query", "Prepare", "Execute").contains(l.command())) {
                continue;   // Connect, Quit, Close stmt
            }
            // Every statement of ours runs in a session limited to reading: a reset's READ WRITE is undone before it.
            String text = l.argument().strip();
            if (text.equalsIgnoreCase("SET SESSION TRANSACTION READ WRITE")) {
                readOnly.put(l.thread(), false);
            } else if (text.equalsIgnoreCase("SET SESSION TRANSACTION READ ONLY")) {
                readOnly.put(l.thread(), true);
            } else if (text.contains(MARKER)) {
                assertTrue(readOnly.getOrDefault(l.thread(), false), () -> "a statement ran in a session not read-only: " + l);
            }
            for (String sql : refused) {
                assertFalse(l.argument().contains(sql), () -> "refused text reached MariaDB: " + l);
            }
            // The driver applies the row cap as a statement prefix; the executor marks its own statements.
            String q = l.argument().strip().replaceFirst("^SET STATEMENT SQL_SELECT_LIMIT=\\d+ FOR ", "");
            if (!q.startsWith(MARKER)) {
                assertTrue(SETUP.matcher(q).matches(), () -> "unexpected statement reached MariaDB: " + l);
                continue;
            }
            String ran = q.substring(MARKER.length());
            parsed.add(ran);
            // The count of withheld groups reads the same FROM, WHERE and GROUP BY as the first reported statement.
            String grouped = reported.get(0).substring(0, reported.get(0).indexOf(" HAVING "));
            boolean ok = reported.contains(ran) || reported.contains(ran.replaceFirst("^EXPLAIN FORMAT=JSON ", ""))
                    || ran.startsWith("SELECT count(*) FROM (" + grouped + " HAVING ") && ran.endsWith(") sb_suppressed");
            assertTrue(ok, () -> "MariaDB ran something other than a reported SELECT: " + l + "\nreported: " + reported);
            assertFalse(ran.toLowerCase(Locale.ROOT).contains("email"), ran);
        }
        // Positive control: the log was on and read from the right threads; each reported statement ran as reported.
        assertTrue(parsed.contains(reported.get(0)), () -> parsed.toString());
        assertTrue(parsed.contains(reported.get(1)), () -> parsed.toString());
        assertTrue(parsed.contains("EXPLAIN FORMAT=JSON " + reported.get(2)), () -> parsed.toString());
        assertFalse(parsed.contains(reported.get(2)), "validate_query runs nothing but the EXPLAIN");
        assertTrue(parsed.stream().anyMatch(p -> p.endsWith(") sb_suppressed")), "the withheld groups were counted");
        assertEquals("412", maria("SELECT count(*) FROM invoice").get(0).get(0), "invoice is intact");
    }

    private static final String MARKER = Purpose.STATEMENT_MARKER;

    /** What the driver and the read-only session send around each statement. */
    private static final Pattern SETUP = Pattern.compile("(?is)set sql_mode=CONCAT\\(.*"
            + "|SET SESSION TRANSACTION READ ONLY|SET SESSION max_statement_time = [0-9.]+|set autocommit=[01]"
            + "|START TRANSACTION READ ONLY|ROLLBACK|COMMIT"
            // A pooled session's reset: the driver's own state back (read-write, then limited again before any use).
            + "|SET SESSION TRANSACTION READ WRITE|SET SESSION sql_mode = CONCAT\\(@@global\\.sql_mode, .*|USE `[^`]+`"
            // The guard's lexical rules pinned on every query session.
            + "|SET SESSION sql_mode = CONCAT\\(@@session\\.sql_mode, ',NO_BACKSLASH_ESCAPES,ANSI_QUOTES'\\)");

    private static String scalar(Statement st, String sql) throws Exception {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The general log's lines since {@code since} of the threads that connected to this test's database. */
    private static List<Logged> ownLog(Connection admin, Timestamp since) throws Exception {
        List<Logged> lines = new ArrayList<>();
        try (PreparedStatement st = admin.prepareStatement("SELECT g.thread_id, g.command_type,"
                + " CONVERT(g.argument USING utf8mb4) FROM mysql.general_log g WHERE g.event_time >= ?"
                + " AND g.thread_id <> CONNECTION_ID() AND g.thread_id IN (SELECT c.thread_id FROM mysql.general_log c"
                + " WHERE c.event_time >= ? AND c.command_type = 'Connect' AND CONVERT(c.argument USING utf8mb4) LIKE ?)"
                + " ORDER BY g.event_time")) {
            st.setTimestamp(1, since);
            st.setTimestamp(2, since);
            st.setString(3, "% on " + maria + " %");
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    lines.add(new Logged(rs.getLong(1), rs.getString(2), rs.getString(3)));
                }
            }
        }
        return lines;
    }
}
