package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.mcp.server.JsonRpcFrames;
import dev.schemabrain.access.Access;
import java.time.Duration;
import dev.schemabrain.mcp.server.McpCore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.transport.stdio.StdioServer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The edge's contract over stdio: the real {@link StdioServer} in this JVM, on the same registry and audit
 * log as the HTTP service, fed one session's lines and run until its input ends.
 */
class StdioEdgeContractTest extends McpEdgeContract {

    @Override
    List<JsonNode> exchange(List<ObjectNode> requests) throws Exception {
        ObjectNode initialize = request(0, "initialize");
        ObjectNode params = initialize.putObject("params").put("protocolVersion", "2025-06-18");
        params.putObject("capabilities");
        params.set("clientInfo", JSON.valueToTree(clientInfo()));
        StringBuilder in = new StringBuilder().append(initialize).append('\n')
                .append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        return serve(in, requests);
    }

    @Override
    List<JsonNode> exchangeModern(List<ObjectNode> requests) throws Exception {
        return serve(new StringBuilder(), requests);
    }

    @Override
    String caller() {
        return StdioServer.CALLER;
    }

    private List<JsonNode> serve(StringBuilder in, List<ObjectNode> requests) throws Exception {
        for (ObjectNode message : requests) {
            in.append(message).append('\n');
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StdioServer.run(McpCore.of(fixture.registry, DispatchCapacity.forMaxConcurrentQueries(2), RATES, ToolListing.FULL, Optional::empty, "test"),
                Duration.ZERO, () -> Access.UNRESTRICTED,
                new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        Map<String, JsonNode> byId = byId(out);
        List<JsonNode> replies = new ArrayList<>();
        for (ObjectNode message : requests) {
            // An id that cannot be echoed is answered with a null one.
            String id = JsonRpcFrames.badId(message) ? "null" : message.path("id").asText();
            replies.add(byId.getOrDefault(id, JSON.createObjectNode().put("missing", true)));
        }
        return replies;
    }

    /** The JSON-RPC replies a stdio server wrote, by their id. */
    static Map<String, JsonNode> byId(ByteArrayOutputStream out) throws Exception {
        Map<String, JsonNode> byId = new HashMap<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                JsonNode reply = JSON.readTree(line);
                byId.put(reply.path("id").asText(), reply);
            }
        }
        return byId;
    }
}
