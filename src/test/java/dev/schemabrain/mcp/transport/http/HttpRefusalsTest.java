package dev.schemabrain.mcp.transport.http;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.server.RateLimit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Raw HTTP (java.net.http) against the service: what it answers besides MCP, and what it refuses. One case each. */
class HttpRefusalsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
    private static final int LIMIT = 4096;

    static HttpFixture server;
    static HttpFixture limited;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void serve() throws Exception {
        server = HttpFixture.start(HttpOptions.loopback().withMaxRequestBytes(LIMIT)
                .withAllowedOrigins(List.of("https://app.example.com")));
        limited = HttpFixture.start(HttpOptions.loopback().withCallerRate(new RateLimit(1, 3)));
    }

    @AfterAll
    static void stop() {
        server.close();
        limited.close();
    }

    static HttpRequest.Builder post(HttpFixture target, String body) {
        return HttpRequest.newBuilder(URI.create(target.url() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void getMcpWithoutAnEventStreamAcceptIsTheServerInfo() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(server.url() + "/mcp")).GET());
        assertEquals(200, r.statusCode());
        JsonNode info = JSON.readTree(r.body());
        assertEquals("schemabrain", info.path("name").asText());
        assertEquals("test", info.path("version").asText());
        assertEquals("2025-11-25", info.path("protocolVersion").asText());
        assertFalse(info.path("message").asText().isBlank());
    }

    @Test
    void aPingIsAnsweredOverPlainHttp() throws Exception {
        HttpResponse<String> r = send(post(server, PING));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(1, JSON.readTree(r.body()).path("id").asInt());
    }

    /** GET {@code path} after a ping, until the ping is counted (its response can arrive before its bookkeeping ends). */
    static HttpResponse<String> afterAPing(String path, String counted) throws Exception {
        send(post(server, PING));
        long until = System.nanoTime() + 5_000_000_000L;
        HttpResponse<String> r;
        do {
            r = send(HttpRequest.newBuilder(URI.create(server.url() + path)).GET());
        } while (!r.body().contains(counted) && System.nanoTime() < until);
        return r;
    }

    @Test
    void healthReportsLivenessAndTheObservabilitySummary() throws Exception {
        HttpResponse<String> r = afterAPing("/health", "\"ping\":{\"count\":");
        assertEquals(200, r.statusCode());
        JsonNode health = JSON.readTree(r.body());
        assertEquals("ok", health.path("status").asText());
        JsonNode o = health.path("observability");
        for (String field : List.of("total_requests", "total_errors", "in_flight", "max_in_flight", "top_endpoints", "top_tools", "endpoints", "audit",
                "executor_in_flight", "source_busy")) {
            assertTrue(o.has(field), () -> "no " + field + " in " + o);
        }
        JsonNode ping = o.path("endpoints").path("ping");
        assertTrue(ping.path("count").asLong() >= 1, o::toString);
        assertTrue(ping.path("p99_ms").isNumber(), o::toString);
    }

    @Test
    void metricsAreThePrometheusTextOfTheSameCounts() throws Exception {
        HttpResponse<String> r = afterAPing("/metrics", "endpoint=\"ping\"");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        assertTrue(r.body().contains("# TYPE schemabrain_http_requests_total counter"), r.body());
        assertTrue(r.body().contains("schemabrain_http_endpoint_seconds_count{endpoint=\"ping\"}"), r.body());
    }

    @Test
    void anOriginNotAllowedIsForbidden() throws Exception {
        HttpResponse<String> r = send(post(server, PING).header("Origin", "https://evil.example"));
        assertEquals(403, r.statusCode(), r.body());
        assertTrue(JSON.readTree(r.body()).path("error").path("message").asText().contains("--allowed-origins"));
    }

    @Test
    void aHostOtherThanLoopbackIsMisdirected() throws Exception {
        // DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 sends its own Host.
        try (Socket socket = new Socket("127.0.0.1", server.service.port())) {
            socket.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: evil.example:" + server.service.port()
                    + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: "
                    + PING.length() + "\r\nConnection: close\r\n\r\n" + PING).getBytes(StandardCharsets.US_ASCII));
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream())).readLine();
            assertEquals("HTTP/1.1 421 Misdirected Request", status);
        }
    }

    @Test
    void anAllowedOriginIsServed() throws Exception {
        HttpResponse<String> r = send(post(server, PING).header("Origin", "https://app.example.com"));
        assertEquals(200, r.statusCode(), r.body());
    }

    @Test
    void aBodyOverTheLimitIsRefused413() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(LIMIT) + "\"}}";
        HttpResponse<String> r = send(post(server, big));
        assertEquals(413, r.statusCode(), r.body());
    }

    @Test
    void aRefusalBeforeTheBodyWasReadClosesTheConnectionSoTheNextRequestIsAnswered() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(LIMIT) + "\"}}";
        HttpClient one = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 30; i++) {
            HttpResponse<String> refused = one.send(post(server, big).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(413, refused.statusCode());
            assertEquals(Optional.of("close"), refused.headers().firstValue("Connection"), "the server says it closes");
            HttpResponse<String> next = one.send(post(server, PING).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, next.statusCode(), "request " + i + " after a 413 on the same client");
        }
    }

    @Test
    void aChunkedBodyOverTheLimitIsRefused413() throws Exception {
        byte[] big = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(LIMIT) + "\"}}").getBytes();
        // No Content-Length: the limit holds while the body streams in.
        HttpResponse<String> r = send(post(server, "").POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))));
        assertEquals(413, r.statusCode(), r.body());
    }

    @Test
    void malformedJsonIsABadRequest() throws Exception {
        HttpResponse<String> r = send(post(server, "{\"jsonrpc\":\"2.0\",\"id\":1,"));
        assertEquals(400, r.statusCode(), r.body());
    }

    @Test
    void aBodyThatIsNotJsonContentIsUnsupportedMediaType() throws Exception {
        HttpResponse<String> r = send(post(server, PING).setHeader("Content-Type", "text/plain"));
        assertEquals(415, r.statusCode(), r.body());
    }

    @Test
    void aCallerOverItsRateGets429WithRetryAfter() throws Exception {
        int first429 = -1;
        HttpResponse<String> refused = null;
        for (int i = 0; i < 6 && refused == null; i++) {
            HttpResponse<String> r = send(post(limited, PING));
            if (r.statusCode() == 429) {
                first429 = i;
                refused = r;
            }
        }
        // A burst of 3 at 1/s: the 4th request at once is over the rate (a slow machine may have earned one more).
        assertTrue(first429 == 3 || first429 == 4, "first 429 at request " + first429);
        long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1 && retryAfter <= 2, "Retry-After " + retryAfter);
    }
}
