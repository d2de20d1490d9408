package dev.schemabrain.catalog;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One table, view or materialized view as introspected.
 *
 * @param rowEstimate the engine's estimate, or null when it has none
 * @param dataVersion an engine token that changes when the table's rows change (null: unknown);
 *                    lets a re-index reuse the previous sample values instead of reading rows again
 */
public record Table(QualifiedName name, TableKind kind, Long rowEstimate, String comment,
                    List<Column> columns, List<String> primaryKey, List<ForeignKey> foreignKeys,
                    List<UniqueConstraint> uniqueConstraints, String dataVersion) {

    public Table {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        columns = List.copyOf(columns);
        primaryKey = primaryKey == null ? List.of() : List.copyOf(primaryKey);
        foreignKeys = foreignKeys == null ? List.of() : List.copyOf(foreignKeys);
        uniqueConstraints = uniqueConstraints == null ? List.of() : List.copyOf(uniqueConstraints);
    }

    public Optional<Column> column(String columnName) {
        return columns.stream().filter(c -> c.name().equals(columnName)).findFirst();
    }

    public boolean isPrimaryKey(String columnName) {
        return primaryKey.contains(columnName);
    }

    /**
     * A junction (M:N association) table: a primary key of at least two columns, every one of them
     * covered by a foreign key, and those foreign keys reaching at least two distinct tables.
     */
    public boolean isJunction() {
        if (primaryKey.size() < 2) {
            return false;
        }
        Set<String> covered = new HashSet<>();
        Set<QualifiedName> targets = new HashSet<>();
        for (ForeignKey fk : foreignKeys) {
            if (primaryKey.containsAll(fk.columns())) {
                covered.addAll(fk.columns());
                targets.add(fk.target());
            }
        }
        return covered.containsAll(primaryKey) && targets.size() >= 2;
    }

    /** Whether {@code columns} hold at most one row each: they include the primary key or a unique constraint. */
    public boolean isUnique(List<String> columns) {
        if (!primaryKey.isEmpty() && columns.containsAll(primaryKey)) {
            return true;
        }
        return uniqueConstraints.stream().anyMatch(uc -> !uc.columns().isEmpty() && columns.containsAll(uc.columns()));
    }

    public Table withColumns(List<Column> newColumns) {
        return new Table(name, kind, rowEstimate, comment, newColumns, primaryKey, foreignKeys, uniqueConstraints, dataVersion);
    }
}
