package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.ChinookOnMariaDb;
import dev.schemabrain.testing.TestMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * validate_query and execute on MariaDB (Chinook's five tables copied from PostgreSQL), read with MySQL's dialect:
 * MySQL's incident classes (LOAD_FILE, INTO OUTFILE, executable comments, optimizer hints, SLEEP, the mysql
 * schema, LOCK IN SHARE MODE) and laundering are refused with no SQL leaving (the audit's before-SQL hook never
 * fires), and an analyst's aggregate equals hand-written SQL.
 */
class SqlToolsMariaDbTest {

    @TempDir
    static Path dir;
    static String maria;
    static QueryExecutor executor;
    static ToolRegistry tools;
    static final List<String> LEFT = new ArrayList<>();

    @BeforeAll
    static void serve() throws Exception {
        maria = ChinookOnMariaDb.create();
        SourceUrl url = SourceUrl.parse(TestMariaDb.url(maria));
        Path store = dir.resolve("maria.db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor)).audited(new CallAudit() {
            @Override
            public void beforeSql(ToolCall call, String fingerprint) {
                LEFT.add(fingerprint);
            }

            @Override
            public void completed(ToolCall call, Envelope result) {
            }
        });
    }

    @AfterAll
    static void close() throws Exception {
        executor.close();
        TestMariaDb.drop(maria);
    }

    static JsonNode call(String tool, String sql) {
        return tools.call(tool, Map.of("sql", sql), "test", Access.UNRESTRICTED).toTree();
    }

    @Test
    void mysqlsIncidentClassesAndLaunderingAreRefusedBeforeAnySqlLeaves() {
        LEFT.clear();
        SqlAnswers.refusedByBoth(tools, List.of(
                "SELECT LOAD_FILE('/etc/passwd')",
                "SELECT * FROM invoice INTO OUTFILE '/tmp/x'",
                "SELECT 1 /*! ; DROP TABLE invoice */",
                "SELECT /*+ SET_VAR(max_statement_time=0) */ count(*) FROM invoice",
                "SELECT SLEEP(5)",
                "SELECT BENCHMARK(100000000, MD5('x'))",
                "SELECT * FROM mysql.user",
                "SELECT * FROM information_schema.processlist",
                "SELECT * FROM invoice LOCK IN SHARE MODE",
                "SELECT 1; DROP TABLE invoice",
                "SELECT GET_LOCK('x', 10)",
                "SELECT first_name AS remark FROM customer",
                "SELECT CONCAT(first_name, ' ', last_name) FROM customer",
                "SELECT GROUP_CONCAT(last_name) FROM customer",
                "SELECT x FROM (SELECT last_name AS x FROM customer) s",
                "SELECT customer_id, country FROM customer"));
        assertEquals(List.of(), LEFT, "no statement left for the database");
    }

    @Test
    void anAnalystsAggregateEqualsHandWrittenSql() throws Exception {
        String sql = "SELECT c.country, count(*) AS invoices, sum(i.total) AS revenue FROM invoice i"
                + " JOIN customer c ON c.customer_id = i.customer_id GROUP BY c.country ORDER BY c.country";
        JsonNode answer = call("execute", sql);
        assertTrue(List.of("success", "degraded").contains(answer.path("status").asText()), answer::toString);
        assertTrue(answer.path("data").path("sql").asText().contains("`customer_id`"), "MySQL quoting in the rewrite");
        List<List<String>> got = SqlAnswers.rows(answer);
        List<List<String>> expected = new ArrayList<>();
        try (Connection c = TestMariaDb.connect(maria); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT c.country, count(*), sum(i.total) FROM invoice i JOIN customer c"
                     + " ON c.customer_id = i.customer_id GROUP BY c.country HAVING count(DISTINCT i.customer_id) >= 5"
                     + " ORDER BY c.country")) {
            while (rs.next()) {
                expected.add(List.of(rs.getString(1), DataSubjectsTest.plain(rs.getObject(2)), DataSubjectsTest.plain(rs.getObject(3))));
            }
        }
        assertEquals(expected, got);
        assertFalse(expected.isEmpty());
        try (Connection c = TestMariaDb.connect(maria); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(DISTINCT country) FROM customer")) {
            rs.next();
            assertEquals(rs.getInt(1), got.size() + answer.path("data").path("suppressed_groups").asInt());
        }
    }
}
