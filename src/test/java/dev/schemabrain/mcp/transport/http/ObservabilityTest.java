package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.ToolCall;
import io.micrometer.core.instrument.MockClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** /health's figures: the names an operator looks for, and percentiles that agree with /metrics' buckets. */
class ObservabilityTest {

    private static final Pattern BUCKET = Pattern.compile("^(\\w+)_bucket\\{(?:endpoint=\"([^\"]*)\",)?le=\"([^\"]+)\"} (\\S+)$");

    @Test
    void percentilesOfAQuietServerStayTheOnesItMeasuredAndLieInTheMetricsBucket() throws Exception {
        MockClock clock = new MockClock();
        Observability o = new Observability(clock);
        o.finished(System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(25), "initialize", false);
        CallAudit slow = o.timed(new CallAudit() {
            @Override
            public void beforeSql(ToolCall call, String sqlFingerprint) {
            }

            @Override
            public void completed(ToolCall call, Envelope result) {
                try {
                    Thread.sleep(25);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        slow.completed(null, null);
        // Idle past the two-minute window in which client-side percentiles decayed to 0.0.
        clock.add(Duration.ofMinutes(5));

        Map<String, Object> health = o.summary();
        Map<?, ?> initialize = (Map<?, ?>) ((Map<?, ?>) health.get("endpoints")).get("initialize");
        double p95 = ((Number) initialize.get("p95_ms")).doubleValue();
        double append = ((Number) ((Map<?, ?>) health.get("audit")).get("append_p99_ms")).doubleValue();
        assertTrue(p95 >= 20, "initialize took 25 ms, /health says p95 " + p95);
        assertTrue(append >= 20, "the append took at least 25 ms, /health says p99 " + append);

        String metrics = o.prometheus();
        assertWithinItsBucket(metrics, "schemabrain_http_endpoint_seconds", "initialize", p95);
        assertWithinItsBucket(metrics, "schemabrain_audit_append_seconds", null, append);
    }

    @Test
    void theSummaryUsesTheNamesAnOperatorLooksFor() {
        Observability o = new Observability();
        for (int i = 0; i < 3; i++) {
            o.finished(o.started(), "tools/call describe_table", false);
        }
        o.finished(o.started(), "tools/call get_metric", true);
        o.finished(o.started(), "tools/list", false);
        Map<String, Object> health = o.summary();
        assertEquals(5L, health.get("total_requests"));
        assertEquals(1L, health.get("total_errors"));
        assertEquals(0, health.get("in_flight"));
        assertEquals(Map.of("describe_table", 3L, "get_metric", 1L), health.get("top_tools"));
        assertEquals("tools/call describe_table", ((Map<?, ?>) health.get("top_endpoints")).keySet().iterator().next());
        assertTrue(o.statsLine().contains("total_requests=5 total_errors=1 in_flight=0"), o.statsLine());
        assertTrue(o.statsLine().contains("top_tools=describe_table:3,get_metric:1"), o.statsLine());
        assertNull(((Map<?, ?>) health.get("audit")).get("append_p99_ms"), "no append yet, no percentile");
    }

    /** {@code ms} lies above the highest bound holding no sample and at most the lowest holding them all. */
    private static void assertWithinItsBucket(String metrics, String name, String endpoint, double ms) {
        double emptyBelow = 0;
        double fullAt = Double.POSITIVE_INFINITY;
        for (String line : metrics.split("\n")) {
            Matcher m = BUCKET.matcher(line);
            if (!m.matches() || !m.group(1).equals(name) || (endpoint != null && !endpoint.equals(m.group(2)))
                    || m.group(3).equals("+Inf")) {
                continue;
            }
            double le = Double.parseDouble(m.group(3)) * 1000;
            double count = Double.parseDouble(m.group(4));
            if (count == 0) {
                emptyBelow = Math.max(emptyBelow, le);
            } else {
                fullAt = Math.min(fullAt, le);
            }
        }
        assertTrue(fullAt < Double.POSITIVE_INFINITY, "/metrics has no bucket series for " + name + ":\n" + metrics);
        assertTrue(ms > emptyBelow && ms <= fullAt + 0.01,
                name + " " + ms + " ms is not in /metrics' bucket (" + emptyBelow + ", " + fullAt + "]");
    }
}
