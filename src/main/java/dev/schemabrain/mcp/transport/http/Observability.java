package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.access.Access;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.server.ToolListCache;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.ToolCall;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the service counts, kept in one Micrometer registry so {@code /health} (JSON) and
 * {@code /metrics} (Prometheus text) report the same numbers. Latencies are cumulative histograms since
 * start ({@code _bucket} series in /metrics); /health's p95/p99 are read from those same buckets the way
 * Prometheus' {@code histogram_quantile} reads them, so a quiet server never reports 0 ms for a call it made.
 */
public final class Observability {

    private final PrometheusMeterRegistry registry;
    private final Map<String, Timer> endpoints = new ConcurrentHashMap<>();
    private final Map<String, Counter> endpointErrors = new ConcurrentHashMap<>();
    private final Counter requests;
    private final Counter errors;
    private final Counter sourceBusy;
    private final AtomicInteger inFlight;
    private final AtomicInteger maxInFlight;
    private final AtomicInteger sourceInFlight;
    private final Timer auditAppend;
    private final AtomicLong startedMillis = new AtomicLong(System.currentTimeMillis());
    private volatile ToolListCache toolList;

    public Observability() {
        this(Clock.SYSTEM);
    }

    /** @param clock the registry's clock (a test moves it past the windows the figures must not decay in) */
    Observability(Clock clock) {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), clock);
        requests = registry.counter("schemabrain.http.requests.total");
        errors = registry.counter("schemabrain.http.errors.total");
        sourceBusy = registry.counter("schemabrain.source.busy.total");
        inFlight = registry.gauge("schemabrain.http.in.flight", new AtomicInteger());
        maxInFlight = registry.gauge("schemabrain.http.in.flight.max", new AtomicInteger());
        sourceInFlight = registry.gauge("schemabrain.executor.in.flight", new AtomicInteger());
        auditAppend = percentiles(Timer.builder("schemabrain.audit.append")).register(registry);
    }

    /** How many endpoints /health and the stats line name as the busiest. */
    static final int TOP = 5;

    // Client-side percentiles decay to 0 two minutes after the last sample and agree with no histogram:
    // cumulative buckets from 20 µs (an audit append) to a minute instead.
    private static Timer.Builder percentiles(Timer.Builder builder) {
        return builder.publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(20_000))
                .maximumExpectedValue(Duration.ofMinutes(1));
    }

    /** Reports {@code cache}'s counters in /health, /metrics and the stats line (the service's one tools/list cache). */
    void watch(ToolListCache cache) {
        toolList = cache;
        FunctionCounter.builder("schemabrain.tools.list.cache.hits", cache, c -> c.stats().hits()).register(registry);
        FunctionCounter.builder("schemabrain.tools.list.cache.misses", cache, c -> c.stats().misses()).register(registry);
        FunctionCounter.builder("schemabrain.tools.list.builds", cache, c -> c.stats().builds()).register(registry);
        Gauge.builder("schemabrain.tools.list.build.avg.ms", cache, c -> c.stats().buildAvgMs()).register(registry);
        Gauge.builder("schemabrain.tools.list.build.max.ms", cache, c -> c.stats().buildMaxMs()).register(registry);
    }

    /** A request began; returns its start for {@link #finished}. */
    long started() {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        return System.nanoTime();
    }

    /** A request ended at {@code endpoint} (bounded set of names), an error when {@code failed}. */
    void finished(long startNanos, String endpoint, boolean failed) {
        long nanos = System.nanoTime() - startNanos;
        requests.increment();
        // The error counter before the timer: summary() reads an endpoint's counter once it sees its timer.
        Counter endpointFailed = endpointErrors.computeIfAbsent(endpoint,
                e -> registry.counter("schemabrain.http.endpoint.errors", "endpoint", e));
        endpoints.computeIfAbsent(endpoint, e -> percentiles(Timer.builder("schemabrain.http.endpoint"))
                .tag("endpoint", e).register(registry)).record(nanos, TimeUnit.NANOSECONDS);
        if (failed) {
            errors.increment();
            endpointFailed.increment();
        }
        // Last: once in_flight is back to 0, every finished request is counted.
        inFlight.decrementAndGet();
    }

    void sourceCallStarted() {
        sourceInFlight.incrementAndGet();
    }

    void sourceCallEnded(Envelope answer) {
        sourceInFlight.decrementAndGet();
        if (answer != null && answer.error() != null
                && answer.error().kind() == ErrorKind.SOURCE_BUSY) {
            sourceBusy.increment();
        }
    }

    /** {@code audit} with the time of each append recorded (the audit append p99 of /health). */
    public CallAudit timed(CallAudit audit) {
        return new CallAudit() {
            @Override
            public void beforeSql(ToolCall call, String sqlFingerprint) throws AuditUnavailable {
                time(() -> audit.beforeSql(call, sqlFingerprint));
            }

            @Override
            public void completed(ToolCall call, Envelope result) throws AuditUnavailable {
                time(() -> audit.completed(call, result));
            }

            @Override
            public void rejected(String tool, String caller, Object arguments, String errorKind) throws AuditUnavailable {
                time(() -> audit.rejected(tool, caller, arguments, errorKind));
            }

            @Override
            public void rejected(String tool, String caller, Access access, Object arguments,
                                 String errorKind) throws AuditUnavailable {
                time(() -> audit.rejected(tool, caller, access, arguments, errorKind));
            }
        };
    }

    private interface Append {
        void run() throws CallAudit.AuditUnavailable;
    }

    private void time(Append append) throws CallAudit.AuditUnavailable {
        long t = System.nanoTime();
        try {
            append.run();
        } finally {
            auditAppend.record(System.nanoTime() - t, TimeUnit.NANOSECONDS);
        }
    }

    /** The {@code observability} object of /health. */
    public Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("uptime_s", (System.currentTimeMillis() - startedMillis.get()) / 1000);
        out.put("total_requests", (long) requests.count());
        out.put("total_errors", (long) errors.count());
        out.put("in_flight", inFlight.get());
        out.put("max_in_flight", maxInFlight.get());
        out.put("top_endpoints", top(false));
        out.put("top_tools", top(true));
        Map<String, Object> perEndpoint = new TreeMap<>();
        endpoints.forEach((name, timer) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("count", timer.count());
            Counter failed = endpointErrors.get(name);
            e.put("errors", failed == null ? 0L : (long) failed.count());
            e.putAll(tail(timer));
            perEndpoint.put(name, e);
        });
        out.put("endpoints", perEndpoint);
        Map<String, Object> audit = new LinkedHashMap<>();
        audit.put("appends", auditAppend.count());
        audit.put("append_p99_ms", tail(auditAppend).get("p99_ms"));
        out.put("audit", audit);
        out.put("executor_in_flight", sourceInFlight.get());
        out.put("source_busy", (long) sourceBusy.count());
        ToolListCache cache = toolList;
        if (cache != null) {
            ToolListCache.Stats t = cache.stats();
            Map<String, Object> list = new LinkedHashMap<>();
            list.put("cache_hits", t.hits());
            list.put("cache_misses", t.misses());
            list.put("builds", t.builds());
            list.put("hit_rate_pct", t.hitRatePct());
            list.put("build_avg_ms", Math.round(t.buildAvgMs() * 100) / 100.0);
            list.put("build_max_ms", Math.round(t.buildMaxMs() * 100) / 100.0);
            out.put("tools_list", list);
        }
        return out;
    }

    /** The busiest endpoints (or tools, without the "tools/call " prefix) by count, most first: name → count. */
    private Map<String, Long> top(boolean tools) {
        String prefix = "tools/call ";
        Map<String, Long> out = new LinkedHashMap<>();
        endpoints.entrySet().stream()
                .filter(e -> !tools || e.getKey().startsWith(prefix))
                .sorted(Comparator.comparingLong((Map.Entry<String, Timer> e) -> -e.getValue().count())
                        .thenComparing(Map.Entry::getKey))
                .limit(TOP)
                .forEach(e -> out.put(tools ? e.getKey().substring(prefix.length()) : e.getKey(), e.getValue().count()));
        return out;
    }

    /** The stats line: one line of the same figures for the log, then the tools/list cache's. */
    public String statsLine() {
        Map<String, Object> s = summary();
        Timer list = endpoints.get("tools/list");
        ToolListCache cache = toolList;
        List<String> tools = top(true).entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).toList();
        return String.format(Locale.ROOT, "stats total_requests=%s total_errors=%s in_flight=%s max_in_flight=%s"
                        + " tools_list=%d top_tools=%s audit_append_p99_ms=%s executor_in_flight=%s source_busy=%s",
                s.get("total_requests"), s.get("total_errors"), s.get("in_flight"), s.get("max_in_flight"),
                list == null ? 0 : list.count(), tools.isEmpty() ? "-" : String.join(",", tools),
                ((Map<?, ?>) s.get("audit")).get("append_p99_ms"), s.get("executor_in_flight"), s.get("source_busy"))
                + (cache == null ? "" : "; " + cache.stats().line());
    }

    /** Prometheus text exposition format 0.0.4. */
    public String prometheus() {
        return registry.scrape();
    }

    /** p95 and p99 in ms from the timer's cumulative buckets (null before its first sample). */
    private static Map<String, Object> tail(Timer timer) {
        HistogramSnapshot snapshot = timer.takeSnapshot();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("p95_ms", BucketQuantile.ms(snapshot, 0.95));
        out.put("p99_ms", BucketQuantile.ms(snapshot, 0.99));
        return out;
    }
}
