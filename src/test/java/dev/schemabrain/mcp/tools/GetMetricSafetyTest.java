package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * get_metric as a trust boundary, on real PostgreSQL: an injection corpus in every argument reaches the
 * database as nothing but compiled statements (pg_stat_statements shows them all) and changes nothing;
 * 200 concurrent calls against a server with max_connections = 50 all answer, rows or source_busy.
 */
class GetMetricSafetyTest {

    @TempDir
    Path dir;

    static final List<String> CORPUS = List.of(
            "'", "\"", "`", "invoice'; DROP TABLE invoice; --", "1; DROP TABLE invoice", "1 OR 1=1", "x' OR '1'='1",
            "invoice.total) FROM invoice; DELETE FROM invoice; --", "/* comment */ invoice.total", "invoice.total -- x",
            "pg_sleep(5)", "invoice.total; SELECT pg_sleep(5)", "'; SELECT pg_sleep(5); --",
            "ｉｎｖｏｉｃｅ．ｔｏｔａｌ", "invoice\u2024total", "ＤＲＯＰ ＴＡＢＬＥ invoice", "invoice.tot\u0430l",
            "invoice.total\u0000", "\u0000'; DROP TABLE invoice; --", "x".repeat(10_240), "invoice." + "a".repeat(10_240),
            "$1", "?", "%s", "\\'; DROP TABLE invoice; --", "invoice.\"total\"", "\"invoice\".\"total\"; DROP");

