package dev.schemabrain.execute;

/**
 * Limits of the executor (SPEC §2, §7).
 *
 * @param statementTimeoutMs how long one statement may run
 * @param maxRows            rows returned at most, whatever a call asks
 * @param maxConcurrent      statements in flight at once; more wait, then get source_busy
 * @param acquireWaitMs      how long a call waits for a free slot
 * @param costCap            refuse statements whose EXPLAIN cost exceeds this; null for no cap
 */
public record ExecutorSettings(int statementTimeoutMs, int maxRows, int maxConcurrent, long acquireWaitMs, Double costCap) {

    public ExecutorSettings {
        if (statementTimeoutMs < 1 || maxRows < 1 || maxConcurrent < 1 || acquireWaitMs < 0) {
            throw new IllegalArgumentException("executor limits must be positive");
        }
    }

    public static ExecutorSettings defaults() {
        return new ExecutorSettings(30_000, 10_000, 8, 2_000, null);
    }

    public ExecutorSettings withCostCap(Double cap) {
        return new ExecutorSettings(statementTimeoutMs, maxRows, maxConcurrent, acquireWaitMs, cap);
    }
}
