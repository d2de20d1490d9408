package dev.schemabrain.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.error.UserError;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Optional;

/** {@code schemabrain probe}: health, tools/list size, and sequential then concurrent latency of one call. */
public final class Probe {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** How much to measure: calls per run, threads for the concurrent run, untimed calls first. */
    public record Plan(int calls, int concurrency, int warmup) {
    }

    private Probe() {
    }

    /** Connects, measures, and answers the report; {@code target} empty means discover SchemaBrain's default call. */
    public static ObjectNode run(McpHttpClient client, Optional<CallTarget> target, Plan plan)
            throws UserError, InterruptedException {
        ObjectNode report = JSON.createObjectNode().put("url", client.display());
        report.set("health", health(client));
        McpHttpClient.ServerInfo server = client.connect();
        report.set("server", server(server));
        McpHttpClient.Reply tools = client.listTools();
        report.put("tools", tools.message().path("result").path("tools").size());
        report.put("tools_list_bytes", tools.bytes());
        CallTarget call = target.isPresent() ? target.get() : CallTarget.discover(client);
        report.set("call", call(call));
        LoadRun.run(() -> call.callOnce(client), plan.warmup(), 1);
        report.set("sequential", LoadRun.run(() -> call.callOnce(client), plan.calls(), 1).json());
        report.set("concurrent", LoadRun.run(() -> call.callOnce(client), plan.calls(), plan.concurrency()).json());
        return report;
    }

    /** GET /health on the server's origin: its JSON, or a note of what answered there instead. */
    static JsonNode health(McpHttpClient client) throws UserError {
        HttpResponse<String> response = client.get("/health");
        ObjectNode health = JSON.createObjectNode();
        health.put("status_code", response.statusCode());
        if (response.statusCode() == 404) {
            health.put("present", false);
            return health;
        }
        health.put("present", true);
        try {
            JsonNode body = JSON.readTree(response.body());
            if (body != null && body.isObject()) {
                health.set("body", body);
            }
        } catch (IOException e) {
            health.put("body_bytes", response.body().length());
        }
        return health;
    }

    static ObjectNode server(McpHttpClient.ServerInfo server) {
        return JSON.createObjectNode()
                .put("name", server.name())
                .put("version", server.version())
                .put("protocol_version", server.protocolVersion())
                .put("session", server.session());
    }

    static ObjectNode call(CallTarget call) {
        ObjectNode node = JSON.createObjectNode().put("tool", call.tool());
        node.set("arguments", JSON.valueToTree(call.arguments()));
        return node;
    }
}
