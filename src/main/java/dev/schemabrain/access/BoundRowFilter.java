package dev.schemabrain.access;

import java.util.List;

/** A role's row filter with the caller's claim values, ready to bind as parameters (one for EQ). */
public record BoundRowFilter(RowFilter filter, List<String> values) {

    public BoundRowFilter {
        values = List.copyOf(values);
    }
}
