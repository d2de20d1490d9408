package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.RateLimit;
import dev.schemabrain.mcp.server.UnknownMethod;
import dev.schemabrain.mcp.server.UnknownTool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MCP edge's contract, which every transport passes unchanged: the same answer (JSON-RPC error code and
 * sentence, or the envelope's status, error kind and sentence) and the same audit rows for a valid call,
 * invalid arguments, an unknown tool, an unknown method, a refused call and tools/list. A refusal rule that
 * lands in one transport only fails here in the other.
 */
abstract class McpEdgeContract {

    static final ObjectMapper JSON = new ObjectMapper();
    /** One get_metric per caller per hour: the second call in a row is refused. */
    static final CallerRates RATES = CallerRates.metricOnly(new RateLimit(1.0 / 3600, 1));

    static HttpFixture fixture;

    @BeforeAll
    static void startFixture() throws Exception {
        fixture = HttpFixture.start(HttpOptions.loopback(), RATES);
    }

    @AfterAll
    static void stopFixture() {
        fixture.close();
    }

    /**
     * Sends {@code requests} in one initialized session and returns the JSON-RPC reply to each, in order.
     * A transport's non-200 HTTP status (none over stdio) is an answer too: it is put in the reply as "http_status".
     */
    abstract List<JsonNode> exchange(List<ObjectNode> requests) throws Exception;

    // ---- the cases ----

    @Test
    void aValidCallIsAnsweredAndRecorded() throws Exception {
        Outcome o = run(call(1, "list_metrics", JSON.createObjectNode()));
        assertEquals(List.of("envelope success"), o.answers());
        assertEquals(List.of("list_metrics call success -"), o.rows());
    }

    @Test
    void aMissingRequiredArgumentIsAnInvalidArgumentEnvelope() throws Exception {
        assertInvalidArgument(JSON.createObjectNode(), "qualified_name");
    }

    @Test
    void aWrongTypeIsAnInvalidArgumentEnvelope() throws Exception {
        assertInvalidArgument(JSON.createObjectNode().put("qualified_name", 5), "qualified_name");
    }

    @Test
    void anUnknownArgumentIsAnInvalidArgumentEnvelope() throws Exception {
        assertInvalidArgument(JSON.createObjectNode().put("qualified_name", "main.invoices").put("bogus", 1), "bogus");
    }

    @Test
    void argumentsNullAreNoArguments() throws Exception {
        assertInvalidArgument(JSON.nullNode(), "qualified_name");
    }

    @Test
    void argumentsNotAnObjectAreInvalidParams() throws Exception {
        Outcome o = run(call(1, "describe_table", JSON.valueToTree("main.invoices")));
        assertEquals(List.of("rpc -32602 Invalid params: tools/call params.arguments must be a JSON object of argument"
                + " names to values."), o.answers());
        assertEquals(List.of("describe_table call error invalid_argument"), o.rows());
    }

    @Test
    void anUnknownToolIsInvalidParamsWithTheClosestName() throws Exception {
        Outcome o = run(call(1, "describe_tabel", JSON.createObjectNode()));
        assertEquals(List.of("rpc -32602 " + UnknownTool.message("describe_tabel", fixture.registry.names())), o.answers());
        assertEquals(List.of("describe_tabel call error unknown_name"), o.rows());
    }

    @Test
    void aToolsCallWithoutANameIsInvalidParams() throws Exception {
        ObjectNode message = request(1, "tools/call");
        message.putObject("params").putObject("arguments");
        Outcome o = run(message);
        assertEquals(List.of("rpc -32602 Invalid params: tools/call needs params.name (a tool name from tools/list)."),
                o.answers());
        assertEquals(List.of("(none) call error invalid_argument"), o.rows());
    }

    @Test
    void anUnknownMethodIsMethodNotFoundAndLeavesNoRow() throws Exception {
        Outcome o = run(request(1, "tools/unknown"));
        assertEquals(1, o.answers().size());
        assertEquals(List.of("rpc -32601 Method not found: tools/unknown"), o.answers());
        assertEquals(List.of(), o.rows());
    }

    @Test
    void aMethodWithControlCharactersIsNotFoundAndNotEchoed() throws Exception {
        String method = "tools/\u202Elist\u0000";
        Outcome o = run(request(1, method));
        assertEquals(List.of("rpc -32601 " + UnknownMethod.unreadable(method)), o.answers());
        assertEquals(List.of(), o.rows());
    }

