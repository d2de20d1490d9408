package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.McpStdio;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** serve --tools through the real CLI: the listed tools and prompts follow the groups; a call outside them is refused. */
class ServeToolsTest {

    @TempDir
    Path dir;

    @Test
    void aServerOfTheCatalogGroupListsAndServesOnlyIt() throws Exception {
        Path store = dir.resolve("tools.db");
        Files.copy(HttpFixture.pristineDemoStore(), store);
        StringBuffer stderr = new StringBuffer();
        McpSyncClient client = McpStdio.client(store, stderr, Map.of(), "--tools", "catalog,examples");
        try {
            assertEquals(List.of("list_indexed_schemas", "find_relevant_tables", "describe_table", "describe_column",
                    "suggest_joins", "get_example_queries"), client.listTools().tools().stream().map(McpSchema.Tool::name).toList());
            assertEquals(List.of("how_do_these_tables_relate", "how_others_queried", "tell_me_about_a_domain",
                    "whats_in_this_database"), client.listPrompts().prompts().stream().map(McpSchema.Prompt::name).sorted().toList());
            // A tool outside the groups is not there at all: the same answer as a name never served.
            McpError refused = assertThrows(McpError.class, () -> McpStdio.call(client, "get_metric", Map.of("metric", "revenue")));
            assertTrue(refused.getMessage().startsWith("Unknown tool 'get_metric'"), refused.getMessage());
        } finally {
            McpStdio.stop(client);
        }
    }

    @Test
    void withoutToolsTheServerListsTheCoreInAtMost8000Bytes() throws Exception {
        Path store = dir.resolve("core.db");
        Files.copy(HttpFixture.pristineDemoStore(), store);
        List<String> command = new ArrayList<>(McpStdio.serveCommand(store));
        command.subList(command.size() - 2, command.size()).clear();   // no --tools: what a user's client gets
        StringBuffer stderr = new StringBuffer();
        McpSyncClient client = McpStdio.client(io.modelcontextprotocol.client.transport.ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()).toArray(String[]::new)).build(), stderr);
        try {
            McpSchema.ListToolsResult listed = client.listTools();
            assertEquals(List.of("find_relevant_tables", "describe_table", "suggest_joins", "describe_entity", "list_metrics",
                    "find_relevant_metrics", "get_metric", "execute"), listed.tools().stream().map(McpSchema.Tool::name).toList());
            int bytes = McpStdio.JSON.writeValueAsString(Map.of("tools", listed.tools())).getBytes(
                    StandardCharsets.UTF_8).length;
            assertTrue(bytes <= 8_000, "the default tools/list is " + bytes + " bytes");
            // An answer of the core points only at core tools: describe_column's stand-in is describe_table.
            McpSchema.CallToolResult described = McpStdio.call(client, "describe_table", Map.of("qualified_name", "main.invoices"));
            assertEquals(List.of("describe_table", "suggest_joins"), ((Map<?, ?>) described.structuredContent()).get("follow_up_hints"));
        } finally {
            McpStdio.stop(client);
        }
    }

    @Test
    void anUnknownGroupIsOneSentenceAndExitTwo() {
        InProcessCli.Result r = InProcessCli.run("--store", dir.resolve("none.db").toString(), "serve", "--tools", "catalog,metrics");
        assertEquals(2, r.exitCode(), r.stderr());
        assertEquals("schemabrain: --tools names no group 'metrics'; the groups are catalog, semantic, sql, examples,"
                + " core and all (comma-separated, default core).", r.stderr().strip());
    }
}
