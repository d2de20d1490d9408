package dev.schemabrain.semantic.model;

import java.util.List;
import java.util.Objects;

/**
 * A condition on a column, {@code entity.column}; {@code value} is a String, Long, Double, Boolean or,
 * for in / not_in, a List of those; null for is_null / not_null.
 */
public record Filter(String column, FilterOp op, Object value) {

    public Filter {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(op, "op");
        if (value instanceof List<?> list) {
            value = List.copyOf(list);
        }
    }
}
