package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.testing.EnvelopeChecks;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.Filter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java SDK's Streamable HTTP client drives every tool of the demo store over real HTTP, each answer
 * checked against the tool's published outputSchema, and every call lands in the audit log under its caller.
 */
class HttpToolsTest {

    static HttpFixture server;
    static McpSyncClient client;
    static Map<String, McpSchema.Tool> tools;

    @BeforeAll
    static void serve() throws Exception {
        server = HttpFixture.start(HttpOptions.loopback());
        client = HttpFixture.client(server.url(), "http-tools-test");
        tools = client.listTools().tools().stream().collect(Collectors.toMap(McpSchema.Tool::name, Function.identity()));
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.closeGracefully();
        }
        if (server != null) {
            server.close();
        }
    }

    /** One call per tool, with arguments the demo store can answer, and the status it answers with. */
    static Stream<Arguments> everyTool() {
        return Stream.of(
                Arguments.of("list_indexed_schemas", Map.of(), "success"),
                Arguments.of("find_relevant_tables", Map.of("query", "invoices paid by organizations"), "success"),
                Arguments.of("describe_table", Map.of("qualified_name", "main.invoices"), "success"),
                Arguments.of("describe_column", Map.of("qualified_name", "main.invoices.total_cents"), "success"),
                Arguments.of("suggest_joins", Map.of("tables", List.of("main.payments", "main.organizations")), "success"),
                Arguments.of("get_example_queries", Map.of("qualified_name", "main.invoices"), "empty"),
                Arguments.of("list_entities", Map.of(), "success"),
                Arguments.of("find_relevant_entities", Map.of("query", "payments"), "success"),
                Arguments.of("describe_entity", Map.of("name", "invoices"), "success"),
                Arguments.of("list_joins", Map.of(), "success"),
                Arguments.of("resolve_join", Map.of("entity_a", "payments", "entity_b", "invoices"), "success"),
                Arguments.of("list_metrics", Map.of(), "success"),
                Arguments.of("find_relevant_metrics", Map.of("query", "payments per month"), "success"),
                Arguments.of("get_metric", Map.of("name", "payments_count"), "success"),
                Arguments.of("validate_query", Map.of("sql", "SELECT name, monthly_price_cents FROM plans"), "success"),
                Arguments.of("execute", Map.of("sql", "SELECT name, monthly_price_cents FROM plans"), "success"));
    }

    @Test
    void theCasesBelowCoverEveryToolTheServerLists() {
        Set<String> covered = everyTool().map(a -> (String) a.get()[0]).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(server.registry.names()), covered);
        assertEquals(new TreeSet<>(server.registry.names()), new TreeSet<>(tools.keySet()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyTool")
    void theSdkClientCallsTheToolOverHttp(String tool, Map<String, Object> arguments, String expectedStatus) throws Exception {
        McpSchema.CallToolResult result = client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build());
        Map<String, Object> envelope = EnvelopeChecks.envelope(result, tools.get(tool).outputSchema(), tools.keySet());
        assertEquals(expectedStatus, envelope.get("status"), () -> tool + " answered " + envelope);
    }

    @Test
    void aCallIsAuditedUnderTheCallersIdentityNotTheClientsInitializeName() throws Exception {
        client.callTool(McpSchema.CallToolRequest.builder("describe_table").arguments(Map.of("qualified_name", "main.plans")).build());
        AuditRecord row = server.lastRows(1).get(0);
        assertEquals("describe_table", row.entry().tool());
        assertEquals("anonymous", row.entry().caller());
    }

    @Test
    void anUnknownToolIsAProtocolErrorAndAuditedAsRejected() throws Exception {
        assertThrows(io.modelcontextprotocol.spec.McpError.class, () -> client.callTool(
                McpSchema.CallToolRequest.builder("describe_tabel").arguments(Map.of()).build()));
        AuditRecord row = server.lastRows(1).get(0);
        assertEquals("describe_tabel", row.entry().tool());
        assertEquals("unknown_name", row.entry().errorKind());
    }

    @Test
    void theCallerAnAuthFilterNamesReachesTheAuditRow() throws Exception {
        Filter auth = (request, response, chain) -> {
            request.setAttribute(HttpService.CALLER_ATTRIBUTE, "token:alice");
            chain.doFilter(request, response);
        };
        try (HttpFixture authenticated = HttpFixture.start(HttpOptions.loopback().withAuthFilter(auth))) {
            McpSyncClient alice = HttpFixture.client(authenticated.url(), "alice-agent");
            try {
                alice.callTool(McpSchema.CallToolRequest.builder("list_metrics").arguments(Map.of()).build());
            } finally {
                alice.closeGracefully();
            }
            AuditRecord row = authenticated.lastRows(1).get(0);
            assertEquals("list_metrics", row.entry().tool());
            assertEquals("token:alice", row.entry().caller());
        }
    }

    private static void assertThrows(Class<? extends Throwable> type, Executable call) {
        Throwable thrown = Assertions.assertThrows(Throwable.class, call);
        assertTrue(type.isInstance(thrown) || type.isInstance(thrown.getCause()), () -> "threw " + thrown);
    }
}
