package dev.schemabrain.index;

import dev.schemabrain.store.CatalogChanges.RunCounts;

/** What an index run did, for the summary line and the benchmark. */
/**
 * What an index run did, for the summary line and the benchmark.
 *
 * @param loadMillis  reading the previous state from the store, which runs alongside introspection
 * @param totalMillis wall-clock time of the whole run
 */
public record IndexResult(String sourceId, String displayUrl, int tables, int columns, int foreignKeys,
                          RunCounts counts, int tablesPurged, long loadMillis, long introspectMillis, long diffMillis,
                          long writeMillis, long totalMillis, boolean dryRun) {
}
