package dev.schemabrain.semantic.model;

import java.util.Objects;

/** One equality of a join condition: a column of the source side = a column of the target side. */
public record ColumnPair(String source, String target) {

    public ColumnPair {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
    }

    public ColumnPair swapped() {
        return new ColumnPair(target, source);
    }
}
