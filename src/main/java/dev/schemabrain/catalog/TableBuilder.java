package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects one table's parts while catalog rows stream by (columns in ordinal order, key columns in
 * key order, one row per key column for multi-column keys), then freezes them into a {@link Table}.
 */
public final class TableBuilder {

    /** A multi-column foreign key collected one column at a time. */
    private record KeyDraft(QualifiedName target, List<String> columns, List<String> targetColumns) {
    }

    private final QualifiedName name;
    private final TableKind kind;
    private final Long rowEstimate;
    private final String comment;
    private final String dataVersion;
    private final List<Column> columns = new ArrayList<>();
    private final List<String> primaryKey = new ArrayList<>();
    private final Map<String, KeyDraft> foreignKeys = new LinkedHashMap<>();
    private final Map<String, List<String>> uniques = new LinkedHashMap<>();
    private final List<ForeignKey> wholeForeignKeys = new ArrayList<>();
    private final List<UniqueConstraint> wholeUniques = new ArrayList<>();

    public TableBuilder(QualifiedName name, TableKind kind, Long rowEstimate, String comment, String dataVersion) {
        this.name = name;
        this.kind = kind;
        this.rowEstimate = rowEstimate;
        this.comment = comment;
        this.dataVersion = dataVersion;
    }

    public QualifiedName name() {
        return name;
    }

    public TableKind kind() {
        return kind;
    }

    public void addColumn(Column column) {
        columns.add(column);
    }

    public void addPrimaryKeyColumn(String column) {
        primaryKey.add(column);
    }

    public void addUniqueColumn(String constraint, String column) {
        uniques.computeIfAbsent(constraint, k -> new ArrayList<>()).add(column);
    }

    public void addForeignKeyColumn(String constraint, String column, QualifiedName target, String targetColumn) {
        KeyDraft key = foreignKeys.computeIfAbsent(constraint, k -> new KeyDraft(target, new ArrayList<>(), new ArrayList<>()));
        key.columns().add(column);
        key.targetColumns().add(targetColumn);
    }

    /** Adds a whole foreign key unless one of the same shape is there (partitions each declare a copy). */
    public void addForeignKey(ForeignKey fk) {
        if (wholeForeignKeys.stream().noneMatch(fk::sameShape)) {
            wholeForeignKeys.add(fk);
        }
    }

    /** Adds a whole unique constraint (its name may be null). */
    public void addUnique(UniqueConstraint unique) {
        wholeUniques.add(unique);
    }

    public Table build() {
        List<ForeignKey> fks = new ArrayList<>(wholeForeignKeys);
        foreignKeys.forEach((fkName, key) -> fks.add(new ForeignKey(fkName, key.columns(), key.target(), key.targetColumns())));
        List<UniqueConstraint> uqs = new ArrayList<>(wholeUniques);
        uniques.forEach((ucName, cols) -> uqs.add(new UniqueConstraint(ucName, cols)));
        return new Table(name, kind, rowEstimate, comment, columns, primaryKey, fks, uqs, dataVersion);
    }
}
