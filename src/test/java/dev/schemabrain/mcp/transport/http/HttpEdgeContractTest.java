package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The edge's contract over Streamable HTTP: raw JSON-RPC frames posted to the real service on a free port. */
class HttpEdgeContractTest extends McpEdgeContract {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

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
            HttpResponse<String> r = post(message, session);
            JsonNode reply = JSON.readTree(r.body());
            if (r.statusCode() != 200 && reply instanceof ObjectNode o) {
                o.put("http_status", r.statusCode());
            }
            replies.add(reply);
        }
        return replies;
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
