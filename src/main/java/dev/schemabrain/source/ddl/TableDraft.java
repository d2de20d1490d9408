package dev.schemabrain.source.ddl;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A table or view while the script is being read; {@link SchemaDraft} turns it into a catalog table. */
final class TableDraft {

    final QualifiedName name;
    TableKind kind;
    String comment;
    final List<ColumnDraft> columns = new ArrayList<>();
    final List<String> primaryKey = new ArrayList<>();
    final List<ForeignKeyDraft> foreignKeys = new ArrayList<>();
    final List<UniqueConstraint> uniqueConstraints = new ArrayList<>();
    /** PostgreSQL {@code INHERITS (...)}: parents whose columns come first. */
    final List<QualifiedName> inheritsFrom = new ArrayList<>();
    /** {@code PARTITION OF parent} or {@code ATTACH PARTITION}: folded into the parent at the end. */
    QualifiedName partitionOf;

    TableDraft(QualifiedName name, TableKind kind) {
        this.name = name;
        this.kind = kind;
    }

    Optional<ColumnDraft> column(String columnName) {
        return columns.stream().filter(c -> c.name.equals(columnName)).findFirst()
                .or(() -> columns.stream().filter(c -> c.name.equalsIgnoreCase(columnName)).findFirst());
    }

    /** Adds a column, or replaces one of the same name (a redefinition). */
    void putColumn(ColumnDraft column) {
        columns.removeIf(c -> c.name.equalsIgnoreCase(column.name));
        columns.add(column);
    }

    void setPrimaryKey(List<String> columnNames) {
        primaryKey.clear();
        primaryKey.addAll(columnNames);
    }

    void addUnique(String constraintName, List<String> columnNames) {
        UniqueConstraint unique = new UniqueConstraint(constraintName, columnNames);
        if (!uniqueConstraints.contains(unique)) {
            uniqueConstraints.add(unique);
        }
    }
}
