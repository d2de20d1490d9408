package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * JSON-RPC over Streamable HTTP by hand (java.net.http), so a test chooses the request ids and the client
 * name the audit row's caller carries, and sees exactly which calls were answered.
 */
final class RawMcpClient {

    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final URI mcp;
    private String session;

    RawMcpClient(String baseUrl) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        this.mcp = URI.create(baseUrl + "/mcp");
    }

    /** initialize as {@code name}/1.0; later calls carry the session id, so their rows name this client. */
    void initialize(String name) throws IOException, InterruptedException {
        ObjectNode params = JSON.createObjectNode().put("protocolVersion", HttpService.PROTOCOL_VERSION);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", name).put("version", "1.0");
        HttpResponse<String> r = post(0, "initialize", params);
        if (r.statusCode() != 200) {
            throw new IOException("initialize answered " + r.statusCode() + ": " + r.body());
        }
        session = r.headers().firstValue(McpGate.SESSION_HEADER).orElseThrow();
    }

    /** tools/call; the JSON-RPC response (result or error), or an exception when none came. */
    JsonNode call(long id, String tool, Map<String, Object> arguments) throws IOException, InterruptedException {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        HttpResponse<String> r = post(id, "tools/call", params);
        if (r.statusCode() != 200) {
            throw new IOException("tools/call answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> post(long id, String method, ObjectNode params) throws IOException, InterruptedException {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        message.set("params", params);
        HttpRequest.Builder b = HttpRequest.newBuilder(mcp).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)));
        if (session != null) {
            b.header(McpGate.SESSION_HEADER, session).header("MCP-Protocol-Version", HttpService.PROTOCOL_VERSION);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
