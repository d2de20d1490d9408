package dev.schemabrain.mcp.tools;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.store.QueryLogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;

import java.util.Optional;

/** Where get_example_queries reads mined statements: the store {@code mine-queries} wrote, or nowhere. */
@FunctionalInterface
public interface ExampleQueries {

    /** A server without a store to read examples from: every answer is "not mined yet". */
    ExampleQueries NONE = (table, column, limit) -> Optional.empty();

    /**
     * The SELECT examples touching {@code table} (or its {@code column}, when not null), most observed first;
     * empty when the query log was never mined into the store.
     */
    Optional<QueryLogRepository.Page> find(QualifiedName table, String column, int limit) throws StoreException;

    /** Reads {@code location} on each call (a short read; the store may be re-mined while serving). */
    static ExampleQueries in(StoreLocation location) {
        return (table, column, limit) -> {
            if (!Stores.exists(location)) {
                return Optional.empty();
            }
            try (Store store = Stores.open(location)) {
                return store.read(c -> QueryLogRepository.mined(c)
                        ? Optional.of(QueryLogRepository.examples(c, table, column, limit)) : Optional.empty());
            }
        };
    }
}
