package dev.schemabrain.sql.guard;

import dev.schemabrain.catalog.QualifiedName;

import java.util.Comparator;
import java.util.Objects;

/** One catalog column, spelled as the catalog spells it. */
public record ColumnRef(QualifiedName table, String column) implements Comparable<ColumnRef> {

    private static final Comparator<ColumnRef> ORDER =
            Comparator.comparing(ColumnRef::table).thenComparing(ColumnRef::column);

    public ColumnRef {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(column, "column");
    }

    @Override
    public int compareTo(ColumnRef other) {
        return ORDER.compare(this, other);
    }

    /** {@code table.column} without the schema, as tests and messages read it. */
    public String shortName() {
        return table.table() + "." + column;
    }

    @Override
    public String toString() {
        return table + "." + column;
    }
}
