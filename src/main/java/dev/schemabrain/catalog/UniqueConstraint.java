package dev.schemabrain.catalog;

import java.util.List;

/** A unique constraint or unique index over one or more columns. */
public record UniqueConstraint(String name, List<String> columns) {

    public UniqueConstraint {
        columns = List.copyOf(columns);
    }
}
