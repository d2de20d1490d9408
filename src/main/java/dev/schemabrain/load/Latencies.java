package dev.schemabrain.load;

import java.util.Arrays;

/** Latency percentiles of a run in milliseconds, by nearest rank (p99 of 200 calls is the 198th fastest). */
public record Latencies(double p50Ms, double p95Ms, double p99Ms, double maxMs, double meanMs) {

    public static final Latencies NONE = new Latencies(0, 0, 0, 0, 0);

    public static Latencies ofNanos(long[] nanos) {
        if (nanos.length == 0) {
            return NONE;
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (long n : sorted) {
            sum += n;
        }
        return new Latencies(ms(rank(sorted, 0.50)), ms(rank(sorted, 0.95)), ms(rank(sorted, 0.99)),
                ms(sorted[sorted.length - 1]), round(sum / sorted.length / 1e6));
    }

    private static long rank(long[] sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double ms(long nanos) {
        return round(nanos / 1e6);
    }

    /** Three decimals: microseconds, what a loopback call can resolve. */
    static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
