package dev.schemabrain.store;

import dev.schemabrain.catalog.Catalog;
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

/**
 * Every source of a store read as one: the schemas, the merged catalog (tables keep their own schema
 * names) and each table's and column's stored description and vector. When two sources hold the same
 * {@code schema.table}, the first source by id wins.
 */
public record StoreSnapshot(List<SchemaSummary> schemas, Catalog catalog,
                            Map<DocumentKey, DocumentRepository.ServedDocument> documents) {

    private static final Logger LOG = LoggerFactory.getLogger(StoreSnapshot.class);

    public static StoreSnapshot read(Connection c) throws SQLException {
        List<SchemaSummary> schemas = CatalogRepository.schemas(c);
        List<Table> tables = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Map<DocumentKey, DocumentRepository.ServedDocument> stored = new HashMap<>();
        for (String sourceId : schemas.stream().map(SchemaSummary::sourceId).distinct().sorted().toList()) {
            for (DocumentRepository.ServedDocument d : DocumentRepository.served(c, sourceId)) {
                stored.putIfAbsent(d.key(), d);
            }
            for (Table t : CatalogRepository.catalog(c, sourceId).tables()) {
                if (seen.add(t.name().toString())) {
                    tables.add(t);
                } else {
                    LOG.warn("{} is indexed from two sources; serving the one from the first source", t.name());
                }
            }
        }
        return new StoreSnapshot(schemas, new Catalog(tables), stored);
    }
}
