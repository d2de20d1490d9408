package dev.schemabrain.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.auth.BearerTokens;
import dev.schemabrain.auth.FileTokens;
import dev.schemabrain.mcp.tools.ToolGroups;
import dev.schemabrain.mcp.transport.http.HttpFixture;
import dev.schemabrain.mcp.transport.http.HttpOptions;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * probe and sweep against this project's own server: {@code serve --transport http}'s service (HttpFixture:
 * the same registry, audit and dispatcher, in this JVM) over the indexed demo database, with a real
 * token-checking AuthFilter for the token cases. Real describe_table calls, real HTTP.
 */
class LoadCommandsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static HttpFixture served;
    private static HttpFixture guarded;
    private static String token;

    @BeforeAll
    static void serve() throws Exception {
        served = HttpFixture.start(HttpOptions.loopback());
        FileTokens tokens = new FileTokens(dir.resolve("tokens.json"));
        token = tokens.create("load-test");
        guarded = HttpFixture.start(HttpOptions.loopback()
                .withAuthFilter(new AuthFilter(Optional.of(new BearerTokens(tokens)), Optional.empty())));
    }

    @AfterAll
    static void stop() {
        served.close();
        guarded.close();
    }

    private static String mcp(HttpFixture server) {
        return server.url() + "/mcp";
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
    void probeOnServeDescribesADiscoveredTableWithTheSessionIdItIssues() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", mcp(served), "--calls", "30", "--concurrency", "4",
                "--warmup", "5"));
        assertEquals("describe_table", report.path("call").path("tool").asText());
        assertTrue(report.path("call").path("arguments").path("qualified_name").asText().startsWith("main."), report.toString());
        assertTrue(report.path("server").path("session").asBoolean(), "serve issues a session id carrying the client's name");
        assertEquals("schemabrain", report.path("server").path("name").asText(), report.toString());
        assertEquals(30, report.path("sequential").path("calls").asInt());
        assertEquals(0, report.path("sequential").path("errors").asInt(), report.toString());
        assertEquals(0, report.path("concurrent").path("errors").asInt(), report.toString());
        assertEquals(4, report.path("concurrent").path("concurrency").asInt());
    }

    @Test
    void probeFindsItsTableOnAServerOfTheDefaultTools() throws Exception {
        // list_indexed_schemas is not among serve's default tools: discovery must not need it.
        try (HttpFixture core = HttpFixture.start(HttpOptions.loopback(), ToolGroups.DEFAULT)) {
            JsonNode report = ok(InProcessCli.run("probe", "--url", mcp(core), "--calls", "5", "--warmup", "0"));
            assertEquals("describe_table", report.path("call").path("tool").asText());
            assertTrue(report.path("call").path("arguments").path("qualified_name").asText().startsWith("main."), report.toString());
            assertEquals(0, report.path("sequential").path("errors").asInt(), report.toString());
        }
    }

    @Test
    void probeReportsTheToolsListPayloadAndEveryTool() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", mcp(served), "--calls", "5", "--warmup", "0"));
        assertEquals(served.registry.names().size(), report.path("tools").asInt());
        assertTrue(report.path("tools_list_bytes").asInt() > 1000, report.toString());
    }

    @Test
    void probeReadsHealthOnTheServersOrigin() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", mcp(served), "--calls", "5", "--warmup", "0"));
        assertEquals("ok", report.path("health").path("body").path("status").asText(), report.toString());
    }

    @Test
    void probeCallsTheToolAndArgumentsGiven() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", mcp(served), "--calls", "5", "--warmup", "0",
                "--tool", "find_relevant_tables", "--arguments", "{\"query\":\"invoices\"}"));
        assertEquals("find_relevant_tables", report.path("call").path("tool").asText());
        assertEquals("invoices", report.path("call").path("arguments").path("query").asText());
        assertEquals(0, report.path("sequential").path("errors").asInt());
    }

    @Test
    void aCallTheToolRefusesCountsAsAnError() throws Exception {
        JsonNode report = ok(InProcessCli.run("probe", "--url", mcp(served), "--calls", "5", "--warmup", "0",
                "--tool", "describe_table", "--arguments", "{\"qualified_name\":\"main.no_such_table\"}"));
        assertEquals(5, report.path("sequential").path("errors").asInt(), report.toString());
    }

    @Test
    void sweepMeasuresEachConcurrencyAndRecommendsOneUnderAGenerousSlo() throws Exception {
        Path markdown = dir.resolve("sweep.md");
        JsonNode report = ok(InProcessCli.run("sweep", "--url", mcp(served), "--total", "60", "--concurrency", "1,2,4",
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
        JsonNode report = ok(InProcessCli.run("sweep", "--url", mcp(served), "--total", "20", "--concurrency", "1,2",
                "--warmup", "0", "--p95-slo-ms", "0.0001", "--p99-slo-ms", "0.0001"));
        assertTrue(report.path("recommended_concurrency").isNull(), report.toString());
        assertEquals(0, report.path("within_slo").size());
    }

    @Test
    void theTokenComesFromTheEnvironmentAndIsNeverPrinted() throws Exception {
        InProcessCli.Result run = InProcessCli.run(Map.of("SB_TOKEN", token), "probe", "--url", mcp(guarded),
                "--token-env", "SB_TOKEN", "--calls", "5", "--warmup", "0");
        JsonNode report = ok(run);
        assertEquals(0, report.path("sequential").path("errors").asInt(), report.toString());
        assertFalse(run.stdout().contains(token) || run.stderr().contains(token));
    }

    @Test
    void aServerThatWantsATokenIsRefusedInOneSentence() throws Exception {
        String err = refused(InProcessCli.run("probe", "--url", mcp(guarded)));
        assertTrue(err.contains("401") && err.contains("--token-env"), err);
    }

    @Test
    void aWrongTokenIsRefusedNamingTheVariableNotTheToken() throws Exception {
        String wrong = "sbt_" + "A".repeat(43);
        String err = refused(InProcessCli.run(Map.of("SB_TOKEN", wrong), "probe", "--url", mcp(guarded), "--token-env", "SB_TOKEN"));
        assertTrue(err.contains("401") && err.contains("$SB_TOKEN") && !err.contains(wrong), err);
    }

    @Test
    void anUnsetTokenVariableIsRefusedBeforeAnyRequest() {
        String err = refused(InProcessCli.run(Map.of(), "probe", "--url", mcp(served), "--token-env", "SB_NOT_SET"));
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
        // A plain web page where an MCP endpoint was expected (the JDK's own HTTP server).
        HttpServer web = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        web.createContext("/", exchange -> {
            byte[] page = "<html><body>a web page</body></html>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        web.start();
        try {
            String err = refused(InProcessCli.run("probe", "--url", "http://127.0.0.1:" + web.getAddress().getPort() + "/mcp"));
            assertTrue(err.contains("does not answer as an MCP") && err.contains("text/html"), err);
        } finally {
            web.stop(0);
        }
    }

    @Test
    void argumentsThatAreNotAJsonObjectAreRefused() {
        String err = refused(InProcessCli.run("probe", "--url", mcp(served), "--tool", "describe_table", "--arguments", "[1"));
        assertTrue(err.contains("--arguments must be a JSON object"), err);
    }
}
