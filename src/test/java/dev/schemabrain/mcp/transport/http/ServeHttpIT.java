package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.ServedJar;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code schemabrain serve --transport http} from the packaged jar, as an operator runs it: the SDK client
 * calls tools, the request log and the stats line go to stderr without argument values, SIGTERM stops it,
 * and the audit chain it wrote verifies.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServeHttpIT {

    @TempDir
    static Path dir;
    static Path store;
    static Process server;
    static List<String> stderr;
    static String url;

    @BeforeAll
    static void serve() throws Exception {
        store = dir.resolve("demo.db");
        Path database = dir.resolve("demo.sqlite");
        Cli.Result demo = Cli.run(dir, "--store", store.toString(), "demo", "--events", "none", "--database", database.toString());
        assertEquals(0, demo.exitCode(), demo.stderr());
        ServedJar served = ServedJar.start(store, dir, Map.of("SB_DEMO_URL", "sqlite:" + database), List.of(), true,
                "--stats-interval", "1", "--url-env", "SB_DEMO_URL");
        server = served.process;
        stderr = served.stderr;
        url = served.url;
    }

    @AfterAll
    static void stop() {
        if (server != null && server.isAlive()) {
            server.destroyForcibly();
        }
    }

    @Test
    @Order(1)
    void theSdkClientCallsToolsOnTheServedJar() {
        McpSyncClient client = HttpFixture.client(url, "serve-http-it");
        try {
            McpSchema.CallToolResult table = client.callTool(McpSchema.CallToolRequest.builder("describe_table")
                    .arguments(Map.of("qualified_name", "main.plans")).build());
            assertFalse(Boolean.TRUE.equals(table.isError()), table.toString());
            McpSchema.CallToolResult metric = client.callTool(McpSchema.CallToolRequest.builder("get_metric")
                    .arguments(Map.of("name", "payments_count")).build());
            assertFalse(Boolean.TRUE.equals(metric.isError()), metric.toString());
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    @Order(2)
    void healthCountsTheCalls() throws Exception {
        HttpResponse<String> r;
        long until = System.nanoTime() + 5_000_000_000L;
        do {
            // The last call's response can reach the client just before the server has counted it.
            r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
        } while (!r.body().contains("\"tools/call get_metric\":{\"count\":1") && System.nanoTime() < until);
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("\"tools/call get_metric\":{\"count\":1"), r.body());
    }

    @Test
    @Order(3)
    void eachRequestIsOneLogLineWithCallerToolStatusAndTimeButNoArgument() throws Exception {
        waitFor(() -> stderr.stream().anyMatch(l -> l.contains(" stats total_requests=")), "a stats line");
        String describe = stderr.stream().filter(l -> l.contains("tool=describe_table")).findFirst().orElseThrow();
        assertTrue(describe.matches(".*request caller=\"anonymous\" client_claimed=\"serve-http-it/1\\.0\" endpoint=\"tools/call\""
                + " tool=describe_table status=200 outcome=success ms=\\d+\\.\\d\\d$"), describe);
        assertTrue(stderr.stream().noneMatch(l -> l.contains("main.plans") || l.contains("payments_count")), String.join("\n", stderr));
    }

    @Test
    @Order(4)
    void anIdleServerDoesNotRepeatItsStatsLineNorAsksForATokenItDoesNotCheck() throws Exception {
        // --stats-interval 1: once the last request is counted, no figure changes, so no line follows.
        Thread.sleep(2_500);
        long before = stderr.stream().filter(l -> l.contains(" stats total_requests=")).count();
        Thread.sleep(3_500);
        long after = stderr.stream().filter(l -> l.contains(" stats total_requests=")).count();
        assertTrue(before >= 1, String.join("\n", stderr));
        assertEquals(before, after, "the stats line repeated while idle:\n" + String.join("\n", stderr));
        assertTrue(stderr.stream().noneMatch(l -> l.contains("SCHEMABRAIN_TOKEN")), String.join("\n", stderr));
        assertTrue(stderr.stream().anyMatch(l -> l.contains("the client needs no token")), String.join("\n", stderr));
    }

    @Test
    @Order(5)
    void sigtermStopsTheServerAndItsAuditChainVerifies() throws Exception {
        // SIGTERM through the handle: Process.destroy() also closes our end of its stderr, losing the last lines.
        server.toHandle().destroy();
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "serve did not stop on SIGTERM");
        waitFor(() -> stderr.stream().anyMatch(l -> l.startsWith("schemabrain: stopped after ")), "a stopped line");
        assertTrue(stderr.stream().anyMatch(l -> l.startsWith("schemabrain: stopping (SIGTERM): 0 requests in flight")),
                String.join("\n", stderr));
        String stopped = stderr.stream().filter(l -> l.startsWith("schemabrain: stopped after ")).findFirst().orElseThrow();
        assertTrue(stopped.matches("schemabrain: stopped after \\d+ requests \\(\\d+ errors\\), [1-9]\\d* audit rows written\\."),
                stopped);
        Cli.Result verify = Cli.run(dir, "--store", store.toString(), "audit", "verify");
        assertEquals(0, verify.exitCode(), verify.stdout() + verify.stderr());
        try (AuditLog log = AuditLog.openExisting(store)) {
            List<AuditRecord> rows = log.list(10, OptionalLong.empty());
            assertTrue(rows.stream().anyMatch(r -> r.entry().tool().equals("get_metric")
                    && "anonymous".equals(r.entry().caller())), rows::toString);
        }
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("no " + what + " within 10 s: " + stderr);
            }
            Thread.sleep(100);
        }
    }
}