    private ToolRegistry registry(String database, ExecutorSettings settings, QueryExecutor[] keep) throws Exception {
        SourceUrl url = SourceUrl.parse(TestPostgres.url(database));
        Path store = dir.resolve(database + ".db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        keep[0] = new QueryExecutor(url, settings);
        return StandardTools.registry(new StoreCatalogProvider(store), Optional.of(keep[0]));
    }

    /** Every argument of get_metric in turn carries the payload; the others are valid. */
    static List<Map<String, Object>> calls(String payload) {
        List<Map<String, Object>> calls = new ArrayList<>();
        Map<String, Object> base = Map.of("name", "invoice_total_sum");
        for (String key : List.of("name", "group_by", "filters.column", "filters.op", "filters.value", "filters.in",
                "time_grain", "time_dimension", "via", "order_by.column", "order_by.direction")) {
            Map<String, Object> call = new HashMap<>(base);
            switch (key) {
                case "name" -> call.put("name", payload);
                case "group_by" -> call.put("group_by", List.of(payload));
                case "filters.column" -> call.put("filters", List.of(Map.of("column", payload, "op", "eq", "value", "x")));
                case "filters.op" -> call.put("filters", List.of(Map.of("column", "invoice.billing_country", "op", payload, "value", "x")));
                case "filters.value" -> call.put("filters", List.of(Map.of("column", "invoice.billing_country", "op", "eq", "value", payload)));
                case "filters.in" -> call.put("filters", List.of(Map.of("column", "customer.country", "op", "in", "value", List.of("USA", payload))));
                case "time_grain" -> call.put("time_grain", payload);
                case "time_dimension" -> {
                    call.put("time_grain", "month");
                    call.put("time_dimension", payload);
                }
                case "via" -> {
                    call.put("group_by", List.of("customer.country"));
                    call.put("via", List.of(payload));
                }
                case "order_by.column" -> call.put("order_by", List.of(Map.of("column", payload)));
                default -> call.put("order_by", List.of(Map.of("column", "invoice_total_sum", "direction", payload)));
            }
            calls.add(call);
        }
        return calls;
    }

    @Test
    void anInjectionCorpusInEveryArgumentReachesTheDatabaseAsCompiledStatementsOnly() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        QueryExecutor[] executor = new QueryExecutor[1];
        ToolRegistry tools = registry("chinook", ExecutorSettings.defaults(), executor);
        String before = fingerprint();
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
        }
        long ran = 0;   // answers that carry rows: each is one statement the database must have executed
        for (String payload : CORPUS) {
            for (Map<String, Object> call : calls(payload)) {
                Envelope e = tools.call("get_metric", call);
                assertNotEquals(ErrorKind.INTERNAL_ERROR, e.error() == null ? null : e.error().kind(),
                        () -> "a clear answer for " + call + ": " + e.toJson());
                ran += e.data() != null && e.data().has("rows") ? 1 : 0;
            }
        }
        executor[0].close();
        // Every statement the chinook database saw: compiled SELECTs with placeholders and the session's own setup.
        List<String> seen = new ArrayList<>();
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid "
                     + "WHERE d.datname = 'chinook'")) {
            while (rs.next()) {
                seen.add(rs.getString(1));
            }
        }
        assertFalse(seen.isEmpty(), "filter values were bound and run");
        // What ran is what was answered: every answer with rows is one execution of a compiled statement, and
        // nothing else executed (a payload that slept or stacked a statement would add calls or statements).
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d"
                     + " ON d.oid = s.dbid WHERE d.datname = 'chinook' AND s.query LIKE '/* schemabrain */ SELECT %' AND s.query LIKE '%LIMIT $%'")) {
            rs.next();
            assertEquals(ran, rs.getLong(1), "executions of compiled statements the database counted");
        }
        for (String text : seen) {
            // Every statement SchemaBrain sends starts with its marker (the query-log miner skips those); past it, nothing but the compiled SQL.
            boolean marked = text.startsWith(Purpose.STATEMENT_MARKER);
            String q = marked ? text.substring(Purpose.STATEMENT_MARKER.length()) : text;
            boolean compiled = marked && q.startsWith("SELECT ") && q.contains(" FROM \"public\".\"invoice\" AS \"t0\"") && q.contains("LIMIT $");
            // pgjdbc 42.7.14 sets the application name with a statement after the startup packet.
            boolean setup = q.equals("SET TRANSACTION READ ONLY") || q.equals("BEGIN READ ONLY") || q.equals("ROLLBACK")
                    || q.equals("SET application_name = 'schemabrain'") || q.startsWith("SELECT pg_stat_statements_reset")
                    // The reset of a pooled session between calls.
                    || q.equals("DISCARD ALL") || q.equals("SET standard_conforming_strings = on") || q.equals("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
                    || q.matches("SET statement_timeout = \\d+");
            assertTrue(compiled || setup, "unexpected statement: " + q);
            for (String marker : List.of("DROP", "DELETE", "pg_sleep", ";", "--", "/*", "OR 1=1")) {
                assertFalse(q.contains(marker), marker + " reached the database: " + q);
            }
        }
        assertEquals(before, fingerprint(), "the database is unchanged");
    }

    /** Tables and their row counts: what a successful injection would have changed. */
    private static String fingerprint() throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = TestPostgres.connect("chinook"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")) {
            List<String> tables = new ArrayList<>();
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
            for (String t : tables) {
                try (Statement count = c.createStatement(); ResultSet n = count.executeQuery("SELECT COUNT(*) FROM \"" + t + "\"")) {
                    n.next();
                    out.append(t).append('=').append(n.getLong(1)).append(' ');
                }
            }
        }
        return out.toString();
    }

    @Test
    void twoHundredConcurrentCallsAgainstFiftyConnectionsAllAnswer() throws Exception {
        try (EmbeddedPostgres small = EmbeddedPostgres.builder().setServerConfig("max_connections", "50")
                .setCleanDataDirectory(true).start()) {
            try (Connection c = small.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE invoice (invoice_id int PRIMARY KEY, billing_country text, invoice_date timestamp, total numeric(10,2))");
                st.execute("INSERT INTO invoice SELECT g, (ARRAY['USA','Canada','France'])[1 + g % 3], "
                        + "TIMESTAMP '2024-01-01' + g * INTERVAL '1 day', g * 1.5 FROM generate_series(1, 500) g");
            }
            SourceUrl url = SourceUrl.parse("postgresql://postgres@localhost:" + small.getPort() + "/postgres");
            Path store = dir.resolve("small.db");
            try (SchemaSource source = Sources.open(url)) {
                new Indexer().run(url, source, store, false, IndexListener.SILENT);
            }
            // Other applications hold 42 of the server's 50 connections, fewer than the executor's 16 slots are left.
            List<Connection> others = new ArrayList<>();
            for (int i = 0; i < 42; i++) {
                others.add(small.getPostgresDatabase().getConnection());
            }
            try (QueryExecutor executor = new QueryExecutor(url, new ExecutorSettings(10_000, 1_000, 16, 500, null))) {
                ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor));
                ExecutorService pool = Executors.newFixedThreadPool(200);
                List<Future<Envelope>> answers = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    answers.add(pool.submit(() -> tools.call("get_metric", Map.of("name", "invoice_total_sum",
                            "group_by", List.of("invoice.billing_country"), "time_grain", "month"))));
                }
                int rows = 0;
                int busy = 0;
                for (Future<Envelope> f : answers) {
                    Envelope e = f.get();
                    String json = e.toJson();
                    assertFalse(json.toLowerCase().contains("too many"), json);
                    if (e.status() == Status.SUCCESS) {
                        rows++;
                    } else {
                        assertEquals(ErrorKind.SOURCE_BUSY, e.error().kind(), json);
                        busy++;
                    }
                }
                pool.shutdown();
                assertEquals(200, rows + busy);
                assertTrue(rows > 0, "some calls got rows");
                // Whether the burst met the server's limit depends on timing; a full server is made certain here.
                while (true) {
                    try {
                        others.add(small.getPostgresDatabase().getConnection());
                    } catch (SQLException full) {
                        break;
                    }
                }
                // A pooled session still answers on a full server; a call that needs a new connection is told source_busy.
                assertEquals(Status.SUCCESS, tools.call("get_metric", Map.of("name", "invoice_total_sum")).status());
                try (QueryExecutor unpooled = new QueryExecutor(url, new ExecutorSettings(10_000, 1_000, 16, 500, null))) {
                    Envelope full = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(unpooled))
                            .call("get_metric", Map.of("name", "invoice_total_sum"));
                    assertEquals(ErrorKind.SOURCE_BUSY, full.error().kind(), full.toJson());
                    assertFalse(full.toJson().toLowerCase().contains("too many"), full.toJson());
                }
            } finally {
                for (Connection c : others) {
                    c.close();
                }
            }
        }
    }
}
