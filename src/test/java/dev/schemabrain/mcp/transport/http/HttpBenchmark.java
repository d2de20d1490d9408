package dev.schemabrain.mcp.transport.http;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * describe_table over Streamable HTTP on the demo store: throughput and tail latency at concurrency
 * 8/32/64, every call audited and logged, client (java.net.http, one connection per worker) and server in
 * one JVM on loopback. Run with {@code mvn -Pbench test -Dtest=HttpBenchmark} (add {@code -Dhttp.bench.audit=off} to
 * see the HTTP path without the audit log); figures in target/bench/http.txt.
 */
@Tag("benchmark")
class HttpBenchmark {

    private static final List<String> TABLES = List.of("main.plans", "main.teams", "main.users", "main.invoices",
            "main.payments", "main.organizations", "main.projects", "main.subscriptions");

    @Test
    void describeTableThroughput() throws Exception {
        int total = Integer.getInteger("http.bench.total", 4_000);
        List<String> lines = new ArrayList<>();
        boolean audited = !"off".equals(System.getProperty("http.bench.audit"));
        try (HttpFixture server = HttpFixture.start(HttpOptions.loopback(), audited)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            URI mcp = URI.create(server.url() + "/mcp");
            // C2 needs tens of thousands of calls to compile the call path; 1,000 measured the interpreter.
            run(client, mcp, 8, Integer.getInteger("http.bench.warmup", 20_000));
            for (int concurrency : new int[]{8, 32, 64}) {
                long started = System.nanoTime();
                long cpuBefore = processCpuNanos();
                long[] nanos = run(client, mcp, concurrency, total);
                double seconds = (System.nanoTime() - started) / 1e9;
                // CPU per call (server and client together, one process): steadier than calls/s on a shared machine.
                double cpuMs = (processCpuNanos() - cpuBefore) / 1e6 / total;
                Arrays.sort(nanos);
                lines.add(String.format(Locale.ROOT, "describe_table over HTTP, concurrency %d%s: %.0f calls/s, %.3f ms CPU"
                                + " per call, p50 %.2f ms, p95 %.2f ms, p99 %.2f ms (%d calls); audit append p99 %s ms", concurrency,
                        audited ? "" : " (audit off)", total / seconds, cpuMs, ms(nanos, 0.50), ms(nanos, 0.95), ms(nanos, 0.99), total,
                        ((Map<?, ?>) server.service.observability().summary().get("audit")).get("append_p99_ms")));
            }
        }
        Path out = Path.of("target", "bench", "http.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long[] run(HttpClient client, URI mcp, int concurrency, int total) throws Exception {
        long[] nanos = new long[total];
        AtomicInteger next = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(concurrency);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < concurrency; w++) {
                done.add(workers.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < total; ) {
                        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                                + "\"describe_table\",\"arguments\":{\"qualified_name\":\"" + TABLES.get(i % TABLES.size()) + "\"}}}";
                        HttpRequest request = HttpRequest.newBuilder(mcp).header("Content-Type", "application/json")
                                .header("Accept", "application/json, text/event-stream")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                        long t = System.nanoTime();
                        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                        nanos[i] = System.nanoTime() - t;
                        assertEquals(200, r.statusCode(), r.body());
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

    private static double ms(long[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
    }
}
