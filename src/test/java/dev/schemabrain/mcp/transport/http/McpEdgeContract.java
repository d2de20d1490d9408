package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.mcp.server.CallGate;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.JsonRpcFrames;
import dev.schemabrain.mcp.server.ModernEra;
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

    /**
     * Sends {@code requests} as a 2026-07-28 client does: no initialize and no session, each request on its
     * own (over HTTP with the routing headers its body implies), replies in order as {@link #exchange}'s.
     */
    abstract List<JsonNode> exchangeModern(List<ObjectNode> requests) throws Exception;

    /** Who the audit names for a call over this transport (never the client's own word). */
    abstract String caller();

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
    void aToolsCallOfAnotherJsonRpcVersionIsAnInvalidRequestAndRecorded() throws Exception {
        ObjectNode message = call(1, "list_metrics", JSON.createObjectNode());
        message.put("jsonrpc", "1.0");
        Outcome o = run(message);
        assertEquals(List.of("rpc -32600 " + CallGate.NOT_JSON_RPC), o.answers());
        assertEquals(List.of("list_metrics call error invalid_argument"), o.rows());
    }

    @Test
    void aToolsCallWithoutTheJsonRpcFieldIsAnInvalidRequestAndRecorded() throws Exception {
        ObjectNode message = call(1, "list_metrics", JSON.createObjectNode());
        message.remove("jsonrpc");
        Outcome o = run(message);
        assertEquals(List.of("rpc -32600 " + CallGate.NOT_JSON_RPC), o.answers());
        assertEquals(List.of("list_metrics call error invalid_argument"), o.rows());
    }

    @Test
    void aToolsCallWithAnIdMcpDoesNotAllowIsAnInvalidRequestAndRecorded() throws Exception {
        ObjectNode message = call(1, "list_metrics", JSON.createObjectNode());
        message.put("id", 1.5);
        Outcome o = run(message);
        assertEquals(1, o.answers().size(), o.answers()::toString);
        // HTTP answers it with status 400 as well; the JSON-RPC error and the audit row are the same on both.
        assertTrue(o.answers().get(0).endsWith("rpc -32600 " + JsonRpcFrames.BAD_ID),
                o.answers()::toString);
        assertEquals(List.of("list_metrics call error invalid_argument"), o.rows());
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

    // ---- the same rules for a 2026-07-28 client: no initialize, no session ----

    @Test
    void discoverNamesTheRevisionAndTheServer() throws Exception {
        JsonNode reply = exchangeModern(List.of(modern(request(1, "server/discover")))).get(0);
        JsonNode result = reply.path("result");
        assertEquals("complete", result.path("resultType").asText(), reply::toString);
        assertEquals(List.of(ModernEra.VERSION), JSON.convertValue(result.path("supportedVersions"), List.class));
        assertTrue(result.path("capabilities").path("tools").isObject(), reply::toString);
        assertEquals("schemabrain", result.path("_meta").path(ModernEra.META_SERVER_INFO).path("name").asText());
    }

    @Test
    void aModernCallIsAnsweredAndRecordedAsALegacyOneIs() throws Exception {
        Outcome o = runModern(modern(call(1, "list_metrics", JSON.createObjectNode())));
        assertEquals(List.of("envelope success complete"), o.answers());
        assertEquals(List.of("list_metrics call success -"), o.rows());
    }

    @Test
    void aModernUnknownToolIsTheSameRefusal() throws Exception {
        Outcome o = runModern(modern(call(1, "describe_tabel", JSON.createObjectNode())));
        assertEquals(List.of("rpc -32602 " + UnknownTool.message("describe_tabel", fixture.registry.names())), o.answers());
        assertEquals(List.of("describe_tabel call error unknown_name"), o.rows());
    }

    @Test
    void aModernClientsOwnNameIsNeverItsIdentity() throws Exception {
        ObjectNode message = modern(call(1, "list_metrics", JSON.createObjectNode()));
        ((ObjectNode) message.path("params").path("_meta")).putObject(ModernEra.META_CLIENT_INFO)
                .put("name", "token:admin").put("version", "1");
        long baseline = lastRowId();
        exchangeModern(List.of(message));
        List<String> callers = new ArrayList<>();
        Thread.sleep(200);
        try (AuditLog log = AuditLog.openExisting(fixture.store())) {
            for (AuditRecord r : log.list(20, OptionalLong.empty())) {
                if (r.id() > baseline) {
                    callers.add(r.entry().caller());
                }
            }
        }
        assertEquals(List.of(caller()), callers);
    }

    @Test
    void aModernToolsListCarriesItsCacheHintKeyedToTheCatalog() throws Exception {
        JsonNode reply = exchangeModern(List.of(modern(request(1, "tools/list")))).get(0);
        JsonNode result = reply.path("result");
        List<String> names = new ArrayList<>();
        result.path("tools").forEach(t -> names.add(t.path("name").asText()));
        assertEquals(fixture.registry.names(), names, reply::toString);
        assertEquals("complete", result.path("resultType").asText());
        assertEquals(ModernEra.LIST_TTL_MS, result.path("ttlMs").asLong());
        assertEquals("public", result.path("cacheScope").asText());
        assertTrue(result.path("_meta").path(ModernEra.META_CATALOG_VERSION).isTextual(), reply::toString);
    }

    @Test
    void initializeUnderTheModernEnvelopeIsNotFound() throws Exception {
        Outcome o = runModern(modern(request(1, "initialize")), modern(request(2, "ping")));
        assertEquals(2, o.answers().size());
        o.answers().forEach(a -> assertTrue(a.matches("(http 404 )?rpc -32601 Method not found: on protocol 2026-07-28.*"), a));
        assertEquals(List.of(), o.rows());
    }

    @Test
    void aModernRequestWithoutClientCapabilitiesIsInvalidParams() throws Exception {
        ObjectNode message = modern(call(1, "list_metrics", JSON.createObjectNode()));
        ((ObjectNode) message.path("params").path("_meta")).remove(ModernEra.META_CLIENT_CAPABILITIES);
        Outcome o = runModern(message);
        assertTrue(o.answers().get(0).matches("(http 400 )?rpc -32602 Invalid params: .*missing: "
                + ModernEra.META_CLIENT_CAPABILITIES + "\\."), o.answers()::toString);
        assertEquals(List.of(), o.rows());
    }

    @Test
    void anUnknownVersionIsRefusedNamingTheSupportedOnes() throws Exception {
        ObjectNode message = modern(request(7, "server/discover"));
        ((ObjectNode) message.path("params").path("_meta")).put(ModernEra.META_PROTOCOL_VERSION, "2099-01-01");
        JsonNode reply = exchangeModern(List.of(message)).get(0);
        assertEquals(ModernEra.UNSUPPORTED_PROTOCOL_VERSION, reply.path("error").path("code").asInt(), reply::toString);
        assertEquals("2099-01-01", reply.path("error").path("data").path("requested").asText());
        assertEquals(ModernEra.VERSION, reply.path("error").path("data").path("supported").path(0).asText());
        assertEquals(7, reply.path("id").asInt());
    }

    // ---- prompts: the charter's workflows, in both eras ----

    @Test
    void theWorkflowsAreListedAsPromptsInBothEras() throws Exception {
        List<String> expected = List.of("whats_in_this_database", "tell_me_about_a_domain", "how_do_these_tables_relate",
                "aggregate_something", "how_others_queried");
        for (JsonNode reply : List.of(exchange(List.of(request(1, "prompts/list"))).get(0),
                exchangeModern(List.of(modern(request(1, "prompts/list")))).get(0))) {
            List<String> names = new ArrayList<>();
            reply.path("result").path("prompts").forEach(p -> names.add(p.path("name").asText()));
            // The SDK keeps its prompts in a map: the 2025 era lists them in its own order.
            assertEquals(expected.stream().sorted().toList(), names.stream().sorted().toList(), reply::toString);
        }
        JsonNode modern = exchangeModern(List.of(modern(request(1, "prompts/list")))).get(0).path("result");
        assertEquals(ModernEra.LIST_TTL_MS, modern.path("ttlMs").asLong());
        assertEquals("complete", modern.path("resultType").asText());
    }

    @Test
    void aPromptCarriesItsArgumentsAndAMissingOneIsRefused() throws Exception {
        ObjectNode get = request(1, "prompts/get");
        get.putObject("params").put("name", "tell_me_about_a_domain").putObject("arguments").put("domain", "revenue");
        ObjectNode missing = request(2, "prompts/get");
        missing.putObject("params").put("name", "tell_me_about_a_domain").putObject("arguments");
        for (List<JsonNode> replies : List.of(exchange(List.of(get.deepCopy(), missing.deepCopy())),
                exchangeModern(List.of(modern(get.deepCopy()), modern(missing.deepCopy()))))) {
            String text = replies.get(0).path("result").path("messages").path(0).path("content").path("text").asText();
            assertTrue(text.contains("find_relevant_tables with query \"revenue\""), replies::toString);
            assertEquals(JsonRpcFrames.INVALID_PARAMS, replies.get(1).path("error").path("code").asInt(), replies::toString);
            assertEquals("Invalid params: prompt tell_me_about_a_domain needs the argument 'domain' (The business domain,"
                    + " e.g. revenue).", replies.get(1).path("error").path("message").asText());
        }
    }

    @Test
    void discoverDeclaresPrompts() throws Exception {
        JsonNode reply = exchangeModern(List.of(modern(request(1, "server/discover")))).get(0);
        assertTrue(reply.path("result").path("capabilities").path("prompts").isObject(), reply::toString);
    }

    /** {@code message} with the 2026-07-28 envelope in params._meta. */
    static ObjectNode modern(ObjectNode message) {
        JsonNode params = message.get("params");
        ObjectNode p = params instanceof ObjectNode o ? o : message.putObject("params");
        ObjectNode meta = p.putObject("_meta");
        meta.put(ModernEra.META_PROTOCOL_VERSION, ModernEra.VERSION);
        meta.putObject(ModernEra.META_CLIENT_CAPABILITIES);
        meta.set(ModernEra.META_CLIENT_INFO, JSON.valueToTree(clientInfo()));
        return message;
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
        return run(false, requests);
    }

    private Outcome runModern(ObjectNode... requests) throws Exception {
        return run(true, requests);
    }

    private Outcome run(boolean modern, ObjectNode... requests) throws Exception {
        long baseline = lastRowId();
        List<String> answers = new ArrayList<>();
        for (JsonNode reply : modern ? exchangeModern(List.of(requests)) : exchange(List.of(requests))) {
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
                + (error.isObject() ? " " + error.path("kind").asText() + " " + error.path("message").asText() : "")
                + (reply.path("result").has("resultType") ? " " + reply.path("result").path("resultType").asText() : "");
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
