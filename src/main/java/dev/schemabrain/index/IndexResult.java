package dev.schemabrain.index;

import dev.schemabrain.store.CatalogChanges.RunCounts;

/** What an index run did, for the summary line and the benchmark. */
public record IndexResult(String sourceId, String displayUrl, int tables, int columns, int foreignKeys,
                          RunCounts counts, int tablesPurged, long introspectMillis, long diffMillis,
                          long writeMillis, boolean dryRun) {

    public long totalMillis() {
        return introspectMillis + diffMillis + writeMillis;
    }
}
