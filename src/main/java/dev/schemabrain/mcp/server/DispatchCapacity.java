package dev.schemabrain.mcp.server;

/**
 * How many tool calls run and wait at once, per lane. Catalog tools (answered from the in-memory
 * store) and source tools (get_metric) have separate threads, so a flood of one never queues the other.
 *
 * @param catalogThreads threads answering catalog tools
 * @param catalogQueue   catalog calls waiting; past it the call runs on the reader (which then reads no
 *                       more input until it is done: backpressure, never a refusal)
 * @param sourceThreads  source calls running at once
 * @param sourceQueue    source calls waiting; past it a call is answered source_busy at once
 */
public record DispatchCapacity(int catalogThreads, int catalogQueue, int sourceThreads, int sourceQueue) {

    /**
     * More waiting catalog calls than the SDK ever has in flight on one session (it subscribes to at most
     * 256 requests at a time), so over stdio the catalog lane never pushes back.
     */
    static final int CATALOG_QUEUE = 1_024;

    public DispatchCapacity {
        if (catalogThreads < 1 || catalogQueue < 1 || sourceThreads < 1 || sourceQueue < 0) {
            throw new IllegalArgumentException("dispatch capacities must be positive");
        }
    }

    /**
     * Derived from {@code --max-concurrent-queries N}: N source threads (one more would only wait for the
     * executor's slot), 2N waiting (a queued call starts after at most two statements per slot ahead of it;
     * a caller past that is better told source_busy at once than kept waiting seconds), and catalog threads
     * four per core, at least 16: catalog work is CPU (retrieval, JSON), but each call then waits for the
     * fsync of its audit row, and the rows of all threads waiting share one fsync; with a thread per core
     * the lane answered at most (threads / fsync time) calls a second, whatever the cores could do.
     */
    public static DispatchCapacity forMaxConcurrentQueries(int maxConcurrentQueries) {
        if (maxConcurrentQueries < 1) {
            throw new IllegalArgumentException("--max-concurrent-queries must be at least 1");
        }
        int cores = Runtime.getRuntime().availableProcessors();
        return new DispatchCapacity(Math.max(16, 4 * cores), CATALOG_QUEUE, maxConcurrentQueries, 2 * maxConcurrentQueries);
    }
}
