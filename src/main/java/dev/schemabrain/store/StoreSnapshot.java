package dev.schemabrain.store;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Every source of a store read as one: the schemas, the merged catalog (tables keep their own schema
 * names) and each table's and column's stored description and vector. When two sources hold the same
 * {@code schema.table}, the first source by id wins.
 */
public record StoreSnapshot(List<SchemaSummary> schemas, Catalog catalog, Map<QualifiedName, String> tableSources,
                            Map<DocumentKey, DocumentRepository.ServedDocument> documents) {

    private static final Logger LOG = LoggerFactory.getLogger(StoreSnapshot.class);

    /** The store as one, its documents without their vectors ({@link #embeddings} streams those). */
    public static StoreSnapshot read(Connection c) throws SQLException {
        return read(c, false);
    }

    /** As {@link #read(Connection)}, every document's vector included when {@code embeddings} (benchmarks). */
    public static StoreSnapshot read(Connection c, boolean embeddings) throws SQLException {
        List<SchemaSummary> schemas = CatalogRepository.schemas(c);
        List<Table> tables = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Map<QualifiedName, String> sources = new HashMap<>();
        Map<DocumentKey, DocumentRepository.ServedDocument> stored = new HashMap<>();
        for (String sourceId : sourceIds(schemas)) {
            for (DocumentRepository.ServedDocument d : DocumentRepository.served(c, sourceId, embeddings)) {
                stored.putIfAbsent(d.key(), d);
            }
            for (Table t : CatalogRepository.catalog(c, sourceId).tables()) {
                if (seen.add(t.name().toString())) {
                    tables.add(t);
                    sources.put(t.name(), sourceId);
                } else {
                    LOG.warn("{} is indexed from two sources; serving the one from the first source", t.name());
                }
            }
        }
        return new StoreSnapshot(schemas, new Catalog(tables), Map.copyOf(sources), stored);
    }

    /**
     * Every stored vector, source by source in the order {@link #read} merges them: where two sources hold the same
     * document, the first one's vector comes first (a sink keeps the first it gets, as the snapshot does).
     */
    public static void embeddings(Connection c, BiConsumer<DocumentKey, byte[]> sink) throws SQLException {
        for (String sourceId : sourceIds(CatalogRepository.schemas(c))) {
            DocumentRepository.embeddings(c, sourceId, sink);
        }
    }

    private static List<String> sourceIds(List<SchemaSummary> schemas) {
        return schemas.stream().map(SchemaSummary::sourceId).distinct().sorted().toList();
    }
}
