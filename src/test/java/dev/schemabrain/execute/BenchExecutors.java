package dev.schemabrain.execute;

import dev.schemabrain.engine.SourceUrl;

/** Executors for figures that compare with the unpooled executor (a new connection per call, as before the pool). */
public final class BenchExecutors {

    private BenchExecutors() {
    }

    public static QueryExecutor newConnectionPerCall(SourceUrl url, ExecutorSettings settings) {
        return new QueryExecutor(url, settings, 0);
    }
}
