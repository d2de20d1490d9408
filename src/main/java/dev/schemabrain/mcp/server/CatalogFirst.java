package dev.schemabrain.mcp.server;

/**
 * Counts catalog calls in flight so that recording turned-away calls can wait for them. Every answer
 * costs an audit row (one fsync each), and a flood turned away is hundreds of rows written one after
 * the other by one thread: a describe_table asking for the audit log's lock in between would wait for
 * the whole flood, since a lock that is released and taken again by the same thread is rarely handed
 * over. Turned-away rows are answers nobody waits for eagerly, so they go last.
 */
final class CatalogFirst {

    private int inFlight;

    synchronized void enter() {
        inFlight++;
    }

    synchronized void exit() {
        if (--inFlight == 0) {
            notifyAll();
        }
    }

    /** Waits until no catalog call is in flight, or at most {@code maxMillis} (so a stream of them cannot starve the rest). */
    synchronized void awaitQuiet(long maxMillis) {
        long deadline = System.nanoTime() + maxMillis * 1_000_000;
        try {
            while (inFlight > 0) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return;
                }
                wait(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
