package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.mcp.tools.ToolGroups;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The size of tools/list as served (the JSON-RPC result bytes, deterministic): what a client pays in
 * tokens on every session. Prints the per-tool and per-key breakdown the ceilings were chosen from.
 */
class ToolListSizeTest {

    /** Raised from 12,000 and 10,200 by issue 30: find_relevant_metrics and the listings' limit and cursor (about 1,100 bytes). */
    static final int FULL_CEILING = 14_000;   // issue 35: 14,951 before lengths and additionalProperties left the schemas
    /** Raised by 1,500 each by issue 34: validate_query and execute, about 700 bytes each (most of it the annotations and schema). */
    static final int COMPACT_CEILING = 12_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What {@code serve} lists without {@code --tools}. */
    static final int DEFAULT_CEILING = 8_000;

    static byte[] served(ToolListing listing) {
        return served(listing, ToolGroups.ALL);
    }

    static byte[] served(ToolListing listing, ToolGroups groups) {
        ToolRegistry registry = groups.select(StandardTools.registry(Optional::empty, Optional.empty()));
        return new ToolListCache(v -> McpToolAdapter.definitions(registry, listing), new JacksonMcpJsonMapper(JSON)).bytes("v");
    }

    @Test
    void theDefaultListIsAtMost8000Bytes() throws Exception {
        byte[] bytes = served(ToolListing.FULL, ToolGroups.DEFAULT);
        System.out.println(breakdown("default", bytes));
        assertTrue(bytes.length <= DEFAULT_CEILING, "the default tools/list is " + bytes.length + " bytes, over " + DEFAULT_CEILING);
    }

    @Test
    void theFullListFitsItsCeiling() throws Exception {
        byte[] bytes = served(ToolListing.FULL);
        System.out.println(breakdown("full", bytes));
        assertTrue(bytes.length <= FULL_CEILING, "tools/list is " + bytes.length + " bytes, over " + FULL_CEILING);
    }

    @Test
    void theCompactListFitsItsCeiling() throws Exception {
        byte[] bytes = served(ToolListing.COMPACT);
        System.out.println(breakdown("compact", bytes));
        assertTrue(bytes.length <= COMPACT_CEILING, "compact tools/list is " + bytes.length + " bytes, over " + COMPACT_CEILING);
    }

    private static String breakdown(String label, byte[] bytes) throws Exception {
        JsonNode tools = JSON.readTree(bytes).path("tools");
        StringBuilder out = new StringBuilder(label + " tools/list: " + bytes.length + " bytes, " + tools.size() + " tools\n");
        Map<String, Integer> perKey = new TreeMap<>();
        for (JsonNode tool : tools) {
            out.append(String.format("  %-24s %5d%n", tool.path("name").asText(), JSON.writeValueAsBytes(tool).length));
            for (Iterator<Map.Entry<String, JsonNode>> it = tool.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                perKey.merge(e.getKey(), JSON.writeValueAsBytes(e.getValue()).length + e.getKey().length() + 4, Integer::sum);
            }
        }
        perKey.forEach((key, n) -> out.append(String.format("  key %-20s %5d%n", key, n)));
        return out.toString();
    }
}
