package dev.schemabrain.load;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** One measured load level: how many calls at what concurrency, how fast, how many failed. */
public record LoadPoint(int concurrency, int calls, int errors, double seconds, double callsPerSecond, Latencies latency) {

    public static LoadPoint of(int concurrency, int errors, long elapsedNanos, long[] latencyNanos) {
        double seconds = elapsedNanos / 1e9;
        int calls = latencyNanos.length;
        return new LoadPoint(concurrency, calls, errors, Latencies.round(seconds),
                seconds <= 0 ? 0 : Math.round(calls / seconds * 10) / 10.0, Latencies.ofNanos(latencyNanos));
    }

    /** The point as the JSON reports print it. */
    public ObjectNode json() {
        return JsonNodeFactory.instance.objectNode()
                .put("concurrency", concurrency)
                .put("calls", calls)
                .put("errors", errors)
                .put("seconds", seconds)
                .put("calls_per_s", callsPerSecond)
                .put("p50_ms", latency.p50Ms())
                .put("p95_ms", latency.p95Ms())
                .put("p99_ms", latency.p99Ms())
                .put("max_ms", latency.maxMs())
                .put("mean_ms", latency.meanMs());
    }
}
