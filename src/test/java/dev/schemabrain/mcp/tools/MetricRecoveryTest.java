package dev.schemabrain.mcp.tools;

import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recoveries fail closed: every error path of get_metric is walked with a call that also carries a
 * valid filter, group_by and time grain, and every {@code recovery.suggested_args} that is a get_metric call must
 * keep them (a call without the filter answers a different question with the same look); otherwise the recovery
 * must point at another tool. Following a get_metric recovery must then not come back with a number that drops them.
 */
class MetricRecoveryTest {

    @TempDir
    static Path dir;
    static QueryExecutor executor;
    static ToolRegistry tools;
    static ToolRegistry offline;
    static final ObjectMapper JSON = new ObjectMapper();

    static final Map<String, Object> FILTER = Map.of("column", "customer.country", "op", "eq", "value", "USA");
    static final List<String> GROUP = List.of("invoice.billing_state");

    @BeforeAll
    static void index() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        SourceUrl url = SourceUrl.parse(TestPostgres.url("chinook"));
        Path store = dir.resolve("chinook.db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        tools = StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(executor)), 1, ExampleQueries.NONE);
        // A server whose source is down: port 1 on this machine refuses at once.
        QueryExecutor down = new QueryExecutor(SourceUrl.parse("postgresql://127.0.0.1:1/chinook?user=nobody"),
                ExecutorSettings.defaults());
        offline = StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(down)), 1, ExampleQueries.NONE);
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    /** A valid call with a filter, a group_by and a grain, with {@code changes} applied (null removes a key). */
    static Map<String, Object> call(Object... changes) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("name", "invoice_total_sum");
        args.put("group_by", GROUP);
        args.put("filters", List.of(FILTER));
        args.put("time_grain", "year");
        for (int i = 0; i < changes.length; i += 2) {
            if (changes[i + 1] == null) {
                args.remove((String) changes[i]);
            } else {
                args.put((String) changes[i], changes[i + 1]);
            }
        }
        return args;
    }

    static JsonNode answer(ToolRegistry registry, Map<String, Object> args) throws Exception {
        return JSON.readTree(registry.call("get_metric", args).toJson());
    }

    /** The error paths: a description and the call that takes it. */
    static Map<String, Map<String, Object>> paths() {
        Map<String, Map<String, Object>> paths = new LinkedHashMap<>();
        paths.put("unknown metric", call("name", "invoice_totl_sum"));
        paths.put("unknown group_by column", call("group_by", List.of("invoice.billing_stat")));
        paths.put("unknown group_by entity", call("group_by", List.of("invoize.billing_state")));
        paths.put("group_by not entity.column", call("group_by", List.of("billing_state")));
        paths.put("unknown filter column", call("filters", List.of(FILTER, Map.of("column", "invoice.totl", "op", "gt", "value", 1))));
        paths.put("filter value of the wrong type", call("filters", List.of(FILTER, Map.of("column", "invoice.total", "op", "gt", "value", "lots"))));
        paths.put("filter value of the wrong date", call("filters", List.of(FILTER, Map.of("column", "invoice.invoice_date", "op", "gt", "value", "soon"))));
        paths.put("in without a list", call("filters", List.of(FILTER, Map.of("column", "invoice.billing_city", "op", "in", "value", "Paris"))));
        paths.put("eq without a value", call("filters", List.of(FILTER, Map.of("column", "invoice.billing_city", "op", "eq"))));
        paths.put("filter op not in the schema", call("filters", List.of(FILTER, Map.of("column", "invoice.billing_city", "op", "like", "value", "P%"))));
        paths.put("invalid time grain", call("time_grain", "fortnight"));
        paths.put("time dimension not temporal", call("time_dimension", "invoice.total"));
        paths.put("unknown time dimension", call("time_dimension", "invoice.paid_at"));
        paths.put("unknown order_by", call("order_by", List.of(Map.of("column", "revenue"))));
        paths.put("unknown via join", call("via", List.of("no_such_join")));
        paths.put("grouped by a tagged column", call("group_by", List.of("customer.email")));
        paths.put("limit out of range", call("limit", 0));
        paths.put("an unknown argument", call("colour", "red"));
        return paths;
    }

    @Test
    void everyGetMetricRecoveryKeepsTheCallersFiltersGroupingAndGrainOrPointsElsewhere() throws Exception {
        List<String> walked = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> path : paths().entrySet()) {
            JsonNode answer = answer(tools, path.getValue());
            walked.add(path.getKey() + " → " + answer.path("status").asText() + "/" + answer.path("error").path("kind").asText()
                    + " → " + answer.path("error").path("recovery").path("suggested_tool").asText());
            assertKeeps(path.getKey(), path.getValue(), answer);
        }
        JsonNode down = answer(offline, call());
        assertEquals("source_unavailable", down.path("error").path("kind").asText(), down.toString());
        assertKeeps("source down", call(), down);
        walked.add("source down → " + down.path("error").path("recovery").path("suggested_tool").asText());
        assertTrue(walked.size() >= 19, String.join("\n", walked));
    }

    static void assertKeeps(String path, Map<String, Object> given, JsonNode answer) throws Exception {
        String status = answer.path("status").asText();
        assertTrue(Set.of("error", "refused").contains(status), path + " is an error path: " + answer);
        JsonNode recovery = answer.path("error").path("recovery");
        String tool = recovery.path("suggested_tool").asText();
        assertFalse(tool.isBlank(), path + ": a recovery names a tool: " + answer);
        if (!tool.equals("get_metric")) {
            return;
        }
        JsonNode args = recovery.path("suggested_args");
        assertEquals(JSON.valueToTree(GROUP), args.path("group_by"), path + " keeps group_by: " + args);
        assertTrue(args.path("filters").toString().contains("\"customer.country\"") && args.path("filters").toString().contains("\"USA\""),
                path + " keeps the valid filter: " + args);
        assertEquals(JSON.valueToTree(given.get("filters")), args.path("filters"), path + " keeps every filter as given: " + args);
        assertFalse(args.path("time_grain").asText().isBlank(), path + " keeps a time grain: " + args);
        // Following it answers the same question or fails again; never a number without the filter.
        Map<String, Object> next = JSON.convertValue(args, Map.class);
        JsonNode followed = answer(tools, next);
        if (followed.path("data").has("sql")) {
            assertTrue(followed.path("data").path("params").toString().contains("USA"), path + ": " + followed);
        }
    }
}
