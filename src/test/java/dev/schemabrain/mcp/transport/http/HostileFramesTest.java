package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.server.McpCore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.RateLimit;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.transport.stdio.StdioServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames an attacker writes by hand, over both real transports: an id that is an object or an array is a plain
 * JSON-RPC Invalid Request (HTTP 400), never a stack trace or a 500; a notification, or a malformed message, carrying
 * execute's SQL leaves none of its arguments in the server's log.
 */
class HostileFramesTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    static final String PLANTED = "zq4471planted";
    static final List<String> BAD_IDS = List.of(
            "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":[1,2],\"method\":\"tools/call\",\"params\":{\"name\":\"list_metrics\",\"arguments\":{}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":{\"$ref\":\"x\"},\"method\":\"ping\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}");
    static final List<String> QUIET = List.of(
            "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"execute\",\"arguments\":{\"sql\":\"SELECT '"
                    + PLANTED + "'\"}}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/" + "made_up\",\"params\":{\"sql\":\"SELECT '" + PLANTED + "'\"}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":9,\"reason\":\"" + PLANTED + "\"}}",
            "{\"jsonrpc\":\"1.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"execute\",\"arguments\":{\"sql\":\"SELECT '"
                    + PLANTED + "'\"}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/call\",\"params\":{\"name\":\"execute\",\"arguments\":"
                    + "{\"sql\":\"SELECT '" + PLANTED + "'\"}}}");

    static HttpFixture fixture;

    @BeforeAll
    static void start() throws Exception {
        fixture = HttpFixture.start(HttpOptions.loopback(), CallerRates.metricOnly(new RateLimit(1, 1)));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void aNonScalarIdIsInvalidRequestOverHttp() throws Exception {
        String session = initialize();
        for (String frame : BAD_IDS) {
            HttpResponse<String> r = post(frame, session);
            assertEquals(400, r.statusCode(), frame + " -> " + r.body());
            JsonNode reply = JSON.readTree(r.body());
            assertEquals(-32600, reply.path("error").path("code").asInt(), r.body());
            assertTrue(reply.path("id").isNull(), r.body());
            assertFalse(r.body().contains("Exception") || r.body().contains("\tat "), r.body());
        }
    }

    @Test
    void aNonScalarIdIsInvalidRequestOverStdio() throws Exception {
        List<JsonNode> replies = stdio(BAD_IDS, new ByteArrayOutputStream());
        assertEquals(BAD_IDS.size(), replies.size(), replies::toString);
        for (JsonNode reply : replies) {
            assertEquals(-32600, reply.path("error").path("code").asInt(), reply::toString);
            assertTrue(reply.path("id").isNull(), reply::toString);
            assertFalse(reply.toString().contains("Exception"), reply::toString);
        }
    }

    @Test
    void noArgumentOfANotificationOrMalformedMessageReachesTheLogOverStdio() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        stdio(QUIET, log);
        assertFalse(log.toString(StandardCharsets.UTF_8).contains(PLANTED), log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void noArgumentOfANotificationOrMalformedMessageReachesTheLogOverHttp() throws Exception {
        String session = initialize();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            for (String frame : QUIET) {
                HttpResponse<String> r = post(frame, session);
                assertTrue(r.statusCode() < 500, frame + " -> " + r.statusCode() + " " + r.body());
            }
            Thread.sleep(300);   // a log line written after the answer left
        } finally {
            System.setErr(err);
        }
        assertFalse(log.toString(StandardCharsets.UTF_8).contains(PLANTED), log.toString(StandardCharsets.UTF_8));
    }

    /** The replies a stdio session wrote to {@code frames} after initializing, stderr meanwhile into {@code log}. */
    private static List<JsonNode> stdio(List<String> frames, ByteArrayOutputStream log) throws Exception {
        StringBuilder in = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"attacker\",\"version\":\"1\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        frames.forEach(f -> in.append(f).append('\n'));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream err = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            StdioServer.run(McpCore.of(fixture.registry, DispatchCapacity.forMaxConcurrentQueries(2),
                    CallerRates.metricOnly(new RateLimit(1, 1)), ToolListing.FULL, Optional::empty, "test"), Duration.ZERO, () -> Access.UNRESTRICTED,
                    new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(out, true, StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
        }
        List<JsonNode> replies = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            JsonNode reply = line.isBlank() ? null : JSON.readTree(line);
            if (reply != null && !reply.path("id").isIntegralNumber()) {
                replies.add(reply);   // not initialize's answer (id 0)
            }
        }
        return replies;
    }

    private static String initialize() throws Exception {
        HttpResponse<String> init = post("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                + HttpService.PROTOCOL_VERSION + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"attacker\",\"version\":\"1\"}}}",
                null);
        return init.headers().firstValue(McpGate.SESSION_HEADER).orElseThrow();
    }

    private static HttpResponse<String> post(String body, String session) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(fixture.url() + "/mcp")).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header(McpGate.SESSION_HEADER, session).header("MCP-Protocol-Version", HttpService.PROTOCOL_VERSION);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
