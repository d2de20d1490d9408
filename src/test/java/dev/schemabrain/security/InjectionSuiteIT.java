package dev.schemabrain.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.testing.ChinookOnMariaDb;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.McpStdio;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hostile agent's injection attempts, through a real MCP client against the packaged server in front
 * of Chinook on PostgreSQL: a payload corpus in every string slot of every tool (get_metric's twelve and
 * the other tools' eleven). Asserted on what the database saw, not on what the server says: every
 * statement pg_stat_statements recorded for the database is a compiled, parameterized SELECT (or the
 * read-only session's own setup), no payload text reached it, and no table or row count changed. Every
 * call gets an envelope, never an internal error, and the server answers a plain call afterwards. On MariaDB
 * the same for get_metric, judged by the server's general log; on DuckDB, judged by the file's bytes.
 */
class InjectionSuiteIT {

    @TempDir
    Path dir;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Classic and less classic payloads: quoting, stacking, comments, sleeps, encodings, look-alikes, sizes. */
    static final List<String> PAYLOADS = List.of(
            "'", "\"", "`", "\\", "';", "\";", "')", "'))", "' OR '1'='1", "' OR 1=1 --", "\" OR \"\"=\"", "1 OR 1=1",
            "1' AND '1'='2", "x' UNION SELECT email FROM customer --", "1 UNION ALL SELECT NULL,NULL,NULL--",
            "invoice'; DROP TABLE invoice; --", "1; DROP TABLE invoice", "'; DELETE FROM customer; --",
            "'; UPDATE customer SET email = 'x'; --", "'; INSERT INTO genre VALUES (999, 'x'); --",
            "'; TRUNCATE invoice_line; --", "'; ALTER TABLE customer DROP COLUMN email; --",
            "'; CREATE TABLE pwned (x int); --", "'; GRANT ALL ON customer TO PUBLIC; --", "'; COPY customer TO '/tmp/x'; --",
            "invoice.total) FROM invoice; DELETE FROM invoice; --", "/* comment */ invoice.total", "invoice.total -- x",
            "invoice.total /*", "*/ invoice.total", "pg_sleep(5)", "invoice.total; SELECT pg_sleep(5)",
            "'; SELECT pg_sleep(5); --", "1 AND (SELECT 1 FROM pg_sleep(5)) IS NOT NULL", "$$; SELECT pg_sleep(5); $$",
            "'||pg_sleep(5)||'", "(SELECT current_user)", "current_setting('is_superuser')", "version()",
            "lo_import('/etc/passwd')", "pg_read_file('/etc/passwd')", "dblink('host=evil', 'select 1')",
            "ｉｎｖｏｉｃｅ．ｔｏｔａｌ", "invoice\u2024total", "ＤＲＯＰ ＴＡＢＬＥ invoice", "invoice.tot\u0430l",
            "invoice\u200b.total", "invoice.total\u202e", "\u02bc OR 1=1 --", "\uff07 OR 1=1 --",
            "invoice.total\u0000", "\u0000'; DROP TABLE invoice; --", "invoice.total\r\nDROP TABLE invoice",
            "\u001b[2K\u001b[1Aforged log line", "%n%n%s%s", "${jndi:ldap://127.0.0.1/x}", "{{7*7}}", "<script>alert(1)</script>",
            "../../../../etc/passwd", "public.customer.email", "customer.email", "\"public\".\"customer\"",
            "invoice.\"total\"", "\"invoice\".\"total\"; DROP", "$1", "?", "%s", ":name", "@var", "E'\\x27'",
            "0x27", "CHAR(39)", "chr(39)", "U&'\\0027'", "'' ''", "x".repeat(513), "x".repeat(10_240),
            "invoice." + "a".repeat(10_240), "a.b.c.d.e.f", ".", "..", "", " ", "\t", "null", "NULL", "true",
            "-1", "1e308", "NaN", "[]", "{}", "{\"$ne\": null}", "😀", "🅳🆁🅾🅿", "\ud800");

    private record Slot(String tool, String name, Function<String, Map<String, Object>> arguments) {
    }

    /** Every string an agent can send, one slot at a time; the rest of each call is valid. */
    static List<Slot> slots() {
        List<Slot> s = new ArrayList<>();
        String metric = "invoice_total_sum";
        s.add(new Slot("get_metric", "name", p -> Map.of("name", p)));
        s.add(new Slot("get_metric", "group_by", p -> Map.of("name", metric, "group_by", List.of(p))));
        s.add(new Slot("get_metric", "filters.column", p -> Map.of("name", metric,
                "filters", List.of(Map.of("column", p, "op", "eq", "value", "x")))));
        s.add(new Slot("get_metric", "filters.op", p -> Map.of("name", metric,
                "filters", List.of(Map.of("column", "invoice.billing_country", "op", p, "value", "x")))));
        s.add(new Slot("get_metric", "filters.value", p -> Map.of("name", metric,
                "filters", List.of(Map.of("column", "invoice.billing_country", "op", "eq", "value", p)))));
        s.add(new Slot("get_metric", "filters.in", p -> Map.of("name", metric,
                "filters", List.of(Map.of("column", "invoice.billing_country", "op", "in", "value", List.of("USA", p))))));
        s.add(new Slot("get_metric", "time_grain", p -> Map.of("name", metric, "time_grain", p)));
        s.add(new Slot("get_metric", "time_dimension", p -> Map.of("name", metric, "time_grain", "month", "time_dimension", p)));
        s.add(new Slot("get_metric", "via", p -> Map.of("name", metric, "group_by", List.of("invoice.billing_country"),
                "via", List.of(p))));
        s.add(new Slot("get_metric", "order_by.column", p -> Map.of("name", metric, "order_by", List.of(Map.of("column", p)))));
        s.add(new Slot("get_metric", "order_by.direction", p -> Map.of("name", metric,
                "order_by", List.of(Map.of("column", metric, "direction", p)))));
        s.add(new Slot("get_metric", "filters.key", p -> Map.of("name", metric,
                "filters", List.of(Map.of("column", "invoice.billing_country", "op", "eq", "value", "x", p, "y")))));
        s.add(new Slot("find_relevant_tables", "query", p -> Map.of("query", p)));
        s.add(new Slot("find_relevant_tables", "schema", p -> Map.of("query", "invoices", "schema", p)));
        s.add(new Slot("describe_table", "qualified_name", p -> Map.of("qualified_name", p)));
        s.add(new Slot("describe_column", "qualified_name", p -> Map.of("qualified_name", p)));
        s.add(new Slot("suggest_joins", "tables", p -> Map.of("tables", List.of("public.invoice", p))));
        s.add(new Slot("get_example_queries", "qualified_name", p -> Map.of("qualified_name", p)));
        s.add(new Slot("find_relevant_entities", "query", p -> Map.of("query", p)));
        s.add(new Slot("describe_entity", "name", p -> Map.of("name", p)));
        s.add(new Slot("resolve_join", "entity_a", p -> Map.of("entity_a", p, "entity_b", "customer")));
        s.add(new Slot("resolve_join", "entity_b", p -> Map.of("entity_a", "invoice", "entity_b", p)));
        s.add(new Slot("resolve_join", "name", p -> Map.of("entity_a", "invoice", "entity_b", "customer", "name", p)));
        return s;
    }

    @Test
    void noPayloadInAnySlotOfAnyToolReachesTheDatabaseAsAnythingButACompiledSelect() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        Path store = dir.resolve("chinook.db");
        Cli.Result indexed = Cli.run(dir, "--store", store.toString(), "index", "--source", TestPostgres.url("chinook"));
        assertEquals(0, indexed.exitCode(), indexed.stderr());
        String before = fingerprint();
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
        }

        List<Slot> slots = slots();
        Map<String, int[]> perTool = new LinkedHashMap<>();   // tool → calls, internal errors
        int calls = 0;
        StringBuffer stderr = new StringBuffer();
        // Every payload in every slot is a case of its own: all are checked, and every failing one is reported.
        List<Executable> answers = new ArrayList<>();
        McpSyncClient client = McpStdio.client(store, stderr, Map.of(), ServeArgs.source(TestPostgres.url("chinook")));
        try {
            for (String payload : PAYLOADS) {
                for (Slot slot : slots) {
                    Map<String, Object> args = new HashMap<>(slot.arguments().apply(payload));
                    JsonNode envelope = callOrProtocolError(client, slot.tool(), args);
                    calls++;
                    int[] counts = perTool.computeIfAbsent(slot.tool() + "." + slot.name(), k -> new int[2]);
                    counts[0]++;
                    if (envelope != null) {
                        String kind = envelope.path("error").path("kind").asText("");
                        answers.add(() -> assertNotEquals("internal_error", kind, () -> slot.tool() + "." + slot.name() + " with "
                                + shown(payload) + " answered " + envelope));
                        answers.add(() -> assertTrue(envelope.has("status") && envelope.path("charter_version").asText().equals("1.4"),
                                () -> "an envelope for " + slot.tool() + ": " + envelope));
                    }
                }
            }
            // The server is still up and still answers correctly.
            JsonNode after = callOrProtocolError(client, "get_metric", Map.of("name", "invoice_total_sum"));
            answers.add(() -> assertTrue(after != null && after.path("data").path("rows").size() == 1,
                    () -> "a plain call still works: " + after));
        } finally {
            client.closeGracefully();
        }
        assertAll("answers through MCP", answers);

        List<String> seen = statementsSeenBy("chinook");
        assertFalse(seen.isEmpty(), "filter values were bound and run");
        int compiled = 0;
        List<Executable> statements = new ArrayList<>();
        for (String logged : seen) {
            // Our own statements open with the constant marker mine-queries skips; a payload cannot add it.
            String q = ownStatement(logged);
            boolean select = q.startsWith("SELECT ") && q.contains(" AS \"t0\"") && q.contains("LIMIT $");
            boolean setup = q.equals("SET TRANSACTION READ ONLY") || q.equals("BEGIN READ ONLY") || q.equals("ROLLBACK")
                    || q.equals("BEGIN") || q.equals("COMMIT") || q.startsWith("SET SESSION CHARACTERISTICS")
                    || q.startsWith("SET application_name") || q.startsWith("SET statement_timeout")
                    || q.startsWith("SELECT pg_stat_statements_reset")
                    || q.equals("DISCARD ALL")   // a pooled session's reset between calls
                    || q.equals("SET standard_conforming_strings = on")   // and the lexical rule the guard assumes
                    // The session opened at start runs SELECT 1 through the query path; only with our marker.
                    || logged.startsWith(dev.schemabrain.engine.Purpose.STATEMENT_MARKER) && q.equals("SELECT $1");
            statements.add(() -> assertTrue(select || setup, "unexpected statement reached the database: " + q));
            compiled += select ? 1 : 0;
            for (String marker : List.of("DROP", "DELETE", "UPDATE ", "INSERT", "TRUNCATE", "ALTER", "CREATE", "GRANT", "COPY",
                    "pg_sleep", "pg_read_file", "lo_import", "dblink", "current_setting", "version()", ";", "--", "/*", "OR 1=1",
                    "UNION")) {
                statements.add(() -> assertFalse(q.contains(marker), marker + " reached the database: " + q));
            }
        }
        statements.add(() -> assertEquals(before, fingerprint(), "no table and no row count changed"));
        assertAll("statements the database saw", statements);

        StringBuilder report = new StringBuilder();
        report.append("injection payloads: ").append(PAYLOADS.size()).append(" payloads x ").append(slots.size())
                .append(" slots in ").append(perTool.keySet().stream().map(k -> k.substring(0, k.indexOf('.'))).distinct().count())
                .append(" tools = ").append(calls).append(" calls through MCP stdio; internal errors: 0; statements the database saw: ")
                .append(seen.size()).append(" distinct (").append(compiled)
                .append(" compiled SELECTs, the rest read-only session setup); payload text in any of them: 0; tables or row counts changed: 0\n");
        perTool.forEach((slot, n) -> report.append("  ").append(slot).append(": ").append(n[0]).append(" calls\n"));
        Files.createDirectories(Path.of("target", "security"));
        Files.writeString(Path.of("target", "security", "injection.txt"), report);
    }

    /**
     * The same for get_metric's twelve slots on MariaDB, judged by the server's general log: every statement
     * SchemaBrain's connections sent is the read-only session setup or a compiled SELECT with placeholders.
     */
    @Test
    void onMariaDbEveryGetMetricSlotReachesTheDatabaseAsCompiledSelectsOnly() throws Exception {
        String maria = ChinookOnMariaDb.create();
        try {
            Path store = dir.resolve("maria.db");
            Cli.Result indexed = Cli.run(dir, "--store", store.toString(), "index", "--source", TestMariaDb.url(maria));
            assertEquals(0, indexed.exitCode(), indexed.stderr());
            String before = mariaFingerprint(maria);
            List<Slot> slots = slots().stream().filter(s -> s.tool().equals("get_metric")).toList();
            int calls = 0;
            List<String> seen;
            try (Connection admin = TestMariaDb.connect(maria); Statement st = admin.createStatement()) {
                st.execute("SET GLOBAL log_output = 'TABLE'");
                st.execute("TRUNCATE mysql.general_log");
                st.execute("SET GLOBAL general_log = 'ON'");
                StringBuffer stderr = new StringBuffer();
                List<Executable> answers = new ArrayList<>();
                McpSyncClient client = McpStdio.client(store, stderr, Map.of(), ServeArgs.source(TestMariaDb.url(maria)));
                try {
                    for (String payload : PAYLOADS) {
                        for (Slot slot : slots) {
                            JsonNode envelope = callOrProtocolError(client, slot.tool(), new HashMap<>(slot.arguments().apply(payload)));
                            calls++;
                            if (envelope != null) {
                                answers.add(() -> assertNotEquals("internal_error", envelope.path("error").path("kind").asText(""),
                                        () -> slot.name() + " with " + shown(payload) + " answered " + envelope));
                            }
                        }
                    }
                } finally {
                    client.closeGracefully();
                    st.execute("SET GLOBAL general_log = 'OFF'");
                }
                assertAll("answers through MCP", answers);
                seen = new ArrayList<>();
                // Only the sessions that connected to this database: other tests may share the server.
                // Execute lines show the bound values substituted (the payloads, as data); what the server parsed as
                // SQL is in the Query and Prepare lines.
                try (ResultSet rs = st.executeQuery("SELECT CONVERT(g.argument USING utf8mb4) FROM mysql.general_log g"
                        + " WHERE g.command_type IN ('Query', 'Prepare') AND g.thread_id <> CONNECTION_ID()"
                        + " AND g.thread_id IN (SELECT c.thread_id FROM mysql.general_log c WHERE c.command_type = 'Connect'"
                        + " AND CONVERT(c.argument USING utf8mb4) LIKE '% on " + maria + " %')")) {
                    while (rs.next()) {
                        seen.add(rs.getString(1).strip());
                    }
                }
            }
            int compiled = 0;
            List<Executable> statements = new ArrayList<>();
            for (String logged : seen) {
                // The driver applies the row cap (setMaxRows) as a statement prefix.
                String q = ownStatement(logged.replaceFirst("^SET STATEMENT SQL_SELECT_LIMIT=\\d+ FOR ", ""));
                String upper = q.toUpperCase(java.util.Locale.ROOT);
                boolean select = upper.startsWith("SELECT ") && q.contains(" AS `t0`") && upper.contains(" LIMIT ?");
                boolean setup = upper.startsWith("SET ") || upper.equals("START TRANSACTION READ ONLY") || upper.equals("ROLLBACK")
                        || q.equals("USE `" + maria + "`")   // a pooled session's reset returns to the source's database
                        || upper.equals("COMMIT") || upper.startsWith("SELECT @@") || upper.startsWith("SHOW ")
                        || upper.startsWith("SELECT 1") || upper.startsWith("SET GLOBAL GENERAL_LOG");
                statements.add(() -> assertTrue(select || setup, "unexpected statement reached MariaDB: " + q));
                compiled += select ? 1 : 0;
                for (String marker : List.of("DROP", "DELETE", "UPDATE ", "INSERT", "TRUNCATE", "ALTER", "CREATE", "GRANT",
                        "SLEEP", "BENCHMARK", "LOAD_FILE", "INTO OUTFILE", ";", "--", "/*", "OR 1=1", "UNION")) {
                    statements.add(() -> assertFalse(select && upper.contains(marker), marker + " reached MariaDB as SQL: " + q));
                }
            }
            assertAll("statements MariaDB parsed", statements);
            assertTrue(compiled > 0, "compiled statements were prepared and run");
            assertEquals(before, mariaFingerprint(maria), "no table and no row count changed");
            Files.createDirectories(Path.of("target", "security"));
            Files.writeString(Path.of("target", "security", "injection-mariadb.txt"), "injection payloads on MariaDB: "
                    + PAYLOADS.size() + " payloads x " + slots.size() + " get_metric slots = " + calls + " calls through MCP stdio;"
                    + " internal errors: 0; statements MariaDB logged from SchemaBrain: " + seen.size() + " (" + compiled
                    + " prepared SELECTs with ? placeholders, the rest session setup); payload text parsed as SQL: 0; tables or row counts changed: 0\n");
        } finally {
            TestMariaDb.drop(maria);
        }
    }

    /**
     * The same for get_metric's twelve slots on DuckDB. An embedded database keeps no log another process can read, so
     * it is judged by its file: attached read-only, not one byte of it may change, and no table or row count.
     */
    @Test
    void onDuckDbEveryGetMetricSlotLeavesTheFileUnchanged() throws Exception {
        Path file = dir.resolve("chinook.duckdb");
        ChinookOnMariaDb.createDuckDb(file);
        String url = "duckdb:" + file;
        Path store = dir.resolve("duck.db");
        Cli.Result indexed = Cli.run(dir, "--store", store.toString(), "index", "--source", url);
        assertEquals(0, indexed.exitCode(), indexed.stderr());
        String bytes = sha256(file);
        String before = duckFingerprint(file);
        List<Slot> slots = slots().stream().filter(s -> s.tool().equals("get_metric")).toList();
        int calls = 0;
        StringBuffer stderr = new StringBuffer();
        List<Executable> answers = new ArrayList<>();
        McpSyncClient client = McpStdio.client(store, stderr, Map.of(), ServeArgs.source(url));
        try {
            for (String payload : PAYLOADS) {
                for (Slot slot : slots) {
                    JsonNode envelope = callOrProtocolError(client, slot.tool(), new HashMap<>(slot.arguments().apply(payload)));
                    calls++;
                    if (envelope != null) {
                        answers.add(() -> assertNotEquals("internal_error", envelope.path("error").path("kind").asText(""),
                                () -> slot.name() + " with " + shown(payload) + " answered " + envelope));
                    }
                }
            }
            JsonNode after = callOrProtocolError(client, "get_metric", Map.of("name", "invoice_total_sum"));
            answers.add(() -> assertTrue(after != null && after.path("data").path("rows").size() == 1,
                    () -> "a plain call still works: " + after));
        } finally {
            client.closeGracefully();
        }
        assertAll("answers through MCP", answers);
        assertEquals(bytes, sha256(file), "not one byte of the DuckDB file changed");
        assertEquals(before, duckFingerprint(file), "no table and no row count changed");
        Files.createDirectories(Path.of("target", "security"));
        Files.writeString(Path.of("target", "security", "injection-duckdb.txt"), "injection payloads on DuckDB: "
                + PAYLOADS.size() + " payloads x " + slots.size() + " get_metric slots = " + calls + " calls through MCP stdio;"
                + " internal errors: 0; bytes of the database file changed: 0; tables or row counts changed: 0\n");
    }

    private static String sha256(Path file) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private static String duckFingerprint(Path file) throws Exception {
        java.util.Properties readOnly = new java.util.Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + file, readOnly)) {
            return rowCounts(c, "SELECT table_name FROM duckdb_tables() ORDER BY 1", "\"");
        }
    }

    private static String mariaFingerprint(String database) throws Exception {
        try (Connection c = TestMariaDb.connect(database)) {
            return rowCounts(c, "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY 1", "`");
        }
    }

    /** Each table {@code tablesSql} names with its row count, the names quoted with {@code quote}. */
    private static String rowCounts(Connection c, String tablesSql, String quote) throws Exception {
        StringBuilder out = new StringBuilder();
        try (Statement st = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery(tablesSql)) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String t : tables) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + quote + t + quote)) {
                    rs.next();
                    out.append(t).append('=').append(rs.getLong(1)).append('\n');
                }
            }
        }
        return out.toString();
    }

    /** The envelope of a tools/call, or null when the server answered with a JSON-RPC error (also a clear answer). */
    private static JsonNode callOrProtocolError(McpSyncClient client, String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult result;
        try {
            result = McpStdio.call(client, tool, args);
        } catch (io.modelcontextprotocol.spec.McpError protocolError) {
            return null;
        }
        Object structured = result.structuredContent();
        return structured == null ? JSON.readTree(((McpSchema.TextContent) result.content().get(0)).text())
                : JSON.valueToTree(structured);
    }

    private static List<String> statementsSeenBy(String database) throws Exception {
        List<String> seen = new ArrayList<>();
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid "
                     + "WHERE d.datname = '" + database + "'")) {
            while (rs.next()) {
                seen.add(rs.getString(1));
            }
        }
        return seen;
    }

    /** Every table of Chinook with its row count: what a successful injection would have changed. */
    private static String fingerprint() throws Exception {
        StringBuilder out = new StringBuilder();
        List<String> tables = new ArrayList<>();
        try (Connection c = TestPostgres.connect("chinook"); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT table_schema || '.' || table_name FROM information_schema.tables"
                    + " WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String t : tables) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + t)) {
                    rs.next();
                    out.append(t).append('=').append(rs.getLong(1)).append('\n');
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT md5(string_agg(email, ',' ORDER BY customer_id)) FROM customer")) {
                rs.next();
                out.append("customer.email=").append(rs.getString(1)).append('\n');
            }
        }
        return out.toString();
    }

    private static String shown(String payload) {
        return payload.length() > 60 ? payload.substring(0, 60) + "… (" + payload.length() + " chars)" : payload;
    }

    /** {@code q} without the marker SchemaBrain puts at the head of its own statements (exactly once, at the head). */
    private static String ownStatement(String q) {
        return q.startsWith(dev.schemabrain.engine.Purpose.STATEMENT_MARKER)
                ? q.substring(dev.schemabrain.engine.Purpose.STATEMENT_MARKER.length()) : q;
    }
}
