package dev.schemabrain.audit;

/**
 * When an append returns relative to the fsync that makes its row survive a power cut.
 * Either way a killed process keeps every committed row, get_metric's {@code started} row is fsynced
 * before its SQL leaves, and concurrent appends share one fsync.
 */
public enum AuditDurability {
    /** Every append returns once an fsync covered its row: no answer leaves before its row is on disk. */
    EVERY_ROW,
    /**
     * Only a {@code started} row waits for its fsync; other appends return once committed and a flusher fsyncs
     * them within 10 ms, so a power cut (not a killed process) can lose the last 10 ms or so of rows. The server's default:
     * The contract asks only the started row to be durable before its SQL, and an fsync on every answer's path
     * cost describe_table over stdio about 1.4 ms of its p50 and most of its p99.
     */
    STARTED_ROWS;

    /** Whether an append of {@code phase} waits for the fsync covering it. */
    boolean waitsFor(AuditEntry.Phase phase) {
        return this == EVERY_ROW || phase == AuditEntry.Phase.STARTED;
    }
}
