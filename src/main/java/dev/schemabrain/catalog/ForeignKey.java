package dev.schemabrain.catalog;

import java.util.List;
import java.util.Objects;

/** A foreign key from columns of the owning table to columns of {@code target}. */
public record ForeignKey(String name, List<String> columns, QualifiedName target, List<String> targetColumns) {

    public ForeignKey {
        Objects.requireNonNull(target, "target");
        columns = List.copyOf(columns);
        targetColumns = List.copyOf(targetColumns);
        if (columns.isEmpty() || columns.size() != targetColumns.size()) {
            throw new IllegalArgumentException("foreign key " + name + " needs matching, non-empty column lists");
        }
    }

    /** Same columns and target, whatever the constraint is called (partitions name theirs differently). */
    public boolean sameShape(ForeignKey other) {
        return columns.equals(other.columns) && target.equals(other.target) && targetColumns.equals(other.targetColumns);
    }
}
