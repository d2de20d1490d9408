package dev.schemabrain.mcp.transport.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.schemabrain.audit.AuditRecord;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances on one store behind a plain round-robin balancer (no sticky sessions): one client
 * session initializes on one instance and calls tools on both.
 */
class RoundRobinTest {

    /** Forwards each request to the next backend in turn; copies the headers MCP needs both ways. */
    static HttpServer roundRobin(List<String> backends, AtomicInteger[] served) throws IOException {
        HttpClient client = HttpClient.newHttpClient();
        AtomicInteger next = new AtomicInteger();
        HttpServer proxy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        proxy.createContext("/", exchange -> forward(exchange, client, backends, served, next.getAndIncrement() % backends.size()));
        proxy.start();
        return proxy;
    }

    private static void forward(HttpExchange exchange, HttpClient client, List<String> backends, AtomicInteger[] served, int i)
            throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(backends.get(i) + exchange.getRequestURI()))
                    .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            for (String name : List.of("Content-Type", "Accept", "Mcp-Session-Id", "Mcp-Protocol-Version", "Origin")) {
                String value = exchange.getRequestHeaders().getFirst(name);
                if (value != null) {
                    request.header(name, value);
                }
            }
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            served[i].incrementAndGet();
            for (String name : List.of("Content-Type", "Mcp-Session-Id", "Retry-After")) {
                response.headers().firstValue(name).ifPresent(v -> exchange.getResponseHeaders().add(name, v));
            }
            byte[] out = response.body();
            exchange.sendResponseHeaders(response.statusCode(), out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                exchange.getResponseBody().write(out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void oneClientSessionWorksAcrossTwoInstances() throws Exception {
        AtomicInteger[] served = {new AtomicInteger(), new AtomicInteger()};
        try (HttpFixture a = HttpFixture.start(HttpOptions.loopback());
             HttpFixture b = HttpFixture.start(HttpOptions.loopback())) {
            HttpServer proxy = roundRobin(List.of(a.url(), b.url()), served);
            try {
                McpSyncClient client = HttpFixture.client("http://127.0.0.1:" + proxy.getAddress().getPort(), "round-robin");
                try {
                    assertEquals(16, client.listTools().tools().size());
                    for (String table : List.of("main.plans", "main.teams", "main.users", "main.invoices")) {
                        McpSchema.CallToolResult r = client.callTool(McpSchema.CallToolRequest.builder("describe_table")
                                .arguments(Map.of("qualified_name", table)).build());
                        assertFalse(Boolean.TRUE.equals(r.isError()), r.toString());
                    }
                } finally {
                    client.closeGracefully();
                }
            } finally {
                proxy.stop(0);
            }
            assertTrue(served[0].get() >= 3 && served[1].get() >= 3, "each instance served part of the session: "
                    + served[0] + " and " + served[1]);
            // Both instances wrote to the one audit chain, each row under the caller's identity (no credential: anonymous).
            List<AuditRecord> rows = a.lastRows(4);
            assertEquals(4, rows.stream().filter(r -> r.entry().caller().equals("anonymous")).count(), rows::toString);
        }
    }
}
