package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.tool.ToolRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
    static ToolRegistry servedAndAudited(dev.schemabrain.engine.SourceUrl url, java.nio.file.Path store,
                                         dev.schemabrain.execute.QueryExecutor executor, List<String> left) throws Exception {
        try (dev.schemabrain.engine.SchemaSource source = dev.schemabrain.source.Sources.open(url)) {
            new dev.schemabrain.index.Indexer().run(url, source, store, false, dev.schemabrain.index.IndexListener.SILENT);
        }
        return StandardTools.registry(new StoreCatalogProvider(store), java.util.Optional.of(executor))
                .audited(new dev.schemabrain.mcp.tool.CallAudit() {
                    @Override
                    public void beforeSql(dev.schemabrain.mcp.tool.ToolCall call, String fingerprint) {
                        left.add(fingerprint);
                    }

                    @Override
                    public void completed(dev.schemabrain.mcp.tool.ToolCall call, dev.schemabrain.mcp.envelope.Envelope result) {
                    }
                });
    }

    /** Every row of {@code rs}, numbers in their shortest form, as {@link #rows(JsonNode)} reads an answer's. */
    static List<List<String>> rows(java.sql.ResultSet rs) throws java.sql.SQLException {
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
    static List<List<String>> sqliteRows(java.nio.file.Path file, String sql) throws java.sql.SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
             java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(sql)) {
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
