package dev.schemabrain.mcp.transport.stdio;

import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.server.CallGate;
import dev.schemabrain.mcp.server.Handshake;
import dev.schemabrain.mcp.server.ToolListCache;
import dev.schemabrain.mcp.server.ToolListing;

import dev.schemabrain.mcp.tool.ToolRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** tools/list from cached bytes: built once per catalog version, answered by the stdin guard, compact on request. */
class ToolListTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final McpJsonMapper MCP_JSON = new JacksonMcpJsonMapper(JSON);

    private static McpSchema.Tool tool(String name, String description) {
        Map<String, Object> input = Map.of("type", "object", "properties", Map.of(
                "title", Map.of("type", "string", "description", "A property named title stays.", "default", "x"),
                "filters", Map.of("type", "array", "items", Map.of("type", "object", "title", "Filter",
                        "properties", Map.of("value", Map.of("anyOf", List.of(Map.of("type", "string", "examples", List.of("a")))))))),
                "required", List.of("title"));
        return McpSchema.Tool.builder(name, input).title(name).description(description).build();
    }

    @Test
    void theListIsBuiltOncePerCatalogVersion() {
        AtomicInteger built = new AtomicInteger();
        ToolListCache cache = new ToolListCache(v -> {
            built.incrementAndGet();
            return List.of(tool("t_" + v, "Use this when testing."));
        }, MCP_JSON);
        byte[] first = cache.bytes("v1");
        assertSame(first, cache.bytes("v1"), "the same bytes, not a new serialization");
        assertTrue(new String(cache.bytes("v2"), StandardCharsets.UTF_8).contains("t_v2"), "a new version is built anew");
        assertEquals(2, built.get());
        ToolListCache.Stats stats = cache.stats();
        assertEquals(List.of(1L, 2L, 2L), List.of(stats.hits(), stats.misses(), stats.builds()));
    }

    @Test
    void theCachedBytesAreTheListTheSdkWouldSend() throws Exception {
        List<McpSchema.Tool> tools = List.of(tool("a", "Use this when testing."), tool("b", "Use this when testing too."));
        ToolListCache cache = new ToolListCache(v -> tools, MCP_JSON);
        assertEquals(JSON.readTree(MCP_JSON.writeValueAsString(new McpSchema.ListToolsResult(tools, null))),
                JSON.readTree(cache.bytes("v")));
    }

    /** Runs the guard over {@code lines}; answers the frames it wrote itself and the lines it passed on. */
    private static List<List<String>> guard(String... lines) throws Exception {
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        String input = String.join("\n", lines) + "\n";
        List<String> passed = new ArrayList<>();
        StdinGuard guard = new StdinGuard(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), frames, 1 << 20,
                new StdinGuard.Early(Handshake.forTools(List.of(), "test"), List.of("2025-06-18"), Duration.ZERO));
        guard.ready(new StdinGuard.Parts(message -> passed.add(message.toString()),
                new CallGate(ToolRegistry.of(List.of()), () -> "{\"tools\":[]}".getBytes(StandardCharsets.UTF_8)), null, null,
                () -> Access.UNRESTRICTED));
        guard.run();
        return List.of(lines(frames.toString(StandardCharsets.UTF_8)), passed);
    }

    private static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isEmpty()) {
                out.add(line);
            }
        }
        return out;
    }

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

    @Test
    void afterInitializeTheGuardAnswersToolsListWithTheCachedBytes() throws Exception {
        List<List<String>> out = guard(INITIALIZE, "{\"jsonrpc\":\"2.0\",\"id\":\"x\\\"1\",\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{}}");
        List<String> answered = out.get(0);
        assertEquals(2, answered.size(), answered.toString());
        JsonNode first = JSON.readTree(answered.get(0));
        assertEquals("x\"1", first.path("id").asText(), "a string id comes back escaped and intact");
        assertEquals("2.0", first.path("jsonrpc").asText());
        assertTrue(first.at("/result/tools").isArray());
        assertEquals(7, JSON.readTree(answered.get(1)).path("id").asInt());
        assertEquals(1, out.get(1).size(), "only initialize reached the SDK");
    }

    @Test
    void beforeInitializeTheSdkAnswersToolsList() throws Exception {
        List<List<String>> out = guard("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        assertTrue(out.get(0).isEmpty(), out.get(0).toString());
        assertEquals(1, out.get(1).size());
    }

    @Test
    void compactDescriptionsAreCappedAt140Characters() {
        String longText = "Use this when " + "you want a fairly long description of a tool ".repeat(10);
        String capped = ToolListing.COMPACT.present(tool("a", longText)).description();
        assertTrue(capped.length() <= 140, capped.length() + ": " + capped);
        assertTrue(capped.endsWith("…") && longText.startsWith(capped.substring(0, capped.length() - 1)), capped);
        assertEquals("Use this when short.", ToolListing.COMPACT.present(tool("a", "Use this when short.")).description());
    }

    @Test
    void compactInputSchemasLoseOnlyNonEssentialKeys() throws Exception {
        McpSchema.Tool full = tool("a", "Use this when testing.");
        String compact = JSON.writeValueAsString(ToolListing.COMPACT.present(full).inputSchema());
        for (String key : List.of("\"description\"", "\"default\"", "\"examples\"", "\"Filter\"")) {
            assertFalse(compact.contains(key), key + " left in " + compact);
        }
        JsonNode schema = JSON.readTree(compact);
        assertEquals("string", schema.at("/properties/title/type").asText(), "a property named title is kept");
        assertEquals("string", schema.at("/properties/filters/items/properties/value/anyOf/0/type").asText());
        assertEquals("title", schema.at("/required/0").asText());
    }

    @Test
    void theFullListingIsTheDefinitionItself() {
        McpSchema.Tool full = tool("a", "Use this when testing.");
        assertSame(full, ToolListing.FULL.present(full));
    }
}
