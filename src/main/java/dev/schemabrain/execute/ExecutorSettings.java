package dev.schemabrain.execute;

/**
 * Limits of the executor.
 *
 * @param statementTimeoutMs how long one statement may run
 * @param maxRows            rows returned at most, whatever a call asks
 * @param maxConcurrent      statements in flight at once; more wait, then get source_busy
 * @param acquireWaitMs      how long a call waits for a free slot
 * @param costCap            refuse statements whose EXPLAIN cost exceeds this; null for no cap
 * @param maxBytes           bytes of cell data an answer holds at most: a few rows of huge values (repeat(),
 *                           string_agg) are as costly as too many rows, so rows stop when this is passed
 */
public record ExecutorSettings(int statementTimeoutMs, int maxRows, int maxConcurrent, long acquireWaitMs, Double costCap,
                               long maxBytes) {

    /** The default byte budget of one answer: 4 MiB of cell data. */
    public static final long DEFAULT_MAX_BYTES = 4L * 1024 * 1024;

    public ExecutorSettings {
        if (statementTimeoutMs < 1 || maxRows < 1 || maxConcurrent < 1 || acquireWaitMs < 0 || maxBytes < 1) {
            throw new IllegalArgumentException("executor limits must be positive");
        }
    }

    /** With the default byte budget. */
    public ExecutorSettings(int statementTimeoutMs, int maxRows, int maxConcurrent, long acquireWaitMs, Double costCap) {
        this(statementTimeoutMs, maxRows, maxConcurrent, acquireWaitMs, costCap, DEFAULT_MAX_BYTES);
    }

    public static ExecutorSettings defaults() {
        return new ExecutorSettings(30_000, 10_000, 8, 2_000, null);
    }

    public ExecutorSettings withCostCap(Double cap) {
        return new ExecutorSettings(statementTimeoutMs, maxRows, maxConcurrent, acquireWaitMs, cap, maxBytes);
    }
}