    @Test
    void aCallOverTheMetricRateIsRefusedAndRecorded() throws Exception {
        ObjectNode arguments = JSON.createObjectNode().put("name", "payments_count");
        Outcome o = run(call(1, "get_metric", arguments), call(2, "get_metric", arguments));
        assertEquals("envelope success", o.answers().get(0));
        assertTrue(o.answers().get(1).startsWith("envelope refused policy_blocked "), o.answers()::toString);
        // The two calls run side by side: their rows are compared as a set.
        assertEquals(List.of("get_metric call refused policy_blocked", "get_metric completed success -",
                "get_metric started started -"), o.rows().stream().sorted().toList());
    }

    @Test
    void toolsListIsEveryToolInTheRegistrysOrder() throws Exception {
        List<JsonNode> replies = exchange(List.of(request(1, "tools/list")));
        List<String> names = new ArrayList<>();
        replies.get(0).path("result").path("tools").forEach(t -> names.add(t.path("name").asText()));
        assertEquals(fixture.registry.names(), names, replies::toString);
    }

    // ---- the workings ----

    private void assertInvalidArgument(JsonNode arguments, String named) throws Exception {
        Outcome o = run(call(1, "describe_table", arguments));
        assertEquals(1, o.answers().size());
        assertTrue(o.answers().get(0).startsWith("envelope error invalid_argument Invalid arguments for describe_table: "),
                o.answers()::toString);
        assertTrue(o.answers().get(0).contains(named), o.answers()::toString);
        assertEquals(List.of("describe_table call error invalid_argument"), o.rows());
    }

    /** What the client saw, one line per request, and the audit rows the requests left, oldest first. */
    record Outcome(List<String> answers, List<String> rows) {
    }

    private Outcome run(ObjectNode... requests) throws Exception {
        long baseline = lastRowId();
        List<String> answers = new ArrayList<>();
        for (JsonNode reply : exchange(List.of(requests))) {
            answers.add(describe(reply));
        }
        return new Outcome(answers, rowsAfter(baseline));
    }

    private static String describe(JsonNode reply) {
        String status = reply.has("http_status") ? "http " + reply.path("http_status").asInt() + " " : "";
        if (reply.has("error")) {
            return status + "rpc " + reply.path("error").path("code").asInt() + " " + reply.path("error").path("message").asText();
        }
        JsonNode envelope = reply.path("result").path("structuredContent");
        JsonNode error = envelope.path("error");
        return status + "envelope " + envelope.path("status").asText()
                + (error.isObject() ? " " + error.path("kind").asText() + " " + error.path("message").asText() : "");
    }

    private static long lastRowId() throws Exception {
        try (AuditLog log = AuditLog.openExisting(fixture.store())) {
            return log.list(1, OptionalLong.empty()).stream().mapToLong(AuditRecord::id).max().orElse(0);
        }
    }

    /** The rows after {@code baseline}, as "tool phase status kind"; waits a moment for rows still being written. */
    private static List<String> rowsAfter(long baseline) throws Exception {
        List<String> rows = List.of();
        for (int tries = 0; tries < 10; tries++) {
            Thread.sleep(tries == 0 ? 50 : 100);
            try (AuditLog log = AuditLog.openExisting(fixture.store())) {
                List<String> now = new ArrayList<>();
                for (AuditRecord r : log.list(50, OptionalLong.empty())) {
                    if (r.id() > baseline) {
                        AuditEntry e = r.entry();
                        now.add(e.tool() + " " + e.phase().wireName() + " " + e.status() + " "
                                + (e.errorKind() == null ? "-" : e.errorKind()));
                    }
                }
                if (now.equals(rows) && tries > 1) {
                    break;
                }
                rows = now;
            }
        }
        return rows;
    }

    static ObjectNode request(long id, String method) {
        return JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
    }

    static ObjectNode call(long id, String tool, JsonNode arguments) {
        ObjectNode message = request(id, "tools/call");
        ObjectNode params = message.putObject("params").put("name", tool);
        params.set("arguments", arguments);
        return message;
    }

    static Map<String, Object> clientInfo() {
        return Map.of("name", "contract", "version", "1");
    }
}
