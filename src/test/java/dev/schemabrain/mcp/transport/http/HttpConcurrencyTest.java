package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Many connections at once: every call is answered and audited, and /health saw them overlap. */
class HttpConcurrencyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void twoHundredConcurrentConnectionsAreAllAnsweredAndCounted() throws Exception {
        int calls = 200;
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback())) {
            long rowsBefore = server.audit.head().count();
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                String body = "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"describe_table\",\"arguments\":{\"qualified_name\":\"main.plans\"}}}";
                answers.add(client.sendAsync(HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
                        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                HttpResponse<String> r = answer.get();
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("success", JSON.readTree(r.body()).path("result").path("structuredContent").path("status").asText(),
                        r.body());
            }
            assertEquals(rowsBefore + calls, server.audit.head().count(), "one audit row per call");
            // A response reaches the client before its request's last bookkeeping (the filter's finally) runs.
            JsonNode o = JSON.valueToTree(server.service.observability().summary());
            for (long until = System.nanoTime() + 5_000_000_000L; o.path("in_flight").asInt() > 0 && System.nanoTime() < until; ) {
                Thread.sleep(20);
                o = JSON.valueToTree(server.service.observability().summary());
            }
            assertEquals(calls, o.path("endpoints").path("tools/call describe_table").path("count").asInt(), o.toString());
            assertEquals(0, o.path("total_errors").asInt(), o.toString());
            assertEquals(0, o.path("in_flight").asInt(), o.toString());
            assertTrue(o.path("max_in_flight").asInt() > 1, o.toString());
        }
    }
}
