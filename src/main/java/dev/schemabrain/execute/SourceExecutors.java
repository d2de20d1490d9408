package dev.schemabrain.execute;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The databases a server runs statements on: one executor (its own pool, lanes, read-only session and statement
 * timeout) per source of its store, by source id. A statement runs on the source its tables were indexed from.
 */
public final class SourceExecutors implements AutoCloseable {

    public static final SourceExecutors NONE = new SourceExecutors(List.of());

    private final Map<String, QueryExecutor> bySource = new LinkedHashMap<>();

    private SourceExecutors(List<QueryExecutor> executors) {
        executors.forEach(e -> bySource.put(e.sourceId(), e));
    }

    /** One executor per source; two for one source are refused by the caller before this is built. */
    public static SourceExecutors of(List<QueryExecutor> executors) {
        return executors.isEmpty() ? NONE : new SourceExecutors(executors);
    }

    public static SourceExecutors of(Optional<QueryExecutor> executor) {
        return of(executor.stream().toList());
    }

    public boolean isEmpty() {
        return bySource.isEmpty();
    }

    /** The executor of source {@code id}, if the server has a connection for it. */
    public Optional<QueryExecutor> forSource(String id) {
        return Optional.ofNullable(bySource.get(id));
    }

    /** The one executor of a server with exactly one source; empty with none or several. */
    public Optional<QueryExecutor> only() {
        return bySource.size() == 1 ? Optional.of(bySource.values().iterator().next()) : Optional.empty();
    }

    /** Every executor, in the order given. */
    public List<QueryExecutor> all() {
        return new ArrayList<>(bySource.values());
    }

    @Override
    public void close() {
        bySource.values().forEach(QueryExecutor::close);
    }
}
