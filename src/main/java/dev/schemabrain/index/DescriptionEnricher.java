package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.describe.Description;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.store.DocumentKey;
import dev.schemabrain.store.DocumentRepository.StoredDocument;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.StoreWork;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * The seam for descriptions better than the offline describer's (the LLM enricher): it
 * sees the catalog after PII classification and answers descriptions to lay over the offline ones,
 * plus the store work to commit with the run. It never fails a run.
 */
public interface DescriptionEnricher {

    /** What the enricher may look at; {@code piiColumns} holds {@code schema.table.column} of tagged columns. */
    record Input(String sourceId, Catalog catalog, Map<DocumentKey, StoredDocument> stored, Set<String> piiColumns,
                 StoreLocation store, boolean storeExisted, boolean dryRun, Instant startedAt) {
    }

    /**
     * @param stale tables whose earlier enriched descriptions no longer hold: what {@code descriptions} does
     *              not cover goes back to the offline describer (elsewhere an enricher's sentence is kept)
     */
    record Enrichment(Map<DocumentKey, Description> descriptions, Set<QualifiedName> stale, StoreWork<Void> write) {
        public static final Enrichment NONE = new Enrichment(Map.of(), Set.of(), c -> null);
    }

    /** Whether this run may ask a model: then an unchanged catalog token cannot skip the run. */
    boolean asks();

    Enrichment enrich(Input input) throws StoreException;

    DescriptionEnricher NONE = new DescriptionEnricher() {
        @Override
        public boolean asks() {
            return false;
        }

        @Override
        public Enrichment enrich(Input input) {
            return Enrichment.NONE;
        }
    };
}
