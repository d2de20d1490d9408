package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.server.McpCore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.ExampleQueries;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * tools/list over real HTTP: served from cached bytes per catalog version (counted in /health, /metrics),
 * within its size ceiling, with an outputSchema every tool's real answer validates against; and an
 * unknown tool answered with the closest name, as over stdio.
 */
class HttpToolListTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final AtomicReference<String> VERSION = new AtomicReference<>("v1");
    private static HttpService service;

    @BeforeAll
    static void start() throws Exception {
        ToolRegistry registry = StandardTools.registry(new StoreCatalogProvider(HttpFixture.demoStore(), Optional.empty()), SourceExecutors.of(Optional.empty()), 5, ExampleQueries.NONE);
        service = HttpService.start(McpCore.of(registry, DispatchCapacity.forMaxConcurrentQueries(4), CallerRates.OFF, ToolListing.FULL, Optional::empty,
                "test"), HttpOptions.loopback(), new Observability(), VERSION::get, Optional.empty(), Optional.empty());
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    private static String url() {
        return "http://127.0.0.1:" + service.port();
    }

    private static HttpResponse<String> post(String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode toolsListStats() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/health")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body()).at("/observability/tools_list");
    }

    @Test
    void theListIsBuiltOncePerCatalogVersionAndCountedInHealthAndMetrics() throws Exception {
        McpSyncClient client = HttpFixture.client(url(), "list-test");
        try {
            long before = toolsListStats().path("builds").asLong();
            assertEquals(16, client.listTools().tools().size());
            assertEquals(16, client.listTools().tools().size());
            JsonNode stats = toolsListStats();
            assertTrue(stats.path("cache_hits").asLong() >= 1, stats.toString());
            assertEquals(Math.max(1, before), stats.path("builds").asLong(), stats.toString());
            VERSION.set("v2-" + System.nanoTime());
            assertEquals(16, client.listTools().tools().size());
            assertEquals(Math.max(1, before) + 1, toolsListStats().path("builds").asLong());
        } finally {
            client.closeGracefully();
        }
        String metrics = HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("schemabrain_tools_list_builds_total"), metrics);
        assertTrue(metrics.contains("schemabrain_tools_list_cache_hits_total"), metrics);
        assertTrue(service.observability().statsLine().contains("tools/list stats requests="),
                service.observability().statsLine());
    }

    @Test
    void theServedListFitsItsCeilingAndMatchesTheDefinitions() throws Exception {
        HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\"}");
        assertEquals(200, r.statusCode());
        JsonNode message = JSON.readTree(r.body());
        assertEquals("a", message.path("id").asText());
        int resultBytes = JSON.writeValueAsBytes(message.path("result")).length;
        assertTrue(resultBytes <= 14_000, "tools/list result is " + resultBytes + " bytes");
        assertEquals(r.body().getBytes(StandardCharsets.UTF_8).length, ("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":").length()
                + resultBytes + 1, "the result as served is the compact serialization");
        for (JsonNode tool : message.at("/result/tools")) {
            for (String key : List.of("name", "title", "description", "inputSchema", "outputSchema", "annotations")) {
                assertFalse(tool.path(key).isMissingNode(), tool.path("name") + " has no " + key);
            }
            // The published form: lengths and strictness are the validator's (see ArgSchema.toInputSchema).
            assertTrue(tool.at("/inputSchema/additionalProperties").isMissingNode(), tool.path("name").asText());
        }
    }

    /** A real call of every tool; its structuredContent validates against the outputSchema tools/list gave. */
    @Test
    void everyToolsAnswerValidatesAgainstItsListedOutputSchema() {
        Map<String, Map<String, Object>> calls = new LinkedHashMap<>();
        calls.put("list_indexed_schemas", Map.of());
        calls.put("find_relevant_tables", Map.of("query", "invoice payments by card", "limit", 3));
        calls.put("describe_table", Map.of("qualified_name", "main.invoices"));
        calls.put("describe_column", Map.of("qualified_name", "main.invoices.total_cents"));
        calls.put("suggest_joins", Map.of("tables", List.of("main.users", "main.invoices")));
        calls.put("get_example_queries", Map.of("qualified_name", "main.invoices"));
        calls.put("list_entities", Map.of());
        calls.put("find_relevant_entities", Map.of("query", "invoices paid by card", "limit", 2));
        calls.put("describe_entity", Map.of("name", "plans"));
        calls.put("list_joins", Map.of());
        calls.put("resolve_join", Map.of("entity_a", "users", "entity_b", "organizations"));
        calls.put("list_metrics", Map.of());
        calls.put("find_relevant_metrics", Map.of("query", "revenue per month", "limit", 2));
        calls.put("get_metric", Map.of("name", "invoices_count"));
        calls.put("validate_query", Map.of("sql", "SELECT name FROM main.plans"));
        calls.put("execute", Map.of("sql", "SELECT name FROM main.plans"));
        // The SDK client checks each result against the cached outputSchema and fails the call when it does not conform.
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(url()).endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(30))
                .clientInfo(McpSchema.Implementation.builder("validating", "1.0").build())
                .jsonSchemaValidator(new DefaultJsonSchemaValidator())
                .enableCallToolSchemaCaching(true)
                .build();
        try {
            client.initialize();
            Map<String, McpSchema.Tool> tools = new LinkedHashMap<>();
            client.listTools().tools().forEach(t -> tools.put(t.name(), t));
            assertEquals(tools.keySet(), calls.keySet(), "a call for every listed tool");
            DefaultJsonSchemaValidator validator = new DefaultJsonSchemaValidator();
            calls.forEach((name, arguments) -> {
                McpSchema.CallToolResult result = client.callTool(McpSchema.CallToolRequest.builder(name).arguments(arguments).build());
                assertNotNull(result.structuredContent(), name);
                assertTrue(validator.validate(tools.get(name).outputSchema(), result.structuredContent()).valid(), name);
            });
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void anUnknownToolNamesTheClosestOne() throws Exception {
        HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"describe_tabel\",\"arguments\":{}}}");
        JsonNode error = JSON.readTree(r.body()).path("error");
        assertEquals(-32602, error.path("code").asInt(), r.body());
        assertTrue(error.path("message").asText().contains("did you mean describe_table?"), r.body());
        assertEquals(9, JSON.readTree(r.body()).path("id").asInt());
    }
}
