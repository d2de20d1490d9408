package dev.schemabrain.mining;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.ExampleQueries;
import dev.schemabrain.mcp.tools.GetMetricTool;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Chinook copy with every foreign key dropped: before mining, no path joins invoice_line to album and
 * get_example_queries is empty; after the workload is mined, suggest_joins walks invoice_line → track → album
 * via query_log, a metric over invoice_line grouped by album compiles and runs, and examples come back ranked.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ObservedJoinsTest {

    private static final String DB = "sb_mining_nofk";

    @TempDir
    static Path dir;
    static Path store;
    static QueryExecutor executor;
    static ToolRegistry tools;

    @BeforeAll
    static void copyWithoutKeys() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + DB + " WITH (FORCE)");
            st.execute("CREATE DATABASE " + DB + " TEMPLATE chinook");
        }
        try (Connection c = TestPostgres.connect(DB); Statement st = c.createStatement()) {
            List<String> drops = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT conrelid::regclass::text, conname FROM pg_constraint WHERE contype = 'f'")) {
                while (rs.next()) {
                    drops.add("ALTER TABLE " + rs.getString(1) + " DROP CONSTRAINT " + rs.getString(2));
                }
            }
            for (String drop : drops) {
                st.execute(drop);
            }
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
        store = dir.resolve("store.db");
        assertEquals(0, InProcessCli.run("--store", store.toString(), "index", "--source", TestPostgres.url(DB)).exitCode());
        executor = new QueryExecutor(SourceUrl.parse(TestPostgres.url(DB)), ExecutorSettings.defaults());
        tools = StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(executor)),
                GetMetricTool.DEFAULT_MIN_GROUP_SIZE, ExampleQueries.in(StoreLocation.file(store)));
    }

    @AfterAll
    static void close() {
        if (executor != null) {
            executor.close();
        }
    }

    static JsonNode json(Envelope e) throws Exception {
        return new ObjectMapper().readTree(e.toJson());
    }

    @Test
    @Order(1)
    void beforeMiningNothingJoinsAndExamplesAreEmpty() throws Exception {
        Envelope joins = tools.call("suggest_joins", Map.of("tables", List.of("public.invoice_line", "public.album")));
        assertEquals(Status.EMPTY, joins.status(), joins.toJson());
        Envelope examples = tools.call("get_example_queries", Map.of("qualified_name", "public.invoice_line"));
        assertEquals(Status.EMPTY, examples.status(), examples.toJson());
        assertEquals("describe_table", json(examples).at("/data/suggested_call/tool").asText());
        assertTrue(json(examples).at("/data/reason").asText().contains("No query log has been mined"), examples.toJson());
    }

    @Test
    @Order(2)
    void afterMiningTheObservedJoinsConnectAndAMetricCompilesAcrossThem() throws Exception {
        try (Connection c = TestPostgres.connect(DB); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_statements_reset()");
        }
        try (Connection c = TestPostgres.connect(DB)) {
            ChinookWorkload.run(c);
        }
        InProcessCli.Result mined = InProcessCli.run("--store", store.toString(), "mine-queries", "--source", TestPostgres.url(DB));
        assertEquals(0, mined.exitCode(), mined.stdout() + mined.stderr());

        Envelope joins = tools.call("suggest_joins", Map.of("tables", List.of("public.invoice_line", "public.album")));
        assertEquals(Status.SUCCESS, joins.status(), joins.toJson());
        JsonNode path = json(joins).at("/data/paths/0");
        assertEquals(2, path.get("hops").asInt(), path.toString());
        JsonNode first = path.at("/steps/0");
        JsonNode second = path.at("/steps/1");
        assertEquals("public.track", first.get("to").asText());
        assertEquals("query_log", first.get("via").asText());
        assertEquals("observed_in_query_log", first.get("inference_method").asText());
        assertEquals("many_to_one", first.get("cardinality").asText());
        assertEquals("MEDIUM", first.get("confidence").asText(), "invoice_line = track, seen 9 times");
        assertEquals("public.album", second.get("to").asText());
        assertEquals("query_log", second.get("via").asText());
        assertEquals("LOW", second.get("confidence").asText(), "track = album, seen 4 times");
        assertEquals(Confidence.LOW, joins.confidence(), "a path is as sure as its weakest step");

        Envelope metric = tools.call("get_metric", Map.of("name", "invoice_line_count", "group_by", List.of("album.title"),
                "limit", 5));
        // Albums bought by fewer than five customers are left out (small_groups_suppressed); the rest are answered.
        assertTrue(metric.status() == Status.SUCCESS || metric.status() == Status.PARTIAL || metric.status() == Status.DEGRADED
                && "small_groups_suppressed".equals(json(metric).at("/degradation_reason").asText()), metric.toJson());
        String sql = json(metric).at("/data/sql").asText();
        assertTrue(sql.contains("\"track\"") && sql.contains("\"album\""), "joined through track to album: " + sql);
        assertTrue(json(metric).at("/data/rows").size() > 0, metric.toJson());
    }

    @Test
    @Order(3)
    void examplesAreRankedWithJoinsAndPiiCategories() throws Exception {
        Envelope examples = tools.call("get_example_queries", Map.of("qualified_name", "public.invoice_line", "limit", 3,
                "response_format", "detailed"));
        assertEquals(Status.SUCCESS, examples.status(), examples.toJson());
        JsonNode queries = json(examples).at("/data/queries");
        assertEquals(3, queries.size());
        assertEquals(ChinookWorkload.TOP_RUNS, queries.get(0).get("observations").asLong());
        assertEquals("public.invoice_line.track_id = public.track.track_id", queries.get(0).at("/joins/0").asText());
        assertTrue(queries.get(0).get("sql").asText().contains("il.invoice_id = ?"), queries.get(0).toString());
        assertTrue(json(examples).at("/data/total").asLong() > 3);
        Envelope email = tools.call("get_example_queries", Map.of("qualified_name", "public.customer.email"));
        assertEquals(Status.SUCCESS, email.status(), email.toJson());
        for (JsonNode q : json(email).at("/data/queries")) {
            assertTrue(q.get("pii_categories").toString().contains("contact"), q.toString());
            assertTrue(!q.get("sql").asText().contains("@"), "no e-mail value: " + q);
        }
    }
}
