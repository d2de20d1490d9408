package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.testing.ChinookOnMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * validate_query and execute on a real DuckDB file (Chinook's five tables, plus an email column), read with DuckDB's
 * dialect: its file readers (read_csv, read_parquet, glob, read_text, a quoted path in FROM), table functions in
 * general, its system functions, settings, COPY, ATTACH, INSTALL, LOAD and PRAGMA, and PII laundering are refused
 * before any SQL leaves (the audit's before-SQL hook never fires, no file is written, the database file's bytes do
 * not change), and an analyst's aggregate equals DuckDB's own answer to hand-written SQL.
 */
class SqlToolsDuckDbTest {

    @TempDir
    static Path dir;
    static Path file;
    static Path canary;
    static QueryExecutor executor;
    static ToolRegistry tools;
    static final List<String> LEFT = new ArrayList<>();

    @BeforeAll
    static void serve() throws Exception {
        file = dir.resolve("chinook.duckdb");
        ChinookOnMariaDb.createDuckDb(file);
        canary = dir.resolve("canary.csv");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE customer ADD COLUMN email VARCHAR");
            st.execute("UPDATE customer SET email = lower(first_name) || '.' || lower(last_name) || '@example.com'");
            // A file the readers could reach if a call got through: the test shows the attack is real, not a typo.
            st.execute("COPY (SELECT 'secret' AS s) TO '" + canary + "' (HEADER false)");
        }
        SourceUrl url = SourceUrl.parse("duckdb:" + file);
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        tools = SqlAnswers.servedAndAudited(url, dir.resolve("duck.db"), executor, LEFT);
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    static JsonNode call(String tool, String sql) {
        return tools.call(tool, Map.of("sql", sql), "test", Access.UNRESTRICTED).toTree();
    }

    /** DuckDB's incident classes, each with the guard's reason (or the wire kind for PII). */
    static Map<String, String> attacks() {
        String path = canary.toString();
        Map<String, String> m = new LinkedHashMap<>();
        // file readers and table functions
        m.put("SELECT * FROM read_csv('" + path + "')", "function_not_allowed");
        m.put("SELECT * FROM read_csv_auto('" + path + "')", "function_not_allowed");
        m.put("SELECT * FROM read_csv(['" + path + "'])", "function_not_allowed");
        m.put("SELECT * FROM read_parquet('" + dir.resolve("x.parquet") + "')", "function_not_allowed");
        m.put("SELECT * FROM read_json('" + dir.resolve("x.json") + "')", "function_not_allowed");
        m.put("SELECT * FROM read_json_auto('" + dir.resolve("x.json") + "')", "function_not_allowed");
        m.put("SELECT * FROM glob('" + dir + "/*')", "function_not_allowed");
        m.put("SELECT content FROM read_text('" + path + "')", "function_not_allowed");
        m.put("SELECT content FROM read_blob('" + path + "')", "function_not_allowed");
        m.put("SELECT * FROM '" + path + "'", "function_not_allowed");
        m.put("SELECT * FROM \"" + path + "\"", "unknown_name");
        m.put("SELECT count(*) FROM invoice i JOIN read_csv('" + path + "') p ON true", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice i, LATERAL (SELECT * FROM read_text('" + path + "')) t", "function_not_allowed");
        m.put("SELECT (SELECT count(*) FROM glob('/*'))", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice WHERE invoice_id IN (SELECT 1 FROM read_csv('" + path + "'))", "function_not_allowed");
        m.put("WITH f AS (SELECT * FROM read_text('" + path + "')) SELECT count(*) FROM f", "function_not_allowed");
        m.put("SELECT * FROM range(10)", "function_not_allowed");
        m.put("SELECT * FROM generate_series(1, 10)", "function_not_allowed");
        m.put("SELECT * FROM query('SELECT email FROM customer')", "function_not_allowed");
        m.put("SELECT * FROM query_table('customer')", "function_not_allowed");
        m.put("SELECT * FROM unnest([1, 2])", "function_not_allowed");
        // system functions and settings
        m.put("SELECT * FROM duckdb_settings()", "function_not_allowed");
        m.put("SELECT * FROM duckdb_tables()", "function_not_allowed");
        m.put("SELECT * FROM duckdb_secrets()", "function_not_allowed");
        m.put("SELECT * FROM duckdb_extensions()", "function_not_allowed");
        m.put("SELECT * FROM pragma_database_list()", "function_not_allowed");
        m.put("SELECT * FROM pragma_table_info('customer')", "function_not_allowed");
        m.put("SELECT * FROM duckdb_tables", "system_catalog");
        m.put("SELECT * FROM information_schema.tables", "system_catalog");
        m.put("SELECT * FROM sqlite_master", "system_catalog");
        m.put("SELECT * FROM system.main.duckdb_settings", "unsupported_construct");
        m.put("SELECT * FROM main.duckdb_settings", "system_catalog");
        m.put("SELECT getenv('HOME')", "function_not_allowed");
        m.put("SELECT current_setting('threads')", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice WHERE getenv('HOME') IS NOT NULL", "function_not_allowed");
        m.put("SELECT version()", "function_not_allowed");
        m.put("SELECT current_database()", "function_not_allowed");
        m.put("SELECT list_transform([1], x -> getenv('HOME'))", "function_not_allowed");
        m.put("SELECT COLUMNS('e.*') FROM customer", "function_not_allowed");
        // statements other than SELECT
        m.put("COPY invoice TO '" + dir.resolve("leak.csv") + "'", "dml_in_statement");
        m.put("COPY (SELECT * FROM invoice) TO '" + dir.resolve("leak.csv") + "'", "dml_in_statement");
        m.put("COPY invoice FROM '" + path + "'", "dml_in_statement");
        m.put("ATTACH '" + dir.resolve("other.duckdb") + "' AS o", "not_a_single_select");
        m.put("DETACH o", "not_a_single_select");
        m.put("INSTALL httpfs", "not_a_single_select");
        m.put("LOAD httpfs", "not_a_single_select");
        m.put("PRAGMA database_list", "not_a_single_select");
        m.put("PRAGMA enable_profiling", "not_a_single_select");
        m.put("SET threads = 1", "not_a_single_select");
        m.put("SET enable_external_access = true", "not_a_single_select");
        m.put("RESET threads", "not_a_single_select");
        m.put("CALL pragma_version()", "not_a_single_select");
        m.put("EXPORT DATABASE '" + dir.resolve("export") + "'", "not_a_single_select");
        m.put("SUMMARIZE customer", "not_a_single_select");
        m.put("DESCRIBE customer", "not_a_single_select");
        m.put("FROM customer SELECT email", "not_a_single_select");
        m.put("CREATE SECRET s (TYPE s3, KEY_ID 'x', SECRET 'y')", "not_a_single_select");
        m.put("SELECT 1; COPY invoice TO '" + dir.resolve("leak.csv") + "'", "not_a_single_select");
        m.put("WITH d AS (DELETE FROM invoice RETURNING *) SELECT count(*) FROM d", "dml_in_statement");
        m.put("SELECT 1 /* a /* nested */ , 2 */", "executable_comment");
        // other spellings of a table function, and DuckDB syntax the parser does not take
        m.put("SELECT * FROM TABLE(read_csv('" + path + "'))", "function_not_allowed");
        m.put("SELECT * FROM LATERAL read_csv('" + path + "')", "function_not_allowed");
        m.put("SELECT * FROM (read_text('" + path + "'))", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice i JOIN LATERAL glob('/*') g ON true", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice i NATURAL JOIN read_text('" + path + "')", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice i ASOF JOIN read_text('" + path + "') t ON true", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice UNION ALL SELECT count(*) FROM read_text('" + path + "')", "function_not_allowed");
        m.put("SELECT count(*) FROM invoice i POSITIONAL JOIN read_text('" + path + "')", "syntax_error");
        m.put("SELECT email.lower() FROM customer", "function_not_allowed");
        m.put("SELECT 'HOME'.getenv()", "syntax_error");
        m.put("SELECT struct_pack(a := email) FROM customer", "function_not_allowed");
        m.put("SELECT * FROM customer PIVOT (max(email) FOR country IN ('USA'))", "unsupported_construct");
        m.put("SELECT * FROM invoice UNPIVOT (v FOR k IN (total))", "unsupported_construct");
        return m;
    }

    /** Personal values laundered through names, expressions and query structure: pii_blocked on the wire. */
    static final List<String> LAUNDERING = List.of(
            "SELECT email FROM customer",
            "SELECT email AS remark FROM customer",
            "SELECT c.email AS note FROM invoice i JOIN customer c ON c.customer_id = i.customer_id",
            "SELECT lower(email) AS remark FROM customer",
            "SELECT CAST(email AS VARCHAR) FROM customer",
            "SELECT email::TEXT AS remark FROM customer",
            "SELECT CASE WHEN email LIKE 'a%' THEN 1 ELSE 0 END FROM customer",
            "SELECT sum(CASE WHEN email LIKE 'a%' THEN 1 ELSE 0 END) FROM customer",
            "SELECT string_agg(email, ',') FROM customer",
            "SELECT list(email) FROM customer",
            "SELECT first(email) FROM customer",
            "SELECT arg_max(email, customer_id) FROM customer",
            "SELECT x FROM (SELECT email AS x FROM customer) s",
            "WITH c AS (SELECT email AS p FROM customer) SELECT p FROM c",
            "SELECT [email] AS remark FROM customer",
            "SELECT {'a': email} AS remark FROM customer",
            "SELECT country, count(*) FROM customer GROUP BY country HAVING max(email) > 'm'",
            "SELECT name FROM genre UNION SELECT email FROM customer",
            "SELECT first_name || ' ' || last_name AS remark FROM customer");

    @Test
    void duckdbsIncidentClassesAndLaunderingAreRefusedBeforeAnySqlLeaves() throws Exception {
        String before = sha256(file);
        LEFT.clear();
        Map<String, String> attacks = attacks();
        SqlAnswers.refusedWithReasons(tools, attacks, LAUNDERING);
        assertEquals(List.of(), LEFT, "no statement left for the database");
        assertFalse(Files.exists(dir.resolve("leak.csv")), "COPY wrote nothing");
        assertFalse(Files.exists(dir.resolve("export")), "EXPORT wrote nothing");
        assertEquals(before, sha256(file), "not one byte of the DuckDB file changed");
        // The readers are real: DuckDB itself reads the canary through them.
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT content FROM read_text('" + canary + "')")) {
            assertTrue(rs.next() && rs.getString(1).contains("secret"));
        }
    }

    /** Were the guard ever to let one through: the executor's own DuckDB connection reads no file and loads nothing. */
    @Test
    void behindTheGuardDuckDbItselfReadsNoFileAndLoadsNothing() {
        for (String sql : List.of("SELECT content FROM read_text('" + canary + "')",
                "SELECT count(*) FROM read_csv('" + canary + "')",
                "SELECT count(*) FROM glob('" + dir + "/*')",
                "SELECT count(*) FROM '" + canary + "'",
                "ATTACH '" + dir.resolve("other.duckdb") + "' AS o",
                "INSTALL httpfs",
                "COPY (SELECT 1) TO '" + dir.resolve("leak2.csv") + "'")) {
            assertThrows(ExecutionException.class, () -> executor.execute(new BoundQuery(sql, List.of()), 10), sql);
        }
        assertFalse(Files.exists(dir.resolve("leak2.csv")));
        assertFalse(Files.exists(dir.resolve("other.duckdb")));
    }

    @Test
    void anAnalystsAggregateEqualsHandWrittenSql() throws Exception {
        LEFT.clear();
        JsonNode answer = SqlAnswers.analystsAggregatesEqualHandWrittenSql(tools, SqlToolsDuckDbTest::duck);
        assertTrue(answer.path("data").path("suppressed_groups").asLong() > 0, "some countries have fewer than five customers");
        // The audit saw one statement leave per answer.
        assertEquals(2, LEFT.size(), LEFT::toString);
    }

    static List<List<String>> duck(String sql) throws Exception {
        Properties readOnly = new Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, readOnly); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            return SqlAnswers.rows(rs);
        }
    }

    private static String sha256(Path path) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(path)));
    }
}
