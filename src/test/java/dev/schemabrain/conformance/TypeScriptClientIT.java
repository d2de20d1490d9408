package dev.schemabrain.conformance;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.testing.EnvelopeChecks;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TypeScript MCP SDK's Streamable HTTP client (src/test/node/drive-every-tool.mjs) against the packaged
 * jar's {@code serve --transport http}: it initializes, lists the tools and calls every one with arguments
 * taken from the demo's answers; each answer must be a valid envelope (EnvelopeChecks: the outputSchema,
 * structuredContent equal to content[0].text, isError matching the status) with the status the demo
 * truly has. The Java SDK client's counterpart over HTTP is HttpToolsTest.
 */
class TypeScriptClientIT {

    /** Every tool answers success on the demo, except get_example_queries: the demo has no mined queries. */
    private static final Map<String, String> EMPTY_ON_THE_DEMO = Map.of("get_example_queries", "empty");

    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    @TempDir
    static Path dir;
    static ServedDemo server;
    static List<JsonNode> lines;

    @BeforeAll
    static void drive() throws Exception {
        NodeToolchain.install();
        server = ServedDemo.start(dir);
        lines = drive("drive-every-tool.mjs", List.of(server.mcpUrl), server::log);
    }

    /** Runs a driver script of src/test/node with {@code args}; its output lines, once it exited 0. */
    static List<JsonNode> drive(String name, List<String> args, java.util.function.Supplier<String> serverLog) throws Exception {
        // Copied next to node_modules so their bare imports resolve to the pinned SDKs.
        for (String file : List.of(name, "every-tool-calls.mjs")) {
            Files.copy(Path.of("src/test/node", file), NodeToolchain.DIR.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        List<String> command = new ArrayList<>(List.of(NodeToolchain.DIR.resolve(name).toString()));
        command.addAll(args);
        NodeToolchain.Run run = NodeToolchain.run(command, 300);
        assertEquals(0, run.exitCode(), () -> "the TypeScript client failed:\n" + run.stderr() + "\n" + run.stdout()
                + "\nserver log:\n" + serverLog.get());
        List<JsonNode> out = new ArrayList<>();
        for (String line : run.stdout().split("\n")) {
            if (!line.isBlank()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theClientNegotiatesTheCurrentProtocolAndSeesToolsAndPrompts() {
        JsonNode init = lines.get(0).get("initialize");
        assertEquals("2025-11-25", init.path("protocolVersion").asText(), init::toString);
        assertEquals("schemabrain", init.path("serverInfo").path("name").asText(), init::toString);
        assertEquals(Set.of("tools", "prompts", "completions"), fieldNames(init.path("capabilities")), init::toString);
    }

    @Test
    void everyListedToolIsCalledAndAnswersAValidEnvelope() throws Exception {
        assertEveryToolAnswered(lines);
    }

    /** Every tool of the "tools" line was called and answered a valid envelope with the demo's true status. */
    static void assertEveryToolAnswered(List<JsonNode> lines) throws Exception {
        Map<String, Map<String, Object>> outputSchemas = new LinkedHashMap<>();
        JsonNode listed = lines.stream().filter(l -> l.has("tools")).findFirst().orElseThrow().get("tools");
        for (JsonNode tool : listed) {
            outputSchemas.put(tool.get("name").asText(), JSON.convertValue(tool.get("outputSchema"), new TypeReference<>() { }));
        }
        Set<String> called = new TreeSet<>();
        for (JsonNode line : lines) {
            if (!line.has("tool")) {
                continue;
            }
            String tool = line.get("tool").asText();
            called.add(tool);
            McpSchema.CallToolResult result = exactResult(tool, (ObjectNode) line.get("result"));
            Map<String, Object> envelope = EnvelopeChecks.envelope(result, outputSchemas.get(tool), outputSchemas.keySet());
            assertEquals(EMPTY_ON_THE_DEMO.getOrDefault(tool, "success"), envelope.get("status"),
                    () -> tool + " " + line.get("arguments") + " answered " + envelope);
        }
        JsonNode last = lines.get(lines.size() - 1);
        assertEquals(0, last.path("unplanned").size(), () -> "the script has no call for " + last);
        assertEquals(new TreeSet<>(outputSchemas.keySet()), called);
    }

    /**
     * The result with structuredContent read from content[0].text, once the two are the same JSON value.
     * JavaScript re-serializes the parsed structuredContent with its one number type (the server's 1.0
     * comes back as 1), so they are compared as numbers, and the server's own text, which the client
     * passes on untouched, is what EnvelopeChecks then holds to the schema and the token estimate.
     */
    private static McpSchema.CallToolResult exactResult(String tool, ObjectNode received) throws Exception {
        JsonNode fromText = JSON.readTree(received.path("content").path(0).path("text").asText());
        JsonNode structured = received.path("structuredContent");
        assertTrue(fromText.equals(SAME_NUMBER, structured),
                () -> tool + ": structuredContent is not the envelope in content[0].text:\n" + structured + "\n" + fromText);
        ObjectNode exact = received.deepCopy();
        exact.set("structuredContent", fromText);
        return JSON.convertValue(exact, McpSchema.CallToolResult.class);
    }

    private static final Comparator<JsonNode> SAME_NUMBER = (a, b) -> a.isNumber() && b.isNumber()
            ? a.decimalValue().compareTo(b.decimalValue())
            : a.equals(b) ? 0 : 1;

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
