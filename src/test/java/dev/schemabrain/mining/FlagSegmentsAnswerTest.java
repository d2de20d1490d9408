package dev.schemabrain.mining;

import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.testing.TestMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.schemabrain.mining.MinedStore.ok;
import static dev.schemabrain.mining.ServerLogSegmentsTest.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Yes/no segments drafted from logged filters answer get_metric as hand-written SQL where the engine stores yes/no
 * its own way: SQLite's BOOLEAN and a 0/1 INTEGER, MariaDB's BOOLEAN (tinyint(1)) and a 0/1 SMALLINT. The workload is
 * fed as a log with its literals (neither engine's statement statistics keep them).
 */
class FlagSegmentsAnswerTest {

    private static final List<String> MARIADB = new ArrayList<>();
    private static final String TABLE = "CREATE TABLE tickets (ticket_id INTEGER PRIMARY KEY, priority VARCHAR(10) NOT NULL,"
            + " escalated BOOLEAN NOT NULL, spam %s NOT NULL, opened_at TIMESTAMP NOT NULL)";
    private static final List<String> WORKLOAD = List.of(
            "SELECT count(*) FROM tickets WHERE escalated = 1",
            "SELECT priority FROM tickets WHERE escalated ORDER BY 1",
            "SELECT count(*) FROM tickets WHERE spam = 0",
            "SELECT priority, count(*) FROM tickets WHERE spam <> 1 GROUP BY priority");

    @TempDir
    Path dir;

    @AfterAll
    static void drop() throws Exception {
        for (String db : MARIADB) {
            TestMariaDb.drop(db);
        }
    }

    private static List<String> rows() {
        List<String> out = new ArrayList<>();
        for (int g = 1; g <= 60; g++) {
            out.add("INSERT INTO tickets VALUES (" + g + ", '" + (g % 3 == 0 ? "high" : "low") + "', " + (g % 4 == 0 ? 1 : 0)
                    + ", " + (g % 5 == 0 ? 1 : 0) + ", '2026-01-" + (10 + g % 18) + " 09:00:00')");
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "mariadb"})
    void aYesNoSegmentBindsInTheColumnsOwnType(String engine) throws Exception {
        String url;
        String schema;
        List<String> ddl = new ArrayList<>(List.of(String.format(TABLE, engine.equals("sqlite") ? "INTEGER" : "SMALLINT")));
        ddl.addAll(rows());
        if (engine.equals("sqlite")) {
            Path file = dir.resolve("tickets.sqlite");
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
                for (String sql : ddl) {
                    st.execute(sql);
                }
            }
            url = "sqlite:" + file;
            schema = "main";
        } else {
            schema = TestMariaDb.create("t30_flag_segments", ddl.toArray(String[]::new));
            MARIADB.add(schema);
            url = TestMariaDb.url(schema);
        }
        MinedStore mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", url));
        mined.mineLog(url, schema, WORKLOAD.stream().map(sql -> new LoggedStatement(sql, 3)).toList());

        SemanticModel model = mined.semanticLayer();
        Entity tickets = ServerLogSegmentsTest.entity(model, "tickets");
        assertEquals(List.of("escalated_true", "spam_false"), ServerLogSegmentsTest.observed(tickets), tickets.segments().toString());
        assertEquals(List.of(new Filter("tickets.escalated", FilterOp.EQ, true)),
                tickets.segment("escalated_true").orElseThrow().filters(), "a boolean type: a boolean value");
        assertEquals(List.of(new Filter("tickets.spam", FilterOp.EQ, 0L)),
                tickets.segment("spam_false").orElseThrow().filters(), "a 0/1 number column: a number");

        Metric count = ServerLogSegmentsTest.metric(model, "tickets", "count");
        try (QueryExecutor executor = new QueryExecutor(SourceUrl.parse(url), ExecutorSettings.defaults())) {
            ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(mined.file()), Optional.of(executor));
            for (var segment : Map.of("escalated_true", "escalated = 1", "spam_false", "spam = 0").entrySet()) {
                double expected = count(engine, url, schema, "SELECT count(*) FROM tickets WHERE " + segment.getValue());
                assertTrue(expected > 0 && expected < 60, segment.getValue());
                assertEquals(expected, ServerLogSegmentsTest.value(JSON.valueToTree(tools.call("get_metric",
                        Map.of("name", count.name(), "segments", List.of(segment.getKey()))))), 0.001, segment.getKey());
            }
        }
    }

    private static double count(String engine, String url, String schema, String sql) throws Exception {
        try (Connection c = engine.equals("sqlite") ? DriverManager.getConnection("jdbc:" + url) : TestMariaDb.connect(schema);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getDouble(1);
        }
    }
}
