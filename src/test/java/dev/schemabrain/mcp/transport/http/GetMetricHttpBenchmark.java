package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.server.McpCore;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.BenchExecutors;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.server.AuditedCalls;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.DispatchCapacity;
import dev.schemabrain.mcp.server.RateLimit;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.ExampleQueries;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.testing.Indexed;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * get_metric over Streamable HTTP against embedded PostgreSQL at concurrency 8, every call audited: one server whose
 * executor pools sessions and one that opens a new connection per call (as before the pool), measured in alternating
 * rounds, with the PostgreSQL sessions opened per call (pg_stat_database.sessions). Run with
 * {@code mvn -Pbench test -Dtest=GetMetricHttpBenchmark}; figures in target/bench/get-metric-http.txt.
 */
@Tag("benchmark")
class GetMetricHttpBenchmark {

    @TempDir
    Path dir;

    @Test
    void pooledAgainstNewConnectionPerCall() throws Exception {
        TestPostgres.createDatabase("sb_metricbench",
                "CREATE TABLE invoices (id int PRIMARY KEY, total_cents bigint NOT NULL, region text NOT NULL, issued_at timestamp NOT NULL)",
                "INSERT INTO invoices SELECT g, (g * 37) % 10000, (ARRAY['north','south','east','west'])[1 + g % 4],"
                        + " TIMESTAMP '2024-01-01' + (g % 365) * INTERVAL '1 day' FROM generate_series(1, 20000) g",
                "ANALYZE invoices");
        SourceUrl url = SourceUrl.parse(TestPostgres.url("sb_metricbench"));
        ExecutorSettings settings = new ExecutorSettings(30_000, 10_000, 8, 2_000, null);
        int total = Integer.getInteger("metric.bench.total", 3_000);
        List<String> lines = new ArrayList<>();
        try (Served pooled = serve(url, dir.resolve("pooled.db"), new QueryExecutor(url, settings));
             Served unpooled = serve(url, dir.resolve("unpooled.db"), BenchExecutors.newConnectionPerCall(url, settings))) {
            String metric = metric(pooled.registry);
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            run(client, pooled, metric, Integer.getInteger("metric.bench.warmup", 6_000));
            run(client, unpooled, metric, 2_000);
            for (int round = 0; round < 3; round++) {
                for (Served s : List.of(unpooled, pooled)) {
                    long sessions = sessions();
                    long started = System.nanoTime();
                    long[] nanos = run(client, s, metric, total);
                    double seconds = (System.nanoTime() - started) / 1e9;
                    Arrays.sort(nanos);
                    lines.add(String.format(Locale.ROOT, "round %d %-25s %5.0f calls/s, p50 %.2f ms, p99 %.2f ms,"
                                    + " %.3f PostgreSQL sessions per call (%d get_metric calls over HTTP, c=8, audited)", round,
                            s == pooled ? "pooled sessions:" : "new connection per call:", total / seconds, ms(nanos, 0.50),
                            ms(nanos, 0.99), (sessions() - sessions) / (double) total, total));
                }
            }
        }
        Path out = Path.of("target", "bench", "get-metric-http.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }

    private record Served(HttpService service, AuditLog audit, QueryExecutor executor, ToolRegistry registry) implements AutoCloseable {
        URI mcp() {
            return URI.create("http://127.0.0.1:" + service.port() + "/mcp");
        }

        @Override
        public void close() {
            service.close();
            audit.close();
            executor.close();
        }
    }

    private static Served serve(SourceUrl url, Path store, QueryExecutor executor) throws Exception {
        Indexed.store(url, store);
        AuditKey key = AuditKey.of(new byte[AuditKey.MIN_BYTES]);
        AuditLog audit = AuditLog.open(store, key, Optional.empty());
        Observability observability = new Observability();
        ToolRegistry registry = StandardTools.registry(new StoreCatalogProvider(store, Optional.empty()), SourceExecutors.of(Optional.of(executor)), 5, ExampleQueries.NONE)
                .audited(observability.timed(new AuditedCalls(audit, key, executor.sourceId())));
        HttpService service = HttpService.start(McpCore.of(registry, DispatchCapacity.forMaxConcurrentQueries(8),
                CallerRates.metricOnly(RateLimit.OFF), ToolListing.FULL, Optional::empty, "bench"), HttpOptions.loopback(), observability, () -> "static",
                Optional.empty(), Optional.empty());
        return new Served(service, audit, executor, registry);
    }

    private static String metric(ToolRegistry tools) {
        Envelope listed = tools.call("list_metrics", Map.of("limit", 200));
        for (JsonNode m : listed.data().get("metrics")) {
            if (m.path("measure").path("column").asText().equals("total_cents")) {
                return m.get("name").asText();
            }
        }
        throw new AssertionError("no metric on invoices.total_cents: " + listed.toJson());
    }

    private static long[] run(HttpClient client, Served server, String metric, int total) throws Exception {
        long[] nanos = new long[total];
        AtomicInteger next = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                done.add(workers.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < total; ) {
                        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                                + "\"get_metric\",\"arguments\":{\"name\":\"" + metric + "\"}}}";
                        HttpRequest request = HttpRequest.newBuilder(server.mcp()).header("Content-Type", "application/json")
                                .header("Accept", "application/json, text/event-stream")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                        long t = System.nanoTime();
                        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                        nanos[i] = System.nanoTime() - t;
                        assertEquals(200, r.statusCode(), r.body());
                        assertFalse(r.body().contains("\"isError\":true"), r.body());
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            workers.shutdownNow();
        }
        return nanos;
    }

    /** Sessions PostgreSQL has opened on the database so far (its statistics lag by up to a second: a pause first). */
    private static long sessions() throws Exception {
        Thread.sleep(1_100);
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_clear_snapshot()");
            try (ResultSet rs = st.executeQuery("SELECT sessions FROM pg_stat_database WHERE datname = 'sb_metricbench'")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
    }
}
