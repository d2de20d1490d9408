package dev.schemabrain.mcp.tools;

import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.source.Sources;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the SQL tools' tests share: asserting refusals by both tools and reading rows as plain text. */
final class SqlAnswers {

    private SqlAnswers() {
    }

    /** Each statement is refused (or an error, never internal_error) by validate_query and by execute. */
    static void refusedByBoth(ToolRegistry tools, List<String> statements) {
        for (String sql : statements) {
            for (String tool : List.of("validate_query", "execute")) {
                JsonNode e = tools.call(tool, Map.of("sql", sql), "test", Access.UNRESTRICTED).toTree();
                assertTrue(e.path("status").asText().equals("refused") || e.path("status").asText().equals("error"),
                        () -> tool + " let through " + sql + ": " + e);
                assertFalse(e.path("error").path("kind").asText().equals("internal_error"), () -> sql + ": " + e);
                assertFalse(e.path("error").path("message").asText().isBlank(), sql);
            }
        }
    }

    /**
     * Each attack refused by both tools, execute's message ending with its reason; each laundering refused by both,
     * execute's kind pii_blocked.
     */
    static void refusedWithReasons(ToolRegistry tools, Map<String, String> attacks, List<String> laundering) {
        refusedByBoth(tools, new ArrayList<>(attacks.keySet()));
        refusedByBoth(tools, laundering);
        for (Map.Entry<String, String> a : attacks.entrySet()) {
            JsonNode e = tools.call("execute", Map.of("sql", a.getKey()), "test", Access.UNRESTRICTED).toTree();
            assertTrue(e.path("error").path("message").asText().endsWith("(" + a.getValue() + ")"),
                    () -> a.getKey() + " should be refused as " + a.getValue() + ": " + e);
        }
        for (String sql : laundering) {
            JsonNode e = tools.call("execute", Map.of("sql", sql), "test", Access.UNRESTRICTED).toTree();
            assertEquals("pii_blocked", e.path("error").path("kind").asText(), () -> sql + ": " + e);
        }
    }

    /** The database's own answer to hand-written SQL. */
    interface Bare {
        List<List<String>> rows(String sql) throws Exception;
    }

    /**
     * An analyst's aggregates over Chinook's five tables equal the database's own answers: revenue by country with
     * the groups of fewer than five customers left out and counted, and tracks by genre (about no one) row for row.
     * Returns the revenue answer.
     */
    static JsonNode analystsAggregatesEqualHandWrittenSql(ToolRegistry tools, Bare bare) throws Exception {
        String sql = "SELECT c.country, count(*) AS invoices, sum(i.total) AS revenue FROM invoice i"
                + " JOIN customer c ON c.customer_id = i.customer_id GROUP BY c.country ORDER BY c.country";
        JsonNode answer = tools.call("execute", Map.of("sql", sql), "test", Access.UNRESTRICTED).toTree();
        assertTrue(List.of("success", "degraded").contains(answer.path("status").asText()), answer::toString);
        List<List<String>> got = rows(answer);
        List<List<String>> expected = bare.rows("SELECT c.country, count(*), sum(i.total) FROM invoice i JOIN customer c"
                + " ON c.customer_id = i.customer_id GROUP BY c.country HAVING count(DISTINCT i.customer_id) >= 5"
                + " ORDER BY c.country");
        assertFalse(expected.isEmpty());
        assertEquals(expected, got);
        long countries = Long.parseLong(bare.rows("SELECT count(DISTINCT country) FROM customer").get(0).get(0));
        assertEquals(countries, got.size() + answer.path("data").path("suppressed_groups").asLong());

        String genres = "SELECT g.name, count(*) AS tracks, sum(t.unit_price) AS value FROM track t"
                + " JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name ORDER BY tracks DESC, g.name";
        JsonNode byGenre = tools.call("execute", Map.of("sql", genres), "test", Access.UNRESTRICTED).toTree();
        assertEquals("success", byGenre.path("status").asText(), byGenre::toString);
        assertEquals(bare.rows(genres), rows(byGenre));
        return answer;
    }

    /** An execute answer's rows, numbers in their shortest form, as hand-written SQL's are compared. */
    static List<List<String>> rows(JsonNode answer) {
        List<List<String>> rows = new ArrayList<>();
        answer.path("data").path("rows").forEach(r -> {
            List<String> row = new ArrayList<>();
            r.forEach(v -> row.add(DataSubjectsTest.plain(v.isNumber() ? v.decimalValue() : v.isNull() ? null : v.asText())));
            rows.add(row);
        });
        return rows;
    }

    /**
     * Indexes {@code url} into {@code store} and serves the standard tools over {@code executor}, adding to {@code left}
     * the fingerprint of each statement about to leave for the database (the audit's before-SQL hook).
     */
    static ToolRegistry servedAndAudited(SourceUrl url, Path store,
                                         QueryExecutor executor, List<String> left) throws Exception {
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        return StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor))
                .audited(new CallAudit() {
                    @Override
                    public void beforeSql(ToolCall call, String fingerprint) {
                        left.add(fingerprint);
                    }

                    @Override
                    public void completed(ToolCall call, Envelope result) {
                    }
                });
    }

    /** Every row of {@code rs}, numbers in their shortest form, as {@link #rows(JsonNode)} reads an answer's. */
    static List<List<String>> rows(ResultSet rs) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        while (rs.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                row.add(DataSubjectsTest.plain(rs.getObject(i)));
            }
            rows.add(row);
        }
        return rows;
    }

    /** The rows SQLite itself answers for {@code sql} on {@code file}, numbers in their shortest form. */
    static List<List<String>> sqliteRows(Path file, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    Object v = rs.getObject(i);
                    row.add(v == null ? "null" : v instanceof Number ? DataSubjectsTest.plain(v) : String.valueOf(v));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
