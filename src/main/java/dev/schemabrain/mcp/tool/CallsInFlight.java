package dev.schemabrain.mcp.tool;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * How many callers' calls a registry is answering now, so that the server's own background work (the warm-up after
 * start) gives way to them: on two cores, a warm-up search running beside a session's first calls made each of
 * them 25-30 ms slower (docs/operations.md).
 */
public final class CallsInFlight {

    /** How long background work waits at most for the calls in flight before it goes on anyway. */
    private static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final AtomicInteger count = new AtomicInteger();

    void enter() {
        count.incrementAndGet();
    }

    void exit() {
        count.decrementAndGet();
    }

    public boolean any() {
        return count.get() > 0;
    }

    /** Waits, in steps of a millisecond, while a call is in flight (at most 200 ms: a stuck call holds nothing up). */
    public void giveWay() {
        giveWay(MAX_WAIT_NANOS);
    }

    private long giveWay(long maxNanos) {
        long start = System.nanoTime();
        long deadline = start + maxNanos;
        while (any() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return System.nanoTime() - start;
    }

    /**
     * A {@link #giveWay} that stops waiting once it has waited {@code total} in all: for work that must not be put
     * off for good under a constant load (the audit history check holds a read snapshot while it waits, and the
     * log's WAL cannot be checkpointed past it meanwhile).
     */
    public Runnable givingWayFor(Duration total) {
        AtomicLong left = new AtomicLong(total.toNanos());
        return () -> {
            long budget = left.get();
            if (budget > 0) {
                left.addAndGet(-giveWay(Math.min(MAX_WAIT_NANOS, budget)));
            }
        };
    }
}
