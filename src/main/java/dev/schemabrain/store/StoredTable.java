package dev.schemabrain.store;

import dev.schemabrain.catalog.Table;

import java.time.Instant;
import java.util.Map;

/**
 * A table as the store holds it: the catalog facts (live columns only) plus the fingerprints and
 * lifecycle that decide what a re-index must redo.
 *
 * @param columns every stored column by name, deprecated ones included
 */
public record StoredTable(long id, Table table, String structuralHash, String semanticHash,
                          Instant deprecatedAt, Map<String, StoredColumn> columns) {

    public StoredTable {
        columns = Map.copyOf(columns);
    }

    public boolean deprecated() {
        return deprecatedAt != null;
    }

    /** One stored column's identity, fingerprints and lifecycle. */
    public record StoredColumn(long id, String structuralHash, String semanticHash, Instant deprecatedAt) {
        public boolean deprecated() {
            return deprecatedAt != null;
        }
    }
}
