package dev.schemabrain.source.mysql;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One table while the catalog queries fill it in; rows arrive ordered, so lists keep their
 * arrival order (ordinal position, key position).
 */
final class TableDraft {

    /** A multi-column key collected one KEY_COLUMN_USAGE row at a time. */
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

    TableDraft(QualifiedName name, TableKind kind, Long rowEstimate, String comment, String dataVersion) {
        this.name = name;
        this.kind = kind;
        this.rowEstimate = rowEstimate;
        this.comment = comment;
        this.dataVersion = dataVersion;
    }

    void addColumn(Column column) {
        columns.add(column);
    }

    void addPrimaryKeyColumn(String column) {
        primaryKey.add(column);
    }

    void addUniqueColumn(String constraint, String column) {
        uniques.computeIfAbsent(constraint, k -> new ArrayList<>()).add(column);
    }

    void addForeignKeyColumn(String constraint, String column, QualifiedName target, String targetColumn) {
        KeyDraft key = foreignKeys.computeIfAbsent(constraint,
                k -> new KeyDraft(target, new ArrayList<>(), new ArrayList<>()));
        key.columns().add(column);
        key.targetColumns().add(targetColumn);
    }

    Table build() {
        List<ForeignKey> fks = new ArrayList<>();
        foreignKeys.forEach((fkName, key) -> fks.add(new ForeignKey(fkName, key.columns(), key.target(), key.targetColumns())));
        List<UniqueConstraint> uqs = new ArrayList<>();
        uniques.forEach((ucName, cols) -> uqs.add(new UniqueConstraint(ucName, cols)));
        return new Table(name, kind, rowEstimate, comment, columns, primaryKey, fks, uqs, dataVersion);
    }
}
