package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.schemabrain.mcp.server.ModernEra;

/** The edge's contract over Streamable HTTP: raw JSON-RPC frames posted to the real service on a free port. */
class HttpEdgeContractTest extends McpEdgeContract {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Override
    List<JsonNode> exchange(List<ObjectNode> requests) throws Exception {
        ObjectNode initialize = request(0, "initialize");
        ObjectNode params = initialize.putObject("params").put("protocolVersion", HttpService.PROTOCOL_VERSION);
        params.putObject("capabilities");
        params.set("clientInfo", JSON.valueToTree(clientInfo()));
        HttpResponse<String> init = post(initialize, null);
        String session = init.headers().firstValue(McpGate.SESSION_HEADER).orElseThrow();
        List<JsonNode> replies = new ArrayList<>();
        for (ObjectNode message : requests) {
            replies.add(reply(post(message, session)));
        }
        return replies;
    }

    @Override
    List<JsonNode> exchangeModern(List<ObjectNode> requests) throws Exception {
        List<JsonNode> replies = new ArrayList<>();
        for (ObjectNode message : requests) {
            replies.add(reply(HTTP.send(modernPost(message, routing(message)).build(), HttpResponse.BodyHandlers.ofString())));
        }
        return replies;
    }

    /** The JSON-RPC reply, with a non-200 HTTP status put in it as "http_status". */
    static JsonNode reply(HttpResponse<String> r) throws Exception {
        JsonNode reply = JSON.readTree(r.body());
        if (r.statusCode() != 200 && reply instanceof ObjectNode o) {
            o.put("http_status", r.statusCode());
        }
        return reply;
    }

    @Override
    String caller() {
        return RequestScope.ANONYMOUS;
    }

    /** The headers a 2026-07-28 client derives from the body: version, method and, for a call, the tool's name. */
    static Map<String, String> routing(ObjectNode message) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("MCP-Protocol-Version", message.path("params").path("_meta").path(ModernEra.META_PROTOCOL_VERSION)
                .asText(ModernEra.VERSION));
        headers.put("Mcp-Method", message.path("method").asText());
        if (message.path("params").path("name").isTextual()) {
            headers.put("Mcp-Name", message.path("params").path("name").asText());
        }
        return headers;
    }

    static HttpRequest.Builder modernPost(ObjectNode message, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(fixture.url() + "/mcp")).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)));
        headers.forEach(b::header);
        return b;
    }

    private static HttpResponse<String> post(ObjectNode message, String session) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(fixture.url() + "/mcp")).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)));
        if (session != null) {
            b.header(McpGate.SESSION_HEADER, session).header("MCP-Protocol-Version", HttpService.PROTOCOL_VERSION);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
