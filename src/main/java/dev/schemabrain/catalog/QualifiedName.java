package dev.schemabrain.catalog;

import java.util.Comparator;
import java.util.Objects;

/** A table's address: {@code schema.table}. Ordered by schema, then table. */
public record QualifiedName(String schema, String table) implements Comparable<QualifiedName> {

    private static final Comparator<QualifiedName> ORDER =
            Comparator.comparing(QualifiedName::schema).thenComparing(QualifiedName::table);

    public QualifiedName {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
    }

    public static QualifiedName of(String schema, String table) {
        return new QualifiedName(schema, table);
    }

    @Override
    public int compareTo(QualifiedName other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
