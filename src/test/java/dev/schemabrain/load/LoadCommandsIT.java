package dev.schemabrain.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.mcp.tools.StoreCatalogProvider;
import dev.schemabrain.source.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * probe and sweep against a real MCP Streamable HTTP server (the SDK's servlet transports in Jetty) serving
 * this project's tools over the indexed demo database: real describe_table calls, real HTTP.
 */
class LoadCommandsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "sb-test-token-5f0c2e9a";

    @TempDir
    static Path dir;

    private static ToolRegistry tools;
    private static McpHttpTestServer streamable;
    private static McpHttpTestServer stateless;

    @BeforeAll
    static void serveTheIndexedDemo() throws Exception {
        Path database = DemoDatabase.ensure(dir.resolve("demo.sqlite"));
        Path store = dir.resolve("store.db");
        SourceUrl url = SourceUrl.parse("sqlite:" + database);
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        tools = StandardTools.registry(new StoreCatalogProvider(store));
        streamable = McpHttpTestServer.start(tools, McpHttpTestServer.Mode.STREAMABLE, Optional.empty());
        stateless = McpHttpTestServer.start(tools, McpHttpTestServer.Mode.STATELESS, Optional.empty());
    }

    @AfterAll
    static void stop() throws Exception {
        streamable.close();
        stateless.close();
    }

    private static JsonNode ok(InProcessCli.Result run) throws Exception {
        assertEquals(0, run.exitCode(), run.stderr());
        return JSON.readTree(run.stdout());
    }

    /** A refusal: exit 2 and one sentence on one line, starting "schemabrain: ". */
    private static String refused(InProcessCli.Result run) {
        assertEquals(2, run.exitCode(), run.stdout() + run.stderr());
        String err = run.stderr().strip();
        assertTrue(err.startsWith("schemabrain: ") && !err.contains("\n") && err.endsWith("."), err);
        return err;
    }

    @Test
    void probeOnTheStatefulTransportDescribesADiscoveredTableOverEventStreamsWithItsSession() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", streamable.url(), "--calls", "30", "--concurrency", "4",
                "--warmup", "5"));
        assertEquals("describe_table", report.path("call").path("tool").asText());
        assertTrue(report.path("call").path("arguments").path("qualified_name").asText().startsWith("main."), report.toString());
        assertTrue(report.path("server").path("session").asBoolean(), "the stateful transport issues a session id");
        assertTrue(streamable.contentTypes.contains("text/event-stream"), "answers came as event streams: " + streamable.contentTypes);
        assertEquals(30, report.path("sequential").path("calls").asInt());
        assertEquals(0, report.path("sequential").path("errors").asInt(), report.toString());
        assertEquals(0, report.path("concurrent").path("errors").asInt(), report.toString());
        assertEquals(4, report.path("concurrent").path("concurrency").asInt());
    }

    @Test
    void probeReportsTheToolsListPayloadAndEveryTool() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", stateless.url(), "--calls", "5", "--warmup", "0"));
        assertEquals(tools.names().size(), report.path("tools").asInt());
        assertTrue(report.path("tools_list_bytes").asInt() > 1000, report.toString());
    }

    @Test
    void probeReadsHealthOnTheServersOrigin() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", stateless.url(), "--calls", "5", "--warmup", "0"));
        assertEquals("ok", report.path("health").path("body").path("status").asText(), report.toString());
    }

    @Test
    void probeOnTheStatelessTransportReadsJsonAnswersWithoutASession() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", stateless.url(), "--calls", "20", "--warmup", "0"));
        assertFalse(report.path("server").path("session").asBoolean());
        assertEquals(java.util.Set.of("application/json"), stateless.contentTypes);
        assertEquals(0, report.path("sequential").path("errors").asInt(), report.toString());
    }

    @Test
    void probeCallsTheToolAndArgumentsGiven() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", stateless.url(), "--calls", "5", "--warmup", "0",
                "--tool", "find_relevant_tables", "--arguments", "{\"query\":\"invoices\"}"));
        assertEquals("find_relevant_tables", report.path("call").path("tool").asText());
        assertEquals("invoices", report.path("call").path("arguments").path("query").asText());
        assertEquals(0, report.path("sequential").path("errors").asInt());
    }

    @Test
    void aCallTheToolRefusesCountsAsAnError() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", stateless.url(), "--calls", "5", "--warmup", "0",
                "--tool", "describe_table", "--arguments", "{\"qualified_name\":\"main.no_such_table\"}"));
        assertEquals(5, report.path("sequential").path("errors").asInt(), report.toString());
    }

    @Test
    void sweepMeasuresEachConcurrencyAndRecommendsOneUnderAGenerousSlo() throws Exception {
        Path markdown = dir.resolve("sweep.md");
        JsonNode report = ok(InProcessCli.run("sweep", "--url", streamable.url(), "--total", "60", "--concurrency", "1,2,4",
                "--warmup", "10", "--p95-slo-ms", "5000", "--p99-slo-ms", "10000", "--markdown", markdown.toString()));
        assertEquals(3, report.path("points").size());
        for (int i = 0; i < 3; i++) {
            JsonNode point = report.path("points").path(i);
            assertEquals(60, point.path("calls").asInt());
            assertEquals(0, point.path("errors").asInt(), point.toString());
            assertTrue(point.path("calls_per_s").asDouble() > 0, point.toString());
        }
        assertTrue(report.path("recommended_concurrency").isInt(), report.toString());
        String md = Files.readString(markdown);
        assertTrue(md.contains("| concurrency | calls | errors | calls/s |") && md.contains("**Recommended concurrency:** "
                + report.path("recommended_concurrency").asInt()), md);
    }

    @Test
    void sweepUnderAnSloNoCallCanMeetRecommendsNothing() throws Exception {
        JsonNode report = ok(InProcessCli.run("sweep", "--url", stateless.url(), "--total", "20", "--concurrency", "1,2",
                "--warmup", "0", "--p95-slo-ms", "0.0001", "--p99-slo-ms", "0.0001"));
        assertTrue(report.path("recommended_concurrency").isNull(), report.toString());
        assertEquals(0, report.path("within_slo").size());
    }

    @Test
    void theTokenComesFromTheEnvironmentAndIsNeverPrinted() throws Exception {
        try (McpHttpTestServer guarded = McpHttpTestServer.start(tools, McpHttpTestServer.Mode.STATELESS, Optional.of(TOKEN))) {
            InProcessCli.Result run = InProcessCli.run(Map.of("SB_TOKEN", TOKEN), "probe", "--url", guarded.url(),
                    "--token-env", "SB_TOKEN", "--calls", "5", "--warmup", "0");
            ok(run);
            assertFalse(run.stdout().contains(TOKEN) || run.stderr().contains(TOKEN));
        }
    }

    @Test
    void aServerThatWantsATokenIsRefusedInOneSentence() throws Exception {
        try (McpHttpTestServer guarded = McpHttpTestServer.start(tools, McpHttpTestServer.Mode.STATELESS, Optional.of(TOKEN))) {
            String err = refused(InProcessCli.run("probe", "--url", guarded.url()));
            assertTrue(err.contains("401") && err.contains("--token-env"), err);
        }
    }

    @Test
    void aWrongTokenIsRefusedNamingTheVariableNotTheToken() throws Exception {
        try (McpHttpTestServer guarded = McpHttpTestServer.start(tools, McpHttpTestServer.Mode.STATELESS, Optional.of(TOKEN))) {
            String err = refused(InProcessCli.run(Map.of("SB_TOKEN", "wrong-secret-value"), "probe", "--url", guarded.url(),
                    "--token-env", "SB_TOKEN"));
            assertTrue(err.contains("401") && err.contains("$SB_TOKEN") && !err.contains("wrong-secret-value"), err);
        }
    }

    @Test
    void anUnsetTokenVariableIsRefusedBeforeAnyRequest() {
        String err = refused(InProcessCli.run(Map.of(), "probe", "--url", stateless.url(), "--token-env", "SB_NOT_SET"));
        assertTrue(err.contains("SB_NOT_SET"), err);
    }

    @Test
    void anUnreachableServerIsOneSentence() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String err = refused(InProcessCli.run("sweep", "--url", "http://127.0.0.1:" + port + "/mcp", "--p95-slo-ms", "10",
                "--p99-slo-ms", "20"));
        assertTrue(err.contains("Cannot reach http://127.0.0.1:" + port + "/mcp"), err);
    }

    @Test
    void aServerThatIsNotMcpIsOneSentence() throws Exception {
        try (McpHttpTestServer web = McpHttpTestServer.start(tools, McpHttpTestServer.Mode.NOT_MCP, Optional.empty())) {
            String err = refused(InProcessCli.run("probe", "--url", web.url()));
            assertTrue(err.contains("does not answer as an MCP") && err.contains("text/html"), err);
        }
    }

    @Test
    void argumentsThatAreNotAJsonObjectAreRefused() {
        String err = refused(InProcessCli.run("probe", "--url", stateless.url(), "--tool", "describe_table", "--arguments", "[1"));
        assertTrue(err.contains("--arguments must be a JSON object"), err);
    }
}
