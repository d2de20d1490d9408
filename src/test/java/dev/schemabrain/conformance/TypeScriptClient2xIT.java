package dev.schemabrain.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.testing.McpStdio;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TypeScript MCP SDK 2.x client ({@code @modelcontextprotocol/client} 2.4.0, src/test/node/drive-every-tool-2x.mjs)
 * in its 'auto' negotiation: it probes with server/discover and, offered 2026-07-28, speaks that revision with
 * no initialize and no session. Over the packaged jar's HTTP and stdio alike it must negotiate 2026-07-28, list
 * the tools and call every one, each answering a valid envelope (TypeScriptClientIT's checks). The 1.x client
 * (2025-11-25) is TypeScriptClientIT.
 */
class TypeScriptClient2xIT {

    @TempDir
    static Path dir;
    static List<JsonNode> overHttp;
    static List<JsonNode> overStdio;

    @BeforeAll
    static void drive() throws Exception {
        NodeToolchain.install();
        try (ServedDemo server = ServedDemo.start(dir)) {
            overHttp = TypeScriptClientIT.drive("drive-every-tool-2x.mjs", List.of(server.mcpUrl), server::log);
        }
        // The demo the HTTP server served, now over stdio (the client starts the server, as an agent host does).
        List<String> command = new ArrayList<>(List.of("--stdio", "/usr/bin/env",
                "SB_DEMO_URL=sqlite:" + dir.resolve("demo.sqlite")));
        // Node runs in target/conformance: the jar by its absolute path.
        McpStdio.serveCommand(dir.resolve("demo.db")).forEach(part -> command.add(
                part.equals(McpStdio.jar().toString()) ? McpStdio.jar().toAbsolutePath().toString() : part));
        command.addAll(List.of("--transport", "stdio", "--url-env", "SB_DEMO_URL"));
        overStdio = TypeScriptClientIT.drive("drive-every-tool-2x.mjs", command, () -> "(stderr inherited)");
    }

    @Test
    void overHttpTheClientNegotiates20260728AndCallsEveryTool() throws Exception {
        assertNegotiated(overHttp);
        TypeScriptClientIT.assertEveryToolAnswered(overHttp);
    }

    @Test
    void overStdioTheClientNegotiates20260728AndCallsEveryTool() throws Exception {
        assertNegotiated(overStdio);
        TypeScriptClientIT.assertEveryToolAnswered(overStdio);
    }

    @Test
    void overBothTransportsTheClientGetsAWorkflowPromptWithItsArgument() {
        for (List<JsonNode> lines : List.of(overHttp, overStdio)) {
            JsonNode prompts = lines.stream().filter(l -> l.has("prompts")).findFirst().orElseThrow().get("prompts");
            assertEquals(5, prompts.size(), prompts::toString);
            JsonNode prompt = lines.stream().filter(l -> l.has("prompt")).findFirst().orElseThrow().get("prompt");
            String text = prompt.path("messages").path(0).path("content").path("text").asText();
            assertTrue(text.contains("find_relevant_tables with query \"revenue\""), prompt::toString);
        }
    }

    private static void assertNegotiated(List<JsonNode> lines) {
        JsonNode negotiated = lines.get(0).get("negotiated");
        assertEquals("2026-07-28", negotiated.path("protocolVersion").asText(), negotiated::toString);
        assertEquals("schemabrain", negotiated.path("serverInfo").path("name").asText(), negotiated::toString);
        assertEquals(java.util.Set.of("tools", "prompts", "completions"), java.util.Set.copyOf(iterable(negotiated.path("capabilities"))),
                negotiated::toString);
    }

    private static List<String> iterable(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
