package dev.schemabrain.mcp.transport.stdio;

import java.time.Duration;

/** Messages taken but not yet answered, so the end of stdin can wait for their answers (2025 session and 2026 alike). */
final class InFlight {

    private int count;    // guarded by this

    synchronized void started() {
        count++;
    }

    synchronized void ended() {
        count--;
        notifyAll();
    }

    /** Waits until every message taken has been answered, or {@code limit} passes; returns whether all were. */
    synchronized boolean await(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (count > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
