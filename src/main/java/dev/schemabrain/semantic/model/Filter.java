package dev.schemabrain.semantic.model;

import java.util.List;
import java.util.Objects;

/**
 * A condition on a column, {@code entity.column}: against a value, or against another column
 * ({@code otherColumn}, "shipped after the required date"). {@code value} is a String, Long, Double,
 * Boolean or, for in / not_in, a List of those; null for is_null / not_null and for a column comparison.
 */
public record Filter(String column, FilterOp op, Object value, String otherColumn) {

    public Filter {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(op, "op");
        if (value instanceof List<?> list) {
            value = List.copyOf(list);
        }
        if (otherColumn != null && (value != null || !op.comparesColumns())) {
            throw new IllegalArgumentException("a filter compares " + column + " with a value or, by eq, ne, lt, lte,"
                    + " gt or gte, with another column");
        }
    }

    public Filter(String column, FilterOp op, Object value) {
        this(column, op, value, null);
    }

    /** {@code column op otherColumn}. */
    public static Filter columns(String column, FilterOp op, String otherColumn) {
        return new Filter(column, op, null, Objects.requireNonNull(otherColumn, "otherColumn"));
    }

    public boolean comparesColumns() {
        return otherColumn != null;
    }
}
