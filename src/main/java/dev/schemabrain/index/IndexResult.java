package dev.schemabrain.index;

import dev.schemabrain.store.CatalogChanges.RunCounts;

/**
 * What an index run did, for the summary line and the benchmark.
 *
 * @param piiColumns  columns the classifier tagged
 * @param loadMillis  reading the previous state from the store, which runs alongside introspection
 * @param totalMillis wall-clock time of the whole run
 */
public record IndexResult(String sourceId, String displayUrl, int tables, int columns, int foreignKeys,
                          int piiColumns, RunCounts counts, int tablesPurged, long loadMillis, long introspectMillis, long diffMillis,
                          Documents documents, long writeMillis, long totalMillis, boolean dryRun) {

    /**
     * Descriptions and embeddings of the run.
     *
     * @param described documents whose description or embedded text changed (or would, on a dry run)
     * @param embedded  documents whose text changed and were embedded (a dry run embeds nothing)
     * @param texts     distinct texts among them: identical texts share a vector
     * @param reused    texts whose vector was taken from another stored document of the source; the model ran on
     *                  {@code texts - reused}
     */
    public record Documents(int described, int embedded, int texts, int reused, long describeMillis, long embedMillis) {
        public static final Documents NONE = new Documents(0, 0, 0, 0, 0, 0);
    }
}
