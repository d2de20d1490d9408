package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.server.McpCore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.access.Caller;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.ModernEra;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.ExampleQueries;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.mcp.transport.stdio.StdioServer;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.testing.McpStdio;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * completion/complete for the prompts' arguments, with real clients on both transports and in both eras, for a
 * caller whose role sees the invoices and payments only: what it can complete is exactly what its tools would
 * show, so no hidden table, entity or metric name is ever spelled out to it.
 */
class CompletionsEdgeTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Set<String> ALLOWED = Set.of("main.invoices", "main.invoice_line_items", "main.payments");

    @TempDir
    static Path dir;
    static Path store;
    static Path policy;
    static QueryExecutor executor;
    static ToolRegistry registry;
    static StoreCatalogProvider catalogs;
    static HttpService service;
    static ServedCatalog whole;

    @BeforeAll
    static void start() throws Exception {
        Path demo = HttpFixture.pristineDemoStore();
        // A copy of its own: the stdio server this test launches writes its audit rows there.
        store = dir.resolve("completions.db");
        Files.copy(demo, store, StandardCopyOption.REPLACE_EXISTING);
        policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                version: 1
                roles:
                  finance:
                    allow: [main.invoices, main.invoice_line_items, main.payments]
                default_role: finance
                """);
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
        executor = new QueryExecutor(SourceUrl.parse("sqlite:" + demo.resolveSibling("demo.sqlite").toAbsolutePath()),
                new ExecutorSettings(30_000, 10_000, 2, 2_000, null));
        catalogs = new StoreCatalogProvider(store, Optional.empty());
        registry = StandardTools.registry(catalogs, SourceExecutors.of(Optional.of(executor)), 5, ExampleQueries.NONE);
        whole = catalogs.current().orElseThrow();
        service = HttpService.start(McpCore.of(registry, DispatchCapacity.forMaxConcurrentQueries(2), CallerRates.OFF,
                ToolListing.FULL, catalogs, "test"), HttpOptions.loopback(), new Observability(), () -> "static",
                Optional.of(AccessPolicySource.open(policy)), Optional.empty());
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        if (executor != null) {
            executor.close();
        }
    }

    /** Metrics whose entity's table the role may not see: they exist, so their absence below means something. */
    static Set<String> hiddenMetrics() {
        Map<String, String> tableOf = whole.semantic().entities().stream()
                .collect(Collectors.toMap(Entity::name, e -> e.table().toString()));
        return whole.semantic().metrics().stream().filter(m -> !ALLOWED.contains(tableOf.get(m.entity())))
                .map(Metric::name).collect(Collectors.toSet());
    }

    static Set<String> visibleMetrics() {
        Set<String> all = whole.semantic().metrics().stream().map(Metric::name).collect(Collectors.toSet());
        all.removeAll(hiddenMetrics());
        return all;
    }

    @Test
    void theDemoHasHiddenAndVisibleMetrics() {
        assertFalse(hiddenMetrics().isEmpty());
        assertFalse(visibleMetrics().isEmpty());
    }

    /** The checks every transport and era must pass, given a way to ask completion/complete. */
    interface Ask {
        List<String> complete(String prompt, String argument, String value) throws Exception;
    }

    static void assertScoped(Ask ask) throws Exception {
        assertEquals(ALLOWED, Set.copyOf(ask.complete("how_others_queried", "table", "")));
        // An attacker spelling the start of a hidden table gets nothing, not even a fuzzy near miss.
        assertEquals(List.of(), ask.complete("how_others_queried", "table", "main.us"));
        assertEquals(List.of(), ask.complete("how_others_queried", "table", "organiz"));
        assertEquals(List.of("main.invoices", "main.invoice_line_items"),
                ask.complete("how_others_queried", "table", "INV"));
        // The last item of a list is completed, the items before it kept.
        List<String> pair = ask.complete("how_do_these_tables_relate", "tables", "main.invoices, main.pay");
        assertEquals(List.of("main.invoices, main.payments"), pair);
        List<String> metrics = ask.complete("aggregate_something", "measure", "");
        assertEquals(visibleMetrics(), Set.copyOf(metrics));
        for (String hidden : hiddenMetrics()) {
            assertEquals(List.of(), ask.complete("aggregate_something", "measure", hidden), hidden);
        }
        for (String column : ask.complete("aggregate_something", "by", "")) {
            assertTrue(whole.catalog().tables().stream().filter(t -> ALLOWED.contains(t.name().toString()))
                    .anyMatch(t -> t.columns().stream().anyMatch(c -> c.name().equals(column))), column);
        }
        assertFalse(ask.complete("aggregate_something", "by", "").contains("email"));
        // Free text completes to nothing.
        assertEquals(List.of(), ask.complete("whats_in_this_database", "focus", "s"));
    }

    /** The checks through the Java SDK's own client, which must also have seen the capability declared. */
    static void assertScoped(McpSyncClient client) throws Exception {
        assertNotNull(client.getServerCapabilities().completions());
        assertScoped((prompt, argument, value) -> client.completeCompletion(new McpSchema.CompleteRequest(
                new McpSchema.PromptReference(prompt), new McpSchema.CompleteRequest.CompleteArgument(argument, value)))
                .completion().values());
    }

    @Test
    void theJavaSdkClientOverHttpCompletesOnlyWhatItsRoleSees() throws Exception {
        McpSyncClient client = HttpFixture.client("http://127.0.0.1:" + service.port(), "completions-test");
        try {
            assertScoped(client);
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void aModernRequestOverHttpCompletesOnlyWhatItsRoleSees() throws Exception {
        assertScoped((prompt, argument, value) -> {
            ObjectNode message = modern(1, prompt, argument, value);
            HttpResponse<String> r = HttpEdgeContractTest.HTTP.send(modernPost(message).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            return values(JSON.readTree(r.body()));
        });
        ObjectNode discover = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "server/discover");
        meta(discover.putObject("params"));
        JsonNode reply = JSON.readTree(HttpEdgeContractTest.HTTP.send(modernPost(discover).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        assertTrue(reply.path("result").path("capabilities").path("completions").isObject(), reply.toString());
    }

    @Test
    void aReferenceToNoPromptIsInvalidParams() throws Exception {
        ObjectNode message = modern(1, "drop_tables", "table", "");
        JsonNode reply = JSON.readTree(HttpEdgeContractTest.HTTP.send(modernPost(message).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        assertEquals(-32602, reply.path("error").path("code").asInt(), reply.toString());
        assertTrue(reply.path("error").path("message").asText().contains("prompts/list names"), reply.toString());
    }

    @Test
    void bothErasOverStdioCompleteOnlyWhatTheStdioRoleSees() throws Exception {
        Access finance = AccessPolicySource.open(policy).resolve(Caller.named(StdioServer.CALLER));
        assertTrue(finance.restricted());
        // 2026-07-28: no session, each request on its own.
        assertScoped((prompt, argument, value) -> values(stdio(List.of(modern(7, prompt, argument, value)), finance).get("7")));
        // 2025-11-25 after initialize.
        assertScoped((prompt, argument, value) -> {
            return values(stdio(session(request(7, prompt, argument, value)), finance).get("7"));
        });
    }

    @Test
    void aReferenceToNoPromptIsAnErrorInThe2025EraToo() throws Exception {
        JsonNode reply = stdio(session(request(7, "test_prompt_with_arguments", "arg1", "test")), Access.UNRESTRICTED)
                .get("7");
        assertEquals(-32602, reply.path("error").path("code").asInt(), reply.toString());
        assertEquals("Prompt not found: test_prompt_with_arguments", reply.path("error").path("message").asText());
    }

    @Test
    void withoutAPolicyTheHiddenNamesAreThere() throws Exception {
        // What the restricted caller does not get exists: its absence above is the policy's doing.
        // The prefix match first, then the near misses (letters in order) a restricted caller never gets.
        assertEquals(List.of("main.users", "main.subscriptions", "main.support_tickets"), values(stdio(List.of(
                modern(7, "how_others_queried", "table", "main.us")), Access.UNRESTRICTED).get("7")));
        assertTrue(values(stdio(List.of(modern(7, "aggregate_something", "measure", "")), Access.UNRESTRICTED).get("7"))
                .containsAll(hiddenMetrics()));
    }

    @Test
    void aCallerWithoutARoleCompletesNothing() throws Exception {
        Path none = dir.resolve("none.yaml");
        Files.writeString(none, """
                version: 1
                roles:
                  finance:
                    allow: [main.invoices]
                default_role: none
                """);
        Files.setPosixFilePermissions(none, PosixFilePermissions.fromString("rw-------"));
        Access nobody = AccessPolicySource.open(none).resolve(Caller.named(StdioServer.CALLER));
        assertTrue(nobody.denial().isPresent());
        for (String[] ask : List.of(new String[]{"how_others_queried", "table"}, new String[]{"aggregate_something", "measure"},
                new String[]{"tell_me_about_a_domain", "domain"}, new String[]{"aggregate_something", "by"})) {
            assertEquals(List.of(), values(stdio(List.of(modern(7, ask[0], ask[1], "")), nobody).get("7")), ask[1]);
        }
    }

    @Test
    void theJavaSdkClientOverStdioCompletesOnlyWhatItsRoleSees() throws Exception {
        StringBuffer stderr = new StringBuffer();
        McpSyncClient client = McpStdio.client(store, stderr, Map.of(), "--access-policy", policy.toString(),
                "--role", "finance");
        try {
            assertScoped(client);
        } finally {
            McpStdio.stop(client);
        }
    }

    static Map<String, JsonNode> stdio(List<ObjectNode> lines, Access access) throws Exception {
        StringBuilder in = new StringBuilder();
        lines.forEach(l -> in.append(l).append('\n'));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StdioServer.run(McpCore.of(registry, DispatchCapacity.forMaxConcurrentQueries(2), CallerRates.OFF,
                ToolListing.FULL, catalogs, "test"), Duration.ZERO, () -> access,
                new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        return StdioEdgeContractTest.byId(out);
    }

    /** {@code message} in a 2025 session: after initialize and notifications/initialized. */
    static List<ObjectNode> session(ObjectNode message) {
        ObjectNode init = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 0).put("method", "initialize");
        ObjectNode params = init.putObject("params").put("protocolVersion", "2025-06-18");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "t").put("version", "1");
        return List.of(init, JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"), message);
    }

    static List<String> values(JsonNode reply) {
        assertNotNull(reply);
        JsonNode completion = reply.path("result").path("completion");
        assertTrue(completion.path("values").isArray(), reply.toString());
        List<String> out = new ArrayList<>();
        completion.path("values").forEach(v -> out.add(v.asText()));
        assertEquals(out.size(), completion.path("total").asInt(), reply.toString());
        return out;
    }

    static ObjectNode request(int id, String prompt, String argument, String value) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", "completion/complete");
        ObjectNode params = message.putObject("params");
        params.putObject("ref").put("type", "ref/prompt").put("name", prompt);
        params.putObject("argument").put("name", argument).put("value", value);
        return message;
    }

    static ObjectNode modern(int id, String prompt, String argument, String value) {
        ObjectNode message = request(id, prompt, argument, value);
        meta((ObjectNode) message.get("params"));
        return message;
    }

    static void meta(ObjectNode params) {
        ObjectNode meta = params.putObject("_meta").put(ModernEra.META_PROTOCOL_VERSION, ModernEra.VERSION);
        meta.putObject(ModernEra.META_CLIENT_CAPABILITIES);
    }

    HttpRequest.Builder modernPost(ObjectNode message) {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + service.port() + "/mcp"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
        HttpEdgeContractTest.routing(message).forEach(b::header);
        return b;
    }
}
