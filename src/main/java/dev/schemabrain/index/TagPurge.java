package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.describe.OfflineDescriber;
import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.Embedder;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.DocumentRepository;
import dev.schemabrain.store.PiiRepository;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Writing the operator's PII overrides purges what the tagged columns' values left in the store, in the
 * same transaction: the samples, the describer's sentences that quoted them, the table and column
 * documents (re-described from the catalog without them, re-embedded where their text changed) and the
 * semantic fingerprints computed from them. The next re-index then finds nothing to bring back, even
 * when the source's change token has not moved.
 */
public final class TagPurge {

    private final DocumentStage documents;

    public TagPurge(Supplier<Embedder> embedder, String modelId) {
        this.documents = new DocumentStage(new OfflineDescriber(new Words(WordVocabulary.get().words())), embedder, modelId);
    }

    /** Replaces the overrides and purges, with the shared embedding model; call inside {@code SqliteStore.write}. */
    public static void replaceOverrides(Connection c, Collection<PiiTags.Entry> overrides) throws SQLException {
        new TagPurge(Embedders::shared, Embedders.MODEL_ID).replace(c, overrides);
    }

    /** Answers the number of documents rewritten. */
    public int replace(Connection c, Collection<PiiTags.Entry> overrides) throws SQLException {
        PiiRepository.replaceOverrides(c, overrides);
        Set<QualifiedName> touched = overrides.stream().filter(e -> e.tag().tagged()).map(PiiTags.Entry::table)
                .collect(Collectors.toSet());
        int rewritten = 0;
        for (String sourceId : CatalogRepository.sourceIds(c)) {
            // The stored catalog already lacks the samples of every tagged column (classifier's and operator's).
            // A domain's labels stay in the store until the next index; the descriptions are made without them now.
            Catalog catalog = PiiRepository.tags(c).withoutTaggedSamples(CatalogRepository.catalog(c, sourceId));
            DocumentStage.Plan plan = documents.plan(catalog, DocumentRepository.state(c, sourceId), false);
            DocumentRepository.write(c, sourceId, plan.writes());
            rewritten += plan.writes().size();
            for (Table t : catalog.tables()) {
                if (touched.contains(t.name())) {
                    Fingerprints.TableHashes hashes = Fingerprints.of(t);
                    Map<String, String> columns = new LinkedHashMap<>();
                    hashes.columns().forEach((name, h) -> columns.put(name, h.semantic()));
                    CatalogRepository.updateSemanticHashes(c, sourceId, t.name(), hashes.table().semantic(), columns);
                }
            }
        }
        return rewritten;
    }
}
